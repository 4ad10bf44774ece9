// Warp-wide CUB algorithms (shfl.sync with predicate-pair destinations,
// redux, match) for the real-world PTX corpus.
#include <cub/warp/warp_exchange.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/warp/warp_store.cuh>

template <typename T, int Lanes>
__global__ void warpReduce(const T *in, T *out) {
  using WR = cub::WarpReduce<T, Lanes>;
  __shared__ typename WR::TempStorage tmp[128 / Lanes];
  int w = threadIdx.x / Lanes;
  T v = in[blockIdx.x * blockDim.x + threadIdx.x];
  T s = WR(tmp[w]).Sum(v);
  T m = WR(tmp[w]).Reduce(v, cuda::minimum<>{});
  int flag = threadIdx.x % 3 == 0;
  T seg = WR(tmp[w]).HeadSegmentedSum(v, flag);
  if (threadIdx.x % Lanes == 0)
    out[blockIdx.x * blockDim.x + threadIdx.x] = s + m + seg;
}
template __global__ void warpReduce<int, 32>(const int *, int *);
template __global__ void warpReduce<float, 16>(const float *, float *);
template __global__ void warpReduce<double, 32>(const double *, double *);
template __global__ void warpReduce<unsigned long long, 8>(const unsigned long long *, unsigned long long *);

template <typename T>
__global__ void warpScan(const T *in, T *out) {
  using WS = cub::WarpScan<T>;
  __shared__ typename WS::TempStorage tmp[4];
  int w = threadIdx.x / 32;
  T v = in[threadIdx.x], inc, exc, agg;
  WS(tmp[w]).InclusiveScan(v, inc, cuda::maximum<>{});
  WS(tmp[w]).ExclusiveSum(v, exc, agg);
  out[threadIdx.x] = inc + exc + agg;
}
template __global__ void warpScan<int>(const int *, int *);
template __global__ void warpScan<float>(const float *, float *);
template __global__ void warpScan<short>(const short *, short *);

struct Less {
  template <typename T> __device__ bool operator()(const T &a, const T &b) const { return a < b; }
};

__global__ void warpSortExchange(float *data) {
  constexpr int kItems = 4;
  using Load = cub::WarpLoad<float, kItems, cub::WARP_LOAD_TRANSPOSE>;
  using Sort = cub::WarpMergeSort<float, kItems>;
  using Ex = cub::WarpExchange<float, kItems>;
  using Store = cub::WarpStore<float, kItems, cub::WARP_STORE_VECTORIZE>;
  __shared__ typename Load::TempStorage ld[4];
  __shared__ typename Sort::TempStorage srt[4];
  __shared__ typename Ex::TempStorage ex[4];
  __shared__ typename Store::TempStorage st[4];
  int w = threadIdx.x / 32;
  float v[kItems];
  float *p = data + w * 32 * kItems;
  Load(ld[w]).Load(p, v);
  Sort(srt[w]).Sort(v, Less{});
  Ex(ex[w]).BlockedToStriped(v, v);
  Store(st[w]).Store(p, v);
}
