// f16, f16x2, bf16 and bf16x2 operands: 16-bit types use .b16 registers and
// the "h" constraint, pairs use .b32 and "r"; all bind through storage.
// REQUIRES: nvcc, ptxas
// RUN: %nvcc -ptx -arch=sm_80 -DMACRO_FORM -I%mmptx_include -I%mmptx_gen_include %s -o %t.macro.ptx
// RUN: FileCheck %s < %t.macro.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.ptx -o %t.macro.cubin
// RUN: mmptx-annotate %s -o %t.cu
// RUN: %nvcc -ptx -arch=sm_80 %t.cu -o %t.comment.ptx
// RUN: FileCheck %s < %t.comment.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.ptx -o %t.comment.cubin
// RUN: mmptx-opt %t.macro.ptx --inject half=%S/Inputs/half.stub.ptx -o %t.macro.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.macro.r.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.r.ptx -o %t.macro.r.cubin
// RUN: mmptx-opt %t.comment.ptx --inject half=%S/Inputs/half.stub.ptx -o %t.comment.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.comment.r.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.r.ptx -o %t.comment.r.cubin

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#ifdef MACRO_FORM
#include "mmptx/cuda/ptx_inject.h"
#endif

__global__ void halves(__half *h, __half2 *h2, __nv_bfloat16 *b,
                       __nv_bfloat162 *b2) {
  __half x = h[0];
  __half2 x2 = h2[0];
  __nv_bfloat16 y = b[0];
  __nv_bfloat162 y2;
#ifdef MACRO_FORM
  PTX_INJECT("half", PTX_MOD(F16, x), PTX_MOD(F16X2, x2), PTX_IN(BF16, y),
             PTX_OUT(BF16X2, y2));
#else
  /* PTX_INJECT half
     mod f16    x
     mod f16x2  x2
     in  bf16   y
     out bf16x2 y2
  */
#endif
  h[1] = x;
  h2[1] = x2;
  b2[1] = y2;
}

// CHECK-LABEL: .entry _Z6halves
// CHECK:      // begin inline asm
// CHECK-NEXT: {
// CHECK-NEXT: .reg .b16 %_x0;
// CHECK-NEXT: .reg .b32 %_x1;
// CHECK-NEXT: .reg .b16 %_x2;
// CHECK-NEXT: .reg .b32 %_x3;
// CHECK-NEXT: mov.b16 %_x0, {{%rs[0-9]+}};
// CHECK-NEXT: mov.b32 %_x1, {{%r[0-9]+}};
// CHECK-NEXT: mov.b16 %_x2, {{%rs[0-9]+}};
// CHECK-NEXT: // MMPTX_INJECT_BEGIN half 4
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 mod b16 F16 x
// CHECK-NEXT: // MMPTX_INJECT_ARG 1 mod b32 F16X2 x2
// CHECK-NEXT: // MMPTX_INJECT_ARG 2 in b16 BF16 y
// CHECK-NEXT: // MMPTX_INJECT_ARG 3 out b32 BF16X2 y2
// CHECK-NEXT: // MMPTX_INJECT_END half
// CHECK-NEXT: mov.b16 {{%rs[0-9]+}}, %_x0;
// CHECK-NEXT: mov.b32 {{%r[0-9]+}}, %_x1;
// CHECK-NEXT: mov.b32 {{%r[0-9]+}}, %_x3;
// CHECK-NEXT: }

// RENDER-NOT: MMPTX_INJECT
// RENDER: fma.rn.bf16x2 %_x3, %_x3, %_x3, %_x3;
