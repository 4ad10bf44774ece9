__global__ void k(float *p) {
  /* PTX_INJECT bad
     in f33 x
  */
}
