//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Runtime/CudaDriver.h"
#include "CudaApi.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <mutex>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::runtime;

#ifdef MMPTX_HAVE_CUDA_H
// Every declared signature must be the one cuda.h gives the symbol it is
// fetched as (`cu##Member` expands to cuda.h's versioned name, e.g.
// cuMemAlloc -> cuMemAlloc_v2).
#define MMPTX_CUDA_ENTRY(Member, Name, Version, Symbol, Params)                \
  MMPTX_CHECK_ENTRY_POINT(CudaDriverApi, Member, ::cu##Member, Name, "cuda.h")
#include "CudaEntryPoints.def"
static_assert(
    std::is_same<GetProcAddressV2Fn, decltype(&::cuGetProcAddress_v2)>::value,
    "cuGetProcAddress_v2 differs from cuda.h");
static_assert(CUDA_ERROR_STUB_LIBRARY == CudaErrorStubLibrary &&
                  CUDA_ERROR_NO_DEVICE == CudaErrorNoDevice &&
                  CUDA_ERROR_NOT_FOUND == CudaErrorNotFound &&
                  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ==
                      AttrComputeCapabilityMajor &&
                  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR ==
                      AttrComputeCapabilityMinor &&
                  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT ==
                      AttrMultiProcessorCount,
              "constants differ from cuda.h");
#endif

char CudaError::ID = 0;

void CudaError::log(raw_ostream &OS) const {
  OS << Call << ": ";
  if (Code != 0 || !CodeName.empty())
    OS << CodeName << " (" << Code << ")";
  if (!Detail.empty())
    OS << (Code != 0 || !CodeName.empty() ? ": " : "") << Detail;
}

std::error_code CudaError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

Optional<CudaErrorKind> runtime::getCudaErrorKind(Error &E) {
  Optional<CudaErrorKind> Kind;
  E = handleErrors(std::move(E), [&](std::unique_ptr<CudaError> CE) -> Error {
    if (!Kind)
      Kind = CE->getKind();
    return Error(std::move(CE));
  });
  return Kind;
}

std::string DeviceInfo::getArch() const {
  return "sm_" + std::to_string(ComputeMajor) + std::to_string(ComputeMinor);
}

std::string CudaDriver::getDefaultPath() {
  if (const char *Env = std::getenv("MMPTX_LIBCUDA"))
    if (*Env)
      return Env;
  return "libcuda.so.1";
}

CudaDriver::~CudaDriver() {
  // The driver stays mapped: contexts of other libraries in the process may
  // still use it, and unloading libcuda is not supported by NVIDIA.
}

std::string CudaDriver::getErrorName(int Result) const {
  const char *Name = nullptr;
  if (Api && Api->GetErrorName &&
      int(Api->GetErrorName(static_cast<CUresult>(Result), &Name)) ==
          CudaSuccess &&
      Name)
    return Name;
  // The stub library answers 34 to everything, cuGetErrorName included.
  if (Result == CudaErrorStubLibrary)
    return "CUDA_ERROR_STUB_LIBRARY";
  return "CUresult";
}

Error CudaDriver::check(int Result, const Twine &Call) const {
  if (Result == CudaSuccess)
    return Error::success();
  std::string Detail;
  const char *Str = nullptr;
  if (Api && Api->GetErrorString &&
      int(Api->GetErrorString(static_cast<CUresult>(Result), &Str)) ==
          CudaSuccess &&
      Str)
    Detail = Str;
  CudaErrorKind Kind = CudaErrorKind::Call;
  if (Result == CudaErrorStubLibrary) {
    Kind = CudaErrorKind::StubLibrary;
    if (Detail.empty())
      Detail = "the CUDA toolkit's stub library, not a driver";
  } else if (Result == CudaErrorNoDevice) {
    Kind = CudaErrorKind::NoDevice;
  }
  return make_error<CudaError>(Kind, Call.str(), Result, getErrorName(Result),
                               std::move(Detail));
}

Expected<std::unique_ptr<CudaDriver>> CudaDriver::load(StringRef Path) {
  std::unique_ptr<CudaDriver> D(new CudaDriver());
  D->Path = Path.str();
  Expected<SharedLibrary> Lib = SharedLibrary::open(D->Path);
  if (!Lib)
    return make_error<CudaError>(CudaErrorKind::NoDriver, "dlopen", 0, "",
                                 "cannot load the CUDA driver '" + D->Path +
                                     "': " + toString(Lib.takeError()));
  D->Lib = std::move(*Lib);
  D->Api = std::make_unique<CudaDriverApi>();

  // cuGetProcAddress_v2 (12.0+), else its 11.3 form, else dlsym alone.
  auto *GetV2 = reinterpret_cast<GetProcAddressV2Fn>(
      D->Lib.getSymbol("cuGetProcAddress_v2"));
  auto *GetV1 = GetV2 ? nullptr
                      : reinterpret_cast<GetProcAddressV1Fn>(
                            D->Lib.getSymbol("cuGetProcAddress"));
  auto resolve = [&](const char *Name, int Version,
                     const char *Symbol) -> void * {
    void *Fn = nullptr;
    CUresult R = static_cast<CUresult>(CudaErrorNotFound);
    if (GetV2) {
      CUdriverProcAddressQueryResult Status{};
      R = GetV2(Name, &Fn, Version, 0, &Status);
    } else if (GetV1) {
      R = GetV1(Name, &Fn, Version, 0);
    }
    if (int(R) == CudaSuccess && Fn)
      return Fn;
    ++D->NumDlsymFallbacks;
    return D->Lib.getSymbol(Symbol);
  };
#define MMPTX_CUDA_ENTRY(Member, Name, Version, Symbol, Params)                \
  if (!setEntryPoint(D->Api->Member, resolve(Name, Version, Symbol)))          \
    return make_error<CudaError>(                                              \
        CudaErrorKind::NoDriver, "cuGetProcAddress", 0, "",                    \
        "the CUDA driver '" + D->Path +                                        \
            "' has no entry point '" Name "' (version " #Version ")");
#include "CudaEntryPoints.def"

  if (Error E = D->check(D->Api->Init(0), "cuInit"))
    return E;
  if (Error E =
          D->check(D->Api->DriverGetVersion(&D->Version), "cuDriverGetVersion"))
    return E;
  return D;
}

Expected<CudaDriver &> CudaDriver::get() {
  static std::once_flag Once;
  static std::unique_ptr<CudaDriver> Driver;
  static std::unique_ptr<CudaError> Failure;
  std::call_once(Once, [] {
    Expected<std::unique_ptr<CudaDriver>> D = load(getDefaultPath());
    if (D) {
      Driver = std::move(*D);
      return;
    }
    handleAllErrors(D.takeError(), [](const CudaError &E) {
      Failure = std::make_unique<CudaError>(E);
    });
  });
  if (Driver)
    return *Driver;
  return make_error<CudaError>(*Failure);
}

Expected<int> CudaDriver::getDeviceCount() const {
  int Count = 0;
  if (Error E = check(Api->DeviceGetCount(&Count), "cuDeviceGetCount"))
    return E;
  return Count;
}

Expected<DeviceInfo> CudaDriver::getDeviceInfo(int Ordinal) const {
  Expected<int> Count = getDeviceCount();
  if (!Count)
    return Count.takeError();
  if (Ordinal < 0 || Ordinal >= *Count)
    return make_error<CudaError>(
        CudaErrorKind::NoDevice, "cuDeviceGet", CudaErrorInvalidDevice,
        getErrorName(CudaErrorInvalidDevice),
        "no device " + std::to_string(Ordinal) + " (" + std::to_string(*Count) +
            " device" + (*Count == 1 ? "" : "s") + ")");
  CUdevice Dev;
  if (Error E = check(Api->DeviceGet(&Dev, Ordinal), "cuDeviceGet"))
    return E;
  DeviceInfo Info;
  Info.Ordinal = Ordinal;
  char Name[256] = {0};
  if (Error E = check(Api->DeviceGetName(Name, sizeof(Name) - 1, Dev),
                      "cuDeviceGetName"))
    return E;
  Info.Name = Name;
  struct {
    int *Out;
    int Attr;
  } Attrs[] = {{&Info.ComputeMajor, AttrComputeCapabilityMajor},
               {&Info.ComputeMinor, AttrComputeCapabilityMinor},
               {&Info.MultiProcessors, AttrMultiProcessorCount}};
  for (auto &A : Attrs)
    if (Error E =
            check(Api->DeviceGetAttribute(
                      A.Out, static_cast<CUdevice_attribute>(A.Attr), Dev),
                  "cuDeviceGetAttribute"))
      return E;
  size_t Mem = 0;
  if (Error E = check(Api->DeviceTotalMem(&Mem, Dev), "cuDeviceTotalMem"))
    return E;
  Info.TotalMemory = Mem;
  return Info;
}
