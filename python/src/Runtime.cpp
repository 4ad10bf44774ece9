//===- Runtime.cpp - mmptx._mmptx.runtime: cubins on a GPU ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Binds mmptx/Runtime behind a Device that owns its driver (loaded from
/// $MMPTX_LIBCUDA or libcuda.so.1 when created) and context: device buffers,
/// loaded modules and their kernels (which keep the context alive), and
/// runKernel() (mmptx/Runtime/KernelRun.h) for one-shot runs, whose argument
/// values cross as uint64 bit patterns, one per element.
/// python/mmptx/runtime.py converts NumPy arrays and foreign device arrays
/// (__cuda_array_interface__, DLPack) to and from these.
///
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "mmptx/Runtime/Context.h"
#include "mmptx/Runtime/CudaDriver.h"
#include "mmptx/Runtime/KernelRun.h"

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <mutex>
#include <optional>

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

template <typename T> T check(llvm::Expected<T> v) {
  if (!v)
    throwCuda(v.takeError());
  return std::move(*v);
}

void check(llvm::Error e) {
  if (e)
    throwCuda(std::move(e));
}

/// A device's driver and context, shared by the Device and by the buffers
/// and modules it made, so that none outlives the context it needs.
struct DeviceState {
  explicit DeviceState(int ordinal) : ordinal(ordinal) {
    driver = check(CudaDriver::load(CudaDriver::getDefaultPath()));
    ctx = check(Context::create(*driver, ordinal));
  }
  ~DeviceState() {
    ctx.reset(); // before its driver
  }
  int ordinal;
  std::unique_ptr<CudaDriver> driver;
  std::unique_ptr<Context> ctx;
  std::mutex mutex; ///< run(): one at a time per context
};
using DeviceRef = std::shared_ptr<DeviceState>;

/// Device memory. Host copies take a (address, bytes) pair: the Python
/// side (mmptx/runtime.py) checks NumPy shapes and types.
class PyBuffer {
public:
  PyBuffer(DeviceRef dev, size_t bytes)
      : dev(std::move(dev)), buf(check(this->dev->ctx->allocate(bytes))) {}

  uint64_t address() const { return get().getAddress(); }
  size_t size() const { return get().size(); }
  bool closed() const { return !buf; }
  int ordinal() const { return dev->ordinal; }

  void copyFromHost(uintptr_t src, size_t bytes) {
    DeviceBuffer &b = get();
    llvm::Error e = llvm::Error::success();
    {
      nb::gil_scoped_release release;
      e = b.copyFromHost(reinterpret_cast<const void *>(src), bytes);
    }
    check(std::move(e));
  }
  void copyToHost(uintptr_t dst, size_t bytes) const {
    const DeviceBuffer &b = get();
    llvm::Error e = llvm::Error::success();
    {
      nb::gil_scoped_release release;
      e = b.copyToHost(reinterpret_cast<void *>(dst), bytes);
    }
    check(std::move(e));
  }
  void fill(uint8_t value) { check(get().fill(value)); }
  /// Frees the memory now; later use raises ValueError.
  void close() { buf.reset(); }

  /// A DLPack view (an array-API object, whose __dlpack__ makes the
  /// capsule, versioned or not) of the memory as \p shape elements of
  /// \p code/\p bits, owned by \p self.
  nb::object view(nb::handle self, std::vector<size_t> shape, uint8_t code,
                  uint8_t bits) const {
    nb::dlpack::dtype dt{code, bits, 1};
    nb::ndarray<nb::array_api> a(
        reinterpret_cast<void *>(address()), shape.size(), shape.data(), self,
        /*strides=*/nullptr, dt, nb::device::cuda::value, dev->ordinal);
    return nb::cast(a);
  }

private:
  DeviceBuffer &get() {
    if (!buf)
      throw nb::value_error("the device buffer is closed");
    return *buf;
  }
  const DeviceBuffer &get() const {
    return const_cast<PyBuffer *>(this)->get();
  }
  DeviceRef dev;
  std::optional<DeviceBuffer> buf;
};

/// A loaded module, shared by its kernels.
struct ModuleState {
  DeviceRef dev;
  std::optional<Module> mod;
};
using ModuleRef = std::shared_ptr<ModuleState>;

/// A kernel of a loaded module; launches pass parameters as (size in
/// bytes, bit pattern) pairs, which runtime.py makes from its arguments.
class PyKernel {
public:
  PyKernel(ModuleRef mod, Kernel k) : mod(std::move(mod)), k(std::move(k)) {}

  std::string name() const { return k.getName().str(); }

  void launch(std::tuple<unsigned, unsigned, unsigned> grid,
              std::tuple<unsigned, unsigned, unsigned> block, unsigned shared,
              const std::vector<std::pair<unsigned, uint64_t>> &params) {
    if (!mod->mod)
      throw nb::value_error("the kernel's module is unloaded");
    LaunchConfig cfg;
    std::tie(cfg.Grid.X, cfg.Grid.Y, cfg.Grid.Z) = grid;
    std::tie(cfg.Block.X, cfg.Block.Y, cfg.Block.Z) = block;
    cfg.SharedBytes = shared;
    // Each value in its own 8 bytes; the driver reads a parameter's size
    // from its start, which is where a little-endian narrower value lies.
    std::vector<uint64_t> values;
    std::vector<void *> ptrs;
    values.reserve(params.size());
    for (const auto &[size, bits] : params) {
      if (size != 1 && size != 2 && size != 4 && size != 8)
        throw nb::value_error("launch: a parameter has 1, 2, 4 or 8 bytes");
      values.push_back(bits);
    }
    for (uint64_t &v : values)
      ptrs.push_back(&v);
    llvm::Error e = llvm::Error::success();
    {
      nb::gil_scoped_release release;
      e = mod->dev->ctx->launch(k, cfg, ptrs);
    }
    check(std::move(e));
  }

private:
  ModuleRef mod;
  Kernel k;
};

class PyModule {
public:
  PyModule(DeviceRef dev, nb::bytes image)
      : state(std::make_shared<ModuleState>()) {
    state->dev = std::move(dev);
    llvm::Expected<Module> m = [&] {
      nb::gil_scoped_release release;
      return state->dev->ctx->loadModule(
          llvm::ArrayRef<char>(image.c_str(), image.size()));
    }();
    state->mod.emplace(check(std::move(m)));
  }

  PyKernel *kernel(const std::string &name) {
    if (!state->mod)
      throw nb::value_error("the module is unloaded");
    return new PyKernel(state, check(state->mod->getKernel(name)));
  }
  bool closed() const { return !state->mod; }
  /// Unloads now; its kernels then raise ValueError.
  void close() { state->mod.reset(); }

private:
  ModuleRef state;
};

class PyDevice {
public:
  explicit PyDevice(int ordinal)
      : state(std::make_shared<DeviceState>(ordinal)) {}

  /// (ordinal, name, major, minor, multiprocessors, total memory).
  std::tuple<int, std::string, int, int, int, uint64_t> info() const {
    DeviceInfo i = check(state->driver->getDeviceInfo(ordinal()));
    return {i.Ordinal,         i.Name,       i.ComputeMajor, i.ComputeMinor,
            i.MultiProcessors, i.TotalMemory};
  }

  int ordinal() const { return state->ordinal; }

  PyBuffer *alloc(size_t bytes) { return new PyBuffer(state, bytes); }
  PyModule *load(nb::bytes image) { return new PyModule(state, image); }

  void synchronize() {
    llvm::Error e = llvm::Error::success();
    {
      nb::gil_scoped_release release;
      e = state->ctx->synchronize();
    }
    check(std::move(e));
  }

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
      std::lock_guard<std::mutex> lock(state->mutex);
      err = runKernel(*state->ctx,
                      llvm::ArrayRef<char>(image.c_str(), image.size()), kernel,
                      cfg, kargs, std::max(repeat, 1u), &times);
    }
    check(std::move(err));
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
  DeviceRef state;
};

/// The (device type, device id, address, bytes) of a DLPack capsule or an
/// object with __dlpack__; the address includes the byte offset.
std::tuple<int, int, uint64_t, size_t> dlpackInfo(nb::handle obj) {
  nb::ndarray<nb::ro> a;
  if (!nb::try_cast(obj, a, /*convert=*/false))
    throw nb::type_error("not a DLPack tensor (capsule or __dlpack__)");
  return {a.device_type(), a.device_id(),
          uint64_t(reinterpret_cast<uintptr_t>(a.data())), a.nbytes()};
}

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
  nb::class_<PyBuffer>(m, "Buffer")
      .def_prop_ro("address", &PyBuffer::address)
      .def_prop_ro("size", &PyBuffer::size)
      .def_prop_ro("closed", &PyBuffer::closed)
      .def_prop_ro("ordinal", &PyBuffer::ordinal)
      .def("copy_from_host", &PyBuffer::copyFromHost, nb::arg("src"),
           nb::arg("bytes"))
      .def("copy_to_host", &PyBuffer::copyToHost, nb::arg("dst"),
           nb::arg("bytes"))
      .def("fill", &PyBuffer::fill, nb::arg("value"))
      .def("close", &PyBuffer::close)
      .def("view", &PyBuffer::view, nb::arg("owner"), nb::arg("shape"),
           nb::arg("code"), nb::arg("bits"));
  nb::class_<PyKernel>(m, "Kernel")
      .def_prop_ro("name", &PyKernel::name)
      .def("launch", &PyKernel::launch, nb::arg("grid"), nb::arg("block"),
           nb::arg("shared"), nb::arg("params"));
  nb::class_<PyModule>(m, "Module")
      .def("kernel", &PyModule::kernel, nb::arg("name"))
      .def_prop_ro("closed", &PyModule::closed)
      .def("close", &PyModule::close);
  nb::class_<PyDevice>(m, "Device")
      .def(nb::init<int>(), nb::arg("ordinal"))
      .def("info", &PyDevice::info)
      .def_prop_ro("ordinal", &PyDevice::ordinal)
      .def("alloc", &PyDevice::alloc, nb::arg("bytes"))
      .def("load", &PyDevice::load, nb::arg("image"))
      .def("synchronize", &PyDevice::synchronize)
      .def("run", &PyDevice::run, nb::arg("image"), nb::arg("kernel"),
           nb::arg("grid"), nb::arg("block"), nb::arg("shared"),
           nb::arg("args"), nb::arg("repeat"));
  m.def("dlpack_info", &dlpackInfo, nb::arg("tensor"));
  m.def("device_count", &deviceCount,
        "Devices of the driver $MMPTX_LIBCUDA (default libcuda.so.1); 0 "
        "without a driver or device");
}
