// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
__global__ void k(float *p) {
// CHECK: error-header-position.cu:[[@LINE+1]]:14: error: inject site comment must be the first thing on its line
  p[0] += 1; /* PTX_INJECT late
     in f32 p[0]
  */
// CHECK: error-header-position.cu:[[@LINE+1]]:8: error: inject site comment must be the first thing on its line
  /**/ /* PTX_INJECT after_comment
     in f32 p[0]
  */
}
// A macro body is one logical line: the asm would break the macro.
#define BODY(p) \
  /* PTX_INJECT in_macro
     in f32 p[0]
  */
// CHECK: error-header-position.cu:[[@LINE-3]]:3: error: inject site comment must be the first thing on its line, which continues the previous one
// CHECK-NEXT: {{^}}  /* PTX_INJECT in_macro{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
