//===- CudaApi.h - Driver API types and entry point table -------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The driver types and the table of function pointers CudaDriver fills.
/// With the toolkit's cuda.h (MMPTX_HAVE_CUDA_H) its types are used and
/// every declared signature is checked against it at compile time; without
/// it a minimal set of ABI-compatible declarations stands in. Private to
/// lib/Runtime: the public headers expose no CUDA types.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_LIB_RUNTIME_CUDAAPI_H
#define MMPTX_LIB_RUNTIME_CUDAAPI_H

#include <cstddef>
#include <cstdint>

#ifdef MMPTX_HAVE_CUDA_H
#include <cuda.h>
#else
extern "C" {
typedef int CUresult;
typedef int CUdevice;
typedef int CUdevice_attribute;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;
typedef uint64_t cuuint64_t;
typedef int CUdriverProcAddressQueryResult;
}
#endif

namespace mmptx {
namespace runtime {

// The codes and attributes mmptx looks at (values from cuda.h).
constexpr int CudaSuccess = 0;
constexpr int CudaErrorInvalidValue = 1;
constexpr int CudaErrorStubLibrary = 34;
constexpr int CudaErrorNoDevice = 100;
constexpr int CudaErrorInvalidDevice = 101;
constexpr int CudaErrorNotFound = 500;
constexpr int AttrMultiProcessorCount = 16;
constexpr int AttrComputeCapabilityMajor = 75;
constexpr int AttrComputeCapabilityMinor = 76;

/// cuGetProcAddress_v2 (CUDA 12.0) and its CUDA 11.3 predecessor.
using GetProcAddressV2Fn = CUresult (*)(const char *, void **, int, cuuint64_t,
                                        CUdriverProcAddressQueryResult *);
using GetProcAddressV1Fn = CUresult (*)(const char *, void **, int, cuuint64_t);

struct CudaDriverApi {
#define MMPTX_CUDA_ENTRY(Member, Name, Version, Symbol, Params)                \
  CUresult(*Member) Params = nullptr;
#include "CudaEntryPoints.def"
};

} // namespace runtime
} // namespace mmptx

#endif // MMPTX_LIB_RUNTIME_CUDAAPI_H
