//===- NvPTXCompiler.cpp - The nvPTXCompiler static library backend -------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The only file that uses libnvptxcompiler_static.a (~39 MB linked): it is
/// its own library, MMPTXBackendNvPtx, so only what compiles PTX pulls it
/// in. Built without the library (MMPTX_HAVE_NVPTXCOMPILER unset), the
/// backend reports that it is not available.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/PTXCompiler.h"
#include "mmptx/Cache/ContentCache.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/SharedLibrary.h"
#include "mmptx/Support/ToolVersion.h"

#ifdef MMPTX_HAVE_NVPTXCOMPILER
#include <nvPTXCompiler.h>
#endif

using namespace llvm;
using namespace mmptx;

#ifdef MMPTX_HAVE_NVPTXCOMPILER
namespace {
class NvPTXCompilerBackend : public PTXCompiler {
public:
  explicit NvPTXCompilerBackend(std::string Version)
      : PTXCompiler(BackendKind::NvPTXCompiler, std::move(Version)) {}

  Expected<RawResult> compileImpl(StringRef Ptx,
                                  const CompileOptions &Opts) override {
    std::vector<std::string> Args =
        Opts.getArgs({"--gpu-name=", "--generate-line-info",
                      "--maxrregcount=", "--verbose"});
    std::vector<const char *> Argv = getArgv(Args);

    nvPTXCompilerHandle H = nullptr;
    if (nvPTXCompileResult R = nvPTXCompilerCreate(&H, Ptx.size(), Ptx.data()))
      return makeError("nvPTXCompilerCreate failed (code " + Twine(int(R)) +
                       ")");
    RawResult Out;
    nvPTXCompileResult R =
        nvPTXCompilerCompile(H, int(Argv.size()), Argv.data());
    auto GetLog = [&](auto SizeFn, auto LogFn) {
      size_t N = 0;
      if (SizeFn(H, &N) || N <= 1)
        return;
      std::string Log(N, '\0');
      if (!LogFn(H, &Log[0]))
        Out.Log += StringRef(Log.c_str()).str();
    };
    if (R != NVPTXCOMPILE_SUCCESS) {
      Out.Failed = true;
      Out.Status = statusText(R);
      GetLog(nvPTXCompilerGetErrorLogSize, nvPTXCompilerGetErrorLog);
    } else {
      GetLog(nvPTXCompilerGetInfoLogSize, nvPTXCompilerGetInfoLog);
      size_t N = 0;
      if (nvPTXCompilerGetCompiledProgramSize(H, &N) == NVPTXCOMPILE_SUCCESS) {
        Out.Cubin.resize(N);
        if (nvPTXCompilerGetCompiledProgram(H, &Out.Cubin[0]) !=
            NVPTXCOMPILE_SUCCESS) {
          Out.Failed = true;
          Out.Status = "no compiled program";
        }
      }
    }
    nvPTXCompilerDestroy(&H);
    return Out;
  }

private:
  static std::string statusText(nvPTXCompileResult R) {
    switch (R) {
    case NVPTXCOMPILE_ERROR_INVALID_INPUT:
      return "invalid input";
    case NVPTXCOMPILE_ERROR_COMPILATION_FAILURE:
      return "";
    case NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION:
      return "unsupported PTX version";
    case NVPTXCOMPILE_ERROR_OUT_OF_MEMORY:
      return "out of memory";
    default:
      return "nvPTXCompiler code " + std::to_string(int(R));
    }
  }
};
} // namespace

/// The linked-in library's exact version: the one its build string in the
/// file it is linked into gives; "" where the library cannot say.
static std::string getLinkedVersion() {
  unsigned Major = 0, Minor = 0;
  if (nvPTXCompilerGetVersion(&Major, &Minor) != NVPTXCOMPILE_SUCCESS)
    return "";
  return getLoadedLibraryVersion(
      Major, Minor, reinterpret_cast<const void *>(&nvPTXCompilerGetVersion));
}

// A program that links the library says so in its `--version`.
static const bool VersionLineAdded = [] {
  addToolVersionLine([] {
    std::string Version = getLinkedVersion();
    return "nvPTXCompiler: " + (Version.empty() ? "unknown version" : Version) +
           " (linked in)";
  });
  return true;
}();

Expected<std::unique_ptr<PTXCompiler>> mmptx::createNvPTXCompilerBackend() {
  (void)VersionLineAdded;
  std::string Version = getLinkedVersion();
  if (Version.empty())
    return makeError("nvptxcompiler: cannot query the library's version");
  return std::unique_ptr<PTXCompiler>(new NvPTXCompilerBackend(Version));
}
#else
Expected<std::unique_ptr<PTXCompiler>> mmptx::createNvPTXCompilerBackend() {
  return makeError("the nvptxcompiler backend is not available: mmptx was "
                   "built without libnvptxcompiler_static.a (utils/setup.sh "
                   "installs the nvidia-nvptxcompiler wheel)");
}
#endif
