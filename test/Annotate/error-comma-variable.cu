// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
// Two variables written as one; a comma inside brackets or parentheses is
// part of one expression.
__global__ void k(float *p, float a, float c) {
  /* PTX_INJECT site
     in  f32 (a, c)
     out f32 p[0]
// CHECK: error-comma-variable.cu:[[@LINE+1]]:14: error: ',' in inject variable 'a, c': one variable per line (parenthesize a comma expression)
     in f32 a, c
  */
}
