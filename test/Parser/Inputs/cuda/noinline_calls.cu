// Non-inlined device functions with params and return values (incl. struct).
struct Pair {
  float x;
  int y;
};

__device__ __noinline__ float scale_add(float a, float b, int k) {
  return a * (float)k + b;
}

__device__ __noinline__ Pair make_pair(float v, int i) {
  Pair p;
  p.x = v * 2.f;
  p.y = i ^ 0x55;
  return p;
}

__device__ __noinline__ void store3(float *p, float a, float b, float c) {
  p[0] = a;
  p[1] = b;
  p[2] = c;
}

__device__ __noinline__ unsigned long long mix64(unsigned long long v) {
  v ^= v >> 33;
  v *= 0xff51afd7ed558ccdull;
  return v ^ (v >> 29);
}

extern "C" __global__ void calls(float *out, unsigned long long *h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float r = scale_add(out[i], 1.f, i);
  Pair p = make_pair(r, i);
  store3(out + 3 * i, r, p.x, (float)p.y);
  h[i] = mix64((unsigned long long)i);
}
