//===- Wire.cpp - Versioned wire format for jobs and results --------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Writing and reading mmptx's own messages (see Wire.h for the envelope).
/// Record tags and their bodies, format version 1:
///
///   job       1 source        u8 kind, str name, str text
///             2 instr-set     u8 default (1: the reader's default set, no
///                             more follows), then stacks (str name, str
///                             prefix, u8 inline), arg types (str name, u16
///                             stack, u16 vec), instructions (str name, str
///                             ptx, u8 nargs, nargs x u16, u8 nrets, nrets x
///                             u16, u16 min sm), specials (str name, str
///                             ptx, u16 arg type, u16 min sm); each list a
///                             u64 count
///             3 stack-opts    u8 strict, u8 zero, u32 stack size, u32 max
///                             nodes, u32 frame depth, u32 store size, u64
///                             execution limit, u32 target sm
///             4 registers     count, then str name, u16 stack, u8 kind
///                             (0 out, 1 mod, 2 in)
///             5 requests      count of lists, each a count + u32 indices
///             6 target        str
///             7 backend       str name, count + str options
///             8 inject        u8 trusted, u8 allow unknown types, count +
///                             (str token, str register type, str mov
///                             suffix)
///   programs  16 variant      u64 id, count, then per program: u8 kind,
///                             u32 inject, count + u64 words, count of
///                             routines each count + u64 words, str text
///   results   32 result       u64 id, str name, u8 ok, str cubin, count +
///                             str stubs, count + (str message, str file,
///                             u32 line, u32 column), str backend, str
///                             version, str log, str origin, f64 seconds
///                             (its IEEE bits as a u64)
///
/// A required record (source, stack-opts in a job) that is missing, or a
/// record whose body has bytes left over, is an error.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Serialize/Wire.h"

#include "ByteIO.h"

#include "llvm/Support/xxhash.h"

#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::wire;
using namespace mmptx::wire::detail;

namespace {
enum Tag : uint16_t {
  TagSource = 1,
  TagInstrSet = 2,
  TagStackOptions = 3,
  TagRegisters = 4,
  TagRequests = 5,
  TagTarget = 6,
  TagBackend = 7,
  TagInject = 8,
  TagVariant = 16,
  TagResult = 32,
};
} // namespace

StringRef wire::getMessageKindName(MessageKind K) {
  switch (K) {
  case MessageKind::Job:
    return "job";
  case MessageKind::Programs:
    return "programs";
  case MessageKind::Results:
    return "results";
  }
  return "unknown";
}

StringRef wire::getProgramKindName(ProgramKind K) {
  switch (K) {
  case ProgramKind::StackWords:
    return "stack";
  case ProgramKind::AstWords:
    return "ast";
  case ProgramKind::Stub:
    return "stub";
  case ProgramKind::Ptx:
    return "ptx";
  }
  return "unknown";
}

//===----------------------------------------------------------------------===//
// Instruction sets
//===----------------------------------------------------------------------===//

InstructionSet InstructionSet::fromStackInfo(const stack::StackInfo &Info) {
  InstructionSet S;
  for (uint32_t I = 0; I != Info.NumStacks; ++I)
    S.Stacks.push_back({Info.StackNames[I], Info.LiteralPrefixes[I],
                        !Info.InlineLiterals || Info.InlineLiterals[I] != 0});
  for (uint32_t I = 0; I != Info.NumArgTypes; ++I)
    S.ArgTypes.push_back({Info.ArgTypeNames[I], Info.ArgTypes[I].StackIdx,
                          Info.ArgTypes[I].NumVecElems});
  for (uint32_t I = 0; I != Info.NumInstrs; ++I) {
    const stack::PtxInstrDesc &D = Info.Instrs[I];
    InstrDecl X;
    X.Name = Info.InstrNames[I];
    X.Ptx = Info.InstrPtx[I];
    X.Args.assign(D.Args, D.Args + D.NumArgs);
    X.Rets.assign(D.Rets, D.Rets + D.NumRets);
    X.MinSm = Info.InstrMinSm ? Info.InstrMinSm[I] : 0;
    S.Instrs.push_back(std::move(X));
  }
  for (uint32_t I = 0; I != Info.NumSpecials; ++I)
    S.Specials.push_back(
        {Info.SpecialNames[I], Info.SpecialPtx[I], Info.Specials[I].TheArgType,
         uint16_t(Info.SpecialMinSm ? Info.SpecialMinSm[I] : 0)});
  return S;
}

Expected<std::unique_ptr<StackInfoView>>
StackInfoView::create(const InstructionSet &Set) {
  std::unique_ptr<StackInfoView> V(new StackInfoView());
  for (const StackDecl &S : Set.Stacks) {
    V->StackNames.push_back(S.Name.c_str());
    V->Prefixes.push_back(S.LiteralPrefix.c_str());
    V->InlineLits.push_back(S.InlineLiterals ? 1 : 0);
  }
  for (const ArgTypeDecl &A : Set.ArgTypes) {
    V->ArgNames.push_back(A.Name.c_str());
    V->ArgTypes.push_back({A.StackIdx, A.NumVecElems});
  }
  for (const InstrDecl &I : Set.Instrs) {
    if (I.Args.size() > 4 || I.Rets.size() > 2)
      return createStringError(inconvertibleErrorCode(),
                               "instruction '" + I.Name +
                                   "': at most 4 args and 2 rets");
    stack::PtxInstrDesc D = {};
    std::copy(I.Args.begin(), I.Args.end(), D.Args);
    std::copy(I.Rets.begin(), I.Rets.end(), D.Rets);
    D.NumArgs = uint16_t(I.Args.size());
    D.NumRets = uint16_t(I.Rets.size());
    V->Instrs.push_back(D);
    V->InstrNames.push_back(I.Name.c_str());
    V->InstrPtx.push_back(I.Ptx.c_str());
    V->InstrMinSm.push_back(I.MinSm);
  }
  for (const SpecialDecl &S : Set.Specials) {
    V->Specials.push_back({S.ArgType});
    V->SpecialNames.push_back(S.Name.c_str());
    V->SpecialPtx.push_back(S.Ptx.c_str());
    V->SpecialMinSm.push_back(S.MinSm);
  }
  stack::StackInfo &I = V->Info;
  I.NumStacks = uint32_t(V->StackNames.size());
  I.StackNames = V->StackNames.data();
  I.LiteralPrefixes = V->Prefixes.data();
  I.NumArgTypes = uint32_t(V->ArgTypes.size());
  I.ArgTypes = V->ArgTypes.data();
  I.ArgTypeNames = V->ArgNames.data();
  I.NumInstrs = uint32_t(V->Instrs.size());
  I.Instrs = V->Instrs.data();
  I.InstrPtx = V->InstrPtx.data();
  I.InstrNames = V->InstrNames.data();
  I.NumSpecials = uint32_t(V->Specials.size());
  I.Specials = V->Specials.data();
  I.SpecialPtx = V->SpecialPtx.data();
  I.SpecialNames = V->SpecialNames.data();
  I.InlineLiterals = V->InlineLits.data();
  I.InstrMinSm = V->InstrMinSm.data();
  I.SpecialMinSm = V->SpecialMinSm.data();
  if (Error E = I.verify())
    return E;
  return V;
}

bool Job::operator==(const Job &O) const {
  const stack::StackPtxOptions &A = StackOptions, &B = O.StackOptions;
  return Kind == O.Kind && SourceName == O.SourceName && Source == O.Source &&
         Inject == O.Inject &&
         DefaultInstructionSet == O.DefaultInstructionSet &&
         (DefaultInstructionSet || Set == O.Set) && A.Strict == B.Strict &&
         A.ZeroUnsatisfied == B.ZeroUnsatisfied && A.StackSize == B.StackSize &&
         A.MaxNodes == B.MaxNodes && A.MaxFrameDepth == B.MaxFrameDepth &&
         A.StoreSize == B.StoreSize && A.ExecutionLimit == B.ExecutionLimit &&
         A.TargetSm == B.TargetSm && Registers == O.Registers &&
         Requests == O.Requests && Target == O.Target && Backend == O.Backend &&
         BackendOptions == O.BackendOptions;
}

//===----------------------------------------------------------------------===//
// Envelope
//===----------------------------------------------------------------------===//

namespace {

/// Builds one message: header, records, checksum.
class MessageWriter {
public:
  explicit MessageWriter(MessageKind K) : W(Buf) {
    W.bytes(Magic);
    W.u16(FormatVersion);
    W.u16(uint16_t(K));
    W.u32(0);
    W.u64(0); // payload length, patched in finish()
  }
  /// Starts a record; its body goes to body() until the next record.
  ByteWriter &record(Tag T) {
    closeRecord();
    W.u16(T);
    LenAt = Buf.size();
    W.u64(0);
    return W;
  }
  std::string finish() {
    closeRecord();
    uint64_t Payload = Buf.size() - HeaderSize;
    support::endian::write64le(&Buf[16], Payload);
    W.u64(xxHash64(StringRef(Buf)));
    return std::move(Buf);
  }

private:
  void closeRecord() {
    if (LenAt)
      support::endian::write64le(&Buf[LenAt], Buf.size() - LenAt - 8);
    LenAt = 0;
  }
  std::string Buf;
  ByteWriter W;
  size_t LenAt = 0;
};

/// Reads the records of a checked message.
struct Record {
  uint16_t Tag;
  uint64_t Offset; ///< absolute offset of the body
  StringRef Body;
};

Expected<std::vector<Record>> readRecords(StringRef Bytes, MessageKind Want) {
  Expected<MessageInfo> Info = checkMessage(Bytes);
  if (!Info)
    return Info.takeError();
  if (Info->Kind != Want)
    return createStringError(inconvertibleErrorCode(),
                             "byte 10: a " + getMessageKindName(Info->Kind) +
                                 " message, not a " + getMessageKindName(Want) +
                                 " message");
  ByteReader R(Bytes.substr(HeaderSize, Info->PayloadSize), HeaderSize);
  std::vector<Record> Out;
  while (!R.atEnd()) {
    Record Rec;
    uint64_t Len;
    if (Error E = R.u16(Rec.Tag, "record tag"))
      return E;
    if (Error E = R.u64(Len, "record length"))
      return E;
    Rec.Offset = R.offset();
    if (Error E = R.bytes(Len, Rec.Body, "record body"))
      return E;
    Out.push_back(Rec);
  }
  return Out;
}

Error leftover(const ByteReader &R, const Twine &What) {
  if (!R.atEnd())
    return R.error(Twine(R.left()) + " unexpected bytes at the end of the " +
                   What + " record");
  return Error::success();
}

} // namespace

Expected<MessageInfo> wire::checkMessage(StringRef Bytes) {
  ByteReader R(Bytes);
  StringRef M;
  if (Error E = R.bytes(Magic.size(), M, "header"))
    return E;
  if (M != Magic)
    return R.errorAt(0, "not an mmptx wire message (no MMPTXWIR magic)");
  MessageInfo Info;
  uint16_t Kind;
  uint32_t Flags;
  if (Error E = R.u16(Info.Version, "header"))
    return E;
  if (Info.Version != FormatVersion)
    return R.errorAt(8, "format version " + Twine(Info.Version) +
                            " is not supported (this build reads version " +
                            Twine(FormatVersion) + ")");
  if (Error E = R.u16(Kind, "header"))
    return E;
  if (Kind < 1 || Kind > 3)
    return R.errorAt(10, "unknown message kind " + Twine(Kind));
  Info.Kind = MessageKind(Kind);
  if (Error E = R.u32(Flags, "header"))
    return E;
  if (Flags)
    return R.errorAt(12, "unknown flags 0x" + Twine::utohexstr(Flags));
  if (Error E = R.u64(Info.PayloadSize, "header"))
    return E;
  if (Info.PayloadSize > R.left() || R.left() - Info.PayloadSize < TrailerSize)
    return R.errorAt(16, "payload length " + Twine(Info.PayloadSize) +
                             " does not fit the message (" +
                             Twine(Bytes.size()) + " bytes)");
  if (R.left() - Info.PayloadSize > TrailerSize)
    return R.errorAt(HeaderSize + Info.PayloadSize + TrailerSize,
                     Twine(R.left() - Info.PayloadSize - TrailerSize) +
                         " bytes after the end of the message");
  R.skip(Info.PayloadSize);
  size_t SumAt = R.position();
  if (Error E = R.u64(Info.Checksum, "checksum"))
    return E;
  uint64_t Want = xxHash64(Bytes.take_front(SumAt));
  if (Want != Info.Checksum)
    return R.errorAt(SumAt, "checksum mismatch (stored 0x" +
                                Twine::utohexstr(Info.Checksum) +
                                ", computed 0x" + Twine::utohexstr(Want) +
                                "): the message is corrupted");
  return Info;
}

//===----------------------------------------------------------------------===//
// Jobs
//===----------------------------------------------------------------------===//

static void writeInstructionSet(ByteWriter &W, const Job &J) {
  W.u8(J.DefaultInstructionSet ? 1 : 0);
  if (J.DefaultInstructionSet)
    return;
  const InstructionSet &S = J.Set;
  W.u64(S.Stacks.size());
  for (const StackDecl &D : S.Stacks) {
    W.str(D.Name);
    W.str(D.LiteralPrefix);
    W.u8(D.InlineLiterals);
  }
  W.u64(S.ArgTypes.size());
  for (const ArgTypeDecl &D : S.ArgTypes) {
    W.str(D.Name);
    W.u16(D.StackIdx);
    W.u16(D.NumVecElems);
  }
  W.u64(S.Instrs.size());
  for (const InstrDecl &D : S.Instrs) {
    W.str(D.Name);
    W.str(D.Ptx);
    W.u8(uint8_t(D.Args.size()));
    for (uint16_t A : D.Args)
      W.u16(A);
    W.u8(uint8_t(D.Rets.size()));
    for (uint16_t A : D.Rets)
      W.u16(A);
    W.u16(D.MinSm);
  }
  W.u64(S.Specials.size());
  for (const SpecialDecl &D : S.Specials) {
    W.str(D.Name);
    W.str(D.Ptx);
    W.u16(D.ArgType);
    W.u16(D.MinSm);
  }
}

std::string wire::serialize(const Job &J) {
  MessageWriter M(MessageKind::Job);
  ByteWriter &W = M.record(TagSource);
  W.u8(uint8_t(J.Kind));
  W.str(J.SourceName);
  W.str(J.Source);
  {
    ByteWriter &W = M.record(TagInject);
    W.u8(J.Inject.Trusted);
    W.u8(J.Inject.AllowUnknownTypes);
    W.u64(J.Inject.ExtraTypes.size());
    for (const InjectTypeDecl &T : J.Inject.ExtraTypes) {
      W.str(T.Token);
      W.str(T.RegType);
      W.str(T.MovSuffix);
    }
  }
  writeInstructionSet(M.record(TagInstrSet), J);
  {
    ByteWriter &W = M.record(TagStackOptions);
    const stack::StackPtxOptions &O = J.StackOptions;
    W.u8(O.Strict);
    W.u8(O.ZeroUnsatisfied);
    W.u32(O.StackSize);
    W.u32(O.MaxNodes);
    W.u32(O.MaxFrameDepth);
    W.u32(O.StoreSize);
    W.u64(O.ExecutionLimit);
    W.u32(O.TargetSm);
  }
  {
    ByteWriter &W = M.record(TagRegisters);
    W.u64(J.Registers.size());
    for (const RegisterDecl &R : J.Registers) {
      W.str(R.Name);
      W.u16(R.StackIdx);
      W.u8(uint8_t(R.Kind));
    }
  }
  {
    ByteWriter &W = M.record(TagRequests);
    W.u64(J.Requests.size());
    for (const std::vector<uint32_t> &L : J.Requests) {
      W.u64(L.size());
      for (uint32_t I : L)
        W.u32(I);
    }
  }
  M.record(TagTarget).str(J.Target);
  {
    ByteWriter &W = M.record(TagBackend);
    W.str(J.Backend);
    W.u64(J.BackendOptions.size());
    for (const std::string &S : J.BackendOptions)
      W.str(S);
  }
  return M.finish();
}

/// Reads a u16 list of at most \p max entries with a u8 count.
static Error readU16List(ByteReader &R, std::vector<uint16_t> &Out,
                         unsigned Max, const Twine &What) {
  uint8_t N;
  size_t At = R.position();
  if (Error E = R.u8(N, What + " count"))
    return E;
  if (N > Max)
    return R.errorAt(At, What + " count " + Twine(unsigned(N)) + " exceeds " +
                             Twine(Max));
  Out.resize(N);
  for (uint16_t &V : Out)
    if (Error E = R.u16(V, What))
      return E;
  return Error::success();
}

static Error readInstructionSet(ByteReader &R, Job &J) {
  if (Error E = R.boolean(J.DefaultInstructionSet, "default instruction set"))
    return E;
  if (J.DefaultInstructionSet)
    return Error::success();
  InstructionSet &S = J.Set;
  uint64_t N;
  // Minimum sizes: two empty strings (16) + fields.
  if (Error E = R.count(N, 17, "stack"))
    return E;
  S.Stacks.resize(N);
  for (StackDecl &D : S.Stacks) {
    if (Error E = R.str(D.Name, "stack name"))
      return E;
    if (Error E = R.str(D.LiteralPrefix, "stack literal prefix"))
      return E;
    if (Error E = R.boolean(D.InlineLiterals, "stack inline-literals flag"))
      return E;
  }
  if (Error E = R.count(N, 12, "arg type"))
    return E;
  S.ArgTypes.resize(N);
  for (ArgTypeDecl &D : S.ArgTypes) {
    if (Error E = R.str(D.Name, "arg type name"))
      return E;
    if (Error E = R.u16(D.StackIdx, "arg type stack"))
      return E;
    if (Error E = R.u16(D.NumVecElems, "arg type vector size"))
      return E;
  }
  if (Error E = R.count(N, 20, "instruction"))
    return E;
  S.Instrs.resize(N);
  for (InstrDecl &D : S.Instrs) {
    if (Error E = R.str(D.Name, "instruction name"))
      return E;
    if (Error E = R.str(D.Ptx, "instruction opcode"))
      return E;
    if (Error E = readU16List(R, D.Args, 4, "instruction argument"))
      return E;
    if (Error E = readU16List(R, D.Rets, 2, "instruction return"))
      return E;
    if (Error E = R.u16(D.MinSm, "instruction minimum sm"))
      return E;
  }
  if (Error E = R.count(N, 20, "special register"))
    return E;
  S.Specials.resize(N);
  for (SpecialDecl &D : S.Specials) {
    if (Error E = R.str(D.Name, "special register name"))
      return E;
    if (Error E = R.str(D.Ptx, "special register"))
      return E;
    if (Error E = R.u16(D.ArgType, "special register arg type"))
      return E;
    if (Error E = R.u16(D.MinSm, "special register minimum sm"))
      return E;
  }
  return Error::success();
}

Expected<Job> wire::deserializeJob(StringRef Bytes) {
  Expected<std::vector<Record>> Recs = readRecords(Bytes, MessageKind::Job);
  if (!Recs)
    return Recs.takeError();
  Job J;
  bool HaveSource = false, HaveOptions = false;
  for (const Record &Rec : *Recs) {
    ByteReader R(Rec.Body, Rec.Offset);
    StringRef What;
    switch (Rec.Tag) {
    case TagSource: {
      What = "source";
      HaveSource = true;
      uint8_t K;
      if (Error E = R.u8(K, "source kind"))
        return E;
      if (K > 2)
        return R.errorAt(0, "unknown source kind " + Twine(unsigned(K)));
      J.Kind = SourceKind(K);
      if (Error E = R.str(J.SourceName, "source name"))
        return E;
      if (Error E = R.str(J.Source, "source text"))
        return E;
      break;
    }
    case TagInject: {
      What = "inject options";
      InjectOptions &I = J.Inject;
      if (Error E = R.boolean(I.Trusted, "trusted flag"))
        return E;
      if (Error E = R.boolean(I.AllowUnknownTypes, "unknown-types flag"))
        return E;
      uint64_t N;
      if (Error E = R.count(N, 24, "inject type"))
        return E;
      I.ExtraTypes.resize(N);
      for (InjectTypeDecl &T : I.ExtraTypes) {
        if (Error E = R.str(T.Token, "inject type token"))
          return E;
        if (Error E = R.str(T.RegType, "inject type register type"))
          return E;
        if (Error E = R.str(T.MovSuffix, "inject type mov suffix"))
          return E;
      }
      break;
    }
    case TagInstrSet:
      What = "instruction set";
      if (Error E = readInstructionSet(R, J))
        return E;
      break;
    case TagStackOptions: {
      What = "stack options";
      HaveOptions = true;
      stack::StackPtxOptions &O = J.StackOptions;
      if (Error E = R.boolean(O.Strict, "strict flag"))
        return E;
      if (Error E = R.boolean(O.ZeroUnsatisfied, "zero-unsatisfied flag"))
        return E;
      size_t At = R.position();
      if (Error E = R.u32(O.StackSize, "stack size"))
        return E;
      if (Error E = R.u32(O.MaxNodes, "node limit"))
        return E;
      if (Error E = R.u32(O.MaxFrameDepth, "frame depth"))
        return E;
      if (Error E = R.u32(O.StoreSize, "store size"))
        return E;
      if (Error E = R.u64(O.ExecutionLimit, "execution limit"))
        return E;
      if (Error E = R.u32(O.TargetSm, "target sm"))
        return E;
      if (Error E = stack::checkStackPtxOptions(O))
        return R.errorAt(At, toString(std::move(E)));
      break;
    }
    case TagRegisters: {
      What = "registers";
      uint64_t N;
      if (Error E = R.count(N, 11, "register"))
        return E;
      J.Registers.resize(N);
      for (RegisterDecl &D : J.Registers) {
        if (Error E = R.str(D.Name, "register name"))
          return E;
        if (Error E = R.u16(D.StackIdx, "register stack"))
          return E;
        uint8_t K;
        if (Error E = R.u8(K, "register kind"))
          return E;
        if (K > 2)
          return R.errorAt(R.position() - 1,
                           "unknown register kind " + Twine(unsigned(K)));
        D.Kind = stack::RegKind(K);
      }
      break;
    }
    case TagRequests: {
      What = "requests";
      uint64_t N;
      if (Error E = R.count(N, 8, "request list"))
        return E;
      J.Requests.resize(N);
      for (std::vector<uint32_t> &L : J.Requests) {
        uint64_t M;
        if (Error E = R.count(M, 4, "request"))
          return E;
        L.resize(M);
        for (uint32_t &I : L)
          if (Error E = R.u32(I, "request"))
            return E;
      }
      break;
    }
    case TagTarget:
      What = "target";
      if (Error E = R.str(J.Target, "target"))
        return E;
      break;
    case TagBackend: {
      What = "backend";
      if (Error E = R.str(J.Backend, "backend name"))
        return E;
      uint64_t N;
      if (Error E = R.count(N, 8, "backend option"))
        return E;
      J.BackendOptions.resize(N);
      for (std::string &S : J.BackendOptions)
        if (Error E = R.str(S, "backend option"))
          return E;
      break;
    }
    default:
      continue; // a record a later version added
    }
    if (Error E = leftover(R, What))
      return E;
  }
  if (!HaveSource || !HaveOptions)
    return createStringError(inconvertibleErrorCode(),
                             "byte " + Twine(HeaderSize) + ": the job has no " +
                                 (HaveSource ? "stack options" : "source") +
                                 " record");
  return J;
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

static void writeWords(ByteWriter &W, ArrayRef<uint64_t> Words) {
  W.u64(Words.size());
  for (uint64_t X : Words)
    W.u64(X);
}

static Error readWords(ByteReader &R, std::vector<uint64_t> &Out,
                       const Twine &What) {
  uint64_t N;
  if (Error E = R.count(N, 8, What))
    return E;
  Out.resize(N);
  for (uint64_t &X : Out)
    if (Error E = R.u64(X, What))
      return E;
  return Error::success();
}

std::string wire::serialize(const ProgramBatch &B) {
  MessageWriter M(MessageKind::Programs);
  for (const Variant &V : B.Variants) {
    ByteWriter &W = M.record(TagVariant);
    W.u64(V.Id);
    W.u64(V.Programs.size());
    for (const WireProgram &P : V.Programs) {
      W.u8(uint8_t(P.Kind));
      W.u32(P.Inject);
      writeWords(W, P.Words);
      W.u64(P.Routines.size());
      for (const std::vector<uint64_t> &R : P.Routines)
        writeWords(W, R);
      W.str(P.Text);
    }
  }
  return M.finish();
}

Expected<ProgramBatch> wire::deserializePrograms(StringRef Bytes) {
  Expected<std::vector<Record>> Recs =
      readRecords(Bytes, MessageKind::Programs);
  if (!Recs)
    return Recs.takeError();
  ProgramBatch B;
  for (const Record &Rec : *Recs) {
    if (Rec.Tag != TagVariant)
      continue;
    ByteReader R(Rec.Body, Rec.Offset);
    Variant V;
    uint64_t N;
    if (Error E = R.u64(V.Id, "variant id"))
      return E;
    // kind, inject, three counts.
    if (Error E = R.count(N, 29, "program"))
      return E;
    V.Programs.resize(N);
    for (WireProgram &P : V.Programs) {
      uint8_t K;
      if (Error E = R.u8(K, "program kind"))
        return E;
      if (K < 1 || K > 4)
        return R.errorAt(R.position() - 1,
                         "unknown program kind " + Twine(unsigned(K)));
      P.Kind = ProgramKind(K);
      if (Error E = R.u32(P.Inject, "program inject"))
        return E;
      if (Error E = readWords(R, P.Words, "program word"))
        return E;
      uint64_t NR;
      if (Error E = R.count(NR, 8, "routine"))
        return E;
      P.Routines.resize(NR);
      for (std::vector<uint64_t> &Rt : P.Routines)
        if (Error E = readWords(R, Rt, "routine word"))
          return E;
      if (Error E = R.str(P.Text, "program text"))
        return E;
    }
    if (Error E = leftover(R, "variant"))
      return E;
    B.Variants.push_back(std::move(V));
  }
  return B;
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

std::string wire::serialize(const ResultBatch &B) {
  MessageWriter M(MessageKind::Results);
  for (const Result &Res : B.Results) {
    ByteWriter &W = M.record(TagResult);
    W.u64(Res.Id);
    W.str(Res.Name);
    W.u8(Res.Ok);
    W.str(Res.Cubin);
    W.u64(Res.Stubs.size());
    for (const std::string &S : Res.Stubs)
      W.str(S);
    W.u64(Res.Errors.size());
    for (const WireDiagnostic &D : Res.Errors) {
      W.str(D.Message);
      W.str(D.File);
      W.u32(D.Line);
      W.u32(D.Column);
    }
    W.str(Res.Backend);
    W.str(Res.BackendVersion);
    W.str(Res.Log);
    W.str(Res.Origin);
    uint64_t Bits;
    std::memcpy(&Bits, &Res.Seconds, sizeof Bits);
    W.u64(Bits);
  }
  return M.finish();
}

Expected<ResultBatch> wire::deserializeResults(StringRef Bytes) {
  Expected<std::vector<Record>> Recs = readRecords(Bytes, MessageKind::Results);
  if (!Recs)
    return Recs.takeError();
  ResultBatch B;
  for (const Record &Rec : *Recs) {
    if (Rec.Tag != TagResult)
      continue;
    ByteReader R(Rec.Body, Rec.Offset);
    Result Res;
    uint64_t N;
    if (Error E = R.u64(Res.Id, "result id"))
      return E;
    if (Error E = R.str(Res.Name, "result name"))
      return E;
    if (Error E = R.boolean(Res.Ok, "result ok flag"))
      return E;
    if (Error E = R.str(Res.Cubin, "cubin"))
      return E;
    if (Error E = R.count(N, 8, "stub"))
      return E;
    Res.Stubs.resize(N);
    for (std::string &S : Res.Stubs)
      if (Error E = R.str(S, "stub"))
        return E;
    if (Error E = R.count(N, 24, "error"))
      return E;
    Res.Errors.resize(N);
    for (WireDiagnostic &D : Res.Errors) {
      if (Error E = R.str(D.Message, "error message"))
        return E;
      if (Error E = R.str(D.File, "error file"))
        return E;
      if (Error E = R.u32(D.Line, "error line"))
        return E;
      if (Error E = R.u32(D.Column, "error column"))
        return E;
    }
    if (Error E = R.str(Res.Backend, "backend"))
      return E;
    if (Error E = R.str(Res.BackendVersion, "backend version"))
      return E;
    if (Error E = R.str(Res.Log, "log"))
      return E;
    if (Error E = R.str(Res.Origin, "origin"))
      return E;
    uint64_t Bits;
    if (Error E = R.u64(Bits, "seconds"))
      return E;
    std::memcpy(&Res.Seconds, &Bits, sizeof Bits);
    if (Error E = leftover(R, "result"))
      return E;
    B.Results.push_back(std::move(Res));
  }
  return B;
}
