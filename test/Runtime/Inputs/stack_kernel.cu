// The kernel the GPU tests inject random Stack PTX programs into: one
// thread runs the site once per input row, so every special register the
// checker allows reads 0 as in the CPU interpreter (%tid, %ctaid, %laneid,
// %warpid, %lanemask_lt, %dynamic_smem_size). The results are mod variables
// (random programs may read any register; reading an out variable is an
// error), started from the output buffers' values.
#include "mmptx/cuda/ptx_inject.h"

extern "C" __global__ void stack_kernel(const float *xs, const float *ys,
                                        const unsigned *as, const unsigned *bs,
                                        const int *cs, const int *ds,
                                        const double *ws,
                                        const unsigned long long *vs,
                                        float *fo, unsigned *uo, int *so,
                                        double *go, unsigned long long *ho,
                                        int n) {
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
    float x = xs[i], y = ys[i];
    unsigned a = as[i], b = bs[i];
    int c = cs[i], d = ds[i];
    double w = ws[i];
    unsigned long long v = vs[i];
    float f = fo[i];
    unsigned u = uo[i];
    int s = so[i];
    double g = go[i];
    unsigned long long h = ho[i];
    PTX_INJECT("stack", PTX_IN(F32, x), PTX_IN(F32, y), PTX_IN(U32, a),
               PTX_IN(U32, b), PTX_IN(S32, c), PTX_IN(S32, d), PTX_IN(F64, w),
               PTX_IN(U64, v), PTX_MOD(F32, f), PTX_MOD(U32, u),
               PTX_MOD(S32, s), PTX_MOD(F64, g), PTX_MOD(U64, h));
    fo[i] = f;
    uo[i] = u;
    so[i] = s;
    go[i] = g;
    ho[i] = h;
  }
}
