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

extern "C" int mmptx_backend_c_test(const char *Ptx, char *Failure,
                                    size_t FailureSize);

namespace {

TEST(BackendCAPITest, FromC99) {
  auto Buf = llvm::MemoryBuffer::getFile(std::string(MMPTX_CORPUS_DIR) +
                                         "/ptx_inject_simple_kernel.ptx");
  ASSERT_TRUE(bool(Buf));
  std::string Ptx = (*Buf)->getBuffer().str();
  char Failure[512] = "";
  int Rc = mmptx_backend_c_test(Ptx.c_str(), Failure, sizeof(Failure));
  if (Rc == 1)
    GTEST_SKIP() << "no PTX compiler backend";
  EXPECT_EQ(Rc, 0) << Failure;
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
  mmptx_compiler_t *C = nullptr;
  EXPECT_EQ(mmptx_compiler_create(mmptx_backend_kind_t(7), nullptr, &C),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(mmptx_backend_last_error(), "unknown backend kind 7");
  // Destroying NULL does nothing, as everywhere in the C API.
  EXPECT_EQ(mmptx_compiler_destroy(nullptr), MMPTX_BACKEND_SUCCESS);
  EXPECT_EQ(mmptx_batch_destroy(nullptr), MMPTX_BACKEND_SUCCESS);
  size_t N;
  EXPECT_EQ(mmptx_batch_size(nullptr, &N),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  mmptx_batch_summary_t S;
  EXPECT_EQ(mmptx_batch_summary(nullptr, &S),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
}

TEST(BackendCAPITest, CompilesABatch) {
  mmptx_compiler_t *C = nullptr;
  if (mmptx_compiler_create(MMPTX_BACKEND_DEFAULT, nullptr, &C) !=
      MMPTX_BACKEND_SUCCESS)
    GTEST_SKIP() << mmptx_backend_last_error();
  const char *Id = nullptr;
  ASSERT_EQ(mmptx_compiler_identity(C, &Id), MMPTX_BACKEND_SUCCESS);
  EXPECT_NE(std::strchr(Id, ' '), nullptr);

  auto Buf = llvm::MemoryBuffer::getFile(std::string(MMPTX_CORPUS_DIR) +
                                         "/ptx_inject_simple_kernel.ptx");
  ASSERT_TRUE(bool(Buf));
  std::string Good = (*Buf)->getBuffer().str();
  std::string Bad = Good;
  Bad.replace(Bad.find("mov.f32 %_x0"), 7, "mov.f33");
  const char *Ptx[] = {Good.c_str(), Bad.c_str(), Good.c_str()};

  mmptx_compile_options_t Opts;
  ASSERT_EQ(mmptx_compile_options_init(&Opts), MMPTX_BACKEND_SUCCESS);
  mmptx_batch_t *B = nullptr;
  EXPECT_EQ(mmptx_compile_batch(C, nullptr, nullptr, 3, &Opts, 1, &B),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  Opts.arch = "sm_2";
  EXPECT_EQ(mmptx_compile_batch(C, Ptx, nullptr, 3, &Opts, 1, &B),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(mmptx_backend_last_error(), "unknown architecture"),
            nullptr);
  Opts.arch = "sm_80";
  Opts.num_extra_options = 1;
  EXPECT_EQ(mmptx_compile_batch(C, Ptx, nullptr, 3, &Opts, 1, &B),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  Opts.num_extra_options = 0;
  Opts.fast_compile = "fast";
  EXPECT_EQ(mmptx_compile_batch(C, Ptx, nullptr, 3, &Opts, 1, &B),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(mmptx_backend_last_error(),
               "options->fast_compile: 'fast' is not 0, min, mid or max");
  Opts.fast_compile = "max";
  ASSERT_EQ(mmptx_compile_batch(C, Ptx, nullptr, 1, &Opts, 1, &B),
            MMPTX_BACKEND_SUCCESS);
  const void *Fast = nullptr;
  size_t FastSize = 0;
  EXPECT_EQ(mmptx_batch_cubin(B, 0, &Fast, &FastSize), MMPTX_BACKEND_SUCCESS);
  EXPECT_EQ(mmptx_batch_destroy(B), MMPTX_BACKEND_SUCCESS);
  Opts.fast_compile = nullptr;

  ASSERT_EQ(mmptx_compile_batch(C, Ptx, nullptr, 3, &Opts, 2, &B),
            MMPTX_BACKEND_SUCCESS);
  size_t N = 0;
  ASSERT_EQ(mmptx_batch_size(B, &N), MMPTX_BACKEND_SUCCESS);
  EXPECT_EQ(N, 3u);
  const void *Data = nullptr;
  size_t Size = 0;
  EXPECT_EQ(mmptx_batch_cubin(B, 0, &Data, &Size), MMPTX_BACKEND_SUCCESS);
  EXPECT_GT(Size, 4u);
  EXPECT_EQ(std::memcmp(Data,
                        "\x7f"
                        "ELF",
                        4),
            0);
  EXPECT_EQ(mmptx_batch_cubin(B, 1, &Data, &Size),
            MMPTX_BACKEND_ERROR_COMPILATION);
  EXPECT_NE(std::strstr(mmptx_backend_last_error(), "Unknown modifier '.f33'"),
            nullptr);
  const char *Msg = nullptr;
  EXPECT_EQ(mmptx_batch_error(B, 1, &Msg), MMPTX_BACKEND_SUCCESS);
  EXPECT_NE(std::strstr(Msg, "module 1:"), nullptr);
  EXPECT_EQ(mmptx_batch_error(B, 0, &Msg), MMPTX_BACKEND_SUCCESS);
  EXPECT_STREQ(Msg, "");
  EXPECT_EQ(mmptx_batch_cubin(B, 3, &Data, &Size),
            MMPTX_BACKEND_ERROR_OUT_OF_RANGE);
  EXPECT_EQ(mmptx_batch_cubin(B, 0, nullptr, &Size),
            MMPTX_BACKEND_ERROR_INVALID_ARGUMENT);
  mmptx_batch_summary_t S;
  ASSERT_EQ(mmptx_batch_summary(B, &S), MMPTX_BACKEND_SUCCESS);
  EXPECT_EQ(S.modules, 3u);
  EXPECT_EQ(S.unique, 2u);
  EXPECT_EQ(S.duplicates, 1u);
  EXPECT_EQ(S.failed, 1u);
  EXPECT_EQ(mmptx_batch_destroy(B), MMPTX_BACKEND_SUCCESS);
  EXPECT_EQ(mmptx_compiler_destroy(C), MMPTX_BACKEND_SUCCESS);
}

} // namespace
