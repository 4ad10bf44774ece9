// Everyday device code: wmma tensor cores, atomics, warp intrinsics,
// precise math library calls, half/bf16/fp8 conversions, printf and assert,
// dynamic shared memory, launch bounds, for the real-world PTX corpus.
#include <cassert>
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <mma.h>

using namespace nvcuda;

__global__ void wmmaHalf(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < 64; k += 16) {
    wmma::load_matrix_sync(fa, a + k, 64);
    wmma::load_matrix_sync(fb, b + k, 64);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

__global__ void wmmaTf32Bf16(const float *a, const float *b, float *c,
                             const __nv_bfloat16 *p, const __nv_bfloat16 *q) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 16);
  for (int i = 0; i < fa.num_elements; ++i)
    fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  wmma::fill_fragment(fc, 1.0f);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> pa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> pb;
  wmma::load_matrix_sync(pa, p, 16);
  wmma::load_matrix_sync(pb, q, 16);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fd;
  wmma::fill_fragment(fd, 0.0f);
  wmma::mma_sync(fd, pa, pb, fd);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_col_major);
  wmma::store_matrix_sync(c + 256, fd, 16, wmma::mem_row_major);
}

__global__ void __launch_bounds__(256, 2)
atomics(int *i, unsigned long long *u, float *f, double *d, __half2 *h,
        __nv_bfloat16 *b) {
  int t = threadIdx.x;
  atomicAdd(i, t);
  atomicMax(i + 1, t);
  atomicCAS(i + 2, t, t + 1);
  atomicExch(i + 3, t);
  atomicAnd(i + 4, t);
  atomicInc(reinterpret_cast<unsigned *>(i + 5), 100u);
  atomicAdd(u, 1ull);
  atomicMin(u + 1, static_cast<unsigned long long>(t));
  atomicAdd(f, 1.5f);
  atomicAdd(d, 2.5);
  atomicAdd(h, __floats2half2_rn(1.0f, 2.0f));
  atomicAdd(b, __float2bfloat16(0.5f));
  atomicAdd_block(i + 6, 1);
  atomicAdd_system(i + 7, 1);
  __threadfence();
  __threadfence_system();
}

__global__ void warpIntrinsics(unsigned *out, const int *in) {
  int v = in[threadIdx.x];
  unsigned m = __activemask();
  unsigned b = __ballot_sync(m, v > 0);
  int s = __shfl_sync(m, v, 0) + __shfl_up_sync(m, v, 1) + __shfl_xor_sync(m, v, 4, 16);
  unsigned match = __match_any_sync(m, v);
  int pred;
  unsigned all = __match_all_sync(m, v, &pred);
  unsigned r = __reduce_add_sync(m, unsigned(v)) + __reduce_max_sync(m, unsigned(v));
  out[threadIdx.x] = b + s + match + all + pred + r + __popc(b) + __clz(v) + __brev(v) +
                     __ffs(v) + __funnelshift_l(v, b, 3) + __byte_perm(v, b, 0x3210) +
                     __vabsdiffu4(v, b) + __dp4a(v, int(b), 0);
  __nanosleep(100);
}

__global__ void mathLib(float *f, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = f[i];
  double y = d[i];
  float sf, cf;
  sincosf(x, &sf, &cf);
  f[i] = expf(x) + logf(x) + powf(x, 2.5f) + tanhf(x) + erfinvf(x) + sf * cf +
         __expf(x) + __fdividef(x, 3.0f) + rsqrtf(x) + lgammaf(x) + cbrtf(x) +
         fmodf(x, 1.7f) + atan2f(x, 0.3f) + normcdff(x) + j0f(x);
  d[i] = exp(y) + log1p(y) + pow(y, 1.5) + sin(y) + atan(y) + tgamma(y) +
         erfc(y) + sqrt(y) + rcbrt(y) + remainder(y, 2.0) + y / 3.0;
}

__global__ void lowPrecision(const float *in, __half *h, __nv_bfloat16 *b,
                             __nv_fp8_e4m3 *e4, __nv_fp8_e5m2 *e5, float *out) {
  int i = threadIdx.x;
  float x = in[i];
  __half hx = __float2half_rn(x);
  __half2 h2 = __halves2half2(hx, __hneg(hx));
  h2 = __hfma2(h2, h2, __float2half2_rn(1.0f));
  h2 = h2sqrt(__habs2(h2));
  h[i] = __hmax(__low2half(h2), __high2half(h2));
  __nv_bfloat162 b2 = __floats2bfloat162_rn(x, -x);
  b2 = __hfma2(b2, b2, b2);
  b[i] = __hadd(__low2bfloat16(b2), __high2bfloat16(b2));
  e4[i] = __nv_fp8_e4m3(x);
  e5[i] = __nv_fp8_e5m2(x * 2.0f);
  out[i] = float(e4[i]) + float(e5[i]) + __half2float(h[i]) + __bfloat162float(b[i]);
}

extern __shared__ float dynSmem[];
__global__ void printfAssert(const float *in, int n) {
  dynSmem[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  assert(n > 0);
  if (threadIdx.x == 0)
    printf("block %d: first %f last %f n=%d\n", blockIdx.x, dynSmem[0],
           dynSmem[blockDim.x - 1], n);
}

__global__ void inlineAsm(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x], lane, clk, r;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(clk));
  asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tselp.u32 %0, %1, 7, p;\n\t}"
      : "=r"(r) : "r"(v));
  asm volatile("prefetch.global.L2 [%0];" ::"l"(in + 32));
  out[threadIdx.x] = lane + clk + r;
}
