// Shared-memory block reduction with __syncthreads and dynamic smem.
extern "C" __global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float tile[256];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? in[i] : 0.f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = tile[0];
}

extern "C" __global__ void reverse_dyn(int *data, int n) {
  extern __shared__ int buf[];
  int t = threadIdx.x;
  if (t < n)
    buf[t] = data[t];
  __syncthreads();
  if (t < n)
    data[t] = buf[n - 1 - t];
}
