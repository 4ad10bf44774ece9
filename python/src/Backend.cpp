//===- Backend.cpp - mmptx._mmptx.backend: batch PTX -> cubin -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Binds compileBatch() (mmptx/Backend/Batch.h): the PTX texts are borrowed
/// from the Python strings/bytes while the batch runs without the GIL, and
/// each module comes back as a plain tuple that python/mmptx/backend.py
/// wraps. The polymorphic PTXCompiler stays behind a unique_ptr: nothing
/// here needs its typeinfo.
///
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "mmptx/Backend/Batch.h"
#include "mmptx/Backend/PackedModule.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace nb = nanobind;
using namespace mmptx;
using namespace mmptx::python;

/// Error codes of mmptx.errors.CompileErrorCode.
enum CompileErrc : int {
  UnknownBackend = 1,
  Unavailable = 2,
  InvalidOption = 3,
  CacheFailure = 4,
};

static std::unique_ptr<PTXCompiler>
openCompiler(const std::optional<std::string> &Name) {
  llvm::StringRef N = Name ? llvm::StringRef(*Name) : llvm::StringRef();
  llvm::Expected<std::unique_ptr<PTXCompiler>> C = createPTXCompiler(N);
  if (!C)
    throwError("CompileError",
               N.empty() || parseBackendName(N) ? Unavailable : UnknownBackend,
               C.takeError());
  return std::move(*C);
}

/// (name, available, version or why not) for every backend.
static std::vector<std::tuple<std::string, bool, std::string>> listBackends() {
  std::vector<std::tuple<std::string, bool, std::string>> Out;
  for (BackendKind K : getAllBackends()) {
    llvm::Expected<std::unique_ptr<PTXCompiler>> C = createPTXCompiler(K);
    if (C)
      Out.emplace_back(getBackendName(K).str(), true, (*C)->getVersion().str());
    else
      Out.emplace_back(getBackendName(K).str(), false,
                       llvm::toString(C.takeError()));
  }
  return Out;
}

/// What the batch's thread tells the calling (Python) thread.
struct BatchProgress {
  std::mutex Mutex;
  std::condition_variable Cv;
  size_t Done = 0, Total = 0;
  bool Finished = false;
  std::atomic<bool> Cancel{false};
};

/// Runs \p Run on a thread of its own while this thread, holding the GIL
/// only between waits, calls \p Progress (done, total) as modules finish
/// and checks for signals: Ctrl-C (or an exception from \p Progress) asks
/// the batch to start no further module. Returns whether it was
/// interrupted; an exception from \p Progress is rethrown once the batch
/// has stopped.
static bool runInterruptibly(BatchOptions &BOpts,
                             const std::function<void()> &Run,
                             const nb::object &Progress) {
  BatchProgress P;
  BOpts.OnProgress = [&P](size_t Done, size_t Total) {
    std::lock_guard<std::mutex> Lock(P.Mutex);
    P.Done = Done;
    P.Total = Total;
    P.Cv.notify_all();
  };
  BOpts.ShouldCancel = [&P] { return P.Cancel.load(); };
  std::thread Worker([&] {
    Run();
    std::lock_guard<std::mutex> Lock(P.Mutex);
    P.Finished = true;
    P.Cv.notify_all();
  });
  bool Interrupted = false;
  std::optional<nb::python_error> Raised;
  size_t Reported = 0;
  for (;;) {
    size_t Done, Total;
    bool Finished;
    {
      nb::gil_scoped_release Release;
      std::unique_lock<std::mutex> Lock(P.Mutex);
      P.Cv.wait_for(Lock, std::chrono::milliseconds(100),
                    [&] { return P.Finished || P.Done != Reported; });
      Done = P.Done;
      Total = P.Total;
      Finished = P.Finished;
    }
    if (!Interrupted && PyErr_CheckSignals() != 0) {
      // The default SIGINT handler raised KeyboardInterrupt: the batch
      // stops starting modules; the Python side raises with the results.
      PyErr_Clear();
      Interrupted = true;
      P.Cancel = true;
    }
    if (!Progress.is_none() && Done != Reported && !Raised) {
      try {
        Progress(Done, Total);
      } catch (nb::python_error &E) {
        // Ctrl-C while the callback ran is Ctrl-C: results are kept.
        if (E.matches(PyExc_KeyboardInterrupt))
          Interrupted = true;
        else
          Raised.emplace(std::move(E));
        P.Cancel = true;
      }
    }
    Reported = Done;
    if (Finished)
      break;
  }
  {
    nb::gil_scoped_release Release;
    Worker.join();
  }
  if (Raised)
    throw std::move(*Raised);
  return Interrupted;
}

static nb::tuple compileBatchPy(
    const std::vector<nb::object> &Ptx, const std::vector<std::string> &Names,
    const std::string &Arch, const std::optional<std::string> &Backend,
    unsigned Jobs, const std::optional<std::string> &CacheDir,
    unsigned OptLevel, bool LineInfo, unsigned MaxRegCount, bool Verbose,
    const std::vector<std::string> &Extra, bool Dedup,
    const nb::object &Progress, double Timeout, uint64_t CacheSizeMb) {
  if (!(Timeout >= 0))
    throw nb::value_error("compile_batch: timeout must be >= 0 seconds");
  CompileOptions Opts;
  Opts.Arch = Arch;
  Opts.OptLevel = OptLevel;
  Opts.LineInfo = LineInfo;
  Opts.MaxRegCount = MaxRegCount;
  Opts.Verbose = Verbose;
  Opts.ExtraOptions = Extra;
  if (llvm::Error E = Opts.validate())
    throwError("CompileError", InvalidOption, std::move(E));
  std::unique_ptr<PTXCompiler> Compiler = openCompiler(Backend);

  std::unique_ptr<ContentCache> Cache;
  if (CacheDir) {
    llvm::Expected<std::unique_ptr<ContentCache>> C = ContentCache::open(
        CacheDir->empty() ? getDefaultCacheDirectory() : *CacheDir,
        CacheSizeMb << 20);
    if (!C)
      throwError("CompileError", CacheFailure, C.takeError());
    Cache = std::move(*C);
  }

  // Borrow each text: the caller's list keeps the objects alive.
  std::vector<BatchModule> Modules(Ptx.size());
  for (size_t I = 0; I < Ptx.size(); ++I) {
    const nb::object &O = Ptx[I];
    if (nb::isinstance<nb::str>(O)) {
      Py_ssize_t Size = 0;
      const char *Data = PyUnicode_AsUTF8AndSize(O.ptr(), &Size);
      if (!Data)
        throw nb::python_error();
      Modules[I].Ptx = llvm::StringRef(Data, size_t(Size));
    } else if (nb::isinstance<nb::bytes>(O)) {
      nb::bytes B = nb::borrow<nb::bytes>(O);
      Modules[I].Ptx = llvm::StringRef(B.c_str(), B.size());
    } else {
      throw nb::type_error(("compile_batch: module " + std::to_string(I) +
                            " is neither str nor bytes")
                               .c_str());
    }
    Modules[I].Name =
        I < Names.size() ? Names[I] : "<ptx#" + std::to_string(I) + ">";
  }

  BatchOptions BOpts;
  BOpts.Threads = Jobs;
  BOpts.Cache = Cache.get();
  BOpts.Deduplicate = Dedup;
  BOpts.ModuleTimeout = Timeout;
  BatchResult R;
  bool Interrupted = runInterruptibly(
      BOpts, [&] { R = compileBatch(*Compiler, Modules, Opts, BOpts); },
      Progress);

  static const char *Sources[] = {"compiled", "cached", "duplicate"};
  nb::list Out;
  for (const ModuleResult &M : R.Modules) {
    nb::object Cubin = nb::none();
    if (M.Ok)
      Cubin = nb::bytes(M.Result.Cubin.data(), M.Result.Cubin.size());
    const char *Source = M.Cancelled  ? "cancelled"
                         : M.TimedOut ? "timeout"
                                      : Sources[M.Source];
    Out.append(nb::make_tuple(M.Ok, Cubin, M.Error, M.Result.InfoLog, Source,
                              M.Result.Backend, M.Seconds));
  }
  return nb::make_tuple(Out, Interrupted);
}

/// buildPackedModule(): many stubs in one module of kernels x sites.
static std::string buildPackedModulePy(const std::vector<std::string> &Stubs,
                                       unsigned NumInputs,
                                       unsigned SitesPerKernel,
                                       const std::string &Arch,
                                       const std::string &Prefix) {
  std::vector<llvm::StringRef> Refs(Stubs.begin(), Stubs.end());
  PackedModuleSpec Spec;
  Spec.NumInputs = NumInputs;
  Spec.SitesPerKernel = SitesPerKernel;
  Spec.Arch = Arch;
  Spec.KernelPrefix = Prefix;
  llvm::Expected<std::string> Ptx = buildPackedModule(Refs, Spec);
  if (!Ptx)
    throwError("CompileError", InvalidOption, Ptx.takeError());
  return std::move(*Ptx);
}

void mmptx::python::bindBackend(nb::module_ &M) {
  M.def("backends", &listBackends,
        "(name, available, version or why unavailable) per backend");
  M.def("compile_batch", &compileBatchPy, nb::arg("ptx"), nb::arg("names"),
        nb::arg("arch"), nb::arg("backend").none(), nb::arg("jobs"),
        nb::arg("cache_dir").none(), nb::arg("opt_level"), nb::arg("lineinfo"),
        nb::arg("maxrregcount"), nb::arg("verbose"), nb::arg("options"),
        nb::arg("dedup"), nb::arg("progress").none(), nb::arg("timeout"),
        nb::arg("cache_size_mb"),
        "Compiles each PTX text to a cubin (mmptx.compile_batch); returns "
        "one result tuple per module and whether Ctrl-C stopped the batch.");
  M.def("build_packed_module", &buildPackedModulePy, nb::arg("stubs"),
        nb::arg("num_inputs"), nb::arg("sites_per_kernel"), nb::arg("arch"),
        nb::arg("prefix"),
        "One PTX module holding every stub (mmptx.build_packed_module).");
}
