// A CuTe SIMT GEMM whose inner step and epilogue are inject sites.
//
// C (M x N) = A (M x K) "times" B (N x K), every matrix column-major (M- or
// N-major, the BLAS "NT" case). A 256-thread block computes a 64 x 64 tile of
// C: each k-tile of A and B (64 x 8 each) is copied into shared memory by
// cp.async (CuTe's SM80_CP_ASYNC_CACHEALWAYS copy atom, 8 bytes a thread),
// double-buffered so that the copy of tile t+1 overlaps the arithmetic on
// tile t. Each thread owns a 4 x 4 block of accumulators; the
// multiply-accumulate of one element is written out as the `mma` site and
// the final write of each element goes through the `epilogue` site, so every
// semiring (plus-times, L1, L2, max-plus, ...) is a pair of Stack PTX
// programs spliced into this one compiled kernel.
//
// M and N must be multiples of 64 and K a multiple of 8, with 8-byte aligned
// columns (ldA, ldB even); the grid is (M / 64, N / 64).
//
//   nvcc -ptx -arch=sm_80 -std=c++17 --expt-relaxed-constexpr \
//     -I <cutlass>/include -I <mmptx>/include -I <mmptx build>/include \
//     cute_gemm.cu -o cute_gemm.ptx
//   mmptx-opt cute_gemm.ptx --stub-gen mma=l1.stack \
//     --stub-gen epilogue=epilogue-identity.stack -o l1.ptx

#include <cute/tensor.hpp>

#include "mmptx/cuda/ptx_inject.h"

using namespace cute;

extern "C" __global__ void __launch_bounds__(256)
    cute_gemm(int m, int n, int k, const float *A, int ldA, const float *B,
              int ldB, float *C, int ldC) {
  auto bM = Int<64>{};
  auto bN = Int<64>{};
  auto bK = Int<8>{};
  auto bP = Int<2>{}; // shared-memory stages
  auto ctaTiler = make_shape(bM, bN, bK);

  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(m, k), make_stride(Int<1>{}, ldA));
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(n, k), make_stride(Int<1>{}, ldB));
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(m, n), make_stride(Int<1>{}, ldC));

  auto ctaCoord = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, ctaTiler, ctaCoord, Step<_1, X, _1>{}); // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, ctaTiler, ctaCoord, Step<X, _1, _1>{}); // (BLK_N,BLK_K,k)
  Tensor gC = local_tile(mC, ctaTiler, ctaCoord, Step<_1, _1, X>{}); // (BLK_M,BLK_N)

  __shared__ alignas(16) float smemA[64 * 8 * 2];
  __shared__ alignas(16) float smemB[64 * 8 * 2];
  Tensor sA = make_tensor(make_smem_ptr(smemA), make_layout(make_shape(bM, bK, bP))); // (BLK_M,BLK_K,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(smemB), make_layout(make_shape(bN, bK, bP))); // (BLK_N,BLK_K,PIPE)

  // Global -> shared: 32 x 8 threads, two consecutive floats each.
  auto copyAtom = Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint64_t>, float>{};
  TiledCopy copyA = make_tiled_copy(copyAtom, Layout<Shape<_32, _8>>{}, Layout<Shape<_2, _1>>{});
  TiledCopy copyB = make_tiled_copy(copyAtom, Layout<Shape<_32, _8>>{}, Layout<Shape<_2, _1>>{});
  ThrCopy thrCopyA = copyA.get_slice(threadIdx.x);
  ThrCopy thrCopyB = copyB.get_slice(threadIdx.x);
  Tensor tAgA = thrCopyA.partition_S(gA); // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thrCopyA.partition_D(sA); // (CPY,CPY_M,CPY_K,PIPE)
  Tensor tBgB = thrCopyB.partition_S(gB); // (CPY,CPY_N,CPY_K,k)
  Tensor tBsB = thrCopyB.partition_D(sB); // (CPY,CPY_N,CPY_K,PIPE)

  // Shared -> arithmetic: 16 x 16 threads, 4 x 4 elements of C each.
  auto tC = Layout<Shape<_16, _16>>{};
  Tensor tCsA = local_partition(sA, tC, threadIdx.x, Step<_1, X>{}); // (THR_M,BLK_K,PIPE)
  Tensor tCsB = local_partition(sB, tC, threadIdx.x, Step<X, _1>{}); // (THR_N,BLK_K,PIPE)
  Tensor tCgC = local_partition(gC, tC, threadIdx.x, Step<_1, _1>{}); // (THR_M,THR_N)
  Tensor tCrC = make_tensor_like(tCgC);
  clear(tCrC);

  int kTiles = size<3>(tAgA);
  copy(copyA, tAgA(_, _, _, 0), tAsA(_, _, _, 0));
  copy(copyB, tBgB(_, _, _, 0), tBsB(_, _, _, 0));
  cp_async_fence();
  for (int t = 0; t < kTiles; ++t) {
    int stage = t & 1;
    if (t + 1 < kTiles) {
      copy(copyA, tAgA(_, _, _, t + 1), tAsA(_, _, _, stage ^ 1));
      copy(copyB, tBgB(_, _, _, t + 1), tBsB(_, _, _, stage ^ 1));
    }
    cp_async_fence();
    cp_async_wait<1>(); // tile t has landed; tile t+1 may still be in flight
    __syncthreads();
    CUTE_UNROLL
    for (int kk = 0; kk < size<1>(tCsA); ++kk) {
      CUTE_UNROLL
      for (int i = 0; i < size<0>(tCrC); ++i) {
        CUTE_UNROLL
        for (int j = 0; j < size<1>(tCrC); ++j) {
          float a = tCsA(i, kk, stage);
          float b = tCsB(j, kk, stage);
          float acc = tCrC(i, j);
          PTX_INJECT("mma", PTX_IN(F32, a), PTX_IN(F32, b), PTX_MOD(F32, acc));
          tCrC(i, j) = acc;
        }
      }
    }
    __syncthreads(); // the stage is overwritten by the copy of tile t+2
  }

  CUTE_UNROLL
  for (int i = 0; i < size(tCrC); ++i) {
    float acc = tCrC(i);
    float out;
    PTX_INJECT("epilogue", PTX_IN(F32, acc), PTX_OUT(F32, out));
    tCgC(i) = out;
  }
}
