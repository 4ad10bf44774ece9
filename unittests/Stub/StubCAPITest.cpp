//===- StubCAPITest.cpp - C API of the stub of an inject ------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx-c/Error.h"
#include "mmptx-c/Stub.h"
#include "mmptx/Stub/StubBuilder.h"

#include "gtest/gtest.h"

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace {
class StubCAPITest : public ::testing::Test {
protected:
  void SetUp() override {
    std::ifstream In(MMPTX_CORPUS_DIR "/ptx_inject_simple_kernel.ptx");
    std::stringstream Ss;
    Ss << In.rdbuf();
    Ptx = Ss.str();
    ASSERT_FALSE(Ptx.empty());
    ASSERT_EQ(mmptx_inject_create(&H, Ptx.data(), Ptx.size(), "simple", nullptr,
                                  0, nullptr, 0),
              MMPTX_SUCCESS);
  }
  void TearDown() override { mmptx_inject_destroy(H); }

  /// Builds the stub of `func` from \p Program; \returns its result.
  mmptx_result_t build(mmptx_program_kind_t Kind, const std::string &Program,
                       std::string &Stub,
                       const mmptx_stub_options_t *Opts = nullptr) {
    size_t Size = 0;
    mmptx_result_t R =
        mmptx_stub_build(H, "func", Kind, Program.data(), Program.size(),
                         "prog", Opts, nullptr, 0, &Size);
    if (R != MMPTX_SUCCESS)
      return R;
    Stub.assign(Size + 1, '\0');
    R = mmptx_stub_build(H, "func", Kind, Program.data(), Program.size(),
                         "prog", Opts, &Stub[0], Stub.size(), &Size);
    Stub.resize(Size);
    return R;
  }

  std::string Ptx;
  mmptx_inject_t *H = nullptr;
};

// The C API gives the stub the C++ API (and so mmptx-opt --stub-gen) gives.
TEST_F(StubCAPITest, SameStubAsTheCppAPI) {
  auto M = mmptx::InjectModule::create(Ptx, "simple");
  ASSERT_TRUE(bool(M));
  const mmptx::Inject *Inj = (*M)->lookupInject("func");
  for (auto [Kind, Text] :
       {std::pair{MMPTX_PROGRAM_STACK,
                  std::string(".program { v_x v_y add.f32 }")},
        std::pair{MMPTX_PROGRAM_AST,
                  std::string("(= v_z (add.ftz.f32 v_x v_y))")}}) {
    std::string Stub;
    ASSERT_EQ(build(Kind, Text, Stub), MMPTX_SUCCESS) << mmptx_last_error();
    EXPECT_STREQ(mmptx_last_error(), "");
    mmptx::stub::Program P{Kind == MMPTX_PROGRAM_AST
                               ? mmptx::stub::ProgramKind::Ast
                               : mmptx::stub::ProgramKind::Stack,
                           Text, "prog"};
    auto Expected = mmptx::stub::buildStub(**M, *Inj, P);
    ASSERT_TRUE(bool(Expected));
    EXPECT_EQ(Stub, *Expected);
  }
}

TEST_F(StubCAPITest, ErrorsAreLocatedAndCoded) {
  std::string Stub;
  EXPECT_EQ(build(MMPTX_PROGRAM_AST, "(= v_z (add.f32 v_x v_q))", Stub),
            MMPTX_ERROR_INVALID_PROGRAM);
  EXPECT_NE(std::strstr(mmptx_last_error(), "prog:1:"), nullptr)
      << mmptx_last_error();
  EXPECT_NE(std::strstr(mmptx_last_error(), "unknown variable 'v_q'"), nullptr)
      << mmptx_last_error();
  EXPECT_EQ(build(MMPTX_PROGRAM_STACK, ".program { v_x v_y add.f32", Stub),
            MMPTX_ERROR_INVALID_PROGRAM);

  size_t Size = 0;
  const char Text[] = "(= v_z v_y)";
  EXPECT_EQ(mmptx_stub_build(H, "nope", MMPTX_PROGRAM_AST, Text,
                             sizeof(Text) - 1, nullptr, nullptr, nullptr, 0,
                             &Size),
            MMPTX_ERROR_INJECTION_NAME_NOT_FOUND);
  EXPECT_EQ(mmptx_stub_build(nullptr, "func", MMPTX_PROGRAM_AST, Text,
                             sizeof(Text) - 1, nullptr, nullptr, nullptr, 0,
                             &Size),
            MMPTX_ERROR_INVALID_INPUT);
  EXPECT_EQ(mmptx_stub_build(H, "func", mmptx_program_kind_t(7), Text,
                             sizeof(Text) - 1, nullptr, nullptr, nullptr, 0,
                             &Size),
            MMPTX_ERROR_INVALID_INPUT);
  EXPECT_EQ(mmptx_stub_build(H, "func", MMPTX_PROGRAM_AST, Text,
                             sizeof(Text) - 1, nullptr, nullptr, nullptr, 0,
                             nullptr),
            MMPTX_ERROR_INVALID_INPUT);
  char Small[4];
  EXPECT_EQ(mmptx_stub_build(H, "func", MMPTX_PROGRAM_AST, Text,
                             sizeof(Text) - 1, nullptr, nullptr, Small,
                             sizeof(Small), &Size),
            MMPTX_ERROR_INSUFFICIENT_BUFFER);
  EXPECT_GT(Size, sizeof(Small));
}

TEST_F(StubCAPITest, OptionsReachTheCompilers) {
  mmptx_stack_options_t Stack;
  mmptx_stack_options_init(&Stack);
  Stack.stack_size = 0;
  mmptx_stub_options_t Opts = {};
  Opts.stack = &Stack;
  std::string Stub;
  EXPECT_EQ(build(MMPTX_PROGRAM_STACK, ".program { v_x }", Stub, &Opts),
            MMPTX_ERROR_INVALID_INPUT);
  EXPECT_STREQ(mmptx_last_error(),
               "options.stack->stack_size must be at least 1");

  // tanh.approx.f32 needs sm_75; the kernel's own target has it.
  const std::string Tanh = "(= v_z (tanh.approx.f32 v_y))";
  Opts = {};
  ASSERT_EQ(build(MMPTX_PROGRAM_AST, Tanh, Stub, &Opts), MMPTX_SUCCESS)
      << mmptx_last_error();
  Opts.target_sm = 70;
  EXPECT_EQ(build(MMPTX_PROGRAM_AST, Tanh, Stub, &Opts),
            MMPTX_ERROR_INVALID_PROGRAM);
  EXPECT_NE(std::strstr(mmptx_last_error(), "needs sm_75"), nullptr)
      << mmptx_last_error();

  // Without sharing the repeated sub-expression is computed twice.
  mmptx_ast_options_t Ast = mmptx_ast_default_options();
  Ast.share_subexpressions = 0;
  Opts = {};
  Opts.ast = &Ast;
  ASSERT_EQ(build(MMPTX_PROGRAM_AST,
                  "(= v_z (add.f32 (abs.f32 v_y) (abs.f32 v_y)))", Stub, &Opts),
            MMPTX_SUCCESS);
  EXPECT_NE(Stub.find("abs.f32 %ast1"), std::string::npos) << Stub;

  const char *Dirs[] = {nullptr};
  Opts = {};
  Opts.include_dirs = Dirs;
  Opts.num_include_dirs = 1;
  EXPECT_EQ(build(MMPTX_PROGRAM_STACK, ".program { v_x }", Stub, &Opts),
            MMPTX_ERROR_INVALID_INPUT);
}
} // namespace
