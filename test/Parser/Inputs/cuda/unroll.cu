// Fully and partially unrolled loops.
extern "C" __global__ void dot8(const float *a, const float *b, float *out) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  float acc = 0.f;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    acc += a[base + k] * b[base + k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

extern "C" __global__ void poly(int n, const float *x, float *y,
                                int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i], r = 0.f;
#pragma unroll 4
  for (int k = 0; k < iters; ++k)
    r = r * v + (float)k;
#pragma unroll 1
  for (int k = 0; k < iters; ++k)
    r = r * 0.5f + 1.0f;
  y[i] = r;
}
