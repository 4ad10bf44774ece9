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

#include "mmptx/Backend/ContentCache.h"
#include "mmptx/Backend/PTXCompiler.h"
#include "mmptx/Support/Diagnostic.h"

#ifdef MMPTX_HAVE_NVJITLINK
#include <nvJitLink.h>
#endif

using namespace llvm;
using namespace mmptx;

#ifdef MMPTX_HAVE_NVJITLINK
namespace {
class NvJitLinkBackend : public PTXCompiler {
public:
  explicit NvJitLinkBackend(std::string Version)
      : PTXCompiler(BackendKind::NvJitLink, std::move(Version)) {}

  Expected<RawResult> compileImpl(StringRef Ptx,
                                  const CompileOptions &Opts) override {
    std::vector<std::string> Args =
        Opts.getArgs({"-arch=", "-lineinfo", "-maxrregcount=", "-verbose"});
    std::vector<const char *> Argv = getArgv(Args);

    RawResult Out;
    nvJitLinkHandle H = nullptr;
    nvJitLinkResult R = nvJitLinkCreate(&H, uint32_t(Argv.size()), Argv.data());
    if (R != NVJITLINK_SUCCESS) {
      // A bad option fails here, before any input: the log says which.
      Out.Failed = true;
      Out.Status = statusText(R);
      if (H) {
        Out.Log = errorLog(H);
        nvJitLinkDestroy(&H);
      }
      return Out;
    }
    R = nvJitLinkAddData(H, NVJITLINK_INPUT_PTX, Ptx.data(), Ptx.size(), "ptx");
    if (R == NVJITLINK_SUCCESS)
      R = nvJitLinkComplete(H);
    if (R != NVJITLINK_SUCCESS) {
      Out.Failed = true;
      Out.Status = statusText(R);
      Out.Log = errorLog(H);
    } else {
      size_t N = 0;
      if (nvJitLinkGetInfoLogSize(H, &N) == NVJITLINK_SUCCESS && N > 1) {
        std::string Log(N, '\0');
        if (nvJitLinkGetInfoLog(H, &Log[0]) == NVJITLINK_SUCCESS)
          Out.Log = StringRef(Log.c_str()).str();
      }
      N = 0;
      if (nvJitLinkGetLinkedCubinSize(H, &N) != NVJITLINK_SUCCESS ||
          (Out.Cubin.resize(N),
           nvJitLinkGetLinkedCubin(H, &Out.Cubin[0]) != NVJITLINK_SUCCESS)) {
        Out.Failed = true;
        Out.Status = "no linked cubin";
      }
    }
    nvJitLinkDestroy(&H);
    return Out;
  }

private:
  static std::string errorLog(nvJitLinkHandle H) {
    size_t N = 0;
    if (nvJitLinkGetErrorLogSize(H, &N) != NVJITLINK_SUCCESS || N <= 1)
      return "";
    std::string Log(N, '\0');
    if (nvJitLinkGetErrorLog(H, &Log[0]) != NVJITLINK_SUCCESS)
      return "";
    return StringRef(Log.c_str()).str();
  }

  static std::string statusText(nvJitLinkResult R) {
    switch (R) {
    case NVJITLINK_ERROR_UNRECOGNIZED_OPTION:
      return "unrecognized option";
    case NVJITLINK_ERROR_INVALID_INPUT:
      return "invalid input";
    case NVJITLINK_ERROR_PTX_COMPILE:
      return "";
    case NVJITLINK_ERROR_UNRECOGNIZED_ARCH:
    case NVJITLINK_ERROR_UNSUPPORTED_ARCH:
      return "unsupported architecture";
    default:
      return "nvJitLink code " + std::to_string(int(R));
    }
  }
};
} // namespace

Expected<std::unique_ptr<PTXCompiler>> mmptx::createNvJitLinkBackend() {
  unsigned Major = 0, Minor = 0;
  if (nvJitLinkVersion(&Major, &Minor) != NVJITLINK_SUCCESS)
    return makeError("nvjitlink: cannot query the library's version");
  // The library loaded at run time, which another patch release may have
  // replaced since the build.
  std::string Version = getLoadedLibraryVersion(
      Major, Minor, reinterpret_cast<const void *>(&nvJitLinkVersion));
  return std::unique_ptr<PTXCompiler>(new NvJitLinkBackend(Version));
}
#else
Expected<std::unique_ptr<PTXCompiler>> mmptx::createNvJitLinkBackend() {
  return makeError("the nvjitlink backend is not available: mmptx was built "
                   "without the CUDA toolkit's nvJitLink");
}
#endif
