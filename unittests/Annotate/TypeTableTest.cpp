//===- TypeTableTest.cpp - Inject type table tests ------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Annotate/Annotate.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mmptx::annotate;

namespace {

TEST(TypeTableTest, DefaultsComeFromTableGen) {
  TypeTable table = TypeTable::getDefault();
  EXPECT_GE(table.size(), 13u);
  const TypeInfo *f16 = table.lookup("F16");
  ASSERT_NE(f16, nullptr);
  EXPECT_EQ(f16->regType, "b16");
  EXPECT_EQ(f16->constraint, 'h');
  EXPECT_EQ(f16->bind, BindKind::U16);
  const TypeInfo *philox = table.lookup("PHILOX");
  ASSERT_NE(philox, nullptr);
  EXPECT_EQ(philox->regType, "u32");
}

TEST(TypeTableTest, LookupIgnoresCase) {
  TypeTable table = TypeTable::getDefault();
  EXPECT_EQ(table.lookup("f32"), table.lookup("F32"));
  EXPECT_EQ(table.lookup("bf16x2"), table.lookup("BF16X2"));
  EXPECT_EQ(table.lookup("f33"), nullptr);
}

TEST(TypeTableTest, IdenticalRedefinitionIsANoOp) {
  TypeTable table = TypeTable::getDefault();
  size_t before = table.size();
  EXPECT_FALSE(
      errorToBool(table.add({"F32", "f32", "f32", 'f', 32, BindKind::Value})));
  EXPECT_EQ(table.size(), before);
}

TEST(TypeTableTest, ConflictingRedefinitionFails) {
  TypeTable table = TypeTable::getDefault();
  Error err = table.add({"f32", "b32", "b32", 'r', 32, BindKind::Value});
  EXPECT_EQ(toString(std::move(err)),
            "inject type 'f32' conflicts with the earlier definition of 'F32'");
}

TEST(TypeTableTest, ReadsGeneratedHeader) {
  SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(
          "#pragma once\n"
          "/* HALF_BITS: ... */\n"
          "#define PTX_INJECT_TYPE_HALF_BITS 1\n"
          "#define PTX_INJECT_TYPE_HALF_BITS_REG \"b16\"\n"
          "#define PTX_INJECT_TYPE_HALF_BITS_MOV \"b16\"\n"
          "#define PTX_INJECT_TYPE_HALF_BITS_CONSTRAINT \"h\"\n"
          "#define PTX_INJECT_TYPE_HALF_BITS_BIND PTX_INJECT_BIND_U16\n"
          "#define PTX_INJECT_TYPE_HALF 1\n"
          "#define PTX_INJECT_TYPE_HALF_REG \"f16\"\n"
          "#define PTX_INJECT_TYPE_HALF_MOV \"b16\"\n"
          "#define PTX_INJECT_TYPE_HALF_CONSTRAINT \"h\"\n"
          "#define PTX_INJECT_TYPE_HALF_BIND PTX_INJECT_BIND_U16\n",
          "TestBuffer"),
      SMLoc());
  TypeTable table;
  ASSERT_FALSE(errorToBool(table.addFromHeader(sm, id)));
  EXPECT_EQ(table.size(), 2u);
  const TypeInfo *bits = table.lookup("half_bits");
  ASSERT_NE(bits, nullptr);
  EXPECT_EQ(bits->token, "HALF_BITS");
  EXPECT_EQ(bits->regType, "b16");
  const TypeInfo *half = table.lookup("HALF");
  ASSERT_NE(half, nullptr);
  EXPECT_EQ(half->regType, "f16");
  EXPECT_EQ(half->bind, BindKind::U16);
}

TEST(TypeTableTest, IncompleteHeaderTypeIsLocated) {
  SourceMgr sm;
  unsigned id =
      sm.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(
                                "#define PTX_INJECT_TYPE_CAT 1\n"
                                "#define PTX_INJECT_TYPE_CAT_REG \"f32\"\n",
                                "TestBuffer"),
                            SMLoc());
  TypeTable table;
  EXPECT_EQ(toString(table.addFromHeader(sm, id)),
            "TestBuffer:1:9: error: inject type 'CAT' has no "
            "PTX_INJECT_TYPE_CAT_MOV definition\n"
            "#define PTX_INJECT_TYPE_CAT 1\n"
            "        ^");
}

} // namespace
