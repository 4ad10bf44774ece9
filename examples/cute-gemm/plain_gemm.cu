// The GEMM of cute_gemm.cu without CuTe: the same kernel signature, launch
// shape and inject sites, written in plain CUDA with comment-form sites (for
// machines without the CUTLASS headers, and as the quick test input of
// mmptx-example-cute-gemm, which annotates it first).
//
// C (M x N) = A (M x K) "times" B (N x K), column-major; a 256-thread block
// computes a 64 x 64 tile of C, each thread a 4 x 4 block of accumulators,
// folding k in order. M and N must be multiples of 64; the grid is
// (M / 64, N / 64).

extern "C" __global__ void __launch_bounds__(256)
    cute_gemm(int m, int n, int k, const float *A, int ldA, const float *B,
              int ldB, float *C, int ldC) {
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int row0 = blockIdx.x * 64 + tx, col0 = blockIdx.y * 64 + ty;
  float accs[4][4] = {};
  for (int kk = 0; kk < k; ++kk) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        float a = A[row0 + 16 * i + kk * ldA];
        float b = B[col0 + 16 * j + kk * ldB];
        float acc = accs[i][j];
        /* PTX_INJECT mma
           in  f32 a
           in  f32 b
           mod f32 acc
        */
        accs[i][j] = acc;
      }
    }
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      float acc = accs[i][j];
      float out;
      /* PTX_INJECT epilogue
         in  f32 acc
         out f32 out
      */
      C[row0 + 16 * i + (col0 + 16 * j) * ldC] = out;
    }
  }
}
