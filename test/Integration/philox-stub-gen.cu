// The Philox routine library serves PTX_PHILOX(state) sites as shipped:
// programs that include PhiloxSite.stack (whose restated kinds --stub-gen
// checks against the site) and Philox4x32.stack through
// --stack-include-dir give curand4, curand_uniform4 and curand_normal4
// stubs that write back philox_ctr_x, and ptxas assembles the result.
// REQUIRES: nvcc, ptxas
// RUN: %nvcc -ptx -arch=sm_80 -I%mmptx_include -I%mmptx_gen_include %s -o %t.ptx
// RUN: mmptx-opt %t.ptx --stub-gen raw=%S/../Stack/Inputs/philox-u32.stack --stub-gen uniform=%S/../Stack/Inputs/philox-uniform.stack --stub-gen normal=%S/../Stack/Inputs/philox-normal.stack --stack-include-dir=%mmptx_src_root/lib/Stack/Routines -o %t.out.ptx 2>&1 | count 0
// RUN: FileCheck %s --input-file=%t.out.ptx
// RUN: %ptxas -arch=sm_80 %t.out.ptx -o %t.cubin
//
// Without the search path the include is not found, located.
// RUN: not mmptx-opt %t.ptx --stub-gen raw=%S/../Stack/Inputs/philox-u32.stack 2>&1 | FileCheck %s --check-prefix=NOPATH
// NOPATH: philox-u32.stack:4:10: error: cannot find include file 'PhiloxSite.stack' (tried {{.*}}; add a directory with -I)

#include "mmptx/cuda/ptx_inject.h"

// The fields of curandStatePhilox4_32_10 that PTX_PHILOX reads (without
// curand_kernel.h, whose tables would make the PTX a megabyte; the PTX is
// test/Transforms/Inputs/philox-sites.ptx, for machines without nvcc).
struct PhiloxState {
  uint4 ctr;
  uint2 key;
};

__global__ void rng(PhiloxState *states, uint4 *raw, float4 *uniform,
                    float4 *normal) {
  PhiloxState s = states[threadIdx.x];
  unsigned r0, r1, r2, r3;
  float u0, u1, u2, u3, n0, n1, n2, n3;
  PTX_INJECT("raw", PTX_PHILOX(s), PTX_OUT(U32, r0), PTX_OUT(U32, r1),
             PTX_OUT(U32, r2), PTX_OUT(U32, r3));
  PTX_INJECT("uniform", PTX_PHILOX(s), PTX_OUT(F32, u0), PTX_OUT(F32, u1),
             PTX_OUT(F32, u2), PTX_OUT(F32, u3));
  PTX_INJECT("normal", PTX_PHILOX(s), PTX_OUT(F32, n0), PTX_OUT(F32, n1),
             PTX_OUT(F32, n2), PTX_OUT(F32, n3));
  states[threadIdx.x] = s;
  raw[threadIdx.x] = make_uint4(r0, r1, r2, r3);
  uniform[threadIdx.x] = make_float4(u0, u1, u2, u3);
  normal[threadIdx.x] = make_float4(n0, n1, n2, n3);
}

// CHECK-NOT: MMPTX_INJECT
// CHECK: xor.b32
// CHECK: mov.u32 %_x2, %_s8_98;
// CHECK: fma.rn.f32
// CHECK: lg2.approx.f32
// CHECK: sin.approx.f32
// CHECK-NOT: MMPTX_INJECT
