// The CUDA compiler's errors point into the original source, not into the
// rewritten file: an operand at the site's last lines, code after the site
// at its own line.
// REQUIRES: nvcc
// RUN: mmptx-annotate %s -o %t.cu
// RUN: not %nvcc -ptx -arch=sm_80 %t.cu -o %t.ptx 2>&1 | FileCheck %s
// RUN: mmptx-annotate --line-directives=false %s -o %t.off.cu
// RUN: not %nvcc -ptx -arch=sm_80 %t.off.cu -o %t.ptx 2>&1 | FileCheck %s --check-prefix=OFF
__global__ void k(float *p) {
  float x = p[0];
  /* PTX_INJECT site
     in  f32 x
     out f32 undeclared_out
  */
  p[0] = undeclared_after;
}
// CHECK: line-directives-nvcc.cu(13): error: identifier "undeclared_out" is undefined
// CHECK: line-directives-nvcc.cu(15): error: identifier "undeclared_after" is undefined
// OFF: .off.cu({{[0-9]+}}): error: identifier "undeclared_out" is undefined
__global__ void k2(float *p) {
  float x = p[0];
  /* PTX_INJECT site2
     in  f32 x
  */ p[1] = x; /* a comment that
                  goes on */
  p[0] = undeclared_after_comment;
}
// CHECK: line-directives-nvcc.cu(26): error: identifier "undeclared_after_comment" is undefined
