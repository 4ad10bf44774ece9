// REQUIRES: nvcc, ptxas
// End to end: the device header's markers (mmptx format) survive nvcc, are
// listed, pass the scaffold check, render, and the result assembles.
// RUN: nvcc -ptx -arch=sm_80 -I%mmptx_include -I%mmptx_gen_include %s -o %t.ptx
// RUN: mmptx-opt --normalize-injection-sites --list-injects %t.ptx | FileCheck %s
// RUN: mmptx-opt --normalize-injection-sites --inject body=%S/Inputs/body.stub --inject epi=%S/Inputs/epi.stub %t.ptx -o %t.rendered.ptx
// RUN: ptxas -arch=sm_80 %t.rendered.ptx -o %t.cubin

#include "mmptx/cuda/ptx_inject.h"

extern "C" __global__ void k(float *out, const float *in, int n) {
  float acc = 0.f;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float v = in[i];
    PTX_INJECT("body", PTX_MOD(F32, acc), PTX_IN(F32, v));
  }
  float y;
  unsigned u = n;
  PTX_INJECT("epi", PTX_IN(F32, acc), PTX_OUT(F32, y), PTX_MOD(U32, u));
  out[0] = y + u;
}

// CHECK:      2 injects, 5 sites
// CHECK-NEXT: inject 0 'body': 4 sites, 2 variables
// CHECK-NEXT:   #   name kind type reg-type register
// CHECK-NEXT:   0   acc  mod  F32  .f32     %_x0
// CHECK-NEXT:   1   v    in   F32  .f32     %_x1
// CHECK-NEXT: inject 1 'epi': 1 site, 3 variables
// CHECK-NEXT:   #   name kind type reg-type register
// CHECK-NEXT:   0   acc  in   F32  .f32     %_x0
// CHECK-NEXT:   1   y    out  F32  .f32     %_x1
// CHECK-NEXT:   2   u    mod  U32  .u32     %_x2
