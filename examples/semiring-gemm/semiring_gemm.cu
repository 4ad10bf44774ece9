// A tiled matrix product whose inner operation is an inject site: each
// variant (ordinary GEMM, L1/L2 distances, tropical max-plus) is a Stack PTX
// program spliced into the compiled PTX, not a recompilation.
//
// Annotated in the comment form; `mmptx-annotate` rewrites it into marker
// inline asm before nvcc sees it.

#define TILE 16

extern "C" __global__ void semiring_gemm(const float *A, const float *B,
                                         float *C, int n) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    as[threadIdx.y][threadIdx.x] =
        row < n && t + threadIdx.x < n ? A[row * n + t + threadIdx.x] : 0.0f;
    bs[threadIdx.y][threadIdx.x] =
        col < n && t + threadIdx.y < n ? B[(t + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) {
      float a = as[threadIdx.y][k];
      float b = bs[k][threadIdx.x];
      /* PTX_INJECT mma
         mod f32 acc
         in  f32 a
         in  f32 b
      */
    }
    __syncthreads();
  }
  float out;
  /* PTX_INJECT epilogue
     in  f32 acc
     out f32 out
  */
  if (row < n && col < n)
    C[row * n + col] = out;
}
