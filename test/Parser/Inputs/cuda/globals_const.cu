// __device__ and __constant__ arrays with initialisers.
__constant__ float c_coeffs[8] = {1.0f, 0.5f, 0.25f, 0.125f,
                                  -1.0f, 3.14159f, 2.71828f, 0.0f};
__constant__ int c_offsets[4] = {0, 1, -1, 42};
__constant__ double c_scale = 1.0e-3;
__device__ int g_table[6] = {10, 20, 30, 40, 50, 60};
__device__ unsigned short g_u16[4] = {1, 2, 65535, 7};
__device__ char g_msg[] = "hello ptx";
__device__ float g_accum;
__device__ const float *g_ptr = c_coeffs;
__constant__ float c_uninit[16];

extern "C" __global__ void use_globals(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = c_coeffs[i & 7] * (float)g_table[i % 6] + c_uninit[i & 15];
    v += (float)(c_offsets[i & 3] + g_u16[i & 3] + g_msg[i % 9]);
    out[i] = v * (float)c_scale + g_ptr[i & 7];
    if (i == 0)
      g_accum = v;
  }
}
