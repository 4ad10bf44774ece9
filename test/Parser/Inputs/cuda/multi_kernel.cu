// Several kernels (and a template instantiated twice) in one module.
template <typename T> __global__ void fill(T *p, T v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v;
}
template __global__ void fill<int>(int *, int, int);
template __global__ void fill<double>(double *, double, int);

extern "C" __global__ void copy_i8(const char *s, char *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = s[i];
}

extern "C" __global__ void transpose(const float *in, float *out, int w,
                                     int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[x * h + y] = in[y * w + x];
}

extern "C" __global__ void empty_kernel() {}

extern "C" __global__ void clamp_u16(unsigned short *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = p[i] > 1000 ? 1000 : p[i];
}
