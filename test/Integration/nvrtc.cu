// The device header and annotated sources compile under NVRTC in-process
// (__CUDACC_RTC__: no host headers), giving the same markers as nvcc.
// REQUIRES: nvrtc, ptxas
// RUN: mmptx-nvrtc -arch=sm_80 -DMACRO_FORM -I%mmptx_include -I%mmptx_gen_include %s -o %t.macro.ptx
// RUN: FileCheck %s < %t.macro.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.ptx -o %t.macro.cubin
// RUN: mmptx-annotate %s -o %t.cu
// RUN: mmptx-nvrtc -arch=sm_80 %t.cu -o %t.comment.ptx
// RUN: FileCheck %s < %t.comment.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.ptx -o %t.comment.cubin
// RUN: mmptx-opt %t.macro.ptx --inject step=%S/Inputs/nvrtc.stub.ptx -o %t.macro.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.macro.r.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.r.ptx -o %t.macro.r.cubin
// RUN: mmptx-opt %t.comment.ptx --inject step=%S/Inputs/nvrtc.stub.ptx -o %t.comment.r.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.r.ptx -o %t.comment.r.cubin
// A source that does not compile reports NVRTC's log and fails.
// RUN: not mmptx-nvrtc %s -DBROKEN -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=BROKEN

#include <cuda_fp16.h>
#ifdef MACRO_FORM
#include "mmptx/cuda/ptx_inject.h"
#endif

extern "C" __global__ void step(float *p, __half *h) {
  float acc = p[0];
  __half g = h[0];
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    float v = p[i + 1];
#ifdef MACRO_FORM
    PTX_INJECT("step", PTX_MOD(F32, acc), PTX_IN(F32, v), PTX_MOD(F16, g));
#else
    /* PTX_INJECT step
       mod f32 acc
       in  f32 v
       mod f16 g
    */
#endif
  }
  p[0] = acc;
  h[0] = g;
#ifdef BROKEN
  not_declared = 1;
#endif
}

// CHECK-LABEL: .entry step(
// CHECK-COUNT-2: // MMPTX_INJECT_BEGIN step 3
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 mod f32 F32 acc
// CHECK-NEXT: // MMPTX_INJECT_ARG 1 in f32 F32 v
// CHECK-NEXT: // MMPTX_INJECT_ARG 2 mod b16 F16 g
// CHECK-NEXT: // MMPTX_INJECT_END step
// CHECK-NOT: MMPTX_INJECT_BEGIN

// RENDER-COUNT-2: add.f32 %_x0, %_x0, %_x1;

// BROKEN: mmptx-nvrtc: error: compiling '{{.*}}nvrtc.cu' failed: NVRTC_ERROR_COMPILATION
// BROKEN: nvrtc.cu:43: error: identifier "not_declared" is undefined
