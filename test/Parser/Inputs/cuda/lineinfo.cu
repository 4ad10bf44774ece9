// NVCC_FLAGS: -lineinfo
// Compiled with -lineinfo: PTX carries .file / .loc directives.
__device__ __noinline__ float sq(float x) { return x * x; }

extern "C" __global__ void norm2(const float *x, float *out, int n) {
  float acc = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    acc += sq(x[i]);
  atomicAdd(out, acc);
}
