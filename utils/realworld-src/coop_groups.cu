// Cooperative groups: tiled partitions, reductions and scans, coalesced
// and labeled groups, grid-wide sync, and on sm_90 clusters with
// distributed shared memory, for the real-world PTX corpus.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

__global__ void tiles(const int *in, int *out) {
  auto block = cg::this_thread_block();
  auto tile32 = cg::tiled_partition<32>(block);
  auto tile8 = cg::tiled_partition<8>(tile32);
  int v = in[block.thread_rank()];
  int s = cg::reduce(tile32, v, cg::plus<int>());
  int m = cg::reduce(tile8, v, cg::greater<int>());
  int x = cg::exclusive_scan(tile32, v);
  int y = cg::inclusive_scan(tile8, v, cg::bit_xor<int>());
  v += tile32.shfl_down(v, 3) + tile8.shfl_xor(v, 1);
  bool all = tile32.all(v > 0), any = tile32.any(v < 0);
  unsigned ballot = tile32.ballot(v & 1);
  out[block.thread_rank()] = s + m + x + y + v + all + any + ballot;
}

__global__ void coalescedAndLabeled(float *data, const int *labels) {
  float v = data[threadIdx.x];
  if (v > 0.0f) {
    auto active = cg::coalesced_threads();
    float total = cg::reduce(active, v, cg::plus<float>());
    if (active.thread_rank() == 0)
      atomicAdd(&data[blockDim.x], total);
  }
  auto part = cg::labeled_partition(cg::tiled_partition<32>(cg::this_thread_block()),
                                    labels[threadIdx.x]);
  data[threadIdx.x] = cg::reduce(part, v, cg::less<float>());
}

__global__ void gridSync(float *data, int n) {
  auto grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size())
    data[i] *= 2.0f;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size())
    data[i] += data[n - 1 - i];
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__global__ void __cluster_dims__(2, 1, 1) clusterExchange(int *out) {
  __shared__ int smem[128];
  auto cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  smem[threadIdx.x] = rank * 1000 + threadIdx.x;
  cluster.sync();
  int *peer = cluster.map_shared_rank(smem, rank ^ 1);
  out[blockIdx.x * 128 + threadIdx.x] = peer[127 - threadIdx.x];
  cluster.sync();
}
#endif
