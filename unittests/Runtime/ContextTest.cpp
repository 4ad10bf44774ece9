//===- ContextTest.cpp - Current contexts, threads and kernel faults ------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// On the fake driver, whose current context is per thread and whose kernel
// faults are reported by the next synchronising call, as a real driver's.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaTestSupport.h"

#include "mmptx/Runtime/Context.h"

#include "gtest/gtest.h"

#include <thread>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::runtime;

namespace {

/// The fake driver's own entry points, to look at the thread's context.
struct FakeApi {
  void *Handle = ::dlopen(MMPTX_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
  int (*GetCurrent)(void **) =
      reinterpret_cast<int (*)(void **)>(::dlsym(Handle, "cuCtxGetCurrent"));
  int (*SetCurrent)(void *) =
      reinterpret_cast<int (*)(void *)>(::dlsym(Handle, "cuCtxSetCurrent"));
  ~FakeApi() { ::dlclose(Handle); }
  void *current() const {
    void *C = reinterpret_cast<void *>(1);
    EXPECT_EQ(GetCurrent(&C), 0);
    return C;
  }
};

std::unique_ptr<CudaDriver> loadFake() {
  Expected<std::unique_ptr<CudaDriver>> D = CudaDriver::load(MMPTX_FAKE_CUDA);
  EXPECT_TRUE(bool(D)) << toString(D.takeError());
  return D ? std::move(*D) : nullptr;
}

std::string errorText(Error E) { return E ? toString(std::move(E)) : ""; }

TEST(CurrentContextTest, KernelLookupAndLaunchFromAnotherThread) {
  std::unique_ptr<CudaDriver> D = loadFake();
  ASSERT_TRUE(D);
  auto Ctx = Context::create(*D, 0);
  ASSERT_TRUE(bool(Ctx)) << toString(Ctx.takeError());
  Expected<Module> M = (*Ctx)->loadModule(makeFakeCubin({"fake_axpy"}));
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  Expected<DeviceBuffer> Buf = (*Ctx)->allocate(16);
  ASSERT_TRUE(bool(Buf)) << toString(Buf.takeError());
  std::string Failure = "not run";
  // A new thread has no current context: each call makes its own current.
  std::thread T([&] {
    Expected<Kernel> K = M->getKernel("fake_axpy");
    if (!K) {
      Failure = toString(K.takeError());
      return;
    }
    float A = 1;
    DevicePtr X = Buf->getAddress();
    int N = 4;
    LaunchConfig C;
    C.Block.X = 4;
    Failure = errorText((*Ctx)->launchWith(*K, C, A, X, X, N));
    if (Failure.empty())
      Failure = errorText((*Ctx)->synchronize());
  });
  T.join();
  EXPECT_EQ(Failure, "");
}

TEST(CurrentContextTest, TheThreadsContextIsRestored) {
  std::unique_ptr<CudaDriver> D = loadFake();
  ASSERT_TRUE(D);
  FakeApi Fake;
  auto Ctx = Context::create(*D, 0);
  ASSERT_TRUE(bool(Ctx)) << toString(Ctx.takeError());
  ASSERT_EQ(Fake.SetCurrent(nullptr), 0);
  {
    Expected<DeviceBuffer> Buf = (*Ctx)->allocate(16);
    ASSERT_TRUE(bool(Buf)) << toString(Buf.takeError());
    EXPECT_EQ(Fake.current(), nullptr);
    uint32_t V = 7;
    EXPECT_EQ(errorText(Buf->copyFromHost(&V, 4)), "");
    EXPECT_EQ(errorText((*Ctx)->synchronize()), "");
    EXPECT_EQ(Fake.current(), nullptr);
  }
  EXPECT_EQ(Fake.current(), nullptr); // the buffer's release too
  // makeCurrent is the one call that leaves the context current.
  EXPECT_EQ(errorText((*Ctx)->makeCurrent()), "");
  EXPECT_NE(Fake.current(), nullptr);
}

TEST(CurrentContextTest, KernelFaultsNameTheLaunch) {
  std::unique_ptr<CudaDriver> D = loadFake();
  ASSERT_TRUE(D);
  auto Ctx = Context::create(*D, 0);
  ASSERT_TRUE(bool(Ctx)) << toString(Ctx.takeError());
  Expected<Module> M = (*Ctx)->loadModule(makeFakeCubin({"fake_axpy"}));
  ASSERT_TRUE(bool(M));
  Expected<Kernel> K = M->getKernel("fake_axpy");
  ASSERT_TRUE(bool(K)) << toString(K.takeError());
  Expected<DeviceBuffer> Buf = (*Ctx)->allocate(16);
  ASSERT_TRUE(bool(Buf));
  float A = 1;
  DevicePtr X = Buf->getAddress();
  int N = 8; // past the 4-float buffer: the fake device faults
  LaunchConfig C;
  C.Block.X = 8;
  // The launch itself succeeds, as on a GPU; the next synchronising call
  // reports the fault and names the launch.
  EXPECT_EQ(errorText((*Ctx)->launchWith(*K, C, A, X, X, N)), "");
  EXPECT_EQ(errorText((*Ctx)->synchronize()),
            "cuCtxSynchronize (reporting a failure of the work queued before "
            "it; the last launch was cuLaunchKernel('fake_axpy', grid 1x1x1, "
            "block 8x1x1)): CUDA_ERROR_LAUNCH_FAILED (719): unspecified "
            "launch failure");
  EXPECT_EQ(errorText((*Ctx)->synchronize()), "");
  // A checked launch reports its own fault.
  C.Checked = true;
  EXPECT_EQ(errorText((*Ctx)->launchWith(*K, C, A, X, X, N)),
            "cuLaunchKernel('fake_axpy', grid 1x1x1, block 8x1x1) (checked: "
            "the kernel failed): CUDA_ERROR_LAUNCH_FAILED (719): unspecified "
            "launch failure");
  N = 4;
  EXPECT_EQ(errorText((*Ctx)->launchWith(*K, C, A, X, X, N)), "");
}

TEST(CurrentContextTest, FailedReleasesAreReported) {
  std::unique_ptr<CudaDriver> D = loadFake();
  ASSERT_TRUE(D);
  auto Ctx = Context::create(*D, 0);
  ASSERT_TRUE(bool(Ctx)) << toString(Ctx.takeError());
  Expected<DeviceBuffer> Buf = (*Ctx)->allocate(16);
  ASSERT_TRUE(bool(Buf));
  testing::internal::CaptureStderr();
  {
    ScopedEnv Fail("MMPTX_FAKE_CUDA_FAIL", "cuMemFree=719");
    DeviceBuffer Gone = std::move(*Buf);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "mmptx: warning: while releasing: cuMemFree: "
            "CUDA_ERROR_LAUNCH_FAILED (719): unspecified launch failure\n");
}

} // namespace
