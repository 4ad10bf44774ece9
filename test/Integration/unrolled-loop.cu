// A site in a fully unrolled loop: four copies with the same stable
// registers, one inject; one stub renders all four.
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
// RUN: mmptx-opt %t.macro.ptx --inject body=%S/Inputs/body.stub.ptx -o %t.macro.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.macro.r.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.r.ptx -o %t.macro.r.cubin
// RUN: mmptx-opt %t.comment.ptx --inject body=%S/Inputs/body.stub.ptx -o %t.comment.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.comment.r.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.r.ptx -o %t.comment.r.cubin

#ifdef MACRO_FORM
#include "mmptx/cuda/ptx_inject.h"
#endif

__global__ void unrolled(float *p) {
  float acc = 0.f;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float v = p[i];
#ifdef MACRO_FORM
    PTX_INJECT("body", PTX_MOD(F32, acc), PTX_IN(F32, v));
#else
    /* PTX_INJECT body
       mod f32 acc
       in  f32 v
    */
#endif
  }
  p[0] = acc;
}

// CHECK-LABEL: .entry _Z8unrolledPf(
// CHECK-COUNT-4: mov.f32 %_x0, {{%f[0-9]+}};
// CHECK-NEXT: mov.f32 %_x1, {{%f[0-9]+}};
// CHECK-NEXT: // MMPTX_INJECT_BEGIN body 2
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 mod f32 F32 acc
// CHECK-NEXT: // MMPTX_INJECT_ARG 1 in f32 F32 v
// CHECK-NEXT: // MMPTX_INJECT_END body
// CHECK-NEXT: mov.f32 {{%f[0-9]+}}, %_x0;
// CHECK-NOT: MMPTX_INJECT_BEGIN

// LIST: 1 inject, 4 sites
// LIST: inject 0 'body': 4 sites, 2 variables

// RENDER-NOT: MMPTX_INJECT
// RENDER-COUNT-4: add.f32 %_x0, %_x0, %_x1;
// RENDER-NOT: MMPTX_INJECT
