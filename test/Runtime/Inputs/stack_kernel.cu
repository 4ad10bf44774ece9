// The kernel the GPU tests inject random Stack PTX programs into: one
// thread runs the site once per input row, so every special register the
// checker allows reads 0 as in the CPU interpreter (%tid, %ctaid, %laneid,
// %warpid, %lanemask_lt, %dynamic_smem_size). The results are mod variables
// (random programs may read any register; reading an out variable is an
// error), started from the output buffers' values. Every stack an inject
// site can carry has variables here; 16-bit and packed values travel in
// 32-bit buffers (mmptx-run has no 16-bit buffers), F16 and BF16 in the low
// half.
#include "mmptx/cuda/ptx_inject.h"

extern "C" __global__ void
stack_kernel(const float *xs, const float *ys, const unsigned *as,
             const unsigned *bs, const int *cs, const int *ds,
             const double *ws, const unsigned long long *vs,
             const unsigned *ps, const unsigned *ks, const unsigned *kks,
             const unsigned *es, const unsigned *ees, const unsigned *zs,
             float *fo, unsigned *uo, int *so, double *go,
             unsigned long long *ho, unsigned *qo, unsigned *ro,
             unsigned *rro, unsigned *to, unsigned *tto, unsigned *no,
             int n) {
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
    float x = xs[i], y = ys[i];
    unsigned a = as[i], b = bs[i], p = ps[i], kk = kks[i], ee = ees[i],
             z = zs[i];
    int c = cs[i], d = ds[i];
    double w = ws[i];
    unsigned long long v = vs[i];
    unsigned short k = (unsigned short)ks[i], e = (unsigned short)es[i];
    float f = fo[i];
    unsigned u = uo[i], q = qo[i], rr = rro[i], tt = tto[i], m = no[i];
    int s = so[i];
    double g = go[i];
    unsigned long long h = ho[i];
    unsigned short r = (unsigned short)ro[i], t = (unsigned short)to[i];
    PTX_INJECT("stack", PTX_IN(F32, x), PTX_IN(F32, y), PTX_IN(U32, a),
               PTX_IN(U32, b), PTX_IN(S32, c), PTX_IN(S32, d), PTX_IN(F64, w),
               PTX_IN(U64, v), PTX_IN(PHILOX, p), PTX_IN(F16, k),
               PTX_IN(F16X2, kk), PTX_IN(BF16, e), PTX_IN(BF16X2, ee),
               PTX_IN(B32, z), PTX_MOD(F32, f), PTX_MOD(U32, u),
               PTX_MOD(S32, s), PTX_MOD(F64, g), PTX_MOD(U64, h),
               PTX_MOD(PHILOX, q), PTX_MOD(F16, r), PTX_MOD(F16X2, rr),
               PTX_MOD(BF16, t), PTX_MOD(BF16X2, tt), PTX_MOD(B32, n, m));
    fo[i] = f;
    uo[i] = u;
    so[i] = s;
    go[i] = g;
    ho[i] = h;
    qo[i] = q;
    ro[i] = r;
    rro[i] = rr;
    to[i] = t;
    tto[i] = tt;
    no[i] = m;
  }
}
