//===- WireTest.cpp - mmptx's wire format ---------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Serialize/Wire.h"

#include "mmptx/Stack/StackInfo.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/xxhash.h"

#include "gtest/gtest.h"

using namespace mmptx;
using namespace mmptx::wire;

namespace {

Job makeJob(bool DefaultSet) {
  Job J;
  J.Kind = SourceKind::Inject;
  J.SourceName = "kernel.ptx";
  J.Source = "// PTX_INJECT_START f\n// PTX_INJECT_END\n";
  J.Inject.Trusted = true;
  J.Inject.ExtraTypes = {{"DOG", "f32", "f32"}};
  J.DefaultInstructionSet = DefaultSet;
  if (!DefaultSet) {
    J.Set = InstructionSet::fromStackInfo(stack::getDefaultStackInfo());
    J.Metadata = {{"kind", "packed"}, {"blob", std::string("\0\xff", 2)}};
  }
  J.StackOptions.Strict = true;
  J.StackOptions.StackSize = 64;
  J.StackOptions.ExecutionLimit = 1000;
  J.StackOptions.TargetSm = 80;
  J.Registers = {{"x", 0, stack::RegKind::In}, {"y", 8, stack::RegKind::Mod}};
  J.Requests = {{1, 0}, {}, {1}};
  J.Target = "sm_80";
  J.Backend = "nvptxcompiler";
  J.BackendOptions = {"-O3", "--fmad=false"};
  return J;
}

ProgramBatch makePrograms() {
  ProgramBatch B;
  Variant V;
  V.Id = 7;
  WireProgram P;
  P.Words = {stack::encodeInput(0), stack::encodeReturn()};
  P.Routines = {{stack::encodeMetaConstant(3)}, {}};
  V.Programs.push_back(P);
  WireProgram S;
  S.Kind = ProgramKind::Stub;
  S.Inject = 1;
  S.Text = "\tmov.f32 %y, %x;";
  V.Programs.push_back(S);
  B.Variants.push_back(V);
  B.Variants.push_back(Variant{~0ull, {}});
  return B;
}

ResultBatch makeResults() {
  ResultBatch B;
  Result R;
  R.Id = 3;
  R.Ok = true;
  R.Cubin = std::string("\x7f"
                        "ELF\0\1\2",
                        7);
  R.Stubs = {"\t{\n\t}"};
  R.Backend = "ptxas";
  R.BackendVersion = "13.0";
  R.Name = "<ptx#0>";
  R.Log = "info: 12 registers";
  R.Origin = "cached";
  R.Seconds = 0.25;
  B.Results.push_back(R);
  Result F;
  F.Id = 4;
  F.Errors = {{"unknown symbol", "kernel.ptx", 12, 5}, {"no file", "", 0, 0}};
  B.Results.push_back(F);
  return B;
}

TEST(Wire, JobRoundTrips) {
  for (bool Default : {true, false}) {
    Job J = makeJob(Default);
    std::string Bytes = serialize(J);
    llvm::Expected<Job> Back = deserializeJob(Bytes);
    ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
    EXPECT_TRUE(*Back == J);
    EXPECT_EQ(serialize(*Back), Bytes);
  }
}

TEST(Wire, DefaultSetRoundTripsThroughItsView) {
  InstructionSet S =
      InstructionSet::fromStackInfo(stack::getDefaultStackInfo());
  auto V = StackInfoView::create(S);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  EXPECT_TRUE(InstructionSet::fromStackInfo((*V)->get()) == S);
}

TEST(Wire, BadSetIsAnError) {
  InstructionSet S =
      InstructionSet::fromStackInfo(stack::getDefaultStackInfo());
  S.ArgTypes[0].StackIdx = 999;
  auto V = StackInfoView::create(S);
  ASSERT_FALSE(bool(V));
  llvm::consumeError(V.takeError());
}

TEST(Wire, ProgramsAndResultsRoundTrip) {
  ProgramBatch P = makePrograms();
  llvm::Expected<ProgramBatch> P2 = deserializePrograms(serialize(P));
  ASSERT_TRUE(bool(P2)) << llvm::toString(P2.takeError());
  EXPECT_TRUE(*P2 == P);
  ResultBatch R = makeResults();
  llvm::Expected<ResultBatch> R2 = deserializeResults(serialize(R));
  ASSERT_TRUE(bool(R2)) << llvm::toString(R2.takeError());
  EXPECT_TRUE(*R2 == R);
}

TEST(Wire, HeaderIsLittleEndianAndChecked) {
  std::string B = serialize(makePrograms());
  EXPECT_EQ(B.substr(0, 8), "MMPTXWIR");
  EXPECT_EQ(llvm::support::endian::read16le(&B[8]), FormatVersion);
  EXPECT_EQ(llvm::support::endian::read16le(&B[10]), 2u);
  uint64_t N = llvm::support::endian::read64le(&B[16]);
  EXPECT_EQ(B.size(), HeaderSize + N + TrailerSize);
  EXPECT_EQ(llvm::support::endian::read64le(&B[HeaderSize + N]),
            llvm::xxHash64(llvm::StringRef(B).take_front(HeaderSize + N)));
  llvm::Expected<MessageInfo> I = checkMessage(B);
  ASSERT_TRUE(bool(I));
  EXPECT_EQ(I->Kind, MessageKind::Programs);
}

std::string errorOf(llvm::Expected<Job> J) {
  if (J)
    return "no error";
  return llvm::toString(J.takeError());
}

/// Patches the checksum after a change so that the change itself is read.
void reseal(std::string &B) {
  uint64_t N = llvm::support::endian::read64le(&B[16]);
  llvm::support::endian::write64le(
      &B[HeaderSize + N],
      llvm::xxHash64(llvm::StringRef(B).take_front(HeaderSize + N)));
}

TEST(Wire, EveryTruncationIsAnError) {
  std::string B = serialize(makeJob(false));
  for (size_t N = 0; N < B.size(); ++N) {
    llvm::Expected<Job> J = deserializeJob(llvm::StringRef(B).take_front(N));
    ASSERT_FALSE(bool(J)) << N;
    llvm::consumeError(J.takeError());
  }
}

TEST(Wire, EveryFlippedByteIsAnError) {
  std::string B = serialize(makeJob(false));
  for (size_t I = 0; I < B.size(); ++I) {
    std::string C = B;
    C[I] ^= 0x5a;
    llvm::Expected<Job> J = deserializeJob(C);
    ASSERT_FALSE(bool(J)) << I;
    llvm::consumeError(J.takeError());
  }
}

TEST(Wire, Messages) {
  std::string B = serialize(makeJob(true));
  EXPECT_EQ(errorOf(deserializeJob("MMPTX")),
            "byte 0: truncated header: needs 8 bytes, 5 left");
  std::string C = B;
  C[0] = 'X';
  EXPECT_EQ(errorOf(deserializeJob(C)),
            "byte 0: not an mmptx wire message (no MMPTXWIR magic)");
  C = B;
  C[8] = 2;
  EXPECT_EQ(errorOf(deserializeJob(C)),
            "byte 8: format version 2 is not supported (this build reads "
            "version 1)");
  C = B;
  C[12] = 1;
  EXPECT_EQ(errorOf(deserializeJob(C)), "byte 12: unknown flags 0x1");
  EXPECT_EQ(errorOf(deserializeJob(B + "x")),
            "byte " + std::to_string(B.size()) +
                ": 1 bytes after the end of the message");
  C = B;
  C[30] ^= 1;
  EXPECT_NE(errorOf(deserializeJob(C)).find("checksum mismatch"),
            std::string::npos);
  EXPECT_EQ(errorOf(deserializeJob(serialize(makePrograms()))),
            "byte 10: a programs message, not a job message");
  // An oversized string length inside a record: the first record is the
  // source (tag 1, length, kind, name length...).
  C = B;
  llvm::support::endian::write64le(&C[HeaderSize + 2 + 8 + 1], 1ull << 60);
  reseal(C);
  std::string E = errorOf(deserializeJob(C));
  EXPECT_EQ(E.rfind("byte 35: source name length 1152921504606846976 exceeds "
                    "the ",
                    0),
            0u)
      << E;
}

TEST(Wire, OversizedCountsAllocateNothing) {
  // A registers record whose count claims 2^62 registers.
  std::string B = serialize(makeJob(true));
  // Find the registers record (tag 4) by walking the records.
  size_t P = HeaderSize;
  while (llvm::support::endian::read16le(&B[P]) != 4)
    P += 10 + llvm::support::endian::read64le(&B[P + 2]);
  llvm::support::endian::write64le(&B[P + 10], 1ull << 62);
  reseal(B);
  std::string E = errorOf(deserializeJob(B));
  EXPECT_NE(E.find("register count 4611686018427387904 cannot fit"),
            std::string::npos)
      << E;
}

TEST(Wire, UnknownRecordsAreSkipped) {
  std::string B = serialize(makeJob(true));
  uint64_t N = llvm::support::endian::read64le(&B[16]);
  std::string Extra("\x63\x00\x03\0\0\0\0\0\0\0abc", 13);
  B.insert(HeaderSize + N, Extra);
  llvm::support::endian::write64le(&B[16], N + Extra.size());
  reseal(B);
  llvm::Expected<Job> J = deserializeJob(B);
  ASSERT_TRUE(bool(J)) << llvm::toString(J.takeError());
  EXPECT_TRUE(*J == makeJob(true));
}

TEST(Wire, BadOptionsAreLocated) {
  Job J = makeJob(true);
  J.StackOptions.StackSize = 0;
  std::string E = errorOf(deserializeJob(serialize(J)));
  EXPECT_NE(E.find("stackSize"), std::string::npos) << E;
  EXPECT_EQ(E.rfind("byte ", 0), 0u) << E;
}

/// The offset of the first record with tag \p T in job message \p B, or
/// npos.
size_t findRecord(const std::string &B, uint16_t T) {
  size_t N = llvm::support::endian::read64le(&B[16]);
  for (size_t P = HeaderSize; P < HeaderSize + N;
       P += 10 + llvm::support::endian::read64le(&B[P + 2]))
    if (llvm::support::endian::read16le(&B[P]) == T)
      return P;
  return std::string::npos;
}

TEST(Wire, MetadataIsWrittenOnlyWhenThere) {
  Job J = makeJob(true);
  std::string Without = serialize(J);
  EXPECT_EQ(findRecord(Without, 9), std::string::npos);
  J.Metadata = {{"sites_per_kernel", "128"}, {"stub:k", "\tret;"}};
  std::string With = serialize(J);
  size_t At = findRecord(With, 9);
  ASSERT_NE(At, std::string::npos);
  // count, then (key, value) pairs as strings.
  EXPECT_EQ(llvm::support::endian::read64le(&With[At + 2]),
            8u + 2 * 16 + 16 + 3 + 6 + 5);
  llvm::Expected<Job> Back = deserializeJob(With);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_TRUE(*Back == J);
  ASSERT_NE(Back->getMetadata("stub:k"), nullptr);
  EXPECT_EQ(*Back->getMetadata("stub:k"), "\tret;");
  EXPECT_EQ(Back->getMetadata("stub"), nullptr);
  // A reader that does not know the record sees the job without it.
  std::string Old = With;
  Old[At] = 0x63;
  reseal(Old);
  Back = deserializeJob(Old);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_TRUE(Back->Metadata.empty());
  J.Metadata.clear();
  EXPECT_TRUE(*Back == J);
}

TEST(Wire, DuplicateMetadataKeyIsLocated) {
  Job J = makeJob(true);
  J.Metadata = {{"a", "1"}, {"b", "2"}, {"a", "3"}};
  std::string B = serialize(J);
  size_t At = findRecord(B, 9);
  ASSERT_NE(At, std::string::npos);
  // Record header (10), count (8), two entries of 8+1+8+1 bytes.
  size_t Third = At + 10 + 8 + 2 * 18;
  std::string E = errorOf(deserializeJob(B));
  EXPECT_EQ(E,
            "byte " + std::to_string(Third) + ": duplicate metadata key 'a'");
}

} // namespace
