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

#include <mutex>
#include <string>
#include <type_traits>
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

/// The exact version of the library this process loaded that holds
/// \p Symbol (one of its functions; a library linked in statically is the
/// file it is linked into), which reports \p Major.\p Minor: the version its
/// file is named by (`libnvrtc.so.13.0.88` gives `13.0.88`), else the one
/// its build string gives (`Cuda compilation tools, release 13.0, V13.0.88`),
/// else \p Major.\p Minor with the file's path, size and modification time,
/// so that another release of the library is never taken for this one (a
/// cache key must name the library that runs, not the one built against).
std::string getLoadedLibraryVersion(unsigned Major, unsigned Minor,
                                    const void *Symbol);

//===----------------------------------------------------------------------===//
// Entry-point tables
//
// A library's functions are a struct of function pointers, listed once in an
// X-macro. Its signatures are checked against the library's header when that
// is there at build time (MMPTX_CHECK_ENTRY_POINT), and each pointer is
// fetched from the loaded library with setEntryPoint(); a table the table
// itself can list (forEachEntryPoint) is loaded whole by getCudaLibraryApi().
//===----------------------------------------------------------------------===//

/// In an X-macro over a table: a compile-time check that \p Table::\p Member
/// has the type of the header's declaration \p Decl (\p Name in \p Header).
#define MMPTX_CHECK_ENTRY_POINT(Table, Member, Decl, Name, Header)             \
  static_assert(std::is_same<decltype(Table::Member), decltype(&Decl)>::value, \
                "signature of " Name " differs from " Header);

/// Sets the entry point \p Fn to \p Address; \returns false when it is null
/// (the library lacks the function).
template <typename FnT> bool setEntryPoint(FnT *&Fn, void *Address) {
  Fn = reinterpret_cast<FnT *>(Address);
  return Fn != nullptr;
}

/// The entry points of \p Lib that \p ApiT lists, fetched from the loaded
/// library on first use and kept (thread-safe); a failure is not remembered:
/// the library may be installed, or its path given, before the next call.
/// \p ApiT has `template <typename F> void forEachEntryPoint(F Visit)`,
/// which calls `Visit(Member, "symbol")` for each of its pointers, and a
/// `std::string File`, set to the file loaded.
template <typename ApiT>
llvm::Expected<const ApiT &> getCudaLibraryApi(CudaLibrary Lib) {
  static std::mutex Mutex;
  static ApiT Api;
  static bool Loaded = false;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Loaded)
    return Api;
  llvm::Expected<const SharedLibrary &> L = loadCudaLibrary(Lib);
  if (!L)
    return L.takeError();
  ApiT New;
  const char *Missing = nullptr;
  New.forEachEntryPoint([&](auto &Fn, const char *Name) {
    if (!Missing && !setEntryPoint(Fn, L->getSymbol(Name)))
      Missing = Name;
  });
  New.File = L->getLoadedFile();
  if (Missing)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   getCudaLibraryTitle(Lib) + " library '" +
                                       New.File + "' has no entry point '" +
                                       Missing + "'");
  Api = std::move(New);
  Loaded = true;
  return Api;
}

} // namespace mmptx

#endif // MMPTX_SUPPORT_SHAREDLIBRARY_H
