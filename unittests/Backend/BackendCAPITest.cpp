//===- BackendCAPITest.cpp - Tests of the backend's C API -----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx-c/Backend.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <cstring>
#include <string>

extern "C" int mmptx_backend_c_test(const char *ptx, char *failure,
                                    size_t failure_size);

namespace {

TEST(BackendCAPITest, FromC99) {
  auto buf = llvm::MemoryBuffer::getFile(std::string(MMPTX_CORPUS_DIR) +
                                         "/ptx_inject_simple_kernel.ptx");
  ASSERT_TRUE(bool(buf));
  std::string ptx = (*buf)->getBuffer().str();
  char failure[512] = "";
  int rc = mmptx_backend_c_test(ptx.c_str(), failure, sizeof(failure));
  if (rc == 1)
    GTEST_SKIP() << "no PTX compiler backend";
  EXPECT_EQ(rc, 0) << failure;
}

TEST(BackendCAPITest, ChecksEveryInput) {
  EXPECT_STREQ(mmptx_backend_result_to_string(MMPTX_BACKEND_ERROR_COMPILATION),
               "MMPTX_BACKEND_ERROR_COMPILATION");
  EXPECT_STREQ(mmptx_backend_result_to_string(mmptx_backend_result_t(99)),
               "unknown result");
  EXPECT_EQ(mmptx_compile_options_init(nullptr),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(mmptx_backend_last_error(), "options is NULL");
  EXPECT_EQ(mmptx_compiler_create(MMPTX_BACKEND_DEFAULT, nullptr, nullptr),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  mmptx_compiler_t *c = nullptr;
  EXPECT_EQ(mmptx_compiler_create(mmptx_backend_kind_t(7), nullptr, &c),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(mmptx_backend_last_error(), "unknown backend kind 7");
  EXPECT_EQ(mmptx_compiler_destroy(nullptr),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(mmptx_batch_destroy(nullptr), MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  size_t n;
  EXPECT_EQ(mmptx_batch_size(nullptr, &n),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  mmptx_batch_summary_t s;
  EXPECT_EQ(mmptx_batch_summary(nullptr, &s),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
}

TEST(BackendCAPITest, CompilesABatch) {
  mmptx_compiler_t *c = nullptr;
  if (mmptx_compiler_create(MMPTX_BACKEND_DEFAULT, nullptr, &c) !=
      MMPTX_BACKEND_SUCCESS)
    GTEST_SKIP() << mmptx_backend_last_error();
  const char *id = nullptr;
  ASSERT_EQ(mmptx_compiler_identity(c, &id), MMPTX_BACKEND_SUCCESS);
  EXPECT_NE(std::strchr(id, ' '), nullptr);

  auto buf = llvm::MemoryBuffer::getFile(std::string(MMPTX_CORPUS_DIR) +
                                         "/ptx_inject_simple_kernel.ptx");
  ASSERT_TRUE(bool(buf));
  std::string good = (*buf)->getBuffer().str();
  std::string bad = good;
  bad.replace(bad.find("mov.f32 %_x0"), 7, "mov.f33");
  const char *ptx[] = {good.c_str(), bad.c_str(), good.c_str()};

  mmptx_compile_options_t opts;
  ASSERT_EQ(mmptx_compile_options_init(&opts), MMPTX_BACKEND_SUCCESS);
  mmptx_batch_t *b = nullptr;
  EXPECT_EQ(mmptx_compile_batch(c, nullptr, nullptr, 3, &opts, 1, &b),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  opts.arch = "sm_2";
  EXPECT_EQ(mmptx_compile_batch(c, ptx, nullptr, 3, &opts, 1, &b),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(mmptx_backend_last_error(), "unknown architecture"),
            nullptr);
  opts.arch = "sm_80";
  opts.num_extra_options = 1;
  EXPECT_EQ(mmptx_compile_batch(c, ptx, nullptr, 3, &opts, 1, &b),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  opts.num_extra_options = 0;

  ASSERT_EQ(mmptx_compile_batch(c, ptx, nullptr, 3, &opts, 2, &b),
            MMPTX_BACKEND_SUCCESS);
  size_t n = 0;
  ASSERT_EQ(mmptx_batch_size(b, &n), MMPTX_BACKEND_SUCCESS);
  EXPECT_EQ(n, 3u);
  const void *data = nullptr;
  size_t size = 0;
  EXPECT_EQ(mmptx_batch_cubin(b, 0, &data, &size), MMPTX_BACKEND_SUCCESS);
  EXPECT_GT(size, 4u);
  EXPECT_EQ(std::memcmp(data,
                        "\x7f"
                        "ELF",
                        4),
            0);
  EXPECT_EQ(mmptx_batch_cubin(b, 1, &data, &size),
            MMPTX_BACKEND_ERROR_COMPILATION);
  EXPECT_NE(std::strstr(mmptx_backend_last_error(), "Unknown modifier '.f33'"),
            nullptr);
  const char *msg = nullptr;
  EXPECT_EQ(mmptx_batch_error(b, 1, &msg), MMPTX_BACKEND_SUCCESS);
  EXPECT_NE(std::strstr(msg, "module 1:"), nullptr);
  EXPECT_EQ(mmptx_batch_error(b, 0, &msg), MMPTX_BACKEND_SUCCESS);
  EXPECT_STREQ(msg, "");
  EXPECT_EQ(mmptx_batch_cubin(b, 3, &data, &size),
            MMPTX_BACKEND_ERROR_OUT_OF_RANGE);
  EXPECT_EQ(mmptx_batch_cubin(b, 0, nullptr, &size),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  mmptx_batch_summary_t s;
  ASSERT_EQ(mmptx_batch_summary(b, &s), MMPTX_BACKEND_SUCCESS);
  EXPECT_EQ(s.modules, 3u);
  EXPECT_EQ(s.unique, 2u);
  EXPECT_EQ(s.duplicates, 1u);
  EXPECT_EQ(s.failed, 1u);
  EXPECT_EQ(mmptx_batch_destroy(b), MMPTX_BACKEND_SUCCESS);
  EXPECT_EQ(mmptx_compiler_destroy(c), MMPTX_BACKEND_SUCCESS);
}

} // namespace
