//===- CudaDriverTest.cpp - The driver loader against the fake driver -----===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaTestSupport.h"

#include "mmptx/Runtime/Context.h"
#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::runtime;

namespace {

/// The kind and message of a CudaError, consuming \p E.
std::pair<Optional<CudaErrorKind>, std::string> describe(Error E) {
  Optional<CudaErrorKind> Kind = getCudaErrorKind(E);
  return {Kind, toString(std::move(E))};
}

template <typename T>
std::pair<Optional<CudaErrorKind>, std::string> describe(Expected<T> &V) {
  EXPECT_FALSE(bool(V));
  if (V)
    return {None, ""};
  return describe(V.takeError());
}

/// The kind and message of the error of loading the driver at \p Path.
std::pair<Optional<CudaErrorKind>, std::string> loadError(const char *Path) {
  Expected<std::unique_ptr<CudaDriver>> D = CudaDriver::load(Path);
  return describe(D);
}

/// Expects loading the fake driver with environment variable \p Var set to
/// \p Value to fail with error \p Kind, message \p Msg.
void expectFakeLoadError(const char *Var, const char *Value, CudaErrorKind Kind,
                         const char *Msg) {
  ScopedEnv Env(Var, Value);
  auto [K, M] = loadError(MMPTX_FAKE_CUDA);
  EXPECT_EQ(K, Kind);
  EXPECT_EQ(M, Msg);
}

std::unique_ptr<CudaDriver> loadFake() {
  Expected<std::unique_ptr<CudaDriver>> D = CudaDriver::load(MMPTX_FAKE_CUDA);
  EXPECT_TRUE(bool(D)) << toString(D.takeError());
  return D ? std::move(*D) : nullptr;
}

TEST(CudaDriverTest, NoDriver) {
  auto [Kind, Msg] = loadError("/nonexistent/libcuda.so.1");
  EXPECT_EQ(Kind, CudaErrorKind::NoDriver);
  EXPECT_NE(Msg.find("dlopen: cannot load the CUDA driver "
                     "'/nonexistent/libcuda.so.1': "),
            std::string::npos)
      << Msg;
}

TEST(CudaDriverTest, LoadsThroughGetProcAddress) {
  std::unique_ptr<CudaDriver> D = loadFake();
  ASSERT_TRUE(D);
  EXPECT_EQ(D->getVersion(), 13000);
  // The fake refuses older ABI versions, so this also checks the versions.
  EXPECT_EQ(D->getNumDlsymFallbacks(), 0u);
  Expected<int> N = D->getDeviceCount();
  ASSERT_TRUE(bool(N)) << toString(N.takeError());
  EXPECT_EQ(*N, 1);
  Expected<DeviceInfo> Info = D->getDeviceInfo(0);
  ASSERT_TRUE(bool(Info)) << toString(Info.takeError());
  EXPECT_EQ(Info->Name, "mmptx fake device");
  EXPECT_EQ(Info->getArch(), "sm_80");
  EXPECT_EQ(Info->MultiProcessors, 4);
  EXPECT_EQ(Info->TotalMemory, 1ull << 30);
}

TEST(CudaDriverTest, DlsymFallbackForOneEntryPoint) {
  ScopedEnv Hide("MMPTX_FAKE_CUDA_HIDE", "cuLaunchKernel");
  std::unique_ptr<CudaDriver> D = loadFake();
  ASSERT_TRUE(D);
  EXPECT_EQ(D->getNumDlsymFallbacks(), 1u);
}

TEST(CudaDriverTest, MissingEntryPoint) {
  // No cuGetProcAddress: every entry point by dlsym, and cuLaunchKernel is
  // not there.
  auto [Kind, Msg] = loadError(MMPTX_FAKE_CUDA_LEGACY);
  EXPECT_EQ(Kind, CudaErrorKind::NoDriver);
  EXPECT_NE(Msg.find("has no entry point 'cuLaunchKernel' (version 4000)"),
            std::string::npos)
      << Msg;
}

TEST(CudaDriverTest, InitFailure) {
  expectFakeLoadError(
      "MMPTX_FAKE_CUDA_FAIL", "cuInit=3", CudaErrorKind::Call,
      "cuInit: CUDA_ERROR_NOT_INITIALIZED (3): initialization error");
}

TEST(CudaDriverTest, StubLibraryFromFake) {
  expectFakeLoadError(
      "MMPTX_FAKE_CUDA_FAIL", "cuInit=34", CudaErrorKind::StubLibrary,
      "cuInit: CUDA_ERROR_STUB_LIBRARY (34): CUDA driver is a stub library");
}

TEST(CudaDriverTest, ToolkitStubLibrary) {
  // The path is the one found at configure time: a build run on another
  // machine (a GPU machine, say) may not have the toolkit there.
  if (!*MMPTX_CUDA_STUB || !llvm::sys::fs::exists(MMPTX_CUDA_STUB))
    GTEST_SKIP() << "the CUDA toolkit's stub libcuda.so is not here";
  auto [Kind, Msg] = loadError(MMPTX_CUDA_STUB);
  EXPECT_EQ(Kind, CudaErrorKind::StubLibrary) << Msg;
  EXPECT_NE(Msg.find("CUDA_ERROR_STUB_LIBRARY (34)"), std::string::npos) << Msg;
}

TEST(CudaDriverTest, NoDevice) {
  expectFakeLoadError("MMPTX_FAKE_CUDA_DEVICES", "0", CudaErrorKind::NoDevice,
                      "cuInit: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable "
                      "device is detected");
  std::unique_ptr<CudaDriver> D = loadFake();
  ASSERT_TRUE(D);
  auto C = Context::create(*D, 3);
  auto [Kind, Msg] = describe(C);
  EXPECT_EQ(Kind, CudaErrorKind::NoDevice);
  EXPECT_EQ(Msg, "cuDeviceGet: CUDA_ERROR_INVALID_DEVICE (101): no device 3 "
                 "(1 device)");
}

TEST(CudaDriverTest, ErrorKindKeepsTheError) {
  Error E = make_error<CudaError>(CudaErrorKind::Call, "cuX", 500,
                                  "CUDA_ERROR_NOT_FOUND", "named symbol");
  EXPECT_EQ(getCudaErrorKind(E), CudaErrorKind::Call);
  EXPECT_EQ(toString(std::move(E)),
            "cuX: CUDA_ERROR_NOT_FOUND (500): named symbol");
  Error Other = createStringError(inconvertibleErrorCode(), "other");
  EXPECT_EQ(getCudaErrorKind(Other), None);
  consumeError(std::move(Other));
}

TEST(CudaDriverTest, DefaultDriverFromEnvironment) {
  // The only test that uses the process-wide driver.
  ScopedEnv Path("MMPTX_LIBCUDA", MMPTX_FAKE_CUDA);
  EXPECT_EQ(CudaDriver::getDefaultPath(), MMPTX_FAKE_CUDA);
  Expected<CudaDriver &> D = CudaDriver::get();
  ASSERT_TRUE(bool(D)) << toString(D.takeError());
  Expected<CudaDriver &> Again = CudaDriver::get();
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(&*D, &*Again);
}

class ContextTest : public ::testing::Test {
protected:
  void SetUp() override {
    Driver = loadFake();
    ASSERT_TRUE(Driver);
    auto C = Context::create(*Driver, 0);
    ASSERT_TRUE(bool(C)) << toString(C.takeError());
    Ctx = std::move(*C);
  }
  void TearDown() override {
    Ctx.reset();
    // Every module, buffer, stream and the primary context were released.
    EXPECT_EQ(fakeLiveObjects(), 0);
  }
  std::unique_ptr<CudaDriver> Driver;
  std::unique_ptr<Context> Ctx;
};

TEST_F(ContextTest, LoadLaunchCopy) {
  auto M = Ctx->loadModule(makeFakeCubin({"other", "fake_axpy"}));
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  auto K = M->getKernel("fake_axpy");
  ASSERT_TRUE(bool(K)) << toString(K.takeError());
  EXPECT_EQ(K->getName(), "fake_axpy");

  std::vector<float> X = {1, 2, 3, 4}, Y = {10, 20, 30, 40};
  auto XB = Ctx->allocate(16);
  auto YB = Ctx->allocate(16);
  ASSERT_TRUE(XB && YB);
  ASSERT_FALSE(bool(XB->copyFromHost(X.data(), 16)));
  ASSERT_FALSE(bool(YB->copyFromHost(Y.data(), 16)));
  auto S = Ctx->createStream();
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  LaunchConfig Config;
  Config.Block.X = 4;
  Config.Stream = S->getHandle();
  float A = 2;
  int N = 4;
  ASSERT_FALSE(bool(
      Ctx->launchWith(*K, Config, A, XB->getAddress(), YB->getAddress(), N)));
  ASSERT_FALSE(bool(S->synchronize()));
  ASSERT_FALSE(bool(Ctx->synchronize()));
  ASSERT_FALSE(bool(YB->copyToHost(Y.data(), 16)));
  EXPECT_EQ(Y, (std::vector<float>{12, 24, 36, 48}));

  ASSERT_FALSE(bool(YB->fill(0)));
  ASSERT_FALSE(bool(YB->copyToHost(Y.data(), 16)));
  EXPECT_EQ(Y, (std::vector<float>{0, 0, 0, 0}));

  // Moved-from objects release nothing twice.
  DeviceBuffer Moved = std::move(*XB);
  EXPECT_EQ(XB->getAddress(), 0u);
  EXPECT_EQ(Moved.size(), 16u);
}

TEST_F(ContextTest, ModuleLoadErrors) {
  std::vector<char> NotElf = {'/', '/', ' ', 'P', 'T', 'X', '\0'};
  auto M = Ctx->loadModule(NotElf);
  EXPECT_EQ(describe(M).second, "cuModuleLoadData: CUDA_ERROR_INVALID_IMAGE "
                                "(200): device kernel image is invalid");
  auto Empty = Ctx->loadModule({});
  EXPECT_EQ(describe(Empty).second,
            "cuModuleLoadData: CUDA_ERROR_INVALID_VALUE (1): empty module "
            "image");
  ScopedEnv Fail("MMPTX_FAKE_CUDA_FAIL", "cuModuleLoadData=209");
  auto Injected = Ctx->loadModule(makeFakeCubin({"k"}));
  // A code the fake has no name for: the number is still there.
  EXPECT_EQ(describe(Injected).second, "cuModuleLoadData: CUresult (209)");
}

TEST_F(ContextTest, KernelLookupError) {
  auto M = Ctx->loadModule(makeFakeCubin({"fake_axpy"}));
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  auto K = M->getKernel("fake_ax");
  EXPECT_EQ(describe(K).second, "cuModuleGetFunction('fake_ax'): "
                                "CUDA_ERROR_NOT_FOUND (500): named symbol not "
                                "found");
}

TEST_F(ContextTest, LaunchAndCopyErrors) {
  auto M = Ctx->loadModule(makeFakeCubin({"fake_axpy"}));
  ASSERT_TRUE(bool(M));
  auto K = M->getKernel("fake_axpy");
  ASSERT_TRUE(bool(K));
  LaunchConfig Config;
  Config.Block.X = 2048;
  float A = 1;
  int N = 0;
  DevicePtr Null = 0;
  Error E = Ctx->launchWith(*K, Config, A, Null, Null, N);
  EXPECT_EQ(toString(std::move(E)),
            "cuLaunchKernel('fake_axpy', grid 1x1x1, block 2048x1x1): "
            "CUDA_ERROR_INVALID_VALUE (1): invalid argument");

  auto B = Ctx->allocate(8);
  ASSERT_TRUE(bool(B));
  char Host[16] = {0};
  EXPECT_EQ(toString(B->copyFromHost(Host, 16)),
            "cuMemcpyHtoD: CUDA_ERROR_INVALID_VALUE (1): 16 bytes exceed the "
            "buffer's 8");
  EXPECT_EQ(toString(B->copyToHost(Host, 16)),
            "cuMemcpyDtoH: CUDA_ERROR_INVALID_VALUE (1): 16 bytes exceed the "
            "buffer's 8");

  ScopedEnv Fail("MMPTX_FAKE_CUDA_FAIL", "cuMemAlloc=2");
  auto Big = Ctx->allocate(1 << 20);
  EXPECT_EQ(describe(Big).second,
            "cuMemAlloc(1048576 bytes): "
            "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory");
}

} // namespace
