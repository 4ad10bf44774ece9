// Function pointers: indirect calls produce .callprototype in PTX.
typedef float (*unop_t)(float, int);

__device__ __noinline__ float op_sq(float x, int k) { return x * x + k; }
__device__ __noinline__ float op_neg(float x, int k) { return -x - k; }
__device__ __noinline__ float op_half(float x, int k) { return x * 0.5f * k; }

__device__ unop_t table[3] = {op_sq, op_neg, op_half};

extern "C" __global__ void apply(float *data, int n, int which) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unop_t f = table[(which + i) % 3];
    data[i] = f(data[i], i);
  }
}

extern "C" __global__ void apply_param(float *data, unop_t f) {
  data[threadIdx.x] = f(data[threadIdx.x], 1);
}
