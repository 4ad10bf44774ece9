// A site in a device function inlined twice: two copies, one inject.
// REQUIRES: nvcc, ptxas
// RUN: %nvcc -ptx -arch=sm_80 -DMACRO_FORM -I%mmptx_include -I%mmptx_gen_include %s -o %t.macro.ptx
// RUN: FileCheck %s < %t.macro.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.ptx -o %t.macro.cubin
// RUN: mmptx-annotate %s -o %t.cu
// RUN: %nvcc -ptx -arch=sm_80 %t.cu -o %t.comment.ptx
// RUN: FileCheck %s < %t.comment.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.ptx -o %t.comment.cubin
// RUN: mmptx-opt %t.macro.ptx --list-injects | FileCheck %s --check-prefix=LIST
// RUN: mmptx-opt %t.comment.ptx --list-injects | FileCheck %s --check-prefix=LIST
// RUN: mmptx-opt %t.macro.ptx --inject op=%S/Inputs/op.stub.ptx -o %t.macro.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.macro.r.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.r.ptx -o %t.macro.r.cubin
// RUN: mmptx-opt %t.comment.ptx --inject op=%S/Inputs/op.stub.ptx -o %t.comment.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.comment.r.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.r.ptx -o %t.comment.r.cubin

#ifdef MACRO_FORM
#include "mmptx/cuda/ptx_inject.h"
#endif

__device__ __forceinline__ float op(float a, float b) {
  float r;
#ifdef MACRO_FORM
  PTX_INJECT("op", PTX_IN(F32, a), PTX_IN(F32, b), PTX_OUT(F32, r));
#else
  /* PTX_INJECT op
     in  f32 a
     in  f32 b
     out f32 r
  */
#endif
  return r;
}

__global__ void twice(float *p) { p[2] = op(p[0], p[1]) * op(p[1], p[0]); }

// CHECK-LABEL: .entry _Z5twicePf(
// CHECK-COUNT-2: // MMPTX_INJECT_BEGIN op 3
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 in f32 F32 a
// CHECK-NEXT: // MMPTX_INJECT_ARG 1 in f32 F32 b
// CHECK-NEXT: // MMPTX_INJECT_ARG 2 out f32 F32 r
// CHECK-NEXT: // MMPTX_INJECT_END op
// CHECK-NEXT: mov.f32 {{%f[0-9]+}}, %_x2;
// CHECK-NOT: MMPTX_INJECT_BEGIN

// LIST: 1 inject, 2 sites
// LIST: inject 0 'op': 2 sites, 3 variables

// RENDER-NOT: MMPTX_INJECT
// RENDER-COUNT-2: sub.f32 %_x2, %_x0, %_x1;
// RENDER-NOT: MMPTX_INJECT
