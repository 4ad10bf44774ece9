// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
__global__ void k(float *p) {
  /* PTX_INJECT site
// CHECK: error-unknown-kind.cu:[[@LINE+1]]:5: error: unknown inject variable kind 'inout' (expected in, mod or out)
    inout f32 p[0]
  */
}
