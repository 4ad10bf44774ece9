// The macro form in detail: 2- and 3-argument operands, PTX_INJECT_TOK,
// 64-bit and f64 types, 20 operands in mixed order (asm operands: outputs
// first, markers and %_x<i> in source order), host+device code, and the
// compile errors for an unknown type and an empty site.
// REQUIRES: nvcc, ptxas
// RUN: %nvcc -ptx -arch=sm_80 -I%mmptx_include -I%mmptx_gen_include %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
// The host side of __host__ __device__ code sees no asm.
// RUN: %nvcc -c -arch=sm_80 -I%mmptx_include -I%mmptx_gen_include %s -o %t.o
// RUN: not %nvcc -ptx -arch=sm_80 -DERR_TYPE -I%mmptx_include -I%mmptx_gen_include %s -o %t.err.ptx 2>&1 | FileCheck %s --check-prefix=ERR-TYPE
// RUN: not %nvcc -ptx -arch=sm_80 -DERR_EMPTY -I%mmptx_include -I%mmptx_gen_include %s -o %t.err.ptx 2>&1 | FileCheck %s --check-prefix=ERR-EMPTY
// RUN: not %nvcc -ptx -arch=sm_80 -DERR_LABEL -I%mmptx_include -I%mmptx_gen_include %s -o %t.err.ptx 2>&1 | FileCheck %s --check-prefix=ERR-LABEL
// RUN: not %nvcc -ptx -arch=sm_80 -DERR_BLANK -I%mmptx_include -I%mmptx_gen_include %s -o %t.err.ptx 2>&1 | FileCheck %s --check-prefix=ERR-BLANK
// RUN: not %nvcc -ptx -arch=sm_80 -DERR_BLANK3 -I%mmptx_include -I%mmptx_gen_include %s -o %t.err.ptx 2>&1 | FileCheck %s --check-prefix=ERR-BLANK3
// RUN: not %nvcc -ptx -arch=sm_80 -DERR_NAME -I%mmptx_include -I%mmptx_gen_include %s -o %t.err.ptx 2>&1 | FileCheck %s --check-prefix=ERR-NAME
// RUN: not %nvcc -ptx -arch=sm_80 -DERR_NAME_EMPTY -I%mmptx_include -I%mmptx_gen_include %s -o %t.err.ptx 2>&1 | FileCheck %s --check-prefix=ERR-NAME

#include "mmptx/cuda/ptx_inject.h"

__device__ float c(int i, int j) { return float(i * j); }

struct V {
  float w;
};

__global__ void forms(float *p, double *d, long long *l, unsigned long long *u,
                      int *s) {
  V v;
  v.w = p[0];
  float arr[2] = {p[1], p[2]};
  double dd = d[0];
  long long ll = l[0];
  unsigned long long uu = u[0];
  int ss = s[0];
  PTX_INJECT_TOK(tok_site, PTX_IN(F32, vw, v.w), PTX_MOD(F32, a1, arr[1]),
                 PTX_IN(F32, cij, c(2, 3)), PTX_MOD(F64, dd),
                 PTX_MOD(S64, ll), PTX_MOD(U64, uu), PTX_MOD(S32, ss));
  p[3] = arr[1];
  d[1] = dd;
  l[1] = ll;
  u[1] = uu;
  s[1] = ss;
#ifdef ERR_TYPE
  PTX_INJECT("bad", PTX_IN(F33, v.w));
#endif
#ifdef ERR_EMPTY
  PTX_INJECT("empty");
#endif
#ifdef ERR_LABEL
  PTX_INJECT("label", PTX_MOD(F32, arr[s[0]%2]));
#endif
#ifdef ERR_BLANK
  PTX_INJECT("blank", PTX_MOD(F32, arr[ss - 1]));
#endif
#ifdef ERR_BLANK3
  PTX_INJECT("blank3", PTX_MOD(F32, a b, arr[1]));
#endif
#ifdef ERR_NAME
  PTX_INJECT("my site", PTX_MOD(F64, dd));
#endif
#ifdef ERR_NAME_EMPTY
  PTX_INJECT("", PTX_MOD(F64, dd));
#endif
}

// CHECK-LABEL: .entry _Z5forms
// CHECK:      .reg .f32 %_x0;
// CHECK-NEXT: .reg .f32 %_x1;
// CHECK-NEXT: .reg .f32 %_x2;
// CHECK-NEXT: .reg .f64 %_x3;
// CHECK-NEXT: .reg .s64 %_x4;
// CHECK-NEXT: .reg .u64 %_x5;
// CHECK-NEXT: .reg .s32 %_x6;
// CHECK:      // MMPTX_INJECT_BEGIN tok_site 7
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 in f32 F32 vw
// CHECK-NEXT: // MMPTX_INJECT_ARG 1 mod f32 F32 a1
// CHECK-NEXT: // MMPTX_INJECT_ARG 2 in f32 F32 cij
// CHECK-NEXT: // MMPTX_INJECT_ARG 3 mod f64 F64 dd
// CHECK-NEXT: // MMPTX_INJECT_ARG 4 mod s64 S64 ll
// CHECK-NEXT: // MMPTX_INJECT_ARG 5 mod u64 U64 uu
// CHECK-NEXT: // MMPTX_INJECT_ARG 6 mod s32 S32 ss
// CHECK-NEXT: // MMPTX_INJECT_END tok_site
// CHECK-NEXT: mov.f32 {{%f[0-9]+}}, %_x1;
// CHECK-NEXT: mov.f64 {{%fd[0-9]+}}, %_x3;
// CHECK-NEXT: mov.s64 {{%rd[0-9]+}}, %_x4;
// CHECK-NEXT: mov.u64 {{%rd[0-9]+}}, %_x5;
// CHECK-NEXT: mov.s32 {{%r[0-9]+}}, %_x6;

// Twenty operands: in, out, mod repeating. Each value is distinct so the
// register that goes in is the one that comes out.
__global__ void many(float *p) {
  float x0 = p[0], x1, x2 = p[2], x3 = p[3], x4, x5 = p[5], x6 = p[6], x7,
        x8 = p[8], x9 = p[9], x10, x11 = p[11], x12 = p[12], x13,
        x14 = p[14], x15 = p[15], x16, x17 = p[17], x18 = p[18], x19;
  PTX_INJECT("many", PTX_IN(F32, x0), PTX_OUT(F32, x1), PTX_MOD(F32, x2),
             PTX_IN(F32, x3), PTX_OUT(F32, x4), PTX_MOD(F32, x5),
             PTX_IN(F32, x6), PTX_OUT(F32, x7), PTX_MOD(F32, x8),
             PTX_IN(F32, x9), PTX_OUT(F32, x10), PTX_MOD(F32, x11),
             PTX_IN(F32, x12), PTX_OUT(F32, x13), PTX_MOD(F32, x14),
             PTX_IN(F32, x15), PTX_OUT(F32, x16), PTX_MOD(F32, x17),
             PTX_IN(F32, x18), PTX_OUT(F32, x19));
  p[20] = x1 + x2 + x4 + x5 + x7 + x8 + x10 + x11 + x13 + x14 + x16 + x17 +
          x19;
}

// CHECK-LABEL: .entry _Z4manyPf(
// CHECK:      ld.global.f32 [[X0:%f[0-9]+]], [%rd{{[0-9]+}}];
// CHECK:      ld.global.f32 [[X2:%f[0-9]+]], [%rd{{[0-9]+}}+8];
// CHECK:      ld.global.f32 [[X18:%f[0-9]+]], [%rd{{[0-9]+}}+72];
// CHECK:      .reg .f32 %_x19;
// CHECK-NEXT: mov.f32 %_x0, [[X0]];
// CHECK-NEXT: mov.f32 %_x2, [[X2]];
// CHECK:      mov.f32 %_x18, [[X18]];
// CHECK-NEXT: // MMPTX_INJECT_BEGIN many 20
// CHECK-NEXT: // MMPTX_INJECT_ARG 0 in f32 F32 x0
// CHECK-NEXT: // MMPTX_INJECT_ARG 1 out f32 F32 x1
// CHECK-NEXT: // MMPTX_INJECT_ARG 2 mod f32 F32 x2
// CHECK:      // MMPTX_INJECT_ARG 19 out f32 F32 x19
// CHECK-NEXT: // MMPTX_INJECT_END many
// CHECK-NEXT: mov.f32 {{%f[0-9]+}}, %_x1;
// CHECK-NEXT: mov.f32 [[X2]], %_x2;

__host__ __device__ float both(float x) {
  PTX_INJECT("both", PTX_MOD(F32, x));
  return x;
}

__global__ void callsBoth(float *p) { p[0] = both(p[0]); }

// CHECK-LABEL: .entry _Z9callsBothPf(
// CHECK: // MMPTX_INJECT_BEGIN both 1

// ERR-TYPE: PTX_INJECT_TYPE_F33_REG
// ERR-EMPTY: error

// A '%' or quote in a label or name would garble the asm text.
// ERR-LABEL: error: static assertion failed with "PTX_INJECT: operand label arr[s[0]%2] contains a blank, '%' or a quote; write it without blanks or name it with the 3-argument form PTX_IN(TYPE, label, expr)"
// ERR-BLANK: error: static assertion failed with "PTX_INJECT: operand label arr[ss - 1] contains a blank, '%' or a quote; write it without blanks or name it with the 3-argument form PTX_IN(TYPE, label, expr)"
// ERR-BLANK3: error: static assertion failed with "PTX_INJECT: operand label a b contains a blank
// ERR-NAME: error: static assertion failed with "PTX_INJECT: the site name must not be empty or contain blanks, '%' or quotes"
