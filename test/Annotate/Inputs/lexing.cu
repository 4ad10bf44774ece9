// Real sites after comments and literals that contain site headers.
__global__ void k(float *p) {
  float x = p[0], y = 0.0f;
  /* disabled for now:
  /* PTX_INJECT disabled
     in f32 x
  */
  /* PTX_INJECT after_comment
     in f32 x
  */
  const char *r = R"(
  /* PTX_INJECT in_raw_string
     in f32 x
  */
  )"; const char *s = "*/ /*";
  /* PTX_INJECT after_literals
     out f32 y
  */
  char q = '\''; long big = 1'000;
  /* PTX_INJECT after_chars
     mod f32 y
  */
#if 0
  /* PTX_INJECT in_if_0
     in f32 x
  */
#endif
  p[1] = y;
}
