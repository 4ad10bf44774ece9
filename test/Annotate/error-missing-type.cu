// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
__global__ void k(float *p) {
  /* PTX_INJECT site
// CHECK: error-missing-type.cu:[[@LINE+1]]:8: error: expected an inject type after 'in'
     in
  */
  /* PTX_INJECT site2
// CHECK: error-missing-type.cu:[[@LINE+1]]:12: error: expected an expression after inject type 'f32'
     in f32    // nothing
  */
}
