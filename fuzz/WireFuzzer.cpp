//===- WireFuzzer.cpp - libFuzzer target for the wire formats -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary bytes to both wire readers. Byte 0 picks what the rest
/// is read as: modes 0-2 an mmptx job, programs or results message whose
/// length and checksum are first made to agree with the bytes (so the
/// fuzzer reaches the records rather than stopping at the checksum); mode 3
/// the same bytes unsealed; modes 4-12 a reference buffer in the state or
/// 01 layout or as one component. Checks: no crash, hang or leak; whatever
/// reads converts (reference -> job) and round-trips through mmptx's own
/// format to an equal object; an instruction set that reads builds its
/// StackInfo view or reports an error. Build and run with
/// `fuzz/run.sh wire SECONDS`.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Serialize/ReferenceWire.h"
#include "mmptx/Serialize/Wire.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>
#include <string>

using namespace mmptx;
using namespace mmptx::wire;

static void check(bool Ok) {
  if (!Ok)
    abort();
}

static void roundTripJob(const Job &J) {
  llvm::Expected<Job> Back = deserializeJob(serialize(J));
  check(bool(Back));
  check(*Back == J);
  if (!J.DefaultInstructionSet) {
    auto V = StackInfoView::create(J.Set);
    if (!V)
      llvm::consumeError(V.takeError());
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 1)
    return 0;
  uint8_t Mode = Data[0] % 13;
  std::string Bytes(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  if (Mode <= 2 && Bytes.size() >= HeaderSize + TrailerSize) {
    uint64_t N = Bytes.size() - HeaderSize - TrailerSize;
    llvm::support::endian::write64le(&Bytes[16], N);
    llvm::support::endian::write64le(
        &Bytes[HeaderSize + N],
        llvm::xxHash64(llvm::StringRef(Bytes).take_front(HeaderSize + N)));
  }
  if (Mode <= 3) {
    if (llvm::Expected<Job> J = deserializeJob(Bytes))
      roundTripJob(*J);
    else
      llvm::consumeError(J.takeError());
    if (llvm::Expected<ProgramBatch> P = deserializePrograms(Bytes)) {
      llvm::Expected<ProgramBatch> Back = deserializePrograms(serialize(*P));
      check(bool(Back) && *Back == *P);
    } else {
      llvm::consumeError(P.takeError());
    }
    if (llvm::Expected<ResultBatch> R = deserializeResults(Bytes)) {
      llvm::Expected<ResultBatch> Back = deserializeResults(serialize(*R));
      check(bool(Back) && *Back == *R);
    } else {
      llvm::consumeError(R.takeError());
    }
    return 0;
  }
  ref::Layout L = ref::Layout::Single;
  ref::Component C = ref::Component(0);
  if (Mode == 4)
    L = ref::Layout::State;
  else if (Mode == 5)
    L = ref::Layout::Example01;
  else
    C = ref::Component(Mode - 6);
  llvm::Expected<ref::Buffer> B = ref::readBuffer(Bytes, L, C);
  if (!B) {
    llvm::consumeError(B.takeError());
    return 0;
  }
  if (llvm::Expected<Job> J = ref::toJob(*B))
    roundTripJob(*J);
  else
    llvm::consumeError(J.takeError());
  ProgramBatch P = ref::toPrograms(*B);
  llvm::Expected<ProgramBatch> Back = deserializePrograms(serialize(P));
  check(bool(Back) && *Back == P);
  return 0;
}
