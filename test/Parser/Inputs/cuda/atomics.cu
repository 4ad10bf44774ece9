// Global and shared atomics: add (float/int), max, CAS loop, exch.
__device__ float atomicMulFloat(float *addr, float v) {
  int *p = (int *)addr;
  int old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __float_as_int(__int_as_float(assumed) * v));
  } while (assumed != old);
  return __int_as_float(old);
}

extern "C" __global__ void histo(const unsigned char *in, int n,
                                 unsigned *bins, float *total, float *prod,
                                 int *maxv, unsigned long long *cnt) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16)
    local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&local[in[i] & 15], 1u);
    atomicAdd(total, (float)in[i]);
    atomicMax(maxv, (int)in[i]);
    atomicMulFloat(prod, 1.0001f);
    atomicAdd(cnt, 1ull);
  }
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
  if (i == 0)
    atomicExch((int *)maxv + 1, 7);
}
