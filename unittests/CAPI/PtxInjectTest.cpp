//===- PtxInjectTest.cpp - Runs the C test of the PTX Inject C API --------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx-c/PtxInject.h"

#include "gtest/gtest.h"

#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern "C" int mmptx_capi_c_test(char *Failure, size_t FailureSize);

TEST(PtxInjectCAPITest, CTestPasses) {
  char Failure[512] = "";
  EXPECT_EQ(mmptx_capi_c_test(Failure, sizeof(Failure)), 0) << Failure;
}

// A handle is read-only after creation: threads render from it at once,
// each into its own buffer. utils/tsan.sh runs this under ThreadSanitizer.
TEST(PtxInjectCAPITest, ConcurrentRenderFromOneHandle) {
  std::ifstream In(MMPTX_CORPUS_DIR "/anchor_gemm_kernel.ptx");
  std::stringstream Ss;
  Ss << In.rdbuf();
  std::string Ptx = Ss.str();
  ASSERT_FALSE(Ptx.empty());
  mmptx_inject_t *H = nullptr;
  ASSERT_EQ(mmptx_inject_create(&H, Ptx.data(), Ptx.size(), "gemm", nullptr, 0,
                                nullptr, 0),
            MMPTX_SUCCESS);
  size_t N = 0;
  ASSERT_EQ(mmptx_inject_num_injects(H, &N), MMPTX_SUCCESS);
  std::vector<std::string> StubText;
  for (size_t I = 0; I != N; ++I)
    StubText.push_back("\t// stub " + std::to_string(I));
  std::vector<const char *> Stubs;
  for (const std::string &S : StubText)
    Stubs.push_back(S.c_str());
  size_t Size = 0;
  ASSERT_EQ(mmptx_inject_render(H, Stubs.data(), N, nullptr, 0, &Size),
            MMPTX_SUCCESS);
  std::string Want(Size + 1, '\0');
  ASSERT_EQ(
      mmptx_inject_render(H, Stubs.data(), N, &Want[0], Size + 1, nullptr),
      MMPTX_SUCCESS);
  std::vector<int> Mismatches(4, 0);
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T != Mismatches.size(); ++T)
    Threads.emplace_back([&, T] {
      std::string Buf(Size + 1, '\0');
      for (unsigned I = 0; I != 50; ++I) {
        size_t Got = 0;
        if (mmptx_inject_render(H, Stubs.data(), N, &Buf[0], Buf.size(),
                                &Got) != MMPTX_SUCCESS ||
            Got != Size || Buf != Want)
          ++Mismatches[T];
      }
    });
  for (std::thread &T : Threads)
    T.join();
  for (int M : Mismatches)
    EXPECT_EQ(M, 0);
  EXPECT_EQ(mmptx_inject_destroy(H), MMPTX_SUCCESS);
}
