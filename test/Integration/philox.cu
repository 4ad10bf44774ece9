// PTX_PHILOX(state) passes the six words of a curandStatePhilox4_32_10:
// key.x, key.y (in), ctr.x (mod), ctr.y/z/w (in). The comment form lists
// them by hand, so its labels are the expressions.
// REQUIRES: nvcc, ptxas
// RUN: %nvcc -ptx -arch=sm_80 -DMACRO_FORM -I%mmptx_include -I%mmptx_gen_include %s -o %t.macro.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,MACRO < %t.macro.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.ptx -o %t.macro.cubin
// RUN: mmptx-annotate %s -o %t.cu
// RUN: %nvcc -ptx -arch=sm_80 %t.cu -o %t.comment.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,COMMENT < %t.comment.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.ptx -o %t.comment.cubin
// RUN: mmptx-opt %t.macro.ptx --inject rng=%S/Inputs/philox.stub.ptx -o %t.macro.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.macro.r.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.r.ptx -o %t.macro.r.cubin
// RUN: mmptx-opt %t.comment.ptx --inject rng=%S/Inputs/philox.stub.ptx -o %t.comment.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.comment.r.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.r.ptx -o %t.comment.r.cubin

#include <curand_kernel.h>
#ifdef MACRO_FORM
#include "mmptx/cuda/ptx_inject.h"
#endif

__global__ void rng(curandStatePhilox4_32_10 *states, float *out) {
  curandStatePhilox4_32_10 s = states[threadIdx.x];
  float r;
#ifdef MACRO_FORM
  PTX_INJECT("rng", PTX_PHILOX(s), PTX_OUT(F32, r));
#else
  /* PTX_INJECT rng
     in  philox s.key.x
     in  philox s.key.y
     mod philox s.ctr.x
     in  philox s.ctr.y
     in  philox s.ctr.z
     in  philox s.ctr.w
     out f32    r
  */
#endif
  states[threadIdx.x] = s;
  out[threadIdx.x] = r;
}

// CHECK-LABEL: .entry _Z3rng
// CHECK:      // MMPTX_INJECT_BEGIN rng 7
// MACRO-NEXT: // MMPTX_INJECT_ARG 0 in u32 PHILOX philox_key_x
// MACRO-NEXT: // MMPTX_INJECT_ARG 1 in u32 PHILOX philox_key_y
// MACRO-NEXT: // MMPTX_INJECT_ARG 2 mod u32 PHILOX philox_ctr_x
// MACRO-NEXT: // MMPTX_INJECT_ARG 3 in u32 PHILOX philox_ctr_y
// MACRO-NEXT: // MMPTX_INJECT_ARG 4 in u32 PHILOX philox_ctr_z
// MACRO-NEXT: // MMPTX_INJECT_ARG 5 in u32 PHILOX philox_ctr_w
// COMMENT-NEXT: // MMPTX_INJECT_ARG 0 in u32 PHILOX s.key.x
// COMMENT-NEXT: // MMPTX_INJECT_ARG 1 in u32 PHILOX s.key.y
// COMMENT-NEXT: // MMPTX_INJECT_ARG 2 mod u32 PHILOX s.ctr.x
// COMMENT-NEXT: // MMPTX_INJECT_ARG 3 in u32 PHILOX s.ctr.y
// COMMENT-NEXT: // MMPTX_INJECT_ARG 4 in u32 PHILOX s.ctr.z
// COMMENT-NEXT: // MMPTX_INJECT_ARG 5 in u32 PHILOX s.ctr.w
// CHECK-NEXT: // MMPTX_INJECT_ARG 6 out f32 F32 r
// CHECK-NEXT: // MMPTX_INJECT_END rng
// CHECK-NEXT: mov.u32 {{%r[0-9]+}}, %_x2;
// CHECK-NEXT: mov.f32 {{%f[0-9]+}}, %_x6;

// RENDER: add.u32 %_x2, %_x2, %_x0;
// RENDER-NEXT: cvt.rn.f32.u32 %_x6, %_x3;
