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
  TypeTable Table = TypeTable::getDefault();
  EXPECT_GE(Table.size(), 13u);
  const TypeInfo *F16 = Table.lookup("F16");
  ASSERT_NE(F16, nullptr);
  EXPECT_EQ(F16->RegType, "b16");
  EXPECT_EQ(F16->Constraint, 'h');
  EXPECT_EQ(F16->Bind, BindKind::U16);
  const TypeInfo *Philox = Table.lookup("PHILOX");
  ASSERT_NE(Philox, nullptr);
  EXPECT_EQ(Philox->RegType, "u32");
}

TEST(TypeTableTest, LookupIgnoresCase) {
  TypeTable Table = TypeTable::getDefault();
  EXPECT_EQ(Table.lookup("f32"), Table.lookup("F32"));
  EXPECT_EQ(Table.lookup("bf16x2"), Table.lookup("BF16X2"));
  EXPECT_EQ(Table.lookup("f33"), nullptr);
}

TEST(TypeTableTest, IdenticalRedefinitionIsANoOp) {
  TypeTable Table = TypeTable::getDefault();
  size_t Before = Table.size();
  EXPECT_FALSE(
      errorToBool(Table.add({"F32", "f32", "f32", 'f', 32, BindKind::Value})));
  EXPECT_EQ(Table.size(), Before);
}

TEST(TypeTableTest, ConflictingRedefinitionFails) {
  TypeTable Table = TypeTable::getDefault();
  Error Err = Table.add({"f32", "b32", "b32", 'r', 32, BindKind::Value});
  EXPECT_EQ(toString(std::move(Err)),
            "inject type 'f32' conflicts with the earlier definition of 'F32'");
}

TEST(TypeTableTest, ReadsGeneratedHeader) {
  SourceMgr Sm;
  unsigned Id = Sm.AddNewSourceBuffer(
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
  TypeTable Table;
  ASSERT_FALSE(errorToBool(Table.addFromHeader(Sm, Id)));
  EXPECT_EQ(Table.size(), 2u);
  const TypeInfo *Bits = Table.lookup("half_bits");
  ASSERT_NE(Bits, nullptr);
  EXPECT_EQ(Bits->TheToken, "HALF_BITS");
  EXPECT_EQ(Bits->RegType, "b16");
  const TypeInfo *Half = Table.lookup("HALF");
  ASSERT_NE(Half, nullptr);
  EXPECT_EQ(Half->RegType, "f16");
  EXPECT_EQ(Half->Bind, BindKind::U16);
}

TEST(TypeTableTest, IncompleteHeaderTypeIsLocated) {
  SourceMgr Sm;
  unsigned Id =
      Sm.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(
                                "#define PTX_INJECT_TYPE_CAT 1\n"
                                "#define PTX_INJECT_TYPE_CAT_REG \"f32\"\n",
                                "TestBuffer"),
                            SMLoc());
  TypeTable Table;
  EXPECT_EQ(toString(Table.addFromHeader(Sm, Id)),
            "TestBuffer:1:9: error: inject type 'CAT' has no "
            "PTX_INJECT_TYPE_CAT_MOV definition\n"
            "#define PTX_INJECT_TYPE_CAT 1\n"
            "        ^");
}

} // namespace
