// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
// A block comment ends at its first '*/', so a '/*' inside a site is an
// error: the lines after the inner '*/' would be left to the compiler.
__global__ void k(float *p) {
  float x = p[0], y = p[1];
// CHECK: error-nested-comment.cu:[[@LINE+5]]:17: error: '/*' inside a PTX_INJECT block: the block ends at the first '*/'
// CHECK-NEXT: {{^}}     in f32 x   /* the input */{{$}}
// CHECK-NEXT: {{^}}                ^{{$}}
  /* PTX_INJECT site
     mod f32 y
     in f32 x   /* the input */
     out f32 p[1]
  */
// CHECK: error-nested-comment.cu:[[@LINE+3]]:18: error: '/*' inside a PTX_INJECT block: the block ends at the first '*/'
  /* PTX_INJECT commented_out
     in f32 x
     // in f32 y /* old */
     out f32 p[1]
  */
}
