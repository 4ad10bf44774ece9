// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
__global__ void k(float *p) {
// CHECK: error-empty-site.cu:[[@LINE+1]]:5: error: inject site 'nothing' has no variables
    /* PTX_INJECT nothing
       // in f32 p[0]

    */
// CHECK: error-empty-site.cu:[[@LINE+1]]:3: error: inject site 'inline' has no variables
  /* PTX_INJECT inline */
}
