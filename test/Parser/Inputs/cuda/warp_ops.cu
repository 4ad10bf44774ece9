// Warp shuffles, votes, match and reduce intrinsics.
extern "C" __global__ void warp_ops(const float *in, float *out,
                                    unsigned *bal, int *flags) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[t];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  float up = __shfl_up_sync(0xffffffffu, v, 1);
  float x = __shfl_xor_sync(0xffffffffu, v, 3);
  float b = __shfl_sync(0xffffffffu, v, 0, 16);
  unsigned ballot = __ballot_sync(0xffffffffu, v > 0.f);
  int all = __all_sync(0xffffffffu, v != 0.f);
  int any = __any_sync(0xffffffffu, v < 0.f);
  unsigned m = __match_any_sync(0xffffffffu, (unsigned)t / 4);
  unsigned s = __reduce_add_sync(0xffffffffu, t);
  __syncwarp();
  out[t] = v + up + x + b;
  bal[t] = ballot ^ m ^ s;
  flags[t] = all * 2 + any;
}
