//===- ReferenceWireTest.cpp - Reading the reference's buffers ------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reads every buffer of test/Serialize/Inputs (written by the reference's
// serialiser) and checks every value its JSON manifest states.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Serialize/ReferenceWire.h"

#include "mmptx/Stack/StackInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::wire;
using namespace mmptx::wire::ref;

namespace {

std::string inputPath(StringRef Name) {
  SmallString<256> P(MMPTX_SOURCE_DIR);
  sys::path::append(P, "test", "Serialize", "Inputs", Name);
  return std::string(P);
}

std::string readFile(StringRef Name) {
  auto B = MemoryBuffer::getFile(inputPath(Name), /*IsText=*/false,
                                 /*RequiresNullTerminator=*/false);
  if (!B)
    return "";
  return (*B)->getBuffer().str();
}

json::Value readManifest(StringRef Name) {
  Expected<json::Value> V = json::parse(readFile(Name));
  if (!V) {
    ADD_FAILURE() << toString(V.takeError());
    return nullptr;
  }
  return std::move(*V);
}

int64_t num(const json::Object &O, StringRef K) {
  Optional<int64_t> V = O.getInteger(K);
  EXPECT_TRUE(V.hasValue()) << K.str();
  return V.getValueOr(-1);
}

const json::Array &arr(const json::Object &O, StringRef K) {
  static const json::Array Empty;
  const json::Array *A = O.getArray(K);
  EXPECT_TRUE(A) << K.str();
  return A ? *A : Empty;
}

std::string str(const json::Value &V) {
  return V.getAsString().getValueOr("<not a string>").str();
}

/// Checks \p C (a manifest component) against what was read.
void checkComponent(const json::Object &C, const Buffer &B, size_t SpanIdx) {
  std::string Name = str(*C.get("component"));
  SCOPED_TRACE(Name);
  ASSERT_LT(SpanIdx, B.Spans.size());
  EXPECT_EQ(getComponentName(B.Spans[SpanIdx].Which), Name);
  EXPECT_EQ(int64_t(B.Spans[SpanIdx].Offset), num(C, "offset"));
  EXPECT_EQ(int64_t(B.Spans[SpanIdx].Length), num(C, "length"));
  if (Name == "compiler_info") {
    ASSERT_TRUE(B.Compiler);
    const json::Object &V = *C.getObject("values");
    EXPECT_EQ(int64_t(B.Compiler->MaxAstSize), num(V, "max_ast_size"));
    EXPECT_EQ(int64_t(B.Compiler->MaxAstToVisitStackDepth),
              num(V, "max_ast_to_visit_stack_depth"));
    EXPECT_EQ(int64_t(B.Compiler->StackSize), num(V, "stack_size"));
    EXPECT_EQ(int64_t(B.Compiler->MaxFrameDepth), num(V, "max_frame_depth"));
    EXPECT_EQ(int64_t(B.Compiler->StoreSize), num(V, "store_size"));
  } else if (Name == "extra") {
    ASSERT_TRUE(B.ExtraInfo);
    const json::Object &V = *C.getObject("values");
    EXPECT_EQ(B.ExtraInfo->SmMajor, num(V, "device_capability_major"));
    EXPECT_EQ(B.ExtraInfo->SmMinor, num(V, "device_capability_minor"));
    EXPECT_EQ(int64_t(B.ExtraInfo->ExecutionLimit), num(V, "execution_limit"));
  } else if (Name == "ptx") {
    ASSERT_TRUE(B.Ptx);
    EXPECT_EQ(int64_t(B.Ptx->size()), num(C, "text_length"));
    std::array<uint8_t, 32> H = SHA256::hash(arrayRefFromStringRef(*B.Ptx));
    EXPECT_EQ(toHex(H, /*LowerCase=*/true), str(*C.get("text_sha256")));
  } else if (Name == "registers") {
    ASSERT_TRUE(B.Registers);
    EXPECT_EQ(int64_t(B.Registers->size()), num(C, "num_registers"));
    const json::Array &Regs = arr(C, "registers");
    ASSERT_EQ(Regs.size(), B.Registers->size());
    for (size_t I = 0; I != Regs.size(); ++I) {
      const json::Object &R = *Regs[I].getAsObject();
      EXPECT_EQ((*B.Registers)[I].Name, str(*R.get("name")));
      EXPECT_EQ((*B.Registers)[I].StackIdx, num(R, "stack_idx"));
    }
  } else if (Name == "requests") {
    ASSERT_TRUE(B.Requests);
    const json::Array &L = arr(C, "request_lists");
    ASSERT_EQ(L.size(), B.Requests->size());
    EXPECT_EQ(int64_t(L.size()), num(C, "num_request_lists"));
    for (size_t I = 0; I != L.size(); ++I) {
      const json::Array &Idx = *L[I].getAsArray();
      ASSERT_EQ(Idx.size(), (*B.Requests)[I].size());
      for (size_t K = 0; K != Idx.size(); ++K)
        EXPECT_EQ(int64_t((*B.Requests)[I][K]), *Idx[K].getAsInteger());
    }
  } else if (Name == "instructions") {
    ASSERT_TRUE(B.Programs);
    const json::Array &P = arr(C, "programs");
    EXPECT_EQ(int64_t(P.size()), num(C, "num_programs"));
    ASSERT_EQ(P.size(), B.Programs->size());
    for (size_t I = 0; I != P.size(); ++I) {
      const json::Object &Prog = *P[I].getAsObject();
      const std::vector<uint64_t> &W = (*B.Programs)[I];
      EXPECT_EQ(int64_t(W.size()), num(Prog, "num_words"));
      const json::Array &Hex = arr(Prog, "words_hex");
      const json::Array &Words = arr(Prog, "words");
      ASSERT_EQ(Hex.size(), W.size());
      ASSERT_EQ(Words.size(), W.size());
      for (size_t K = 0; K != W.size(); ++K) {
        char Le[8];
        support::endian::write64le(Le, W[K]);
        EXPECT_EQ(toHex(StringRef(Le, 8), /*LowerCase=*/true), str(Hex[K]));
        const json::Object &D = *Words[K].getAsObject();
        EXPECT_EQ(stack::getWordTypeBits(W[K]), num(D, "instruction_type"));
        EXPECT_EQ(stack::getWordAux(W[K]), num(D, "aux"));
        EXPECT_EQ(stack::getWordPayload(W[K]), num(D, "payload_u32"));
      }
    }
  } else if (Name == "stack_info") {
    ASSERT_TRUE(B.Stack);
    const StackInfo &S = *B.Stack;
    EXPECT_EQ(int64_t(S.PtxInstrs.size()), num(C, "num_ptx_instructions"));
    EXPECT_EQ(int64_t(S.Specials.size()), num(C, "num_special_registers"));
    EXPECT_EQ(int64_t(S.LiteralPrefixes.size()), num(C, "num_stacks"));
    EXPECT_EQ(int64_t(S.ArgTypes.size()), num(C, "num_arg_types"));
    auto Strings = [&](StringRef K, const std::vector<std::string> &Got) {
      const json::Array &A = arr(C, K);
      ASSERT_EQ(A.size(), Got.size()) << K.str();
      for (size_t I = 0; I != A.size(); ++I)
        EXPECT_EQ(Got[I], str(A[I])) << K.str() << " " << I;
    };
    Strings("ptx_instruction_strings", S.PtxInstrs);
    Strings("special_register_strings", S.Specials);
    Strings("stack_literal_prefixes", S.LiteralPrefixes);
    const json::Array &SA = arr(C, "special_register_arg_type_idx");
    ASSERT_EQ(SA.size(), S.SpecialArgTypes.size());
    for (size_t I = 0; I != SA.size(); ++I)
      EXPECT_EQ(S.SpecialArgTypes[I], *SA[I].getAsInteger());
    const json::Array &AT = arr(C, "arg_type_info");
    ASSERT_EQ(AT.size(), S.ArgTypes.size());
    for (size_t I = 0; I != AT.size(); ++I) {
      const json::Array &P = *AT[I].getAsArray();
      EXPECT_EQ(S.ArgTypes[I][0], *P[0].getAsInteger());
      EXPECT_EQ(S.ArgTypes[I][1], *P[1].getAsInteger());
    }
    const json::Array &Ds = arr(C, "ptx_instruction_descriptors");
    ASSERT_EQ(Ds.size(), S.Descriptors.size());
    for (size_t I = 0; I != Ds.size(); ++I) {
      const json::Object &D = *Ds[I].getAsObject();
      const PtxInstrDescriptor &G = S.Descriptors[I];
      const json::Array &A = arr(D, "arg_types"), &R = arr(D, "ret_types"),
                        &U = arr(D, "unique_stacks");
      for (size_t K = 0; K != 4; ++K)
        EXPECT_EQ(G.ArgTypes[K], *A[K].getAsInteger());
      for (size_t K = 0; K != 2; ++K)
        EXPECT_EQ(G.RetTypes[K], *R[K].getAsInteger());
      EXPECT_EQ(G.NumUniqueStacks, num(D, "num_unique_stacks"));
      EXPECT_EQ(bool(G.IsAligned), *D.getBoolean("is_aligned"));
      for (size_t K = 0; K != 4; ++K) {
        const json::Array &P = *U[K].getAsArray();
        EXPECT_EQ(G.UniqueStacks[K][0], *P[0].getAsInteger());
        EXPECT_EQ(G.UniqueStacks[K][1], *P[1].getAsInteger());
      }
      EXPECT_EQ(toHex(G.Raw, /*LowerCase=*/true), str(*D.get("bytes")));
    }
  } else {
    ADD_FAILURE() << "unknown component " << Name;
  }
}

const char *const Vectors[] = {"compiler_info_default",
                               "compiler_info_example01",
                               "compiler_state_simple",
                               "extra",
                               "instructions_1prog",
                               "instructions_3prog",
                               "ptx_simple",
                               "registers",
                               "requests",
                               "stack_info_default"};

Layout layoutOf(const json::Object &M, Component &Single) {
  StringRef L = M.getString("layout").getValueOr("");
  if (L == "compiler state")
    return Layout::State;
  const json::Array &Order = arr(M, "component_order");
  Single = *parseComponentName(str(Order[0]));
  return Layout::Single;
}

TEST(ReferenceWire, EveryVectorAndEveryManifestValue) {
  for (const char *Name : Vectors) {
    SCOPED_TRACE(Name);
    std::string Bytes = readFile(std::string(Name) + ".bin");
    json::Value M = readManifest(std::string(Name) + ".json");
    const json::Object &Obj = *M.getAsObject();
    ASSERT_EQ(int64_t(Bytes.size()), num(Obj, "size"));
    std::array<uint8_t, 32> H = SHA256::hash(arrayRefFromStringRef(Bytes));
    EXPECT_EQ(toHex(H, true), str(*Obj.get("sha256")));
    Component Single = Component::Ptx;
    Layout L = layoutOf(Obj, Single);
    Expected<Buffer> B = readBuffer(Bytes, L, Single);
    ASSERT_TRUE(bool(B)) << toString(B.takeError());
    const json::Array &Cs = arr(Obj, "components");
    ASSERT_EQ(Cs.size(), B->Spans.size());
    for (size_t I = 0; I != Cs.size(); ++I)
      checkComponent(*Cs[I].getAsObject(), *B, I);
  }
}

TEST(ReferenceWire, EveryTruncationIsAnError) {
  for (const char *Name : Vectors) {
    SCOPED_TRACE(Name);
    std::string Bytes = readFile(std::string(Name) + ".bin");
    json::Value M = readManifest(std::string(Name) + ".json");
    Component Single = Component::Ptx;
    Layout L = layoutOf(*M.getAsObject(), Single);
    for (size_t N = 0; N < Bytes.size(); ++N) {
      Expected<Buffer> B =
          readBuffer(StringRef(Bytes).take_front(N), L, Single);
      ASSERT_FALSE(bool(B)) << N;
      consumeError(B.takeError());
    }
  }
}

TEST(ReferenceWire, Example01LayoutAndJob) {
  // The 01_buffer_compile order, assembled from the single components.
  std::string Bytes;
  for (const char *Part :
       {"compiler_info_example01", "stack_info_default", "ptx_simple",
        "registers", "requests", "instructions_3prog", "extra"})
    Bytes += readFile(std::string(Part) + ".bin");
  Expected<Buffer> B = readBuffer(Bytes, Layout::Example01);
  ASSERT_TRUE(bool(B)) << toString(B.takeError());
  ASSERT_EQ(B->Spans.size(), 7u);
  EXPECT_EQ(B->Spans[2].Which, Component::Ptx);
  EXPECT_EQ(B->Spans[2].Offset, 40u + 2184u);
  ASSERT_TRUE(B->Programs);
  EXPECT_EQ(B->Programs->size(), 3u);
  Expected<Job> J = toJob(*B);
  ASSERT_TRUE(bool(J)) << toString(J.takeError());
  // The reference's default tables are mmptx's default set's first entries.
  EXPECT_TRUE(J->DefaultInstructionSet);
  EXPECT_EQ(J->StackOptions.MaxNodes, 100u);
  EXPECT_EQ(J->StackOptions.StackSize, 128u);
  EXPECT_EQ(J->StackOptions.MaxFrameDepth, 4u);
  EXPECT_EQ(J->StackOptions.StoreSize, 16u);
  EXPECT_EQ(J->StackOptions.ExecutionLimit, 1000u);
  EXPECT_EQ(J->StackOptions.TargetSm, 80u);
  EXPECT_EQ(J->Target, "sm_80");
  EXPECT_EQ(J->Kind, SourceKind::Inject);
  ASSERT_EQ(J->Registers.size(), 11u);
  EXPECT_EQ(J->Registers[1].StackIdx, 8u); // PHILOX
  EXPECT_EQ(J->Registers[1].Kind, stack::RegKind::Mod);
  EXPECT_EQ(J->Registers[4].Kind, stack::RegKind::In);
  ASSERT_EQ(J->Requests.size(), 3u);
  EXPECT_EQ(J->Requests[0], (std::vector<uint32_t>{2, 3, 0, 1}));
  ProgramBatch P = toPrograms(*B);
  ASSERT_EQ(P.Variants.size(), 1u);
  EXPECT_EQ(P.Variants[0].Programs[0].Words.size(), 19u);
  EXPECT_EQ(P.Variants[0].Programs[0].Routines.size(), 2u);
  // And the job survives mmptx's own format.
  Expected<Job> Back = deserializeJob(serialize(*J));
  ASSERT_TRUE(bool(Back)) << toString(Back.takeError());
  EXPECT_TRUE(*Back == *J);
}

TEST(ReferenceWire, DefaultTablesEqualOurs) {
  Expected<Buffer> B = readBuffer(readFile("stack_info_default.bin"),
                                  Layout::Single, Component::StackInfo);
  ASSERT_TRUE(bool(B)) << toString(B.takeError());
  const stack::StackInfo &D = stack::getDefaultStackInfo();
  const StackInfo &S = *B->Stack;
  for (size_t I = 0; I != S.PtxInstrs.size(); ++I)
    EXPECT_EQ(S.PtxInstrs[I], D.InstrPtx[I]) << I;
  for (size_t I = 0; I != S.Specials.size(); ++I) {
    EXPECT_EQ(S.Specials[I], D.SpecialPtx[I]) << I;
    // %gridid is .u64 in PTX: mmptx reads it as u64, the reference as u32.
    if (S.Specials[I] == "gridid")
      EXPECT_STREQ(D.ArgTypeNames[D.Specials[I].TheArgType], "U64");
    else
      EXPECT_EQ(S.SpecialArgTypes[I], D.Specials[I].TheArgType)
          << S.Specials[I];
  }
  uint16_t None = uint16_t(S.ArgTypes.size());
  for (size_t I = 0; I != S.PtxInstrs.size(); ++I) {
    const stack::PtxInstrDesc &Y = D.Instrs[I];
    for (unsigned K = 0; K != 4; ++K)
      EXPECT_EQ(S.Descriptors[I].ArgTypes[K], K < Y.NumArgs ? Y.Args[K] : None)
          << I;
    for (unsigned K = 0; K != 2; ++K)
      EXPECT_EQ(S.Descriptors[I].RetTypes[K], K < Y.NumRets ? Y.Rets[K] : None)
          << I;
  }
  for (size_t I = 0; I != S.ArgTypes.size(); ++I) {
    EXPECT_EQ(S.ArgTypes[I][0], D.ArgTypes[I].StackIdx) << I;
    EXPECT_EQ(S.ArgTypes[I][1], D.ArgTypes[I].NumVecElems) << I;
  }
  for (size_t I = 0; I != S.LiteralPrefixes.size(); ++I)
    EXPECT_EQ(S.LiteralPrefixes[I], D.LiteralPrefixes[I]) << I;
  Expected<Job> J = toJob(*B);
  ASSERT_TRUE(bool(J)) << toString(J.takeError());
  EXPECT_TRUE(J->DefaultInstructionSet);
}

TEST(ReferenceWire, OtherTablesGetASetOfTheirOwn) {
  std::string Bytes = readFile("stack_info_default.bin");
  // Rename instruction 0's opcode: add.u32 -> adx.u32.
  size_t At = Bytes.find("add.u32");
  ASSERT_NE(At, std::string::npos);
  Bytes[At + 2] = 'x';
  Expected<Buffer> B = readBuffer(Bytes, Layout::Single, Component::StackInfo);
  ASSERT_TRUE(bool(B)) << toString(B.takeError());
  Expected<Job> J = toJob(*B);
  ASSERT_TRUE(bool(J)) << toString(J.takeError());
  ASSERT_FALSE(J->DefaultInstructionSet);
  EXPECT_EQ(J->Set.Instrs[0].Name, "adx.u32");
  EXPECT_EQ(J->Set.Instrs[33].Name, "add.u32");
  EXPECT_EQ(J->Set.Instrs[36].Name, "mul.lo.u32.2");
  EXPECT_EQ(J->Set.Stacks.size(), 9u);
  EXPECT_EQ(J->Set.Instrs[0].Args, (std::vector<uint16_t>{6, 6}));
}

TEST(ReferenceWire, Errors) {
  auto Err = [](StringRef Bytes, Layout L, Component C = Component::Ptx) {
    Expected<Buffer> B = readBuffer(Bytes, L, C);
    return B ? std::string("no error") : toString(B.takeError());
  };
  EXPECT_EQ(Err("abc", Layout::Single, Component::Ptx),
            "ptx: byte 0: unterminated PTX text: no NUL in the 3 bytes left");
  EXPECT_EQ(Err(std::string("ab\0c", 4), Layout::Single),
            "byte 3: 1 bytes after the last component (ptx): is the layout "
            "right?");
  std::string Huge(8, '\xff');
  EXPECT_EQ(Err(Huge, Layout::Single, Component::Registers),
            "registers: byte 0: register count 18446744073709551615 cannot "
            "fit in the 0 bytes left");
  std::string NoReturn("\1\0\0\0\0\0\0\0"
                       "\3\0\0\0\0\0\0\0",
                       16);
  EXPECT_EQ(Err(NoReturn, Layout::Single, Component::Instructions),
            "instructions: byte 16: truncated program 0 (no RETURN word "
            "before the end): needs 8 bytes, 0 left");
  Expected<Buffer> R =
      readBuffer(readFile("requests.bin"), Layout::Single, Component::Requests);
  ASSERT_TRUE(bool(R));
  Expected<Job> J = toJob(*R);
  ASSERT_FALSE(bool(J));
  EXPECT_EQ(toString(J.takeError()), "requests: list 0 names register 2 of 0");
}

} // namespace
