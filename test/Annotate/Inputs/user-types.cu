#include <cuda_fp16.h>
__global__ void kernel(float *p, __half *h) {
  float x = p[0], y;
  __half b = h[0];
  /* PTX_INJECT dog
     in  dog x
     out DOG y
     mod half_bits b
  */
  p[1] = y;
  h[1] = b;
}
