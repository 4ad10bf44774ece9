// RUN: not mmptx-annotate %s 2>&1 | FileCheck %s
// Sites of one name form one inject: each must match the first site of the
// name variable by variable, as the PTX-level check would require later.
__global__ void k(float *p) {
  float acc = p[0], x = p[1], y;
  /* PTX_INJECT f
     mod f32 acc
     in  f32 x
  */
  // Same variables, any spelling of the type: fine.
  /* PTX_INJECT f
     mod F32 acc   // again
     in  f32 x
  */
  /* PTX_INJECT f
// CHECK: error-inconsistent-sites.cu:[[@LINE+1]]:14: error: inconsistent inject site 'f': argument 0 is variable 'sum' here, but 'acc' at the first site
     mod f32 sum
     in  f32 x
  */
// CHECK: error-inconsistent-sites.cu:6:3: note: first site of inject 'f' is here
// CHECK-NEXT: {{^}}  /* PTX_INJECT f{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
  /* PTX_INJECT f
// CHECK: error-inconsistent-sites.cu:[[@LINE+1]]:6: error: inconsistent inject site 'f': variable 'acc' (argument 0) has kind 'in' here, but 'mod' at the first site
     in  f32 acc
     in  f32 x
  */
// CHECK: error-inconsistent-sites.cu:6:3: note: first site of inject 'f' is here
  /* PTX_INJECT f
     mod f32 acc
// CHECK: error-inconsistent-sites.cu:[[@LINE+1]]:10: error: inconsistent inject site 'f': variable 'x' (argument 1) has type 'S32' here, but 'F32' at the first site
     in  s32 x
  */
// CHECK: error-inconsistent-sites.cu:6:3: note: first site of inject 'f' is here
  /* PTX_INJECT f
     mod f32 acc
     in  f32 x
// CHECK: error-inconsistent-sites.cu:[[@LINE+1]]:14: error: inject site 'f' has 3 arguments, but the first site of 'f' has 2: variable 'y' (argument 2) is not at the first site
     out f32 y
  */
// CHECK: error-inconsistent-sites.cu:6:3: note: first site of inject 'f' is here
// CHECK: error-inconsistent-sites.cu:[[@LINE+1]]:3: error: inject site 'f' has 1 argument, but the first site of 'f' has 2: variable 'x' (argument 1) is missing here
  /* PTX_INJECT f
     mod f32 acc
  */
// CHECK: error-inconsistent-sites.cu:6:3: note: first site of inject 'f' is here
  // Other names are other injects.
  /* PTX_INJECT g
     out f32 y
  */
  p[0] = acc + y;
}
