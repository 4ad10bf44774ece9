// The kernel the GPU tests inject random AST PTX programs into: an in and
// an out variable for every stack an inject site can carry (F32, U32,
// PHILOX, S32, F16, F16X2, F64, B32, BF16, BF16X2, U64). One thread runs the
// site once per input row. 16-bit and packed types travel in 32-bit buffers
// (mmptx-run has no 16-bit buffers): F16 and BF16 in the low half.
#include "mmptx/cuda/ptx_inject.h"

extern "C" __global__ void
ast_kernel(const float *xfs, const unsigned *xus, const unsigned *xps,
           const int *xss, const unsigned *xhs, const unsigned *xhhs,
           const double *xds, const unsigned *xbs, const unsigned *xes,
           const unsigned *xees, const unsigned long long *xls, float *yfs,
           unsigned *yus, unsigned *yps, int *yss, unsigned *yhs,
           unsigned *yhhs, double *yds, unsigned *ybs, unsigned *yes,
           unsigned *yees, unsigned long long *yls, int n) {
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
    float xf = xfs[i], yf;
    unsigned xu = xus[i], xp = xps[i], xhh = xhhs[i], xb = xbs[i],
             xee = xees[i], yu, yp, yhh, yb, yee;
    int xs = xss[i], ys;
    unsigned short xh = (unsigned short)xhs[i], xe = (unsigned short)xes[i],
                   yh, ye;
    double xd = xds[i], yd;
    unsigned long long xl = xls[i], yl;
    PTX_INJECT("ast", PTX_IN(F32, xf), PTX_IN(U32, xu), PTX_IN(PHILOX, xp),
               PTX_IN(S32, xs), PTX_IN(F16, xh), PTX_IN(F16X2, xhh),
               PTX_IN(F64, xd), PTX_IN(B32, xb), PTX_IN(BF16, xe),
               PTX_IN(BF16X2, xee), PTX_IN(U64, xl), PTX_OUT(F32, yf),
               PTX_OUT(U32, yu), PTX_OUT(PHILOX, yp), PTX_OUT(S32, ys),
               PTX_OUT(F16, yh), PTX_OUT(F16X2, yhh), PTX_OUT(F64, yd),
               PTX_OUT(B32, yb), PTX_OUT(BF16, ye), PTX_OUT(BF16X2, yee),
               PTX_OUT(U64, yl));
    yfs[i] = yf;
    yus[i] = yu;
    yps[i] = yp;
    yss[i] = ys;
    yhs[i] = yh;
    yhhs[i] = yhh;
    yds[i] = yd;
    ybs[i] = yb;
    yes[i] = ye;
    yees[i] = yee;
    yls[i] = yl;
  }
}
