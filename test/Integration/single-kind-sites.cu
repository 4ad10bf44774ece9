// Sites with only inputs, only outputs and only mod operands, and a site
// whose output is never used: asm volatile keeps every one of them.
// REQUIRES: nvcc, ptxas
// RUN: %nvcc -ptx -arch=sm_80 -DMACRO_FORM -I%mmptx_include -I%mmptx_gen_include %s -o %t.macro.ptx
// RUN: FileCheck %s < %t.macro.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.ptx -o %t.macro.cubin
// RUN: mmptx-annotate %s -o %t.cu
// RUN: %nvcc -ptx -arch=sm_80 %t.cu -o %t.comment.ptx
// RUN: FileCheck %s < %t.comment.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.ptx -o %t.comment.cubin
// RUN: mmptx-opt %t.macro.ptx --inject in_only=%S/Inputs/in-only.stub.ptx --inject out_only=%S/Inputs/out-only.stub.ptx --inject mod_only=%S/Inputs/mod-only.stub.ptx --inject dead_out=%S/Inputs/dead-out.stub.ptx -o %t.macro.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.macro.r.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.r.ptx -o %t.macro.r.cubin
// RUN: mmptx-opt %t.comment.ptx --inject in_only=%S/Inputs/in-only.stub.ptx --inject out_only=%S/Inputs/out-only.stub.ptx --inject mod_only=%S/Inputs/mod-only.stub.ptx --inject dead_out=%S/Inputs/dead-out.stub.ptx -o %t.comment.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.comment.r.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.r.ptx -o %t.comment.r.cubin

#ifdef MACRO_FORM
#include "mmptx/cuda/ptx_inject.h"
#endif

__global__ void kinds(float *p, unsigned *u) {
  float x = p[0], r, dead;
  unsigned v = u[0];
#ifdef MACRO_FORM
  PTX_INJECT("in_only", PTX_IN(F32, x));
  PTX_INJECT("out_only", PTX_OUT(F32, r));
  PTX_INJECT("mod_only", PTX_MOD(U32, v));
  PTX_INJECT("dead_out", PTX_OUT(F32, dead));
#else
  /* PTX_INJECT in_only
     in f32 x
  */
  /* PTX_INJECT out_only
     out f32 r
  */
  /* PTX_INJECT mod_only
     mod u32 v
  */
  /* PTX_INJECT dead_out
     out f32 dead
  */
#endif
  p[1] = r;
  u[1] = v;
}

// CHECK-LABEL: .entry _Z5kinds
// CHECK:      // begin inline asm
// CHECK-NEXT: {
// CHECK-NEXT: .reg .f32 %_x0;
// CHECK-NEXT: mov.f32 %_x0, {{%f[0-9]+}};
// CHECK-NEXT: // MMPTX_INJECT_BEGIN in_only 1
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 in f32 F32 x
// CHECK-NEXT: // MMPTX_INJECT_END in_only
// CHECK-NEXT: }
// CHECK:      // begin inline asm
// CHECK-NEXT: {
// CHECK-NEXT: .reg .f32 %_x0;
// CHECK-NEXT: // MMPTX_INJECT_BEGIN out_only 1
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 out f32 F32 r
// CHECK-NEXT: // MMPTX_INJECT_END out_only
// CHECK-NEXT: mov.f32 {{%f[0-9]+}}, %_x0;
// CHECK-NEXT: }
// CHECK:      // begin inline asm
// CHECK-NEXT: {
// CHECK-NEXT: .reg .u32 %_x0;
// CHECK-NEXT: mov.u32 %_x0, [[V:%r[0-9]+]];
// CHECK-NEXT: // MMPTX_INJECT_BEGIN mod_only 1
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 mod u32 U32 v
// CHECK-NEXT: // MMPTX_INJECT_END mod_only
// CHECK-NEXT: mov.u32 [[V]], %_x0;
// CHECK-NEXT: }
// CHECK:      // MMPTX_INJECT_BEGIN dead_out 1
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 out f32 F32 dead
// CHECK-NEXT: // MMPTX_INJECT_END dead_out

// RENDER-NOT: MMPTX_INJECT
// RENDER: // reads %_x0 only
// RENDER: mov.f32 %_x0, 0f3F800000;
// RENDER: add.u32 %_x0, %_x0, 1;
// RENDER: mov.f32 %_x0, 0f00000000;
// RENDER-NOT: MMPTX_INJECT
