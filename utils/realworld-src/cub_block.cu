// Block-wide CUB algorithms, instantiated for the real-world PTX corpus
// (utils/gen-realworld-ptx.sh).
#include <cub/block/block_adjacent_difference.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

constexpr int kThreads = 128;
constexpr int kItems = 4;

template <typename T, cub::BlockReduceAlgorithm Algo>
__global__ void blockReduce(const T *in, T *out) {
  using BR = cub::BlockReduce<T, kThreads, Algo>;
  __shared__ typename BR::TempStorage tmp;
  T v[kItems];
  cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * kThreads * kItems, v);
  T r = BR(tmp).Reduce(v, cuda::maximum<>{});
  if (threadIdx.x == 0)
    out[blockIdx.x] = r;
}
template __global__ void blockReduce<float, cub::BLOCK_REDUCE_WARP_REDUCTIONS>(const float *, float *);
template __global__ void blockReduce<int, cub::BLOCK_REDUCE_RAKING>(const int *, int *);
template __global__ void blockReduce<double, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(const double *, double *);

template <typename T, cub::BlockScanAlgorithm Algo>
__global__ void blockScan(const T *in, T *out) {
  using Load = cub::BlockLoad<T, kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>;
  using Store = cub::BlockStore<T, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<T, kThreads, Algo>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Scan::TempStorage scan;
  } tmp;
  T v[kItems];
  Load(tmp.load).Load(in + blockIdx.x * kThreads * kItems, v);
  __syncthreads();
  T total;
  Scan(tmp.scan).ExclusiveSum(v, v, total);
  __syncthreads();
  Store(tmp.store).Store(out + blockIdx.x * kThreads * kItems, v);
}
template __global__ void blockScan<int, cub::BLOCK_SCAN_RAKING>(const int *, int *);
template __global__ void blockScan<float, cub::BLOCK_SCAN_WARP_SCANS>(const float *, float *);
template __global__ void blockScan<long long, cub::BLOCK_SCAN_RAKING_MEMOIZE>(const long long *, long long *);

template <typename K, typename V>
__global__ void blockRadixSort(K *keys, V *vals) {
  using Sort = cub::BlockRadixSort<K, kThreads, kItems, V>;
  __shared__ typename Sort::TempStorage tmp;
  K k[kItems];
  V v[kItems];
  int base = blockIdx.x * kThreads * kItems;
  cub::LoadDirectStriped<kThreads>(threadIdx.x, keys + base, k);
  cub::LoadDirectStriped<kThreads>(threadIdx.x, vals + base, v);
  Sort(tmp).SortDescendingBlockedToStriped(k, v);
  cub::StoreDirectStriped<kThreads>(threadIdx.x, keys + base, k);
  cub::StoreDirectStriped<kThreads>(threadIdx.x, vals + base, v);
}
template __global__ void blockRadixSort<unsigned, int>(unsigned *, int *);
template __global__ void blockRadixSort<float, unsigned short>(float *, unsigned short *);
template __global__ void blockRadixSort<__half, int>(__half *, int *);

struct Less {
  template <typename T> __device__ bool operator()(const T &a, const T &b) const { return a < b; }
};

__global__ void blockMergeSort(int *keys, int n) {
  using Sort = cub::BlockMergeSort<int, kThreads, kItems>;
  __shared__ typename Sort::TempStorage tmp;
  int k[kItems];
  cub::LoadDirectBlocked(threadIdx.x, keys, k, n, 0x7fffffff);
  Sort(tmp).Sort(k, Less{}, n, 0x7fffffff);
  cub::StoreDirectBlocked(threadIdx.x, keys, k, n);
}

__global__ void blockHistogram(const unsigned char *in, unsigned *bins) {
  using Hist = cub::BlockHistogram<unsigned char, kThreads, kItems, 256, cub::BLOCK_HISTO_ATOMIC>;
  using HistSort = cub::BlockHistogram<unsigned char, kThreads, kItems, 256, cub::BLOCK_HISTO_SORT>;
  __shared__ union {
    typename Hist::TempStorage a;
    typename HistSort::TempStorage s;
  } tmp;
  __shared__ unsigned smem[256];
  unsigned char v[kItems];
  cub::LoadDirectStriped<kThreads>(threadIdx.x, in + blockIdx.x * kThreads * kItems, v);
  if (blockIdx.y)
    Hist(tmp.a).Histogram(v, smem);
  else
    HistSort(tmp.s).Histogram(v, smem);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += kThreads)
    atomicAdd(&bins[i], smem[i]);
}

__global__ void blockExchangeDiff(const float *in, float *out) {
  using Ex = cub::BlockExchange<float, kThreads, kItems>;
  using Diff = cub::BlockAdjacentDifference<float, kThreads>;
  __shared__ typename Ex::TempStorage ex;
  __shared__ typename Diff::TempStorage diff;
  float v[kItems];
  cub::LoadDirectStriped<kThreads>(threadIdx.x, in, v);
  Ex(ex).StripedToBlocked(v);
  float d[kItems];
  Diff(diff).SubtractLeft(v, d, cuda::std::minus<>{});
  cub::StoreDirectBlocked(threadIdx.x, out, d);
}
