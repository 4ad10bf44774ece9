//===- Context.h - Devices, modules, kernels and buffers --------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Running cubins through the driver loaded by CudaDriver:
///
///   auto Drv = CudaDriver::get();          // NoDriver/StubLibrary/...
///   auto Ctx = Context::create(*Drv, 0);   // device 0's primary context
///   auto Mod = (*Ctx)->loadModule(Cubin);  // cubin (or PTX) bytes
///   auto K = Mod->getKernel("saxpy");
///   auto X = (*Ctx)->allocate(N * 4);      // freed by its destructor
///   X->copyFromHost(Host.data(), N * 4);
///   (*Ctx)->launchWith(*K, {Grid, Block}, A, X->getAddress(), N);
///   (*Ctx)->synchronize();
///   X->copyToHost(Host.data(), N * 4);
///
/// Each operation makes the context current on the calling thread first, so
/// one Context can be used from any thread. Modules, buffers and streams
/// must not outlive their Context.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_RUNTIME_CONTEXT_H
#define MMPTX_RUNTIME_CONTEXT_H

#include "mmptx/Runtime/CudaDriver.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <string>
#include <utility>

namespace mmptx {
namespace runtime {

class Context;

/// A device address (CUdeviceptr).
using DevicePtr = uint64_t;

struct Dim3 {
  unsigned X = 1, Y = 1, Z = 1;
};

struct LaunchConfig {
  Dim3 Grid;
  Dim3 Block;
  unsigned SharedBytes = 0;
  /// A Stream's handle; null is the context's default stream.
  void *Stream = nullptr;
  /// Waits for the launch's stream after it, so that a fault of the kernel
  /// is reported by this launch, naming it, rather than by a later call.
  bool Checked = false;
};

/// A kernel of a loaded Module (CUfunction); valid while its Module lives.
class Kernel {
public:
  llvm::StringRef getName() const { return Name; }
  void *getHandle() const { return Handle; }

private:
  friend class Module;
  Kernel(void *Handle, std::string Name)
      : Handle(Handle), Name(std::move(Name)) {}
  void *Handle;
  std::string Name;
};

/// What Module and Stream are: a driver handle of a context, which the
/// derived class's destructor releases; moving hands it over.
class ContextHandle {
protected:
  ContextHandle(Context &Ctx, void *Handle) : Ctx(&Ctx), Handle(Handle) {}
  ContextHandle(ContextHandle &&Other)
      : Ctx(Other.Ctx), Handle(std::exchange(Other.Handle, nullptr)) {}
  ContextHandle &operator=(ContextHandle &&Other) {
    std::swap(Ctx, Other.Ctx);
    std::swap(Handle, Other.Handle);
    return *this;
  }

  Context *Ctx;
  void *Handle; ///< null once moved from
};

/// A loaded module (CUmodule), unloaded by the destructor.
class Module : private ContextHandle {
public:
  Module(Module &&Other) = default;
  Module &operator=(Module &&Other) = default;
  ~Module();

  /// cuModuleGetFunction; the error names \p Name.
  llvm::Expected<Kernel> getKernel(llvm::StringRef Name) const;

private:
  friend class Context;
  Module(Context &Ctx, void *Handle) : ContextHandle(Ctx, Handle) {}
};

/// Device memory (cuMemAlloc), freed by the destructor.
class DeviceBuffer {
public:
  DeviceBuffer(DeviceBuffer &&Other);
  DeviceBuffer &operator=(DeviceBuffer &&Other);
  ~DeviceBuffer();

  DevicePtr getAddress() const { return Address; }
  size_t size() const { return Size; }

  /// Copies \p Bytes bytes from \p Src to the buffer's start; at most size().
  llvm::Error copyFromHost(const void *Src, size_t Bytes);
  /// Copies \p Bytes bytes from the buffer's start to \p Dst; at most size().
  llvm::Error copyToHost(void *Dst, size_t Bytes) const;
  /// Sets every byte to \p Value.
  llvm::Error fill(uint8_t Value);

private:
  friend class Context;
  DeviceBuffer(Context &Ctx, DevicePtr Address, size_t Size)
      : Ctx(&Ctx), Address(Address), Size(Size) {}
  /// A copy of \p Bytes bytes (at most size()) by \p Fn, the call \p Call.
  llvm::Error copy(llvm::StringRef Call, size_t Bytes,
                   llvm::function_ref<int(const CudaDriverApi &)> Fn) const;
  Context *Ctx;
  DevicePtr Address;
  size_t Size;
};

/// A stream (cuStreamCreate), destroyed by the destructor.
class Stream : private ContextHandle {
public:
  Stream(Stream &&Other) = default;
  Stream &operator=(Stream &&Other) = default;
  ~Stream();

  void *getHandle() const { return Handle; }
  llvm::Error synchronize() const;

private:
  friend class Context;
  Stream(Context &Ctx, void *Handle) : ContextHandle(Ctx, Handle) {}
};

/// One device's primary context, retained for this object's lifetime.
class Context {
public:
  /// Retains device \p Ordinal's primary context. NoDevice if there is no
  /// such device.
  static llvm::Expected<std::unique_ptr<Context>> create(CudaDriver &Driver,
                                                         int Ordinal = 0);
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  ~Context();

  CudaDriver &getDriver() const { return Driver; }
  const DeviceInfo &getDeviceInfo() const { return Info; }

  /// Makes this context current on the calling thread (and leaves it so).
  /// Every other call of this API makes the context current only for its
  /// own duration and then restores the thread's previous context.
  llvm::Error makeCurrent() const;

  /// cuModuleLoadData of a cubin, fatbin or NUL-terminated PTX image.
  llvm::Expected<Module> loadModule(llvm::ArrayRef<char> Image);
  llvm::Expected<DeviceBuffer> allocate(size_t Bytes);
  llvm::Expected<Stream> createStream();

  /// cuLaunchKernel: \p Params holds a pointer to each kernel argument.
  llvm::Error launch(const Kernel &K, const LaunchConfig &Config,
                     llvm::ArrayRef<void *> Params);
  /// launch() with the arguments themselves (scalars or DevicePtr), which
  /// must have the kernel parameters' exact types. (A separate name: a
  /// container of parameter pointers must never be taken for an argument.)
  template <typename... ArgTs>
  llvm::Error launchWith(const Kernel &K, const LaunchConfig &Config,
                         const ArgTs &...Args) {
    void *Params[] = {const_cast<void *>(static_cast<const void *>(&Args))...,
                      nullptr};
    return launch(K, Config, llvm::makeArrayRef(Params, sizeof...(Args)));
  }

  /// Waits for all work of this context (cuCtxSynchronize).
  llvm::Error synchronize() const;
  /// Waits for the work of \p StreamHandle, a CUstream of this context
  /// (another library's, say) or 1 / 2, the legacy / per-thread default
  /// stream (cuStreamSynchronize).
  llvm::Error synchronizeStream(void *StreamHandle) const;

private:
  Context(CudaDriver &Driver, DeviceInfo Info, int Device, void *Handle)
      : Driver(Driver), Info(std::move(Info)), Device(Device), Handle(Handle) {}
  friend class Module;
  friend class DeviceBuffer;
  friend class Stream;
  friend class ScopedCurrent;

  /// Calls \p Fn with this context current, for a destructor's release; a
  /// failure (a kernel's fault reported late, say) is written to stderr,
  /// since a destructor cannot return it.
  void release(llvm::StringRef Call,
               llvm::function_ref<int(const CudaDriverApi &)> Fn) const;
  /// Calls \p Fn with this context current; its result is that of the
  /// synchronising call \p Call (checkSync).
  llvm::Error callSync(llvm::StringRef Call,
                       llvm::function_ref<int(const CudaDriverApi &)> Fn) const;
  /// The error of a synchronising call \p Call, naming the last launch,
  /// whose fault it may be reporting.
  llvm::Error checkSync(int Result, const llvm::Twine &Call) const;

  CudaDriver &Driver;
  DeviceInfo Info;
  int Device;
  void *Handle;
  /// The last launch, as its error would name it.
  mutable std::string LastLaunch;
};

} // namespace runtime
} // namespace mmptx

#endif // MMPTX_RUNTIME_CONTEXT_H
