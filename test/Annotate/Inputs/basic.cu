#include <cuda_fp16.h>

struct V { float w; };

__device__ float c(int i, int j) { return float(i + j); }

__global__ void kernel(float *p, __half *h) {
  float x = p[0], y = p[1], z;
  float arr[2] = {p[2], p[3]};
  V v;
  v.w = p[4];
  __half hx = h[0], hy;
  /* PTX_INJECT func
      in  f32 x
      // mod f32 y2

      mod F32 y   // the accumulator
      out f32 z
      in  f32 v.w
      in  F16 hx
      out f16 hy
      in  f32 arr[ 1 ] */
  p[0] = y + z;
  h[1] = hy;
  if (p[5] > 0) {
    /*PTX_INJECT only_in
      in f32 c(1, 2)
    */
  }
  // /* PTX_INJECT disabled
  //   in f32 x
  // */
  const char *s = "/* PTX_INJECT not_a_site";
}
