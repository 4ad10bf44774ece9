// Device-wide CUB algorithms (each call instantiates a family of kernels:
// single-tile, tile-status init, decoupled look-back scans, onesweep radix
// sort) for the real-world PTX corpus.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>

struct IsPositive {
  __host__ __device__ bool operator()(float x) const { return x > 0.0f; }
};

void deviceAlgorithms(void *tmp, size_t bytes, float *f, int *i,
                      unsigned *u, int *offsets, int n) {
  cub::DeviceReduce::Sum(tmp, bytes, f, f, n);
  cub::DeviceReduce::ArgMax(tmp, bytes, f, f, i, n);
  cub::DeviceScan::ExclusiveSum(tmp, bytes, i, i, n);
  cub::DeviceScan::InclusiveScan(tmp, bytes, f, f, cuda::maximum<>{}, n);
  cub::DeviceRadixSort::SortPairs(tmp, bytes, u, u, i, i, n);
  cub::DeviceRadixSort::SortKeysDescending(tmp, bytes, f, f, n);
  cub::DeviceSelect::If(tmp, bytes, f, f, i, n, IsPositive{});
  cub::DeviceSelect::Unique(tmp, bytes, i, i, i, n);
  cub::DeviceRunLengthEncode::Encode(tmp, bytes, i, i, i, i, n);
  cub::DeviceHistogram::HistogramEven(tmp, bytes, f, i, 65, 0.0f, 1.0f, n);
  cub::DeviceSegmentedReduce::Max(tmp, bytes, f, f, 16, offsets, offsets + 1);
}
