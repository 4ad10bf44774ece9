// __launch_bounds__ gives .maxntid / .minnctapersm; also maxnreg via attr.
extern "C" __global__ void __launch_bounds__(128, 4)
    bounded(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = p[i] * p[i] + 1.f;
}

extern "C" __global__ void __launch_bounds__(1024) big_block(int *p) {
  p[threadIdx.x] += threadIdx.x;
}

extern "C" __global__ void __maxnreg__(32) capped(float *p) {
  p[threadIdx.x] *= 2.f;
}
