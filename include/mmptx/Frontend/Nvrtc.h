//===- Nvrtc.h - CUDA to PTX with NVRTC in process --------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The first compile of the pipeline, CUDA -> PTX, through NVRTC in this
/// process (no nvcc process, no host compiler), optionally through the
/// content-keyed cache. NVRTC is opened at the first compile, never
/// linked.
///
/// The cache key covers the source, the content of every file it may
/// include (found by following `#include` lines, `__has_include` tests and
/// pre-includes through every directory NVRTC searches: beside the
/// including file as it was opened, the -I directories, including those
/// given as NVRTC options; an include spelled through a macro is followed
/// through every definition of the macro; the toolkit's own headers are
/// covered by the NVRTC version), every option, the NVRTC version and the
/// architecture. Where that cannot be known (a macro mmptx cannot expand,
/// precompiled headers), the PTX is not cached and the result says why.
///
/// Beside the PTX, the cache keeps what a compile learnt of each file it
/// read, as ccache's direct mode keeps its manifests: the next compile of
/// the same source and options reads only the files whose identity
/// (device, inode, size, modification and status-change times) changed,
/// or was too recent to trust. The search for the files is done again
/// every time, so the key is always the one a full scan gives.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_FRONTEND_NVRTC_H
#define MMPTX_FRONTEND_NVRTC_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mmptx {

class ContentCache;

struct CudaCompileOptions {
  std::string Arch = "sm_80";
  std::vector<std::string> IncludeDirs;
  std::vector<std::string> Defines; ///< `NAME` or `NAME=VALUE`.
  /// Passed to NVRTC as they are: `-G`, `-lineinfo`, `-std=c++17`, ...
  std::vector<std::string> ExtraOptions;
  /// Search the toolkit's include directory (and its cccl/) after the -I
  /// ones, as nvcc does.
  bool UseToolkitIncludes = true;
};

struct CudaCompileResult {
  std::string Ptx;
  std::string Log; ///< NVRTC's warnings, if any.
  bool FromCache = false;
  /// With a cache: why this PTX could not be cached (a note for the user),
  /// or "".
  std::string CacheNote;
  /// With a cache: the included files the key covers, and how many of them
  /// were read; the others were known unchanged (same device, inode, size,
  /// modification and status-change times) since an earlier compile of
  /// the same source and options, whose record of them is kept in the
  /// cache.
  unsigned NumKeyFiles = 0, NumKeyFilesRead = 0;
};

/// True when NVRTC can be loaded (mmptx/Support/SharedLibrary.h says where
/// it is looked for); the first call loads it.
bool isNvrtcAvailable();
/// `nvrtc <version>`, e.g. `nvrtc 13.0.88`; empty where NVRTC cannot be
/// loaded.
std::string getNvrtcIdentity();

/// Compiles \p Source (named \p Name in messages and for resolving quoted
/// includes) to PTX. A NUL byte in the source is an error; a failed
/// compile is an error holding NVRTC's log; NVRTC not found is an error
/// naming where it was looked for and what to install.
llvm::Expected<CudaCompileResult>
compileCudaToPtx(llvm::StringRef Source, llvm::StringRef Name,
                 const CudaCompileOptions &Opts, ContentCache *Cache = nullptr);

/// The cache key of that compile (exposed for tests), or "" when the files
/// NVRTC reads cannot be known (\p WhyNot, if given, says why).
std::string getPtxCacheKey(llvm::StringRef Source, llvm::StringRef Name,
                           const CudaCompileOptions &Opts,
                           std::string *WhyNot = nullptr);

} // namespace mmptx

#endif // MMPTX_FRONTEND_NVRTC_H
