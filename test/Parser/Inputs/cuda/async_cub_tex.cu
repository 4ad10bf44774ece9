// Asynchronous copies (cp.async, cuda::barrier, cuda::pipeline,
// memcpy_async), CUB and cooperative-groups reductions, and texture and
// surface fetches: the shapes of CCCL-based sm_80 kernels.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cub/cub.cuh>
namespace cg = cooperative_groups;
__global__ void k_async(const float *in, float *out, int n) {
  __shared__ float s[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, s, in + blockIdx.x * 256, sizeof(float) * 256, bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void k_pipe(const float *in, float *out) {
  __shared__ float s[2][128];
  auto pipe = cuda::make_pipeline();
  for (int st = 0; st < 2; ++st) {
    pipe.producer_acquire();
    cuda::memcpy_async(&s[st][threadIdx.x], in + st * 128 + threadIdx.x, sizeof(float), pipe);
    pipe.producer_commit();
  }
  pipe.consumer_wait();
  out[threadIdx.x] = s[0][threadIdx.x] + s[1][threadIdx.x];
  pipe.consumer_release();
}
__global__ void k_cub(const int *in, int *out) {
  typedef cub::WarpReduce<int> WR;
  typedef cub::BlockReduce<int, 128> BR;
  __shared__ typename WR::TempStorage wt[4];
  __shared__ typename BR::TempStorage bt;
  int v = in[threadIdx.x];
  int w = WR(wt[threadIdx.x / 32]).Sum(v);
  int b = BR(bt).Sum(v);
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int r = cg::reduce(tile, v, cg::plus<int>());
  if (threadIdx.x == 0) out[blockIdx.x] = w + b + r;
}
__global__ void k_tex(cudaTextureObject_t t, cudaSurfaceObject_t s, float *out, int x, int y) {
  float a = tex1Dfetch<float>(t, x);
  float b = tex2D<float>(t, x + 0.5f, y + 0.5f);
  float4 c = tex2D<float4>(t, x, y);
  surf2Dwrite(a + b + c.x, s, x * 4, y);
  float d; surf2Dread(&d, s, x * 4, y);
  out[x] = d;
}
__global__ void k_cpasync(const float4 *g, float *out) {
  __shared__ float4 s[128];
  __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = s[threadIdx.x].x;
}
