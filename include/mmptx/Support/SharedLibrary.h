//===- SharedLibrary.h - CUDA libraries opened at run time ------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every CUDA library mmptx calls (NVRTC, nvJitLink, the driver) is opened
/// with dlopen at its first use, never linked: a tool, the Python module
/// and a program that links mmptx start, and `--help` works, on a machine
/// without any of them; the call that needs one reports where it looked.
///
/// A library is searched, in order:
///   1. the path given to setCudaLibraryPath() or its environment variable
///      (`MMPTX_NVRTC_PATH`, `MMPTX_NVJITLINK_PATH`, `MMPTX_LIBCUDA`); when
///      one is set, nothing else is tried;
///   2. the CUDA toolkit: `$CUDA_HOME`, `$CUDA_PATH`, else /usr/local/cuda
///      (lib64/, lib/, targets/<arch>-linux/lib/), not for the driver (the
///      toolkit holds only its stub);
///   3. the loader's own search (LD_LIBRARY_PATH, ld.so.cache);
///   4. NVIDIA's pip wheels (`nvidia/cu13/lib`, `nvidia/cuda_nvrtc/lib`,
///      `nvidia/nvjitlink/lib`) under each directory given to
///      addCudaLibrarySearchRoot() (the Python package gives sys.path),
///      `$MMPTX_CUDA_SEARCH_ROOTS` (colon-separated) and the site-packages of
///      `$VIRTUAL_ENV` and `$CONDA_PREFIX`.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_SUPPORT_SHAREDLIBRARY_H
#define MMPTX_SUPPORT_SHAREDLIBRARY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mmptx {

/// A shared library opened with dlopen(RTLD_NOW | RTLD_LOCAL). It is never
/// closed: CUDA libraries do not support being unloaded, and other
/// libraries of the process may hold pointers into them.
class SharedLibrary {
public:
  SharedLibrary() = default;

  /// Opens \p Path (a file, or a bare name for the loader's search); the
  /// error carries dlerror()'s text.
  static llvm::Expected<SharedLibrary> open(const std::string &Path);

  bool isOpen() const { return Handle != nullptr; }
  /// The symbol \p Name, or null.
  void *getSymbol(const char *Name) const;
  /// The path it was opened with.
  llvm::StringRef getPath() const { return Path; }
  /// The file the loader mapped (symbolic links resolved), e.g.
  /// `/usr/local/cuda-13.0/lib/libnvrtc.so.13.0.88`.
  std::string getLoadedFile() const;

private:
  std::string Path;
  void *Handle = nullptr;
};

/// The CUDA libraries mmptx opens at run time.
enum class CudaLibrary { Nvrtc, NvJitLink, Driver };

/// `NVRTC`, `nvJitLink`, `CUDA driver`.
llvm::StringRef getCudaLibraryTitle(CudaLibrary Lib);
/// The environment variable that names the file to load.
llvm::StringRef getCudaLibraryEnvVar(CudaLibrary Lib);

/// Every place searched for \p Lib, in order (files, or bare names for the
/// loader's search). With an override set, only it.
std::vector<std::string> getCudaLibraryCandidates(CudaLibrary Lib);

/// \p Lib, opened on first use (thread-safe). A failure is not remembered:
/// a later call, after setCudaLibraryPath() say, searches again. The error
/// names \p Lib, every place it looked, and what to install.
llvm::Expected<const SharedLibrary &> loadCudaLibrary(CudaLibrary Lib);

/// Loads \p Path for \p Lib from now on (empty: search again). Has no
/// effect once the library is loaded; \returns false then.
bool setCudaLibraryPath(CudaLibrary Lib, llvm::StringRef Path);
/// Adds a directory under which the `nvidia/...` wheel folders are looked
/// for (a site-packages directory).
void addCudaLibrarySearchRoot(llvm::StringRef Dir);

/// What loadCudaLibrary() finds for one library.
struct CudaLibraryStatus {
  bool Found = false;
  /// The version the library reports (`13.0`; the driver's `13.0` too),
  /// refined by its file name where that has more (`13.0.88`).
  std::string Version;
  std::string File;  ///< The file loaded, links resolved.
  std::string Error; ///< Why it is not found.
};
/// Loads \p Lib (if it is not loaded yet) and asks its version.
CudaLibraryStatus getCudaLibraryStatus(CudaLibrary Lib);

/// The version in a library file's name: `13.0.88` for
/// `libnvrtc.so.13.0.88`; "" where the name has none beyond the soname's
/// major.
std::string getVersionFromLibraryName(llvm::StringRef File);

} // namespace mmptx

#endif // MMPTX_SUPPORT_SHAREDLIBRARY_H
