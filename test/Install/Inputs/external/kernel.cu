__global__ void k(float *p) {
  float x = p[0], y;
  /* PTX_INJECT f
     in  dog x
     out f32 y
  */
  p[1] = y;
}
