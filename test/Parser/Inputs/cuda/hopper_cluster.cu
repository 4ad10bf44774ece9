// NVCC_FLAGS: -arch=sm_90a -lineinfo
// Hopper cluster forms: distributed shared memory, cluster barriers,
// cuda::barrier (mbarrier with shared::cta), cuda::ptx wrappers, a CUB warp
// reduction; -lineinfo adds .loc lines with inlined_at.
#include <cooperative_groups.h>
#include <cub/cub.cuh>
#include <cuda/barrier>
#include <cuda/ptx>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) cluster_sum(const int *in, int *out) {
  __shared__ int s[128];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ typename cub::WarpReduce<int>::TempStorage wt[4];
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  cluster.sync();
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  bar.arrive_and_wait();
  int *peer = cluster.map_shared_rank(s, (cluster.block_rank() + 1) % 2);
  int v = peer[threadIdx.x];
  cluster.sync();
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  int w = cub::WarpReduce<int>(wt[threadIdx.x / 32]).Sum(v);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, w);
}
