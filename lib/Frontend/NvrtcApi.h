//===- NvrtcApi.h - NVRTC's entry points, loaded at run time ----*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The NVRTC functions the frontend calls, fetched from the library that
/// loadCudaLibrary() opens. With the toolkit's nvrtc.h at build time
/// (MMPTX_HAVE_NVRTC_H) every declared signature is checked against it;
/// without it mmptx still builds, and finds NVRTC at run time. Private to
/// lib/Frontend.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_LIB_FRONTEND_NVRTCAPI_H
#define MMPTX_LIB_FRONTEND_NVRTCAPI_H

#include <cstddef>
#include <string>

#ifdef MMPTX_HAVE_NVRTC_H
#include <nvrtc.h>
#else
extern "C" {
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
}
#endif

namespace mmptx {
namespace nvrtc {

constexpr int Success = 0;
constexpr int ErrorInvalidOption = 5;

#define MMPTX_NVRTC_ENTRIES(X)                                                 \
  X(GetErrorString, "nvrtcGetErrorString", const char *, (nvrtcResult))        \
  X(Version, "nvrtcVersion", nvrtcResult, (int *, int *))                      \
  X(CreateProgram, "nvrtcCreateProgram", nvrtcResult,                          \
    (nvrtcProgram *, const char *, const char *, int, const char *const *,     \
     const char *const *))                                                     \
  X(DestroyProgram, "nvrtcDestroyProgram", nvrtcResult, (nvrtcProgram *))      \
  X(CompileProgram, "nvrtcCompileProgram", nvrtcResult,                        \
    (nvrtcProgram, int, const char *const *))                                  \
  X(GetPTXSize, "nvrtcGetPTXSize", nvrtcResult, (nvrtcProgram, size_t *))      \
  X(GetPTX, "nvrtcGetPTX", nvrtcResult, (nvrtcProgram, char *))                \
  X(GetProgramLogSize, "nvrtcGetProgramLogSize", nvrtcResult,                  \
    (nvrtcProgram, size_t *))                                                  \
  X(GetProgramLog, "nvrtcGetProgramLog", nvrtcResult, (nvrtcProgram, char *))

struct NvrtcApi {
#define MMPTX_NVRTC_MEMBER(Member, Name, Ret, Params) Ret(*Member) Params;
  MMPTX_NVRTC_ENTRIES(MMPTX_NVRTC_MEMBER)
#undef MMPTX_NVRTC_MEMBER
  /// The file loaded (links resolved).
  std::string File;

  /// Calls \p Visit(Member, "symbol") for each entry point.
  template <typename FnT> void forEachEntryPoint(FnT Visit) {
#define MMPTX_NVRTC_VISIT(Member, Name, Ret, Params) Visit(Member, Name);
    MMPTX_NVRTC_ENTRIES(MMPTX_NVRTC_VISIT)
#undef MMPTX_NVRTC_VISIT
  }
};

} // namespace nvrtc
} // namespace mmptx

#endif // MMPTX_LIB_FRONTEND_NVRTCAPI_H
