//===- NvJitLinkCompiler.cpp - The nvJitLink backend ----------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// PTX -> cubin through the toolkit's nvJitLink, in process: one PTX input,
/// linked alone. Built without nvJitLink (MMPTX_HAVE_NVJITLINK unset), the
/// backend reports that it is not available.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/PTXCompiler.h"
#include "mmptx/Cache/ContentCache.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/SharedLibrary.h"

#include <cstdint>

#ifdef MMPTX_HAVE_NVJITLINK_H
#include <nvJitLink.h>
#else
extern "C" {
typedef int nvJitLinkResult;
typedef int nvJitLinkInputType;
typedef struct nvJitLink *nvJitLinkHandle;
}
#endif

using namespace llvm;
using namespace mmptx;

namespace {
// The result codes and the input type mmptx looks at (values from
// nvJitLink.h).
constexpr int JitSuccess = 0;
constexpr int JitUnrecognizedOption = 1;
constexpr int JitInvalidInput = 3;
constexpr int JitPtxCompile = 4;
constexpr int JitUnrecognizedArch = 16;
constexpr int JitUnsupportedArch = 17;
constexpr int JitInputPtx = 2;

#define MMPTX_NVJITLINK_ENTRIES(X)                                             \
  X(Version, "nvJitLinkVersion", (unsigned *, unsigned *))                     \
  X(Create, "nvJitLinkCreate", (nvJitLinkHandle *, uint32_t, const char **))   \
  X(Destroy, "nvJitLinkDestroy", (nvJitLinkHandle *))                          \
  X(AddData, "nvJitLinkAddData",                                               \
    (nvJitLinkHandle, nvJitLinkInputType, const void *, size_t, const char *)) \
  X(Complete, "nvJitLinkComplete", (nvJitLinkHandle))                          \
  X(GetLinkedCubinSize, "nvJitLinkGetLinkedCubinSize",                         \
    (nvJitLinkHandle, size_t *))                                               \
  X(GetLinkedCubin, "nvJitLinkGetLinkedCubin", (nvJitLinkHandle, void *))      \
  X(GetErrorLogSize, "nvJitLinkGetErrorLogSize", (nvJitLinkHandle, size_t *))  \
  X(GetErrorLog, "nvJitLinkGetErrorLog", (nvJitLinkHandle, char *))            \
  X(GetInfoLogSize, "nvJitLinkGetInfoLogSize", (nvJitLinkHandle, size_t *))    \
  X(GetInfoLog, "nvJitLinkGetInfoLog", (nvJitLinkHandle, char *))

struct NvJitLinkApi {
#define MMPTX_NVJITLINK_MEMBER(Member, Name, Params)                           \
  nvJitLinkResult(*Member) Params = nullptr;
  MMPTX_NVJITLINK_ENTRIES(MMPTX_NVJITLINK_MEMBER)
#undef MMPTX_NVJITLINK_MEMBER
  std::string File;

  /// Calls \p Visit(Member, "symbol") for each entry point.
  template <typename FnT> void forEachEntryPoint(FnT Visit) {
#define MMPTX_NVJITLINK_VISIT(Member, Name, Params) Visit(Member, Name);
    MMPTX_NVJITLINK_ENTRIES(MMPTX_NVJITLINK_VISIT)
#undef MMPTX_NVJITLINK_VISIT
  }
};

#ifdef MMPTX_HAVE_NVJITLINK_H
#define MMPTX_NVJITLINK_CHECK(Member, Name, Params)                            \
  MMPTX_CHECK_ENTRY_POINT(NvJitLinkApi, Member, ::nvJitLink##Member, Name,     \
                          "nvJitLink.h")
MMPTX_NVJITLINK_ENTRIES(MMPTX_NVJITLINK_CHECK)
#undef MMPTX_NVJITLINK_CHECK
static_assert(NVJITLINK_SUCCESS == JitSuccess &&
                  NVJITLINK_ERROR_UNRECOGNIZED_OPTION ==
                      JitUnrecognizedOption &&
                  NVJITLINK_ERROR_INVALID_INPUT == JitInvalidInput &&
                  NVJITLINK_ERROR_PTX_COMPILE == JitPtxCompile &&
                  NVJITLINK_ERROR_UNRECOGNIZED_ARCH == JitUnrecognizedArch &&
                  NVJITLINK_ERROR_UNSUPPORTED_ARCH == JitUnsupportedArch &&
                  NVJITLINK_INPUT_PTX == JitInputPtx,
              "constants differ from nvJitLink.h");
#endif

Expected<const NvJitLinkApi &> getNvJitLinkApi() {
  return getCudaLibraryApi<NvJitLinkApi>(CudaLibrary::NvJitLink);
}

class NvJitLinkBackend : public PTXCompiler {
public:
  NvJitLinkBackend(const NvJitLinkApi &Api, std::string Version)
      : PTXCompiler(BackendKind::NvJitLink, std::move(Version)), Api(Api) {}

  Expected<RawResult> compileImpl(StringRef Ptx,
                                  const CompileOptions &Opts) override {
    std::vector<std::string> Args =
        Opts.getArgs({"-arch=", "-lineinfo", "-maxrregcount=", "-verbose"});
    // Where a CUDA driver is installed, nvJitLink keeps every result in the
    // driver's disk cache (~/.nv/ComputeCache) unless told not to: a second
    // cache beside mmptx's, outside its size limit, that made --no-cache and
    // every benchmark of this backend on such a machine wrong.
    Args.push_back("-no-cache");
    std::vector<const char *> Argv = getArgv(Args);

    RawResult Out;
    nvJitLinkHandle H = nullptr;
    nvJitLinkResult R = Api.Create(&H, uint32_t(Argv.size()), Argv.data());
    if (R != JitSuccess) {
      // A bad option fails here, before any input: the log says which.
      Out.Failed = true;
      Out.Status = statusText(R);
      if (H) {
        Out.Log = errorLog(H);
        Api.Destroy(&H);
      }
      return Out;
    }
    R = Api.AddData(H, nvJitLinkInputType(JitInputPtx), Ptx.data(), Ptx.size(),
                    "ptx");
    if (R == JitSuccess)
      R = Api.Complete(H);
    if (R != JitSuccess) {
      Out.Failed = true;
      Out.Status = statusText(R);
      Out.Log = errorLog(H);
    } else {
      size_t N = 0;
      if (Api.GetInfoLogSize(H, &N) == JitSuccess && N > 1) {
        std::string Log(N, '\0');
        if (Api.GetInfoLog(H, &Log[0]) == JitSuccess)
          Out.Log = StringRef(Log.c_str()).str();
      }
      N = 0;
      if (Api.GetLinkedCubinSize(H, &N) != JitSuccess ||
          (Out.Cubin.resize(N),
           Api.GetLinkedCubin(H, &Out.Cubin[0]) != JitSuccess)) {
        Out.Failed = true;
        Out.Status = "no linked cubin";
      }
    }
    Api.Destroy(&H);
    return Out;
  }

private:
  std::string errorLog(nvJitLinkHandle H) const {
    size_t N = 0;
    if (Api.GetErrorLogSize(H, &N) != JitSuccess || N <= 1)
      return "";
    std::string Log(N, '\0');
    if (Api.GetErrorLog(H, &Log[0]) != JitSuccess)
      return "";
    return StringRef(Log.c_str()).str();
  }

  static std::string statusText(nvJitLinkResult R) {
    switch (int(R)) {
    case JitUnrecognizedOption:
      return "unrecognized option";
    case JitInvalidInput:
      return "invalid input";
    case JitPtxCompile:
      return "";
    case JitUnrecognizedArch:
    case JitUnsupportedArch:
      return "unsupported architecture";
    default:
      return "nvJitLink code " + std::to_string(int(R));
    }
  }

  const NvJitLinkApi &Api;
};
} // namespace

Expected<std::unique_ptr<PTXCompiler>> mmptx::createNvJitLinkBackend() {
  Expected<const NvJitLinkApi &> Api = getNvJitLinkApi();
  if (!Api)
    return makeError("the nvjitlink backend is not available: " +
                     toString(Api.takeError()));
  unsigned Major = 0, Minor = 0;
  if (Api->Version(&Major, &Minor) != JitSuccess)
    return makeError("nvjitlink: cannot query the library's version");
  // The library loaded at run time, which another patch release may have
  // replaced since the build: its file name, else its own build string,
  // else the file's identity.
  std::string Version = getLoadedLibraryVersion(
      Major, Minor, reinterpret_cast<const void *>(Api->Version));
  return std::unique_ptr<PTXCompiler>(new NvJitLinkBackend(*Api, Version));
}
