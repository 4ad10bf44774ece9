// Every `/* PTX_INJECT` below is inside a comment or a literal: no sites.
__global__ void k(float *p) {
  float x = p[0], y = 0.0f;
  /* disabled for now:
  /* PTX_INJECT h
     in f32 x
  */
  y = 1.0f;
  /* store */
  p[1] = y;
  // a line comment that goes on \
  /* PTX_INJECT spliced */ p[2] = y;
  const char *s = "/* PTX_INJECT in_string";
  const char *e = "\" /* PTX_INJECT after_escaped_quote";
  const char *c = "spliced string \
  /* PTX_INJECT in_spliced_string */";
  const char *r = R"delim(
  /* PTX_INJECT in_raw_string
     in f32 x
  */ )" */
  )delim";
  const char *u = u8R"(
  /* PTX_INJECT in_u8_raw_string
     in f32 x
  */
  )";
  char q = '"'; // not a string: /* PTX_INJECT q */ "
  long big = 1'000'000; /* a comment, not a literal */
}
