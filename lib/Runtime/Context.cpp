//===- Context.cpp - Devices, modules, kernels and buffers ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Runtime/Context.h"
#include "CudaApi.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::runtime;

static CUcontext toCtx(void *H) { return static_cast<CUcontext>(H); }
static CUmodule toModule(void *H) { return static_cast<CUmodule>(H); }
static CUfunction toFunction(void *H) { return static_cast<CUfunction>(H); }
static CUstream toStream(void *H) { return static_cast<CUstream>(H); }

namespace mmptx {
namespace runtime {
/// Makes a context current on the calling thread for one call of this API,
/// then restores the context that was current before (a thread that uses
/// another context, or another library's, finds it as it left it).
class ScopedCurrent {
public:
  explicit ScopedCurrent(const Context &C) : C(C) {}
  ScopedCurrent(const ScopedCurrent &) = delete;
  ScopedCurrent &operator=(const ScopedCurrent &) = delete;
  Error enter() {
    const CudaDriverApi &Api = C.Driver.api();
    CUcontext Cur = nullptr;
    if (Error E = C.Driver.check(Api.CtxGetCurrent(&Cur), "cuCtxGetCurrent"))
      return E;
    if (Cur == toCtx(C.Handle))
      return Error::success();
    if (Error E = C.Driver.check(Api.CtxSetCurrent(toCtx(C.Handle)),
                                 "cuCtxSetCurrent"))
      return E;
    Prev = Cur;
    Switched = true;
    return Error::success();
  }
  ~ScopedCurrent() {
    if (!Switched)
      return;
    int R = int(C.Driver.api().CtxSetCurrent(Prev));
    if (R != CudaSuccess)
      errs() << "mmptx: warning: cannot restore the thread's CUDA context: "
             << C.Driver.getErrorName(R) << "\n";
  }

private:
  const Context &C;
  CUcontext Prev = nullptr;
  bool Switched = false;
};
} // namespace runtime
} // namespace mmptx

// Destructors cannot return errors: a failed release is written to stderr,
// never dropped (after a kernel's fault, the driver reports it here too).
void Context::release(StringRef Call,
                      function_ref<int(const CudaDriverApi &)> Fn) const {
  ScopedCurrent Cur(*this);
  Error E = Cur.enter();
  if (!E)
    E = Driver.check(Fn(Driver.api()), Call);
  if (E)
    errs() << "mmptx: warning: while releasing: " << toString(std::move(E))
           << "\n";
}

Error Context::callSync(StringRef Call,
                        function_ref<int(const CudaDriverApi &)> Fn) const {
  ScopedCurrent Cur(*this);
  if (Error E = Cur.enter())
    return E;
  return checkSync(Fn(Driver.api()), Call);
}

Error Context::checkSync(int Result, const Twine &Call) const {
  // CUDA_ERROR_ILLEGAL_ADDRESS (700) to CUDA_ERROR_LAUNCH_FAILED (719) are
  // a kernel's own faults, reported by whichever call comes next.
  bool KernelFault = Result >= 700 && Result <= 719;
  if (!KernelFault || LastLaunch.empty())
    return Driver.check(Result, Call);
  return Driver.check(Result, Call +
                                  " (reporting a failure of the work "
                                  "queued before it; the last launch was " +
                                  LastLaunch + ")");
}

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<Context>> Context::create(CudaDriver &Driver,
                                                   int Ordinal) {
  Expected<DeviceInfo> Info = Driver.getDeviceInfo(Ordinal);
  if (!Info)
    return Info.takeError();
  const CudaDriverApi &Api = Driver.api();
  CUdevice Dev;
  if (Error E = Driver.check(Api.DeviceGet(&Dev, Ordinal), "cuDeviceGet"))
    return E;
  CUcontext Ctx = nullptr;
  if (Error E = Driver.check(Api.DevicePrimaryCtxRetain(&Ctx, Dev),
                             "cuDevicePrimaryCtxRetain"))
    return E;
  return std::unique_ptr<Context>(
      new Context(Driver, std::move(*Info), Dev, Ctx));
}

Context::~Context() { (void)Driver.api().DevicePrimaryCtxRelease(Device); }

Error Context::makeCurrent() const {
  return Driver.check(Driver.api().CtxSetCurrent(toCtx(Handle)),
                      "cuCtxSetCurrent");
}

Expected<Module> Context::loadModule(ArrayRef<char> Image) {
  if (Image.empty())
    return make_error<CudaError>(
        CudaErrorKind::Call, "cuModuleLoadData", CudaErrorInvalidValue,
        Driver.getErrorName(CudaErrorInvalidValue), "empty module image");
  ScopedCurrent Cur(*this);
  if (Error E = Cur.enter())
    return E;
  CUmodule M = nullptr;
  if (Error E = Driver.check(Driver.api().ModuleLoadData(&M, Image.data()),
                             "cuModuleLoadData"))
    return E;
  return Module(*this, M);
}

Expected<DeviceBuffer> Context::allocate(size_t Bytes) {
  ScopedCurrent Cur(*this);
  if (Error E = Cur.enter())
    return E;
  CUdeviceptr P = 0;
  // cuMemAlloc rejects 0 bytes; an empty buffer is still a valid object.
  if (Bytes)
    if (Error E = Driver.check(Driver.api().MemAlloc(&P, Bytes),
                               "cuMemAlloc(" + Twine(Bytes) + " bytes)"))
      return E;
  return DeviceBuffer(*this, P, Bytes);
}

Expected<Stream> Context::createStream() {
  ScopedCurrent Cur(*this);
  if (Error E = Cur.enter())
    return E;
  CUstream S = nullptr;
  if (Error E =
          Driver.check(Driver.api().StreamCreate(&S, 0), "cuStreamCreate"))
    return E;
  return Stream(*this, S);
}

Error Context::launch(const Kernel &K, const LaunchConfig &C,
                      ArrayRef<void *> Params) {
  ScopedCurrent Cur(*this);
  if (Error E = Cur.enter())
    return E;
  std::string Call = "cuLaunchKernel('" + K.getName().str() + "', grid " +
                     (Twine(C.Grid.X) + "x" + Twine(C.Grid.Y) + "x" +
                      Twine(C.Grid.Z) + ", block " + Twine(C.Block.X) + "x" +
                      Twine(C.Block.Y) + "x" + Twine(C.Block.Z) + ")")
                         .str();
  // cuLaunchKernel reads kernelParams only up to the kernel's own count.
  SmallVector<void *, 16> P(Params.begin(), Params.end());
  P.push_back(nullptr);
  if (Error E = Driver.check(
          Driver.api().LaunchKernel(toFunction(K.getHandle()), C.Grid.X,
                                    C.Grid.Y, C.Grid.Z, C.Block.X, C.Block.Y,
                                    C.Block.Z, C.SharedBytes,
                                    toStream(C.Stream), P.data(), nullptr),
          Call))
    return E;
  LastLaunch = Call;
  if (!C.Checked)
    return Error::success();
  // The kernel's own failure, if any, is this launch's.
  int R = C.Stream ? int(Driver.api().StreamSynchronize(toStream(C.Stream)))
                   : int(Driver.api().CtxSynchronize());
  LastLaunch.clear();
  return Driver.check(R, Call + " (checked: the kernel failed)");
}

Error Context::synchronize() const {
  ScopedCurrent Cur(*this);
  if (Error E = Cur.enter())
    return E;
  Error E = checkSync(int(Driver.api().CtxSynchronize()), "cuCtxSynchronize");
  LastLaunch.clear();
  return E;
}

Error Context::synchronizeStream(void *StreamHandle) const {
  return callSync("cuStreamSynchronize", [&](const CudaDriverApi &Api) {
    return int(Api.StreamSynchronize(toStream(StreamHandle)));
  });
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::~Module() {
  if (Handle)
    Ctx->release("cuModuleUnload", [&](const CudaDriverApi &Api) {
      return Api.ModuleUnload(toModule(Handle));
    });
}

Expected<Kernel> Module::getKernel(StringRef Name) const {
  CUfunction F = nullptr;
  std::string N = Name.str();
  ScopedCurrent Cur(*Ctx);
  if (Error E = Cur.enter())
    return E;
  if (Error E = Ctx->Driver.check(
          Ctx->Driver.api().ModuleGetFunction(&F, toModule(Handle), N.c_str()),
          "cuModuleGetFunction('" + Name + "')"))
    return E;
  return Kernel(F, std::move(N));
}

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

DeviceBuffer::DeviceBuffer(DeviceBuffer &&Other)
    : Ctx(Other.Ctx), Address(Other.Address), Size(Other.Size) {
  Other.Address = 0;
  Other.Size = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&Other) {
  std::swap(Ctx, Other.Ctx);
  std::swap(Address, Other.Address);
  std::swap(Size, Other.Size);
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (Address)
    Ctx->release("cuMemFree", [&](const CudaDriverApi &Api) {
      return Api.MemFree(Address);
    });
}

static Error checkCopySize(const CudaDriver &D, StringRef Call, size_t Bytes,
                           size_t Size) {
  if (Bytes <= Size)
    return Error::success();
  return make_error<CudaError>(
      CudaErrorKind::Call, Call.str(), CudaErrorInvalidValue,
      D.getErrorName(CudaErrorInvalidValue),
      std::to_string(Bytes) + " bytes exceed the buffer's " +
          std::to_string(Size));
}

Error DeviceBuffer::copy(StringRef Call, size_t Bytes,
                         function_ref<int(const CudaDriverApi &)> Fn) const {
  if (Error E = checkCopySize(Ctx->Driver, Call, Bytes, Size))
    return E;
  if (!Bytes)
    return Error::success();
  return Ctx->callSync(Call, Fn);
}

Error DeviceBuffer::copyFromHost(const void *Src, size_t Bytes) {
  return copy("cuMemcpyHtoD", Bytes, [&](const CudaDriverApi &Api) {
    return int(Api.MemcpyHtoD(Address, Src, Bytes));
  });
}

Error DeviceBuffer::copyToHost(void *Dst, size_t Bytes) const {
  return copy("cuMemcpyDtoH", Bytes, [&](const CudaDriverApi &Api) {
    return int(Api.MemcpyDtoH(Dst, Address, Bytes));
  });
}

Error DeviceBuffer::fill(uint8_t Value) {
  if (!Size)
    return Error::success();
  ScopedCurrent Cur(*Ctx);
  if (Error E = Cur.enter())
    return E;
  return Ctx->Driver.check(Ctx->Driver.api().MemsetD8(Address, Value, Size),
                           "cuMemsetD8");
}

//===----------------------------------------------------------------------===//
// Stream
//===----------------------------------------------------------------------===//

Stream::~Stream() {
  if (Handle)
    Ctx->release("cuStreamDestroy", [&](const CudaDriverApi &Api) {
      return Api.StreamDestroy(toStream(Handle));
    });
}

Error Stream::synchronize() const { return Ctx->synchronizeStream(Handle); }
