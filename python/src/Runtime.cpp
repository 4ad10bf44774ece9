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

#include "mmptx/Backend/KernelParams.h"
#include "mmptx/Runtime/Context.h"
#include "mmptx/Runtime/CudaDriver.h"
#include "mmptx/Runtime/KernelRun.h"

#include <nanobind/stl/optional.h>
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
[[noreturn]] void throwCuda(llvm::Error E) {
  llvm::Optional<CudaErrorKind> Kind = getCudaErrorKind(E);
  throwError("CudaError", Kind ? int(*Kind) + 1 : 0, std::move(E));
}

using UInt64Array = nb::ndarray<nb::numpy, uint64_t, nb::ndim<1>>;

template <typename T> T check(llvm::Expected<T> V) {
  if (!V)
    throwCuda(V.takeError());
  return std::move(*V);
}

void check(llvm::Error E) {
  if (E)
    throwCuda(std::move(E));
}

/// A device's driver and context, shared by the Device and by the buffers
/// and modules it made, so that none outlives the context it needs.
struct DeviceState {
  explicit DeviceState(int Ordinal) : Ordinal(Ordinal) {
    Driver = check(CudaDriver::load(CudaDriver::getDefaultPath()));
    Ctx = check(Context::create(*Driver, Ordinal));
  }
  ~DeviceState() {
    Ctx.reset(); // before its driver
  }
  int Ordinal;
  std::unique_ptr<CudaDriver> Driver;
  std::unique_ptr<Context> Ctx;
  std::mutex Mutex; ///< run(): one at a time per context
};
using DeviceRef = std::shared_ptr<DeviceState>;

/// Device memory. Host copies take a (address, bytes) pair: the Python
/// side (mmptx/runtime.py) checks NumPy shapes and types.
class PyBuffer {
public:
  PyBuffer(DeviceRef Dev, size_t Bytes)
      : Dev(std::move(Dev)), Buf(check(this->Dev->Ctx->allocate(Bytes))) {}

  uint64_t address() const { return get().getAddress(); }
  size_t size() const { return get().size(); }
  bool closed() const { return !Buf; }
  int ordinal() const { return Dev->Ordinal; }

  void copyFromHost(uintptr_t Src, size_t Bytes) {
    DeviceBuffer &B = get();
    llvm::Error E = llvm::Error::success();
    {
      nb::gil_scoped_release Release;
      E = B.copyFromHost(reinterpret_cast<const void *>(Src), Bytes);
    }
    check(std::move(E));
  }
  void copyToHost(uintptr_t Dst, size_t Bytes) const {
    const DeviceBuffer &B = get();
    llvm::Error E = llvm::Error::success();
    {
      nb::gil_scoped_release Release;
      E = B.copyToHost(reinterpret_cast<void *>(Dst), Bytes);
    }
    check(std::move(E));
  }
  void fill(uint8_t Value) { check(get().fill(Value)); }
  /// Frees the memory now; later use raises ValueError.
  void close() { Buf.reset(); }

  /// A DLPack view (an array-API object, whose __dlpack__ makes the
  /// capsule, versioned or not) of the memory as \p Shape elements of
  /// \p Code/\p Bits, owned by \p Self.
  nb::object view(nb::handle Self, std::vector<size_t> Shape, uint8_t Code,
                  uint8_t Bits) const {
    nb::dlpack::dtype Dt{Code, Bits, 1};
    nb::ndarray<nb::array_api> A(
        reinterpret_cast<void *>(address()), Shape.size(), Shape.data(), Self,
        /*strides=*/nullptr, Dt, nb::device::cuda::value, Dev->Ordinal);
    return nb::cast(A);
  }

private:
  DeviceBuffer &get() {
    if (!Buf)
      throw nb::value_error("the device buffer is closed");
    return *Buf;
  }
  const DeviceBuffer &get() const {
    return const_cast<PyBuffer *>(this)->get();
  }
  DeviceRef Dev;
  std::optional<DeviceBuffer> Buf;
};

/// A loaded module, shared by its kernels.
struct ModuleState {
  DeviceRef Dev;
  std::optional<Module> Mod;
  /// The image, to read its kernels' parameters from.
  std::string Image;
};
using ModuleRef = std::shared_ptr<ModuleState>;

/// A kernel of a loaded module; launches pass parameters as (size in
/// bytes, bit pattern) pairs, which runtime.py makes from its arguments.
class PyKernel {
public:
  PyKernel(ModuleRef Mod, Kernel K) : Mod(std::move(Mod)), K(std::move(K)) {
    if (llvm::Optional<std::vector<unsigned>> S =
            getKernelParamSizes(this->Mod->Image, this->K.getName()))
      ParamSizes = std::move(*S);
  }

  std::string name() const { return K.getName().str(); }
  /// The parameters' sizes in bytes, as the image declares them; None when
  /// the image does not say (the launch then cannot be checked).
  std::optional<std::vector<unsigned>> paramSizes() const { return ParamSizes; }

  void launch(std::tuple<unsigned, unsigned, unsigned> Grid,
              std::tuple<unsigned, unsigned, unsigned> Block, unsigned Shared,
              const std::vector<std::pair<unsigned, uint64_t>> &Params,
              bool Checked) {
    if (!Mod->Mod)
      throw nb::value_error("the kernel's module is unloaded");
    // The driver copies each parameter's declared size from its argument:
    // a missing or narrower one would be read past its end.
    if (ParamSizes && ParamSizes->size() != Params.size())
      throw nb::type_error(("kernel '" + name() + "' takes " +
                            std::to_string(ParamSizes->size()) +
                            " parameters, but " +
                            std::to_string(Params.size()) + " were given")
                               .c_str());
    for (size_t I = 0; ParamSizes && I != Params.size(); ++I)
      if (Params[I].first != (*ParamSizes)[I])
        throw nb::type_error(("argument " + std::to_string(I) + " is " +
                              std::to_string(Params[I].first) +
                              " bytes, but parameter " + std::to_string(I) +
                              " of kernel '" + name() + "' is " +
                              std::to_string((*ParamSizes)[I]) + " bytes")
                                 .c_str());
    LaunchConfig Cfg;
    Cfg.Checked = Checked;
    std::tie(Cfg.Grid.X, Cfg.Grid.Y, Cfg.Grid.Z) = Grid;
    std::tie(Cfg.Block.X, Cfg.Block.Y, Cfg.Block.Z) = Block;
    Cfg.SharedBytes = Shared;
    // Each value in its own 8 bytes; the driver reads a parameter's size
    // from its start, which is where a little-endian narrower value lies.
    std::vector<uint64_t> Values;
    std::vector<void *> Ptrs;
    Values.reserve(Params.size());
    for (const auto &[size, bits] : Params) {
      if (size != 1 && size != 2 && size != 4 && size != 8)
        throw nb::value_error("launch: a parameter has 1, 2, 4 or 8 bytes");
      Values.push_back(bits);
    }
    for (uint64_t &V : Values)
      Ptrs.push_back(&V);
    llvm::Error E = llvm::Error::success();
    {
      nb::gil_scoped_release Release;
      E = Mod->Dev->Ctx->launch(K, Cfg, Ptrs);
    }
    check(std::move(E));
  }

private:
  ModuleRef Mod;
  Kernel K;
  std::optional<std::vector<unsigned>> ParamSizes;
};

class PyModule {
public:
  PyModule(DeviceRef Dev, nb::bytes Image)
      : State(std::make_shared<ModuleState>()) {
    State->Dev = std::move(Dev);
    State->Image.assign(Image.c_str(), Image.size());
    llvm::Expected<Module> M = [&] {
      nb::gil_scoped_release Release;
      return State->Dev->Ctx->loadModule(
          llvm::ArrayRef<char>(Image.c_str(), Image.size()));
    }();
    State->Mod.emplace(check(std::move(M)));
  }

  PyKernel *kernel(const std::string &Name) {
    if (!State->Mod)
      throw nb::value_error("the module is unloaded");
    return new PyKernel(State, check(State->Mod->getKernel(Name)));
  }
  bool closed() const { return !State->Mod; }
  /// Unloads now; its kernels then raise ValueError.
  void close() { State->Mod.reset(); }

private:
  ModuleRef State;
};

class PyDevice {
public:
  explicit PyDevice(int Ordinal)
      : State(std::make_shared<DeviceState>(Ordinal)) {}

  /// (ordinal, name, major, minor, multiprocessors, total memory).
  std::tuple<int, std::string, int, int, int, uint64_t> info() const {
    DeviceInfo I = check(State->Driver->getDeviceInfo(ordinal()));
    return {I.Ordinal,         I.Name,       I.ComputeMajor, I.ComputeMinor,
            I.MultiProcessors, I.TotalMemory};
  }

  int ordinal() const { return State->Ordinal; }

  PyBuffer *alloc(size_t Bytes) { return new PyBuffer(State, Bytes); }
  PyModule *load(nb::bytes Image) { return new PyModule(State, Image); }

  void synchronize() {
    llvm::Error E = llvm::Error::success();
    {
      nb::gil_scoped_release Release;
      E = State->Ctx->synchronize();
    }
    check(std::move(E));
  }

  /// Waits for another library's stream (a CUstream handle; 1 and 2 are the
  /// legacy and per-thread default streams), as the array protocols ask of
  /// a consumer.
  void synchronizeStream(uint64_t Handle) {
    llvm::Error E = llvm::Error::success();
    {
      nb::gil_scoped_release Release;
      E = State->Ctx->synchronizeStream(
          reinterpret_cast<void *>(uintptr_t(Handle)));
    }
    check(std::move(E));
  }

  /// Runs kernel \p KernelName of \p Image; \p Args are (kind, type, values)
  /// with the KernelArg enumerators. \returns the values of every argument
  /// after the run (read back for inout/out buffers) and the times.
  std::tuple<std::vector<UInt64Array>, double, double>
  run(nb::bytes Image, const std::string &KernelName,
      std::tuple<unsigned, unsigned, unsigned> Grid,
      std::tuple<unsigned, unsigned, unsigned> Block, unsigned Shared,
      const std::vector<std::tuple<int, int, nb::object>> &Args,
      unsigned Repeat) {
    std::vector<KernelArg> Kargs;
    for (const auto &A : Args) {
      KernelArg K;
      int Kind = std::get<0>(A), Type = std::get<1>(A);
      if (Kind < 0 || Kind > KernelArg::Out || Type < 0 ||
          Type > int(ArgType::S64))
        throw nb::value_error("run: bad argument kind or type");
      K.Kind = KernelArg::KindTy(Kind);
      K.Type = ArgType(Type);
      Words W(std::get<2>(A));
      K.Values.assign(W.Ref.begin(), W.Ref.end());
      Kargs.push_back(std::move(K));
    }
    llvm::StringRef ImageRef(Image.c_str(), Image.size());
    if (llvm::Optional<std::vector<unsigned>> Sizes =
            getKernelParamSizes(ImageRef, KernelName)) {
      if (Sizes->size() != Kargs.size())
        throw nb::type_error(("kernel '" + KernelName + "' takes " +
                              std::to_string(Sizes->size()) +
                              " parameters, but " +
                              std::to_string(Kargs.size()) + " were given")
                                 .c_str());
      for (size_t I = 0; I != Kargs.size(); ++I) {
        unsigned Size = Kargs[I].isBuffer() ? 8 : getArgTypeSize(Kargs[I].Type);
        if (Size != (*Sizes)[I])
          throw nb::type_error(
              ("argument " + std::to_string(I) + " is " + std::to_string(Size) +
               " bytes, but parameter " + std::to_string(I) + " of kernel '" +
               KernelName + "' is " + std::to_string((*Sizes)[I]) + " bytes")
                  .c_str());
      }
    }
    LaunchConfig Cfg;
    std::tie(Cfg.Grid.X, Cfg.Grid.Y, Cfg.Grid.Z) = Grid;
    std::tie(Cfg.Block.X, Cfg.Block.Y, Cfg.Block.Z) = Block;
    Cfg.SharedBytes = Shared;
    KernelRunTimes Times;
    llvm::Error Err = llvm::Error::success();
    {
      nb::gil_scoped_release Release;
      std::lock_guard<std::mutex> Lock(State->Mutex);
      Err = runKernel(*State->Ctx,
                      llvm::ArrayRef<char>(Image.c_str(), Image.size()),
                      KernelName, Cfg, Kargs, std::max(Repeat, 1u), &Times);
    }
    check(std::move(Err));
    std::vector<UInt64Array> Out;
    for (KernelArg &K : Kargs) {
      auto *V = new std::vector<uint64_t>(std::move(K.Values));
      nb::capsule Owner(V, [](void *P) noexcept {
        delete static_cast<std::vector<uint64_t> *>(P);
      });
      Out.emplace_back(V->data(), std::initializer_list<size_t>{V->size()},
                       Owner);
    }
    return {std::move(Out), Times.ModuleLoad, Times.Launch};
  }

private:
  DeviceRef State;
};

/// The (device type, device id, address, bytes, C-contiguous) of a DLPack
/// capsule or an object with __dlpack__; the address includes the byte
/// offset.
std::tuple<int, int, uint64_t, size_t, bool> dlpackInfo(nb::handle Obj) {
  nb::ndarray<nb::ro> A;
  if (!nb::try_cast(Obj, A, /*convert=*/false))
    throw nb::type_error("not a DLPack tensor (capsule or __dlpack__)");
  // Strides are in elements; a dimension of extent 1 has any stride.
  bool Contiguous = true;
  int64_t Want = 1;
  for (size_t I = A.ndim(); I-- > 0;) {
    if (A.shape(I) != 1 && A.stride(I) != Want)
      Contiguous = false;
    Want *= int64_t(A.shape(I));
  }
  return {A.device_type(), A.device_id(),
          uint64_t(reinterpret_cast<uintptr_t>(A.data())), A.nbytes(),
          Contiguous};
}

int deviceCount() {
  llvm::Expected<std::unique_ptr<CudaDriver>> D =
      CudaDriver::load(CudaDriver::getDefaultPath());
  if (!D) {
    llvm::consumeError(D.takeError());
    return 0;
  }
  llvm::Expected<int> N = (*D)->getDeviceCount();
  if (!N) {
    llvm::consumeError(N.takeError());
    return 0;
  }
  return *N;
}

} // namespace

void mmptx::python::bindRuntime(nb::module_ &M) {
  nb::class_<PyBuffer>(M, "Buffer",
                       "Device memory (mmptx.runtime.DeviceBuffer).")
      .def_prop_ro("address", &PyBuffer::address, "The device address.")
      .def_prop_ro("size", &PyBuffer::size, "Bytes.")
      .def_prop_ro("closed", &PyBuffer::closed, "Whether it was freed.")
      .def_prop_ro("ordinal", &PyBuffer::ordinal, "Its device's ordinal.")
      .def("copy_from_host", &PyBuffer::copyFromHost, nb::arg("src"),
           nb::arg("bytes"), "Copies `bytes` bytes from host address `src`.")
      .def("copy_to_host", &PyBuffer::copyToHost, nb::arg("dst"),
           nb::arg("bytes"), "Copies `bytes` bytes to host address `dst`.")
      .def("fill", &PyBuffer::fill, nb::arg("value"),
           "Sets every byte to `value`.")
      .def("close", &PyBuffer::close, "Frees the memory now.")
      .def("view", &PyBuffer::view, nb::arg("owner"), nb::arg("shape"),
           nb::arg("code"), nb::arg("bits"),
           "A DLPack view of `shape` elements of DLPack type `code`/`bits`, "
           "kept alive by `owner`.");
  nb::class_<PyKernel>(M, "Kernel", "A kernel of a loaded module.")
      .def_prop_ro("name", &PyKernel::name, "The kernel's name.")
      .def_prop_ro("param_sizes", &PyKernel::paramSizes,
                   "Parameter sizes in bytes, or None where the image does "
                   "not say.")
      .def("launch", &PyKernel::launch, nb::arg("grid"), nb::arg("block"),
           nb::arg("shared"), nb::arg("params"), nb::arg("checked") = false,
           "Launches on the device's default stream.");
  nb::class_<PyModule>(M, "Module",
                       "A cubin, fatbin or PTX image loaded on a device.")
      .def("kernel", &PyModule::kernel, nb::arg("name"), "The kernel `name`.")
      .def_prop_ro("closed", &PyModule::closed, "Whether it was unloaded.")
      .def("close", &PyModule::close, "Unloads the module.");
  nb::class_<PyDevice>(M, "Device", "A device's context.")
      .def(nb::init<int>(), nb::arg("ordinal"))
      .def("info", &PyDevice::info,
           "(ordinal, name, major, minor, multiprocessors, total memory).")
      .def_prop_ro("ordinal", &PyDevice::ordinal, "The device's ordinal.")
      .def("alloc", &PyDevice::alloc, nb::arg("bytes"),
           "Allocates `bytes` bytes of device memory.")
      .def("load", &PyDevice::load, nb::arg("image"),
           "Loads a cubin, fatbin or PTX image.")
      .def("synchronize", &PyDevice::synchronize,
           "Waits for all work of the device.")
      .def("synchronize_stream", &PyDevice::synchronizeStream,
           nb::arg("handle"), "Waits for the work of stream `handle`.")
      .def("run", &PyDevice::run, nb::arg("image"), nb::arg("kernel"),
           nb::arg("grid"), nb::arg("block"), nb::arg("shared"),
           nb::arg("args"), nb::arg("repeat"),
           "Loads `image`, launches `kernel` `repeat` times and "
           "synchronises; returns the arguments' values and the times.");
  M.def("dlpack_info", &dlpackInfo, nb::arg("tensor"),
        "(device type, device id, address, bytes, C-contiguous) of a DLPack "
        "tensor.");
  M.def("device_count", &deviceCount,
        "Devices of the driver $MMPTX_LIBCUDA (default libcuda.so.1); 0 "
        "without a driver or device");
}
