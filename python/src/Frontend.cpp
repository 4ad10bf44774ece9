//===- Frontend.cpp - mmptx._mmptx.frontend: CUDA -> PTX, annotate --------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Binds the first steps of the pipeline: annotate (comment-form sites to
/// inline asm, mmptx/Annotate/Annotate.h) and CUDA -> PTX through NVRTC
/// (mmptx/Frontend/Nvrtc.h, with its content cache), and the run-time
/// search for the CUDA libraries (mmptx/Support/SharedLibrary.h) that
/// python/mmptx/_cuda.py feeds with the pip wheels' folders.
///
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "mmptx/Annotate/Annotate.h"
#include "mmptx/Cache/ContentCache.h"
#include "mmptx/Frontend/Nvrtc.h"
#include "mmptx/Support/SharedLibrary.h"
#include "mmptx/Support/ToolVersion.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>

namespace nb = nanobind;
using namespace mmptx;
using namespace mmptx::python;

/// Error codes of mmptx.errors.NvrtcErrorCode.
enum NvrtcErrc : int {
  NotFound = 1,
  Compile = 2,
  InvalidInput = 3,
  CacheFailure = 4,
};

/// Error codes of mmptx.errors.AnnotateErrorCode.
enum AnnotateErrc : int { Syntax = 1 };

static CudaLibrary parseLibrary(const std::string &Name) {
  if (Name == "nvrtc")
    return CudaLibrary::Nvrtc;
  if (Name == "nvjitlink")
    return CudaLibrary::NvJitLink;
  if (Name == "cuda")
    return CudaLibrary::Driver;
  throw nb::value_error(("unknown CUDA library '" + Name +
                         "' (expected nvrtc, nvjitlink or cuda)")
                            .c_str());
}

/// (found, version, file, error)
static std::tuple<bool, std::string, std::string, std::string>
libraryStatus(const std::string &Name) {
  CudaLibrary Lib = parseLibrary(Name);
  CudaLibraryStatus S;
  {
    nb::gil_scoped_release Release;
    S = getCudaLibraryStatus(Lib);
  }
  return {S.Found, S.Version, S.File, S.Error};
}

static std::tuple<std::string, std::string, bool>
nvrtcCompile(const std::string &Source, const std::string &Name,
             const std::string &Arch, const std::vector<std::string> &Options,
             const std::vector<std::string> &IncludeDirs,
             const std::vector<std::string> &Defines,
             const std::optional<std::string> &CacheDir, uint64_t CacheSizeMb,
             bool ToolkitIncludes) {
  CudaCompileOptions Opts;
  Opts.Arch = Arch;
  Opts.IncludeDirs = IncludeDirs;
  Opts.Defines = Defines;
  Opts.ExtraOptions = Options;
  Opts.UseToolkitIncludes = ToolkitIncludes;
  {
    // Not found is its own error (the compile's would read the same).
    llvm::Expected<const SharedLibrary &> Lib =
        loadCudaLibrary(CudaLibrary::Nvrtc);
    if (!Lib)
      throwError("NvrtcError", NotFound, Lib.takeError());
  }
  std::unique_ptr<ContentCache> Cache;
  if (CacheDir) {
    llvm::Expected<std::unique_ptr<ContentCache>> C = ContentCache::open(
        CacheDir->empty() ? getDefaultCacheDirectory() : *CacheDir,
        CacheSizeMb << 20);
    if (!C)
      throwError("NvrtcError", CacheFailure, C.takeError());
    Cache = std::move(*C);
  }
  llvm::Expected<CudaCompileResult> R = [&] {
    nb::gil_scoped_release Release;
    return compileCudaToPtx(Source, Name, Opts, Cache.get());
  }();
  if (!R) {
    std::string Msg = llvm::toString(R.takeError());
    int Code = Source.find('\0') != std::string::npos ? InvalidInput : Compile;
    throw Failure("NvrtcError", Code, std::move(Msg));
  }
  return {std::move(R->Ptx), std::move(R->Log), R->FromCache};
}

/// (rewritten source, sites rewritten)
static std::tuple<std::string, unsigned> annotatePy(const std::string &Source,
                                                    const std::string &Name,
                                                    bool LineDirectives) {
  llvm::SourceMgr Sm;
  unsigned Id = Sm.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(Source, Name), llvm::SMLoc());
  static const annotate::TypeTable Types = annotate::TypeTable::getDefault();
  annotate::AnnotateOptions Opts;
  Opts.LineDirectives = LineDirectives;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::Expected<unsigned> N =
      annotate::annotateSource(Sm, Id, Types, OS, Opts);
  if (!N)
    throwError("AnnotateError", Syntax, N.takeError());
  OS.flush();
  return {std::move(Out), *N};
}

void mmptx::python::bindFrontend(nb::module_ &M) {
  M.def("nvrtc_compile", &nvrtcCompile, nb::arg("source"), nb::arg("name"),
        nb::arg("arch"), nb::arg("options"), nb::arg("include_dirs"),
        nb::arg("defines"), nb::arg("cache_dir").none(),
        nb::arg("cache_size_mb"), nb::arg("toolkit_includes"));
  M.def("nvrtc_identity", [] {
    nb::gil_scoped_release Release;
    return getNvrtcIdentity();
  });
  M.def("annotate", &annotatePy, nb::arg("source"), nb::arg("name"),
        nb::arg("line_directives"));
  M.def("library_status", &libraryStatus, nb::arg("name"));
  M.def(
      "set_library_path",
      [](const std::string &Name, const std::string &Path) {
        return setCudaLibraryPath(parseLibrary(Name), Path);
      },
      nb::arg("name"), nb::arg("path"));
  M.def(
      "add_search_root",
      [](const std::string &Dir) { addCudaLibrarySearchRoot(Dir); },
      nb::arg("dir"));
  M.def("library_candidates", [](const std::string &Name) {
    return getCudaLibraryCandidates(parseLibrary(Name));
  });
  M.def("version_text", [] {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    {
      nb::gil_scoped_release Release;
      printToolVersion(OS);
    }
    return OS.str();
  });
}
