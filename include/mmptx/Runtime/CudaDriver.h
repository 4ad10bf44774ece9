//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// mmptx never links libcuda: the driver is opened with dlopen (default
/// `libcuda.so.1`, or the file `$MMPTX_LIBCUDA` names) and each entry point
/// is fetched with cuGetProcAddress_v2 for the ABI version whose signature
/// mmptx declares, as cuda-python does (dlsym of the versioned symbol where a
/// driver predates cuGetProcAddress). So everything builds and runs on
/// machines without a GPU, and a missing driver is an error a caller can
/// tell apart from a failing call:
///
///   CudaErrorKind::NoDriver     no libcuda.so.1, or one without a needed
///                               entry point
///   CudaErrorKind::StubLibrary  the toolkit's stub library
///                               (CUDA_ERROR_STUB_LIBRARY, 34)
///   CudaErrorKind::NoDevice     no device (CUDA_ERROR_NO_DEVICE, a count of
///                               0, an ordinal out of range)
///   CudaErrorKind::Call         any other failed call
///
/// Every CudaError names the call that failed and the driver's name for the
/// code (cuGetErrorName), e.g.
///   `cuModuleLoadData: CUDA_ERROR_INVALID_IMAGE (200): device kernel image
///    is invalid`.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_RUNTIME_CUDADRIVER_H
#define MMPTX_RUNTIME_CUDADRIVER_H

#include "mmptx/Support/SharedLibrary.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mmptx {
namespace runtime {

struct CudaDriverApi;

enum class CudaErrorKind { NoDriver, StubLibrary, NoDevice, Call };

/// A driver failure: which call, the CUresult, its name and description.
class CudaError : public llvm::ErrorInfo<CudaError> {
public:
  static char ID;

  CudaError(CudaErrorKind Kind, std::string Call, int Code,
            std::string CodeName, std::string Detail)
      : Kind(Kind), Call(std::move(Call)), Code(Code),
        CodeName(std::move(CodeName)), Detail(std::move(Detail)) {}

  CudaErrorKind getKind() const { return Kind; }
  /// The driver function (or `dlopen`) that failed.
  llvm::StringRef getCall() const { return Call; }
  /// The CUresult, or 0 where there was none (dlopen failed).
  int getCode() const { return Code; }
  /// The driver's name for the code, e.g. `CUDA_ERROR_INVALID_IMAGE`.
  llvm::StringRef getCodeName() const { return CodeName; }
  /// True when there is no usable driver or device: a reason to skip GPU
  /// work, not a bug.
  bool isUnavailable() const { return Kind != CudaErrorKind::Call; }

  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  CudaErrorKind Kind;
  std::string Call;
  int Code;
  std::string CodeName;
  std::string Detail;
};

/// \returns the kind of the CudaError in \p E (the first one, if several),
/// or None for any other error. \p E keeps its payload (and stays unchecked).
llvm::Optional<CudaErrorKind> getCudaErrorKind(llvm::Error &E);

/// What cuDeviceGet* report for one device.
struct DeviceInfo {
  int Ordinal = 0;
  std::string Name;
  int ComputeMajor = 0;
  int ComputeMinor = 0;
  int MultiProcessors = 0;
  uint64_t TotalMemory = 0;
  /// `sm_XY` for ptxas -arch.
  std::string getArch() const;
};

/// An opened driver library with its entry points resolved and cuInit done.
/// Thread-safe: the driver API itself is.
class CudaDriver {
public:
  /// Opens \p Path (a file name for the loader's search, or a path),
  /// resolves every entry point and calls cuInit(0).
  static llvm::Expected<std::unique_ptr<CudaDriver>> load(llvm::StringRef Path);

  /// The process-wide driver from getDefaultPath(), loaded on first use; a
  /// failure is remembered and reported again to later callers.
  static llvm::Expected<CudaDriver &> get();

  /// `$MMPTX_LIBCUDA` if set, else `libcuda.so.1`.
  static std::string getDefaultPath();

  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;
  ~CudaDriver();

  llvm::StringRef getPath() const { return Path; }
  /// cuDriverGetVersion, e.g. 13000.
  int getVersion() const { return Version; }
  /// How many entry points came from dlsym because cuGetProcAddress was
  /// absent or did not have them.
  unsigned getNumDlsymFallbacks() const { return NumDlsymFallbacks; }

  llvm::Expected<int> getDeviceCount() const;
  /// NoDevice if \p Ordinal is not below getDeviceCount().
  llvm::Expected<DeviceInfo> getDeviceInfo(int Ordinal) const;

  /// Success if \p Result is CUDA_SUCCESS, else the CudaError for \p Call.
  llvm::Error check(int Result, const llvm::Twine &Call) const;
  /// The driver's name for \p Result, e.g. `CUDA_ERROR_NOT_FOUND`.
  std::string getErrorName(int Result) const;

  const CudaDriverApi &api() const { return *Api; }

private:
  CudaDriver() = default;

  std::string Path;
  SharedLibrary Lib;
  std::unique_ptr<CudaDriverApi> Api;
  int Version = 0;
  unsigned NumDlsymFallbacks = 0;
};

} // namespace runtime
} // namespace mmptx

#endif // MMPTX_RUNTIME_CUDADRIVER_H
