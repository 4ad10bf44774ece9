//===- Runtime.cpp - mmptx._mmptx.runtime: cubins on a GPU ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Binds runKernel() (mmptx/Runtime/KernelRun.h) behind a Device that owns
/// its driver (loaded from $MMPTX_LIBCUDA or libcuda.so.1 when created) and
/// context. Argument values cross as uint64 bit patterns, one per element;
/// python/mmptx/runtime.py converts NumPy arrays to and from them.
///
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "mmptx/Runtime/Context.h"
#include "mmptx/Runtime/CudaDriver.h"
#include "mmptx/Runtime/KernelRun.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <mutex>

namespace nb = nanobind;
using namespace mmptx;
using namespace mmptx::runtime;
using namespace mmptx::python;

namespace {

/// mmptx.errors.CudaErrorCode: CudaErrorKind + 1; 0 for other errors.
[[noreturn]] void throwCuda(llvm::Error e) {
  llvm::Optional<CudaErrorKind> kind = getCudaErrorKind(e);
  throwError("CudaError", kind ? int(*kind) + 1 : 0, std::move(e));
}

using UInt64Array = nb::ndarray<nb::numpy, uint64_t, nb::ndim<1>>;

class PyDevice {
public:
  explicit PyDevice(int ordinal) : theOrdinal(ordinal) {
    llvm::Expected<std::unique_ptr<CudaDriver>> d =
        CudaDriver::load(CudaDriver::getDefaultPath());
    if (!d)
      throwCuda(d.takeError());
    driver = std::move(*d);
    llvm::Expected<std::unique_ptr<Context>> c =
        Context::create(*driver, ordinal);
    if (!c)
      throwCuda(c.takeError());
    ctx = std::move(*c);
  }
  ~PyDevice() {
    ctx.reset(); // before its driver
  }

  /// (ordinal, name, major, minor, multiprocessors, total memory).
  std::tuple<int, std::string, int, int, int, uint64_t> info() const {
    llvm::Expected<DeviceInfo> i = driver->getDeviceInfo(ordinal());
    if (!i)
      throwCuda(i.takeError());
    return {i->Ordinal,         i->Name,       i->ComputeMajor, i->ComputeMinor,
            i->MultiProcessors, i->TotalMemory};
  }

  int ordinal() const { return theOrdinal; }

  /// Runs \p kernel of \p image; \p args are (kind, type, values) with the
  /// KernelArg enumerators. \returns the values of every argument after
  /// the run (read back for inout/out buffers) and the times.
  std::tuple<std::vector<UInt64Array>, double, double>
  run(nb::bytes image, const std::string &kernel,
      std::tuple<unsigned, unsigned, unsigned> grid,
      std::tuple<unsigned, unsigned, unsigned> block, unsigned shared,
      const std::vector<std::tuple<int, int, nb::object>> &args,
      unsigned repeat) {
    std::vector<KernelArg> kargs;
    for (const auto &a : args) {
      KernelArg k;
      int kind = std::get<0>(a), type = std::get<1>(a);
      if (kind < 0 || kind > KernelArg::Out || type < 0 ||
          type > int(ArgType::S64))
        throw nb::value_error("run: bad argument kind or type");
      k.Kind = KernelArg::KindTy(kind);
      k.Type = ArgType(type);
      Words w(std::get<2>(a));
      k.Values.assign(w.ref.begin(), w.ref.end());
      kargs.push_back(std::move(k));
    }
    LaunchConfig cfg;
    std::tie(cfg.Grid.X, cfg.Grid.Y, cfg.Grid.Z) = grid;
    std::tie(cfg.Block.X, cfg.Block.Y, cfg.Block.Z) = block;
    cfg.SharedBytes = shared;
    KernelRunTimes times;
    llvm::Error err = llvm::Error::success();
    {
      nb::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mutex);
      err = runKernel(*ctx, llvm::ArrayRef<char>(image.c_str(), image.size()),
                      kernel, cfg, kargs, std::max(repeat, 1u), &times);
    }
    if (err)
      throwCuda(std::move(err));
    std::vector<UInt64Array> out;
    for (KernelArg &k : kargs) {
      auto *v = new std::vector<uint64_t>(std::move(k.Values));
      nb::capsule owner(v, [](void *p) noexcept {
        delete static_cast<std::vector<uint64_t> *>(p);
      });
      out.emplace_back(v->data(), std::initializer_list<size_t>{v->size()},
                       owner);
    }
    return {std::move(out), times.ModuleLoad, times.Launch};
  }

private:
  int theOrdinal;
  std::unique_ptr<CudaDriver> driver;
  std::unique_ptr<Context> ctx;
  std::mutex mutex; ///< one launch at a time per context
};

int deviceCount() {
  llvm::Expected<std::unique_ptr<CudaDriver>> d =
      CudaDriver::load(CudaDriver::getDefaultPath());
  if (!d) {
    llvm::consumeError(d.takeError());
    return 0;
  }
  llvm::Expected<int> n = (*d)->getDeviceCount();
  if (!n) {
    llvm::consumeError(n.takeError());
    return 0;
  }
  return *n;
}

} // namespace

void mmptx::python::bindRuntime(nb::module_ &m) {
  nb::class_<PyDevice>(m, "Device")
      .def(nb::init<int>(), nb::arg("ordinal"))
      .def("info", &PyDevice::info)
      .def_prop_ro("ordinal", &PyDevice::ordinal)
      .def("run", &PyDevice::run, nb::arg("image"), nb::arg("kernel"),
           nb::arg("grid"), nb::arg("block"), nb::arg("shared"),
           nb::arg("args"), nb::arg("repeat"));
  m.def("device_count", &deviceCount,
        "Devices of the driver $MMPTX_LIBCUDA (default libcuda.so.1); 0 "
        "without a driver or device");
}
