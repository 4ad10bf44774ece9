// A kernel with a static that nothing on the device refers to (a host
// might still look it up with cuModuleGetGlobal) and one that it reads.
static __device__ int library_static = 42;
static __device__ int read_static = 7;
extern "C" __global__ void k(int *out) { *out = read_static; }
