// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
__global__ void k(float *p) {
// CHECK: error-header-position.cu:[[@LINE+1]]:14: error: inject site comment must be the first thing on its line
  p[0] += 1; /* PTX_INJECT late
     in f32 p[0]
  */
}
