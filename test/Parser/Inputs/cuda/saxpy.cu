// Plain arithmetic: y = a*x + y over a grid-stride loop.
extern "C" __global__ void saxpy(int n, float a, const float *__restrict__ x,
                                 float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

extern "C" __global__ void daxpy_scaled(int n, double a, double b,
                                        const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = fma(a, x[i], b * y[i]) - sqrt(fabs(x[i]));
}
