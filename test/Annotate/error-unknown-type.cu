// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
__global__ void k(float *p) {
  float x = p[0];
  /* PTX_INJECT site
     in f32 x
// CHECK: error-unknown-type.cu:[[@LINE+1]]:10: error: unknown inject type 'f33'
     mod f33 p[1]
  */
}
// CHECK-NEXT: {{^}}     mod f33 p[1]{{$}}
// CHECK-NEXT: {{^}}         ^{{$}}
