// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
// A variable's marker name is its expression without the blanks that
// separate nothing; a blank that keeps two tokens apart cannot be dropped,
// and a marker names a variable with one token. The error is at that blank.
__global__ void k(float *p, int i, float b) {
  /* PTX_INJECT site
     in  f32 p[i + 1]
// CHECK: error-blank-in-name.cu:[[@LINE+1]]:23: error: inject variable '(unsigned int)b' has no name without blanks (its marker would name it '(unsigned int)b'): copy the expression into a local variable and annotate that
     in  f32 (unsigned int)b
  */
  /* PTX_INJECT other
// CHECK: error-blank-in-name.cu:[[@LINE+1]]:17: error: inject variable 'b - -b' has no name without blanks (its marker would name it 'b- -b'): copy the expression into a local variable and annotate that
     in  f32 b - -b
  */
}

// Two spellings of one expression are one variable.
__global__ void l(float *p) {
  /* PTX_INJECT third
     in  f32 p[ 0 ]
// CHECK: error-blank-in-name.cu:[[@LINE+1]]:14: error: duplicate inject variable 'p[0]' (written 'p[0 ]')
     mod f32 p[0 ]
  */
}
// CHECK: error-blank-in-name.cu:[[@LINE-5]]:14: note: previous use of 'p[0]' is here
