// y[i] = f(a, x[i], y[i]) where f is left open: each variant fills the
// PTX_INJECT site "f" with its own stub, no recompilation of the CUDA.
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float xi = x[i], yi = y[i];
  /* PTX_INJECT f
     in  f32 a
     in  f32 xi    // x[i]
     mod f32 yi    // y[i]: read and written
  */
  y[i] = yi;
}
