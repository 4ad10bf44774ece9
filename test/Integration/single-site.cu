// One site with in, mod and out operands, in both annotation forms.
// REQUIRES: nvcc, ptxas
// RUN: %nvcc -ptx -arch=sm_80 -DMACRO_FORM -I%mmptx_include -I%mmptx_gen_include %s -o %t.macro.ptx
// RUN: FileCheck %s < %t.macro.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.ptx -o %t.macro.cubin
// RUN: mmptx-annotate %s -o %t.cu
// RUN: %nvcc -ptx -arch=sm_80 %t.cu -o %t.comment.ptx
// RUN: FileCheck %s < %t.comment.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.ptx -o %t.comment.cubin
// Render both with a stub and assemble the result.
// RUN: mmptx-opt %t.macro.ptx --inject func=%S/Inputs/single.stub.ptx -o %t.macro.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.macro.r.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.r.ptx -o %t.macro.r.cubin
// RUN: mmptx-opt %t.comment.ptx --inject func=%S/Inputs/single.stub.ptx -o %t.comment.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.comment.r.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.r.ptx -o %t.comment.r.cubin

#ifdef MACRO_FORM
#include "mmptx/cuda/ptx_inject.h"
#endif

__global__ void single(float *p) {
  float x = p[0], y = p[1], z;
#ifdef MACRO_FORM
  PTX_INJECT("func", PTX_IN(F32, x), PTX_MOD(F32, y), PTX_OUT(F32, z));
#else
  /* PTX_INJECT func
     in  f32 x
     mod f32 y
     out f32 z
  */
#endif
  p[2] = y;
  p[3] = z;
}

// CHECK-LABEL: .entry _Z6singlePf(
// CHECK:      // begin inline asm
// CHECK-NEXT: {
// CHECK-NEXT: .reg .f32 %_x0;
// CHECK-NEXT: .reg .f32 %_x1;
// CHECK-NEXT: .reg .f32 %_x2;
// CHECK-NEXT: mov.f32 %_x0, [[X:%f[0-9]+]];
// CHECK-NEXT: mov.f32 %_x1, [[Y:%f[0-9]+]];
// CHECK-NEXT: // MMPTX_INJECT_BEGIN func 3
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 in f32 F32 x
// CHECK-NEXT: // MMPTX_INJECT_ARG 1 mod f32 F32 y
// CHECK-NEXT: // MMPTX_INJECT_ARG 2 out f32 F32 z
// CHECK-NEXT: // MMPTX_INJECT_END func
// CHECK-NEXT: mov.f32 [[Y]], %_x1;
// CHECK-NEXT: mov.f32 [[Z:%f[0-9]+]], %_x2;
// CHECK-NEXT: }
// CHECK-NEXT: // end inline asm

// RENDER-NOT: MMPTX_INJECT
// RENDER:      mov.f32 %_x1, {{%f[0-9]+}};
// RENDER-NEXT: add.f32 %_x2, %_x0, %_x1;
// RENDER-NEXT: mul.f32 %_x1, %_x1, %_x2;
// RENDER-NEXT: mov.f32 {{%f[0-9]+}}, %_x1;
// RENDER-NOT: MMPTX_INJECT
