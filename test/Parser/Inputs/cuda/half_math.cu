// f16 / bf16 scalar and packed arithmetic.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void h2_axpy(int n, __half2 a, const __half2 *x,
                                   __half2 *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hfma2(a, x[i], y[i]);
}

extern "C" __global__ void mixed(int n, const __half *h, const __nv_bfloat16 *b,
                                 float *out, __nv_bfloat162 *b2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __half hv = __hmul(h[i], __float2half(1.5f));
  __nv_bfloat16 bv = __hadd(b[i], __float2bfloat16(0.25f));
  __nv_bfloat162 p = __halves2bfloat162(bv, bv);
  b2[i] = __hmul2(p, b2[i]);
  out[i] = __half2float(hv) + __bfloat162float(bv) +
           (__hlt(hv, __float2half(0.f)) ? -1.f : 1.f);
}
