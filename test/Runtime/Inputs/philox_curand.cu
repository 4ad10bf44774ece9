// curand's Philox4x32-10 against the Stack PTX routine library
// (lib/Stack/Routines/Philox4x32.stack) spliced into the same kernel: each
// thread initialises a curandStatePhilox4_32_10, draws curand4 from a copy,
// and runs the inject site on the original; both write their four outputs
// and the advanced ctr.x.
#include <curand_kernel.h>

#include "mmptx/cuda/ptx_inject.h"

extern "C" __global__ void philox_vs_curand(unsigned long long seed,
                                            unsigned long long offset,
                                            unsigned *mine, unsigned *theirs,
                                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  curandStatePhilox4_32_10 s;
  curand_init(seed, i, offset, &s);
  curandStatePhilox4_32_10 t = s;
  uint4 want = curand4(&t);
  unsigned r0, r1, r2, r3;
  PTX_INJECT("philox", PTX_PHILOX(s), PTX_OUT(U32, r0), PTX_OUT(U32, r1),
             PTX_OUT(U32, r2), PTX_OUT(U32, r3));
  unsigned *m = mine + 5 * i, *w = theirs + 5 * i;
  m[0] = r0, m[1] = r1, m[2] = r2, m[3] = r3, m[4] = s.ctr.x;
  w[0] = want.x, w[1] = want.y, w[2] = want.z, w[3] = want.w, w[4] = t.ctr.x;
}
