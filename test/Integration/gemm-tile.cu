// A GEMM-like kernel whose 16x16 register tile is fully unrolled: 256 copies
// of one multiply-add site, all rendered with one stub.
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
// RUN: mmptx-opt %t.macro.ptx --inject mma=%S/Inputs/fma.stub.ptx -o %t.macro.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.macro.r.ptx
// RUN: %ptxas -arch=sm_80 %t.macro.r.ptx -o %t.macro.r.cubin
// RUN: mmptx-opt %t.comment.ptx --inject mma=%S/Inputs/fma.stub.ptx -o %t.comment.r.ptx
// RUN: FileCheck %s --check-prefix=RENDER < %t.comment.r.ptx
// RUN: %ptxas -arch=sm_80 %t.comment.r.ptx -o %t.comment.r.cubin

#ifdef MACRO_FORM
#include "mmptx/cuda/ptx_inject.h"
#endif

#define TM 16
#define TN 16

// C[M x N] = A[K x M]^T * B[K x N], one 16x16 tile per thread.
__global__ void gemm(const float *A, const float *B, float *C, int K, int M,
                     int N) {
  int row0 = (blockIdx.y * blockDim.y + threadIdx.y) * TM;
  int col0 = (blockIdx.x * blockDim.x + threadIdx.x) * TN;
  float c[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j)
      c[i][j] = 0.f;
  for (int k = 0; k < K; ++k) {
    float a[TM], b[TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
      a[i] = A[k * M + row0 + i];
#pragma unroll
    for (int j = 0; j < TN; ++j)
      b[j] = B[k * N + col0 + j];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TN; ++j) {
#ifdef MACRO_FORM
        PTX_INJECT("mma", PTX_MOD(F32, c[i][j]), PTX_IN(F32, a[i]),
                   PTX_IN(F32, b[j]));
#else
        /* PTX_INJECT mma
           mod f32 c[i][j]
           in  f32 a[i]
           in  f32 b[j]
        */
#endif
      }
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j)
      C[(row0 + i) * N + col0 + j] = c[i][j];
}

// CHECK-LABEL: .entry _Z4gemmPKfS0_Pfiii(
// CHECK-COUNT-256: // MMPTX_INJECT_BEGIN mma 3
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 mod f32 F32 c[i][j]
// CHECK-NEXT: // MMPTX_INJECT_ARG 1 in f32 F32 a[i]
// CHECK-NEXT: // MMPTX_INJECT_ARG 2 in f32 F32 b[j]
// CHECK-NEXT: // MMPTX_INJECT_END mma
// CHECK-NOT: MMPTX_INJECT_BEGIN

// LIST: 1 inject, 256 sites
// LIST: inject 0 'mma': 256 sites, 3 variables

// RENDER-NOT: MMPTX_INJECT
// RENDER-COUNT-256: fma.rn.f32 %_x0, %_x1, %_x2, %_x0;
// RENDER-NOT: MMPTX_INJECT
