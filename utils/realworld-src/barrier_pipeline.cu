// cuda::barrier, cuda::pipeline, cuda::memcpy_async and the cooperative
// groups memcpy_async (cp.async, mbarrier, arrive/wait) for the real-world
// corpus. On sm_90 and newer also the bulk copies of cuda::ptx.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/ptx>

namespace cg = cooperative_groups;

__global__ void barrierCopy(const float *in, float *out, int n) {
  __shared__ alignas(16) float tile[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  for (int base = blockIdx.x * 256; base < n; base += gridDim.x * 256) {
    cuda::memcpy_async(block, tile, in + base, cuda::aligned_size_t<16>(sizeof(tile)), bar);
    bar.arrive_and_wait();
    out[base + threadIdx.x] = tile[threadIdx.x] * 2.0f;
    bar.arrive_and_wait();
  }
}

template <int Stages>
__global__ void pipelineCopy(const float4 *in, float4 *out, int tiles) {
  __shared__ float4 buf[Stages][128];
  auto block = cg::this_thread_block();
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, Stages> state;
  auto pipe = cuda::make_pipeline(block, &state);
  for (int s = 0; s < Stages && s < tiles; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, buf[s], in + s * 128, sizeof(buf[s]), pipe);
    pipe.producer_commit();
  }
  for (int t = 0; t < tiles; ++t) {
    pipe.consumer_wait();
    float4 v = buf[t % Stages][threadIdx.x];
    out[t * 128 + threadIdx.x] = make_float4(v.w, v.z, v.y, v.x);
    pipe.consumer_release();
    int next = t + Stages;
    if (next < tiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[next % Stages], in + next * 128, sizeof(buf[0]), pipe);
      pipe.producer_commit();
    }
  }
}
template __global__ void pipelineCopy<2>(const float4 *, float4 *, int);
template __global__ void pipelineCopy<4>(const float4 *, float4 *, int);

__global__ void threadPipeline(const int *in, int *out) {
  __shared__ int buf[2][128];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int s = 0; s < 2; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[s][threadIdx.x], in + s * 128 + threadIdx.x, sizeof(int), pipe);
    pipe.producer_commit();
  }
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  out[threadIdx.x] = buf[0][threadIdx.x] + buf[1][threadIdx.x];
}

__global__ void cgMemcpyAsync(const double *in, double *out) {
  __shared__ double tile[512];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * 512, sizeof(tile));
  cg::wait(block);
  out[blockIdx.x * 512 + threadIdx.x] = tile[511 - threadIdx.x];
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Bulk copy into shared memory completed through an mbarrier (TMA without a
// tensor map), the Hopper way.
__global__ void bulkCopy(const float *in, float *out) {
  __shared__ alignas(128) float tile[1024];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  __syncthreads();
  cuda::barrier<cuda::thread_scope_block>::arrival_token tok;
  if (threadIdx.x == 0) {
    cuda::memcpy_async(tile, in + blockIdx.x * 1024, cuda::aligned_size_t<16>(sizeof(tile)), bar);
    tok = bar.arrive();
  } else {
    tok = bar.arrive();
  }
  bar.wait(std::move(tok));
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    tile[i] *= 3.0f;
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                             out + blockIdx.x * 1024, tile, sizeof(tile));
    cuda::ptx::cp_async_bulk_commit_group();
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>());
  }
}
#endif
