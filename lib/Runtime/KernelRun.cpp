//===- KernelRun.cpp - Run one kernel on arguments given as text ----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Runtime/KernelRun.h"
#include "mmptx/Support/EnumNames.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::runtime;

unsigned runtime::getArgTypeSize(ArgType T) {
  switch (T) {
  case ArgType::F32:
  case ArgType::U32:
  case ArgType::S32:
    return 4;
  case ArgType::F64:
  case ArgType::U64:
  case ArgType::S64:
    return 8;
  }
  llvm_unreachable("bad ArgType");
}

static const EnumName<ArgType> ArgTypeNames[] = {
    {ArgType::F32, "f32"}, {ArgType::F64, "f64"}, {ArgType::U32, "u32"},
    {ArgType::S32, "s32"}, {ArgType::U64, "u64"}, {ArgType::S64, "s64"}};

StringRef runtime::getArgTypeName(ArgType T) {
  return getEnumName(ArgTypeNames, T);
}

// The most elements one argument may have (a host copy of 2^26 8-byte slots
// is 512 MiB): a mistyped count must be an error, not an allocation failure.
static constexpr uint64_t MaxElements = 1ull << 26;

static Error argError(StringRef Text, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           "bad kernel argument '" + Text + "': " + Msg);
}

/// Parses one value of type \p T into its bits.
static bool parseValue(StringRef S, ArgType T, uint64_t &Bits) {
  S = S.trim();
  if (S.empty())
    return false;
  bool IsFloat = T == ArgType::F32 || T == ArgType::F64;
  if (IsFloat) {
    // PTX's exact-bits forms.
    StringRef Prefix = T == ArgType::F32 ? "0f" : "0d";
    if (S.size() > 2 && S.take_front(2).equals_insensitive(Prefix))
      return !S.drop_front(2).getAsInteger(16, Bits) &&
             S.size() == (T == ArgType::F32 ? 10u : 18u);
    std::string Str = S.str();
    char *End = nullptr;
    double D = std::strtod(Str.c_str(), &End);
    if (End != Str.c_str() + Str.size())
      return false;
    // Out of range (1e999, or 1e39 for f32) is an error, not infinity;
    // infinity and NaN must be spelled as such.
    bool Spelled =
        !std::isfinite(D) && S.find_insensitive("inf") != StringRef::npos;
    if (std::isinf(D) && !Spelled)
      return false;
    if (T == ArgType::F32) {
      float F = static_cast<float>(D);
      if (std::isinf(F) && !std::isinf(D))
        return false;
      uint32_t B;
      std::memcpy(&B, &F, 4);
      Bits = B;
    } else {
      std::memcpy(&Bits, &D, 8);
    }
    return true;
  }
  bool Neg = S.consume_front("-");
  uint64_t V;
  if (S.getAsInteger(0, V))
    return false;
  bool Is32 = getArgTypeSize(T) == 4;
  bool Signed = T == ArgType::S32 || T == ArgType::S64;
  if (Neg && !Signed)
    return false;
  if (Is32) {
    if (Signed ? V > (Neg ? 0x80000000ull : 0x7fffffffull) : V > 0xffffffffull)
      return false;
    Bits = uint32_t(Neg ? 0 - V : V);
    return true;
  }
  if (Signed && V > (Neg ? 0x8000000000000000ull : 0x7fffffffffffffffull))
    return false;
  Bits = Neg ? 0 - V : V;
  return true;
}

Expected<KernelArg> runtime::parseKernelArg(StringRef Text) {
  KernelArg A;
  SmallVector<StringRef, 3> Parts;
  Text.split(Parts, ':', 2);
  StringRef KindText = Parts.size() == 3 ? Parts[0] : "";
  if (Parts.size() == 3) {
    static const EnumName<KernelArg::KindTy> BufferKindNames[] = {
        {KernelArg::In, "in"},
        {KernelArg::InOut, "inout"},
        {KernelArg::Out, "out"}};
    Optional<KernelArg::KindTy> K = parseEnumName(BufferKindNames, KindText);
    if (!K)
      return argError(Text, "unknown buffer kind '" + KindText +
                                "' (expected " +
                                listEnumNames(BufferKindNames) + ")");
    A.Kind = *K;
    Parts.erase(Parts.begin());
  }
  if (Parts.size() != 2)
    return argError(Text, "expected TYPE:VALUE, in:TYPE:VALUES, "
                          "inout:TYPE:VALUES or out:TYPE:COUNT");
  Optional<ArgType> T = parseEnumName(ArgTypeNames, Parts[0]);
  if (!T)
    return argError(Text, "unknown type '" + Parts[0] + "' (expected " +
                              listEnumNames(ArgTypeNames) + ")");
  A.Type = *T;
  StringRef Rest = Parts[1];
  if (A.Kind == KernelArg::Out) {
    uint64_t N;
    if (Rest.getAsInteger(10, N) || N == 0 || N > MaxElements)
      return argError(Text, "expected an element count from 1 to 2^26, got '" +
                                Rest + "'");
    A.Values.assign(N, 0);
    return A;
  }
  SmallVector<StringRef, 16> Items;
  Rest.split(Items, ',');
  for (StringRef Item : Items) {
    auto [ValueText, RepeatText] = Item.split('*');
    uint64_t Repeat = 1;
    if (Item.contains('*') &&
        (RepeatText.trim().getAsInteger(10, Repeat) || Repeat == 0))
      return argError(Text, "bad repeat count '" + RepeatText + "'");
    if (Repeat > MaxElements - A.Values.size())
      return argError(Text, "more than 2^26 elements");
    uint64_t Bits;
    if (!parseValue(ValueText, A.Type, Bits))
      return argError(Text, "'" + ValueText.trim() + "' is not a " +
                                getArgTypeName(A.Type) + " value");
    A.Values.insert(A.Values.end(), Repeat, Bits);
  }
  if (A.Kind == KernelArg::Scalar && A.Values.size() != 1)
    return argError(Text, "a scalar takes one value");
  return A;
}

void runtime::printArgValue(raw_ostream &OS, ArgType T, uint64_t Bits) {
  switch (T) {
  case ArgType::F32: {
    float F;
    uint32_t B = uint32_t(Bits);
    std::memcpy(&F, &B, 4);
    OS << format("%.9g", double(F)) << " (0f"
       << format_hex_no_prefix(B, 8, true) << ")";
    return;
  }
  case ArgType::F64: {
    double D;
    std::memcpy(&D, &Bits, 8);
    OS << format("%.17g", D) << " (0d" << format_hex_no_prefix(Bits, 16, true)
       << ")";
    return;
  }
  case ArgType::S32:
    OS << int32_t(Bits);
    return;
  case ArgType::S64:
    OS << int64_t(Bits);
    return;
  case ArgType::U32:
    OS << uint32_t(Bits) << " (" << format_hex(uint32_t(Bits), 10) << ")";
    return;
  case ArgType::U64:
    OS << Bits << " (" << format_hex(Bits, 18) << ")";
    return;
  }
}

Error runtime::runKernel(Context &Ctx, ArrayRef<char> Image,
                         StringRef KernelName, const LaunchConfig &Config,
                         std::vector<KernelArg> &Args, unsigned Repeat,
                         KernelRunTimes *Times) {
  using Clock = std::chrono::steady_clock;
  auto Seconds = [](Clock::time_point A, Clock::time_point B) {
    return std::chrono::duration<double>(B - A).count();
  };
  auto T0 = Clock::now();
  Expected<Module> M = Ctx.loadModule(Image);
  if (!M)
    return M.takeError();
  auto T1 = Clock::now();
  Expected<Kernel> K = M->getKernel(KernelName);
  if (!K)
    return K.takeError();

  // Each parameter's bytes, in 8-byte slots so every type is aligned.
  std::vector<DeviceBuffer> Buffers;
  std::vector<uint64_t> Slots(Args.size());
  std::vector<char> Bytes;
  for (size_t I = 0, E = Args.size(); I != E; ++I) {
    KernelArg &A = Args[I];
    unsigned Size = getArgTypeSize(A.Type);
    if (!A.isBuffer()) {
      // The low bytes of a little-endian uint64_t are the 32-bit value.
      Slots[I] = A.Values[0];
      continue;
    }
    Bytes.assign(A.Values.size() * Size, 0);
    for (size_t J = 0, N = A.Values.size(); J != N; ++J)
      std::memcpy(&Bytes[J * Size], &A.Values[J], Size);
    Expected<DeviceBuffer> B = Ctx.allocate(Bytes.size());
    if (!B)
      return B.takeError();
    if (Error Err = B->copyFromHost(Bytes.data(), Bytes.size()))
      return Err;
    Slots[I] = B->getAddress();
    Buffers.push_back(std::move(*B));
  }
  std::vector<void *> Params;
  for (uint64_t &S : Slots)
    Params.push_back(&S);

  auto T2 = Clock::now();
  for (unsigned R = 0; R != std::max(Repeat, 1u); ++R) {
    if (Error Err = Ctx.launch(*K, Config, Params))
      return Err;
    if (Error Err = Ctx.synchronize())
      return Err;
  }
  auto T3 = Clock::now();

  size_t NextBuffer = 0;
  for (KernelArg &A : Args) {
    if (!A.isBuffer())
      continue;
    DeviceBuffer &B = Buffers[NextBuffer++];
    if (!A.isReadBack())
      continue;
    unsigned Size = getArgTypeSize(A.Type);
    Bytes.assign(B.size(), 0);
    if (Error Err = B.copyToHost(Bytes.data(), Bytes.size()))
      return Err;
    for (size_t J = 0, N = A.Values.size(); J != N; ++J) {
      A.Values[J] = 0;
      std::memcpy(&A.Values[J], &Bytes[J * Size], Size);
    }
  }
  if (Times) {
    Times->ModuleLoad = Seconds(T0, T1);
    Times->Launch = Seconds(T2, T3) / std::max(Repeat, 1u);
  }
  return Error::success();
}
