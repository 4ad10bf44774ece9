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

extern "C" int mmptx_capi_c_test(char *failure, size_t failure_size);

TEST(PtxInjectCAPITest, CTestPasses) {
  char failure[512] = "";
  EXPECT_EQ(mmptx_capi_c_test(failure, sizeof(failure)), 0) << failure;
}

// A handle is read-only after creation: threads render from it at once,
// each into its own buffer. utils/tsan.sh runs this under ThreadSanitizer.
TEST(PtxInjectCAPITest, ConcurrentRenderFromOneHandle) {
  std::ifstream in(MMPTX_CORPUS_DIR "/anchor_gemm_kernel.ptx");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string ptx = ss.str();
  ASSERT_FALSE(ptx.empty());
  mmptx_inject_t *h = nullptr;
  ASSERT_EQ(mmptx_inject_create(&h, ptx.data(), ptx.size(), "gemm", nullptr, 0,
                                nullptr, 0),
            MMPTX_SUCCESS);
  size_t n = 0;
  ASSERT_EQ(mmptx_inject_num_injects(h, &n), MMPTX_SUCCESS);
  std::vector<std::string> stubText;
  for (size_t i = 0; i != n; ++i)
    stubText.push_back("\t// stub " + std::to_string(i));
  std::vector<const char *> stubs;
  for (const std::string &s : stubText)
    stubs.push_back(s.c_str());
  size_t size = 0;
  ASSERT_EQ(mmptx_inject_render(h, stubs.data(), n, nullptr, 0, &size),
            MMPTX_SUCCESS);
  std::string expected(size + 1, '\0');
  ASSERT_EQ(
      mmptx_inject_render(h, stubs.data(), n, &expected[0], size + 1, nullptr),
      MMPTX_SUCCESS);
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t != mismatches.size(); ++t)
    threads.emplace_back([&, t] {
      std::string buf(size + 1, '\0');
      for (unsigned i = 0; i != 50; ++i) {
        size_t got = 0;
        if (mmptx_inject_render(h, stubs.data(), n, &buf[0], buf.size(),
                                &got) != MMPTX_SUCCESS ||
            got != size || buf != expected)
          ++mismatches[t];
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (int m : mismatches)
    EXPECT_EQ(m, 0);
  EXPECT_EQ(mmptx_inject_destroy(h), MMPTX_SUCCESS);
}
