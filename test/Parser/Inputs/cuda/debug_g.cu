// NVCC_FLAGS: -G
// Compiled with -G: PTX carries .section .debug_* byte lists and labels.
extern "C" __global__ void tiny(int *p) { p[threadIdx.x] += 1; }
