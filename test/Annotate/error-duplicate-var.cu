// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
__global__ void k(float *p) {
  /* PTX_INJECT site
     in  f32 p[0]
     out f32 p[1]
// CHECK: error-duplicate-var.cu:[[@LINE+1]]:18: error: duplicate inject variable 'p[0]'
     mod f32     p[0]   // again
  */
}
// CHECK: error-duplicate-var.cu:4:14: note: previous use of 'p[0]' is here
