// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
__global__ void k(float *p) {
// CHECK: error-missing-close.cu:[[@LINE+1]]:3: error: missing '*/' closing inject site 'site'
  /* PTX_INJECT site
     in f32 p[0]
}
