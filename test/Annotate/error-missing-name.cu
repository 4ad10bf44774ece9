// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
__global__ void k(float *p) {
// CHECK: error-missing-name.cu:[[@LINE+1]]:16: error: missing inject site name
  /* PTX_INJECT
     in f32 p[0]
  */
// CHECK: error-missing-name.cu:[[@LINE+1]]:21: error: unexpected text after inject site name 'two'
  /* PTX_INJECT two words
     in f32 p[0]
  */
}
