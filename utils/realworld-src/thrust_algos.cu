// thrust algorithms on device vectors (CUB kernels behind thrust's
// policies, transform iterators, zip iterators) for the real-world corpus.
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

struct Saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};
struct Square {
  __host__ __device__ double operator()(float x) const { return double(x) * x; }
};

double thrustAlgorithms(thrust::device_vector<float> &x,
                        thrust::device_vector<float> &y,
                        thrust::device_vector<int> &k) {
  thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), Saxpy{2.0f});
  thrust::inclusive_scan(k.begin(), k.end(), k.begin());
  thrust::sort_by_key(k.begin(), k.end(), x.begin());
  thrust::sort(y.begin(), y.end(), thrust::greater<float>());
  auto z = thrust::make_zip_iterator(thrust::make_tuple(x.begin(), y.begin()));
  thrust::copy_if(thrust::counting_iterator<int>(0),
                  thrust::counting_iterator<int>(int(x.size())), k.begin(),
                  [] __device__(int v) { return v % 3 == 0; });
  (void)z;
  return thrust::transform_reduce(x.begin(), x.end(), Square{}, 0.0,
                                  thrust::plus<double>());
}
