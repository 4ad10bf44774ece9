//===- Context.cpp - Devices, modules, kernels and buffers ----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Runtime/Context.h"
#include "CudaApi.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::runtime;

static CUcontext toCtx(void *H) { return static_cast<CUcontext>(H); }
static CUmodule toModule(void *H) { return static_cast<CUmodule>(H); }
static CUfunction toFunction(void *H) { return static_cast<CUfunction>(H); }
static CUstream toStream(void *H) { return static_cast<CUstream>(H); }

// Destructors cannot report errors; a failed release at teardown is not
// actionable, so it is dropped (as the CUDA runtime does).
void Context::release(function_ref<int(const CudaDriverApi &)> Fn) const {
  if (Error E = makeCurrent()) {
    consumeError(std::move(E));
    return;
  }
  (void)Fn(Driver.api());
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
  std::unique_ptr<Context> C(new Context(Driver, std::move(*Info), Dev, Ctx));
  if (Error E = C->makeCurrent())
    return E;
  return C;
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
  if (Error E = makeCurrent())
    return E;
  CUmodule M = nullptr;
  if (Error E = Driver.check(Driver.api().ModuleLoadData(&M, Image.data()),
                             "cuModuleLoadData"))
    return E;
  return Module(*this, M);
}

Expected<DeviceBuffer> Context::allocate(size_t Bytes) {
  if (Error E = makeCurrent())
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
  if (Error E = makeCurrent())
    return E;
  CUstream S = nullptr;
  if (Error E =
          Driver.check(Driver.api().StreamCreate(&S, 0), "cuStreamCreate"))
    return E;
  return Stream(*this, S);
}

Error Context::launch(const Kernel &K, const LaunchConfig &C,
                      ArrayRef<void *> Params) {
  if (Error E = makeCurrent())
    return E;
  // cuLaunchKernel reads kernelParams only up to the kernel's own count.
  SmallVector<void *, 16> P(Params.begin(), Params.end());
  P.push_back(nullptr);
  return Driver.check(
      Driver.api().LaunchKernel(toFunction(K.getHandle()), C.Grid.X, C.Grid.Y,
                                C.Grid.Z, C.Block.X, C.Block.Y, C.Block.Z,
                                C.SharedBytes, toStream(C.Stream), P.data(),
                                nullptr),
      "cuLaunchKernel('" + K.getName() + "', grid " + Twine(C.Grid.X) + "x" +
          Twine(C.Grid.Y) + "x" + Twine(C.Grid.Z) + ", block " +
          Twine(C.Block.X) + "x" + Twine(C.Block.Y) + "x" + Twine(C.Block.Z) +
          ")");
}

Error Context::synchronize() const {
  if (Error E = makeCurrent())
    return E;
  return Driver.check(Driver.api().CtxSynchronize(), "cuCtxSynchronize");
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::Module(Module &&Other) : Ctx(Other.Ctx), Handle(Other.Handle) {
  Other.Handle = nullptr;
}

Module &Module::operator=(Module &&Other) {
  std::swap(Ctx, Other.Ctx);
  std::swap(Handle, Other.Handle);
  return *this;
}

Module::~Module() {
  if (Handle)
    Ctx->release([&](const CudaDriverApi &Api) {
      return Api.ModuleUnload(toModule(Handle));
    });
}

Expected<Kernel> Module::getKernel(StringRef Name) const {
  CUfunction F = nullptr;
  std::string N = Name.str();
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
    Ctx->release(
        [&](const CudaDriverApi &Api) { return Api.MemFree(Address); });
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

Error DeviceBuffer::copyFromHost(const void *Src, size_t Bytes) {
  if (Error E = checkCopySize(Ctx->Driver, "cuMemcpyHtoD", Bytes, Size))
    return E;
  if (!Bytes)
    return Error::success();
  if (Error E = Ctx->makeCurrent())
    return E;
  return Ctx->Driver.check(Ctx->Driver.api().MemcpyHtoD(Address, Src, Bytes),
                           "cuMemcpyHtoD");
}

Error DeviceBuffer::copyToHost(void *Dst, size_t Bytes) const {
  if (Error E = checkCopySize(Ctx->Driver, "cuMemcpyDtoH", Bytes, Size))
    return E;
  if (!Bytes)
    return Error::success();
  if (Error E = Ctx->makeCurrent())
    return E;
  return Ctx->Driver.check(Ctx->Driver.api().MemcpyDtoH(Dst, Address, Bytes),
                           "cuMemcpyDtoH");
}

Error DeviceBuffer::fill(uint8_t Value) {
  if (!Size)
    return Error::success();
  if (Error E = Ctx->makeCurrent())
    return E;
  return Ctx->Driver.check(Ctx->Driver.api().MemsetD8(Address, Value, Size),
                           "cuMemsetD8");
}

//===----------------------------------------------------------------------===//
// Stream
//===----------------------------------------------------------------------===//

Stream::Stream(Stream &&Other) : Ctx(Other.Ctx), Handle(Other.Handle) {
  Other.Handle = nullptr;
}

Stream &Stream::operator=(Stream &&Other) {
  std::swap(Ctx, Other.Ctx);
  std::swap(Handle, Other.Handle);
  return *this;
}

Stream::~Stream() {
  if (Handle)
    Ctx->release([&](const CudaDriverApi &Api) {
      return Api.StreamDestroy(toStream(Handle));
    });
}

Error Stream::synchronize() const {
  if (Error E = Ctx->makeCurrent())
    return E;
  return Ctx->Driver.check(
      Ctx->Driver.api().StreamSynchronize(toStream(Handle)),
      "cuStreamSynchronize");
}
