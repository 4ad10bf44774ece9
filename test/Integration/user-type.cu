// Custom inject types from a user's own .td file (DOG: an f32 alias;
// HALF_BITS: raw 16-bit storage), through the same generated header for the
// macro form and for mmptx-annotate --types.
// REQUIRES: nvcc, ptxas
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: mmptx-tblgen -gen-inject-device-types -I %mmptx_src_root/td %S/../Annotate/Inputs/MyTypes.td -o %t.dir/MyTypes.h
// RUN: %nvcc -ptx -arch=sm_80 -DMACRO_FORM -I%t.dir -I%mmptx_include -I%mmptx_gen_include %s -o %t.macro.ptx
// RUN: FileCheck %s < %t.macro.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.ptx -o %t.macro.cubin
// RUN: mmptx-annotate --types %t.dir/MyTypes.h %s -o %t.cu
// RUN: %nvcc -ptx -arch=sm_80 %t.cu -o %t.comment.ptx
// RUN: FileCheck %s < %t.comment.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.ptx -o %t.comment.cubin
// mmptx-opt learns the user types from the same generated header; without it
// the type token is an error.
// RUN: not mmptx-opt %t.macro.ptx --list-injects 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: mmptx-opt --inject-types %t.dir/MyTypes.h %t.macro.ptx --list-injects | FileCheck %s --check-prefix=LIST
// RUN: mmptx-opt --inject-types %t.dir/MyTypes.h --normalize-injection-sites %t.comment.ptx --inject dog=%S/Inputs/dog.stub.ptx -o %t.rendered.ptx
// RUN: %ptxas -arch=sm_80 %t.rendered.ptx -o %t.rendered.cubin
// RUN: mmptx-opt --allow-unknown-inject-types %t.macro.ptx --inject dog=%S/Inputs/dog.stub.ptx -o %t.trusted.ptx
// RUN: %ptxas -arch=sm_80 %t.trusted.ptx -o %t.trusted.cubin
// UNKNOWN: error: unknown inject type 'DOG'
// LIST: dog
// LIST-DAG: DOG
// LIST-DAG: HALF_BITS

#include <cuda_fp16.h>
#ifdef MACRO_FORM
#include "MyTypes.h"
#include "mmptx/cuda/ptx_inject.h"
#endif

__global__ void dogs(float *p, __half *h) {
  float x = p[0], y;
  __half b = h[0];
#ifdef MACRO_FORM
  PTX_INJECT("dog", PTX_IN(DOG, x), PTX_OUT(DOG, y), PTX_MOD(HALF_BITS, b));
#else
  /* PTX_INJECT dog
     in  dog       x
     out DOG       y
     mod half_bits b
  */
#endif
  p[1] = y;
  h[1] = b;
}

// CHECK-LABEL: .entry _Z4dogs
// CHECK:      // MMPTX_INJECT_BEGIN dog 3
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 in f32 DOG x
// CHECK-NEXT: // MMPTX_INJECT_ARG 1 out f32 DOG y
// CHECK-NEXT: // MMPTX_INJECT_ARG 2 mod b16 HALF_BITS b
// CHECK-NEXT: // MMPTX_INJECT_END dog
