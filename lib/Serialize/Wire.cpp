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
///             9 metadata      count + (str key, str value), keys unique;
///                             written only when the job has metadata
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

#include "mmptx/Support/EnumNames.h"

#include "llvm/ADT/STLExtras.h"
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
  TagMetadata = 9,
  TagVariant = 16,
  TagResult = 32,
};
} // namespace

static const EnumName<MessageKind> MessageKindNames[] = {
    {MessageKind::Job, "job"},
    {MessageKind::Programs, "programs"},
    {MessageKind::Results, "results"}};

StringRef wire::getMessageKindName(MessageKind K) {
  return getEnumName(MessageKindNames, K);
}

static const EnumName<ProgramKind> ProgramKindNames[] = {
    {ProgramKind::StackWords, "stack"},
    {ProgramKind::AstWords, "ast"},
    {ProgramKind::Stub, "stub"},
    {ProgramKind::Ptx, "ptx"}};

StringRef wire::getProgramKindName(ProgramKind K) {
  return getEnumName(ProgramKindNames, K);
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
         BackendOptions == O.BackendOptions && Metadata == O.Metadata;
}

const std::string *Job::getMetadata(StringRef Key) const {
  for (const MetadataEntry &E : Metadata)
    if (E.Key == Key)
      return &E.Value;
  return nullptr;
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

/// The writing side of the record mappings below: every field is appended
/// to the record's body; the names are the reader's.
class FieldWriter {
public:
  explicit FieldWriter(ByteWriter &W) : W(W) {}

  void field(bool &V, const Twine &) { W.u8(V ? 1 : 0); }
  void field(uint8_t &V, const Twine &) { W.u8(V); }
  void field(uint16_t &V, const Twine &) { W.u16(V); }
  void field(uint32_t &V, const Twine &) { W.u32(V); }
  void field(uint64_t &V, const Twine &) { W.u64(V); }
  void field(std::string &V, const Twine &) { W.str(V); }
  /// A double as its IEEE bits.
  void field(double &V, const Twine &What) {
    uint64_t Bits;
    std::memcpy(&Bits, &V, sizeof Bits);
    field(Bits, What);
  }
  /// An enumeration stored as a u8.
  template <typename EnumT>
  void kind(EnumT &V, unsigned, unsigned, const Twine &) {
    W.u8(uint8_t(V));
  }
  /// A u64 count, then each item.
  template <typename T, typename FnT>
  void list(std::vector<T> &L, uint64_t, const Twine &, FnT Each) {
    W.u64(L.size());
    for (T &X : L)
      Each(X);
  }
  /// A u8 count, then each u16.
  void shortList(std::vector<uint16_t> &L, unsigned, const Twine &) {
    W.u8(uint8_t(L.size()));
    for (uint16_t V : L)
      W.u16(V);
  }
  size_t position() const { return 0; }
  template <typename FnT> void check(size_t, FnT) {}

private:
  ByteWriter &W;
};

/// The reading side: every field is read and checked against the bytes
/// left; the first error stops the record (later fields are left as they
/// are) and is what finish() returns.
class FieldReader {
public:
  explicit FieldReader(const Record &Rec) : R(Rec.Body, Rec.Offset) {}

  void field(bool &V, const Twine &What) { step(R.boolean(V, What)); }
  void field(uint8_t &V, const Twine &What) { step(R.u8(V, What)); }
  void field(uint16_t &V, const Twine &What) { step(R.u16(V, What)); }
  void field(uint32_t &V, const Twine &What) { step(R.u32(V, What)); }
  void field(uint64_t &V, const Twine &What) { step(R.u64(V, What)); }
  void field(std::string &V, const Twine &What) { step(R.str(V, What)); }
  void field(double &V, const Twine &What) {
    uint64_t Bits = 0;
    if (step(R.u64(Bits, What)))
      std::memcpy(&V, &Bits, sizeof Bits);
  }
  /// A u8 from \p Lo to \p Hi; anything else is an unknown \p What.
  template <typename EnumT>
  void kind(EnumT &V, unsigned Lo, unsigned Hi, const Twine &What) {
    uint8_t K = 0;
    if (!step(R.u8(K, What)))
      return;
    if (K < Lo || K > Hi)
      step(R.errorAt(R.position() - 1,
                     "unknown " + What + " " + Twine(unsigned(K))));
    else
      V = EnumT(K);
  }
  /// A u64 count of items of at least \p MinItemSize bytes, then each item.
  template <typename T, typename FnT>
  void list(std::vector<T> &L, uint64_t MinItemSize, const Twine &What,
            FnT Each) {
    uint64_t N = 0;
    if (!step(R.count(N, MinItemSize, What)))
      return;
    L.resize(N);
    for (T &X : L) {
      if (Failed)
        return;
      Each(X);
    }
  }
  /// A u8 count of at most \p Max, then each u16.
  void shortList(std::vector<uint16_t> &L, unsigned Max, const Twine &What) {
    uint8_t N = 0;
    size_t At = R.position();
    if (!step(R.u8(N, What + " count")))
      return;
    if (N > Max) {
      step(R.errorAt(At, What + " count " + Twine(unsigned(N)) + " exceeds " +
                             Twine(Max)));
      return;
    }
    L.resize(N);
    for (uint16_t &V : L)
      field(V, What);
  }
  size_t position() const { return R.position(); }
  /// Runs \p Check (returning an Error) on what was read since \p At.
  template <typename FnT> void check(size_t At, FnT Check) {
    if (Failed)
      return;
    if (Error E = Check())
      step(R.errorAt(At, toString(std::move(E))));
  }

  /// The first error, or one for bytes left over in the \p What record.
  Error finish(const Twine &What) {
    if (!Failed && !R.atEnd())
      step(R.error(Twine(R.left()) + " unexpected bytes at the end of the " +
                   What + " record"));
    return std::move(Err);
  }

private:
  /// Keeps the first error; true when there is none yet.
  bool step(Error E) {
    if (Failed) {
      consumeError(std::move(E));
      return false;
    }
    if (E) {
      consumeError(std::move(Err)); // the success it held until now
      Err = std::move(E);
      Failed = true;
    }
    return !Failed;
  }

  ByteReader R;
  Error Err = Error::success();
  bool Failed = false;
};

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
// Records
//
// Each record's body is described once, by a mapping over an IO that is
// either a FieldWriter (serialize) or a FieldReader (deserialize*); the
// names are the reader's, for its messages.
//===----------------------------------------------------------------------===//

template <typename IOT> static void mapSource(IOT &IO, Job &J) {
  IO.kind(J.Kind, 0, 2, "source kind");
  IO.field(J.SourceName, "source name");
  IO.field(J.Source, "source text");
}

template <typename IOT> static void mapInject(IOT &IO, Job &J) {
  InjectOptions &I = J.Inject;
  IO.field(I.Trusted, "trusted flag");
  IO.field(I.AllowUnknownTypes, "unknown-types flag");
  IO.list(I.ExtraTypes, 24, "inject type", [&](InjectTypeDecl &T) {
    IO.field(T.Token, "inject type token");
    IO.field(T.RegType, "inject type register type");
    IO.field(T.MovSuffix, "inject type mov suffix");
  });
}

template <typename IOT> static void mapInstructionSet(IOT &IO, Job &J) {
  IO.field(J.DefaultInstructionSet, "default instruction set");
  if (J.DefaultInstructionSet)
    return;
  InstructionSet &S = J.Set;
  // Minimum sizes: two empty strings (16) + fields.
  IO.list(S.Stacks, 17, "stack", [&](StackDecl &D) {
    IO.field(D.Name, "stack name");
    IO.field(D.LiteralPrefix, "stack literal prefix");
    IO.field(D.InlineLiterals, "stack inline-literals flag");
  });
  IO.list(S.ArgTypes, 12, "arg type", [&](ArgTypeDecl &D) {
    IO.field(D.Name, "arg type name");
    IO.field(D.StackIdx, "arg type stack");
    IO.field(D.NumVecElems, "arg type vector size");
  });
  IO.list(S.Instrs, 20, "instruction", [&](InstrDecl &D) {
    IO.field(D.Name, "instruction name");
    IO.field(D.Ptx, "instruction opcode");
    IO.shortList(D.Args, 4, "instruction argument");
    IO.shortList(D.Rets, 2, "instruction return");
    IO.field(D.MinSm, "instruction minimum sm");
  });
  IO.list(S.Specials, 20, "special register", [&](SpecialDecl &D) {
    IO.field(D.Name, "special register name");
    IO.field(D.Ptx, "special register");
    IO.field(D.ArgType, "special register arg type");
    IO.field(D.MinSm, "special register minimum sm");
  });
}

template <typename IOT> static void mapStackOptions(IOT &IO, Job &J) {
  stack::StackPtxOptions &O = J.StackOptions;
  IO.field(O.Strict, "strict flag");
  IO.field(O.ZeroUnsatisfied, "zero-unsatisfied flag");
  size_t At = IO.position();
  IO.field(O.StackSize, "stack size");
  IO.field(O.MaxNodes, "node limit");
  IO.field(O.MaxFrameDepth, "frame depth");
  IO.field(O.StoreSize, "store size");
  IO.field(O.ExecutionLimit, "execution limit");
  IO.field(O.TargetSm, "target sm");
  IO.check(At, [&] { return stack::checkStackPtxOptions(O); });
}

template <typename IOT> static void mapRegisters(IOT &IO, Job &J) {
  IO.list(J.Registers, 11, "register", [&](RegisterDecl &D) {
    IO.field(D.Name, "register name");
    IO.field(D.StackIdx, "register stack");
    IO.kind(D.Kind, 0, 2, "register kind");
  });
}

template <typename IOT> static void mapRequests(IOT &IO, Job &J) {
  IO.list(J.Requests, 8, "request list", [&](std::vector<uint32_t> &L) {
    IO.list(L, 4, "request", [&](uint32_t &I) { IO.field(I, "request"); });
  });
}

template <typename IOT> static void mapTarget(IOT &IO, Job &J) {
  IO.field(J.Target, "target");
}

template <typename IOT> static void mapBackend(IOT &IO, Job &J) {
  IO.field(J.Backend, "backend name");
  IO.list(J.BackendOptions, 8, "backend option",
          [&](std::string &S) { IO.field(S, "backend option"); });
}

template <typename IOT> static void mapMetadata(IOT &IO, Job &J) {
  IO.list(J.Metadata, 16, "metadata entry", [&](MetadataEntry &E) {
    size_t At = IO.position();
    IO.field(E.Key, "metadata key");
    IO.check(At, [&]() -> Error {
      for (const MetadataEntry &Prev : J.Metadata) {
        if (&Prev == &E)
          break;
        if (Prev.Key == E.Key)
          return createStringError(inconvertibleErrorCode(),
                                   "duplicate metadata key '" + E.Key + "'");
      }
      return Error::success();
    });
    IO.field(E.Value, "metadata value");
  });
}

static bool always(const Job &) { return true; }
static bool hasMetadata(const Job &J) { return !J.Metadata.empty(); }

namespace {
/// A job's records, in the order they are written.
struct JobRecord {
  Tag T;
  const char *What; ///< in messages: "... of the <What> record"
  bool Required;
  void (*Write)(FieldWriter &, Job &);
  void (*Read)(FieldReader &, Job &);
  /// Whether serialize writes the record for a job.
  bool (*Written)(const Job &);
};
} // namespace

#define MMPTX_JOB_RECORD(TAG, WHAT, REQUIRED, MAP, WRITTEN)                    \
  { TAG, WHAT, REQUIRED, MAP<FieldWriter>, MAP<FieldReader>, WRITTEN }
static const JobRecord JobRecords[] = {
    MMPTX_JOB_RECORD(TagSource, "source", true, mapSource, always),
    MMPTX_JOB_RECORD(TagInject, "inject options", false, mapInject, always),
    MMPTX_JOB_RECORD(TagInstrSet, "instruction set", false, mapInstructionSet,
                     always),
    MMPTX_JOB_RECORD(TagStackOptions, "stack options", true, mapStackOptions,
                     always),
    MMPTX_JOB_RECORD(TagRegisters, "registers", false, mapRegisters, always),
    MMPTX_JOB_RECORD(TagRequests, "requests", false, mapRequests, always),
    MMPTX_JOB_RECORD(TagTarget, "target", false, mapTarget, always),
    MMPTX_JOB_RECORD(TagBackend, "backend", false, mapBackend, always),
    MMPTX_JOB_RECORD(TagMetadata, "metadata", false, mapMetadata, hasMetadata),
};
#undef MMPTX_JOB_RECORD

std::string wire::serialize(const Job &J) {
  MessageWriter M(MessageKind::Job);
  for (const JobRecord &JR : JobRecords) {
    if (!JR.Written(J))
      continue;
    FieldWriter W(M.record(JR.T));
    // The writer only reads what the mapping hands it.
    JR.Write(W, const_cast<Job &>(J));
  }
  return M.finish();
}

Expected<Job> wire::deserializeJob(StringRef Bytes) {
  Expected<std::vector<Record>> Recs = readRecords(Bytes, MessageKind::Job);
  if (!Recs)
    return Recs.takeError();
  Job J;
  std::vector<bool> Seen(array_lengthof(JobRecords));
  for (const Record &Rec : *Recs) {
    const JobRecord *JR =
        find_if(JobRecords, [&](const JobRecord &X) { return X.T == Rec.Tag; });
    if (JR == std::end(JobRecords))
      continue; // a record a later version added
    Seen[JR - JobRecords] = true;
    FieldReader R(Rec);
    JR->Read(R, J);
    if (Error E = R.finish(JR->What))
      return E;
  }
  for (const JobRecord &JR : JobRecords)
    if (JR.Required && !Seen[&JR - JobRecords])
      return createStringError(inconvertibleErrorCode(),
                               "byte " + Twine(HeaderSize) +
                                   ": the job has no " + JR.What + " record");
  return J;
}

//===----------------------------------------------------------------------===//
// Programs and results: one record per variant or result
//===----------------------------------------------------------------------===//

template <typename IOT>
static void mapWords(IOT &IO, std::vector<uint64_t> &Words, const char *What) {
  IO.list(Words, 8, What, [&](uint64_t &X) { IO.field(X, What); });
}

template <typename IOT> static void mapRecord(IOT &IO, Variant &V) {
  IO.field(V.Id, "variant id");
  // kind, inject, three counts.
  IO.list(V.Programs, 29, "program", [&](WireProgram &P) {
    IO.kind(P.Kind, 1, 4, "program kind");
    IO.field(P.Inject, "program inject");
    mapWords(IO, P.Words, "program word");
    IO.list(P.Routines, 8, "routine", [&](std::vector<uint64_t> &Routine) {
      mapWords(IO, Routine, "routine word");
    });
    IO.field(P.Text, "program text");
  });
}

template <typename IOT> static void mapRecord(IOT &IO, Result &Res) {
  IO.field(Res.Id, "result id");
  IO.field(Res.Name, "result name");
  IO.field(Res.Ok, "result ok flag");
  IO.field(Res.Cubin, "cubin");
  IO.list(Res.Stubs, 8, "stub", [&](std::string &S) { IO.field(S, "stub"); });
  IO.list(Res.Errors, 24, "error", [&](WireDiagnostic &D) {
    IO.field(D.Message, "error message");
    IO.field(D.File, "error file");
    IO.field(D.Line, "error line");
    IO.field(D.Column, "error column");
  });
  IO.field(Res.Backend, "backend");
  IO.field(Res.BackendVersion, "backend version");
  IO.field(Res.Log, "log");
  IO.field(Res.Origin, "origin");
  IO.field(Res.Seconds, "seconds");
}

/// A message of one \p T record per item.
template <typename ItemT>
static std::string writeEach(MessageKind K, Tag T,
                             const std::vector<ItemT> &Items) {
  MessageWriter M(K);
  for (const ItemT &Item : Items) {
    FieldWriter W(M.record(T));
    mapRecord(W, const_cast<ItemT &>(Item));
  }
  return M.finish();
}

/// The items of the \p T records of a message (other tags are a later
/// version's, skipped).
template <typename ItemT>
static Error readEach(StringRef Bytes, MessageKind K, Tag T, const char *What,
                      std::vector<ItemT> &Items) {
  Expected<std::vector<Record>> Recs = readRecords(Bytes, K);
  if (!Recs)
    return Recs.takeError();
  for (const Record &Rec : *Recs) {
    if (Rec.Tag != T)
      continue;
    FieldReader R(Rec);
    ItemT Item;
    mapRecord(R, Item);
    if (Error E = R.finish(What))
      return E;
    Items.push_back(std::move(Item));
  }
  return Error::success();
}

std::string wire::serialize(const ProgramBatch &B) {
  return writeEach(MessageKind::Programs, TagVariant, B.Variants);
}

Expected<ProgramBatch> wire::deserializePrograms(StringRef Bytes) {
  ProgramBatch B;
  if (Error E = readEach(Bytes, MessageKind::Programs, TagVariant, "variant",
                         B.Variants))
    return E;
  return B;
}

std::string wire::serialize(const ResultBatch &B) {
  return writeEach(MessageKind::Results, TagResult, B.Results);
}

Expected<ResultBatch> wire::deserializeResults(StringRef Bytes) {
  ResultBatch B;
  if (Error E =
          readEach(Bytes, MessageKind::Results, TagResult, "result", B.Results))
    return E;
  return B;
}
