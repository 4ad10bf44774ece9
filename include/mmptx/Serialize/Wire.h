//===- Wire.h - Versioned wire format for jobs and results ------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// mmptx's wire format: a compile job is set up once (Job), programs travel
/// many times (ProgramBatch), results come back (ResultBatch). Every message
/// is one self-checking byte buffer:
///
/// | offset | bytes | field                                              |
/// |--------|-------|----------------------------------------------------|
/// | 0      | 8     | magic `MMPTXWIR`                                   |
/// | 8      | 2     | format version (u16, currently 1)                  |
/// | 10     | 2     | message kind (u16: 1 job, 2 programs, 3 results)   |
/// | 12     | 4     | flags (u32, 0; a reader refuses any other value)   |
/// | 16     | 8     | payload length N (u64)                             |
/// | 24     | N     | payload: records                                   |
/// | 24 + N | 8     | checksum: xxHash64 (seed 0) of bytes 0 .. 24+N     |
///
/// All integers are little-endian and fixed-width, whatever the host. The
/// payload is a sequence of records `{u16 tag, u64 length, body}`; a reader
/// skips records whose tag it does not know (additions within a version
/// stay readable) and refuses a message that lacks a required one. Inside a
/// body: strings and byte blobs are `u64 length` + bytes; lists are `u64
/// count` + items; words are u64. Every length and count is checked against
/// the bytes that remain before anything is allocated, so a truncated,
/// oversized or corrupted buffer is an error naming its byte offset, never
/// a crash or a huge allocation. The checksum is xxHash64 (LLVM's, the
/// XXH64 of the xxHash library), so readers in other languages can check
/// it with any xxHash binding.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_SERIALIZE_WIRE_H
#define MMPTX_SERIALIZE_WIRE_H

#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackInfo.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mmptx {
namespace wire {

/// The first 8 bytes of every message.
constexpr llvm::StringLiteral Magic = "MMPTXWIR";
/// The format version this build writes and reads.
constexpr uint16_t FormatVersion = 1;
/// Bytes before the payload, and after it.
constexpr size_t HeaderSize = 24;
constexpr size_t TrailerSize = 8;

enum class MessageKind : uint16_t { Job = 1, Programs = 2, Results = 3 };

/// \returns `job`, `programs` or `results` (or `unknown`).
llvm::StringRef getMessageKindName(MessageKind K);

/// What a message's header says, once magic, version, length and checksum
/// have been checked.
struct MessageInfo {
  MessageKind Kind;
  uint16_t Version;
  uint64_t PayloadSize;
  uint64_t Checksum;
};

/// Checks magic, version, flags, length and checksum of \p Bytes (exactly one
/// message, nothing after it).
llvm::Expected<MessageInfo> checkMessage(llvm::StringRef Bytes);

//===----------------------------------------------------------------------===//
// Owning forms of what a job holds
//===----------------------------------------------------------------------===//

struct StackDecl {
  std::string Name;
  std::string LiteralPrefix;
  bool InlineLiterals = true;
  bool operator==(const StackDecl &O) const {
    return Name == O.Name && LiteralPrefix == O.LiteralPrefix &&
           InlineLiterals == O.InlineLiterals;
  }
};

struct ArgTypeDecl {
  std::string Name;
  uint16_t StackIdx = 0;
  uint16_t NumVecElems = 0;
  bool operator==(const ArgTypeDecl &O) const {
    return Name == O.Name && StackIdx == O.StackIdx &&
           NumVecElems == O.NumVecElems;
  }
};

struct InstrDecl {
  std::string Name;
  std::string Ptx;
  std::vector<uint16_t> Args; ///< at most 4
  std::vector<uint16_t> Rets; ///< at most 2
  uint16_t MinSm = 0;
  bool operator==(const InstrDecl &O) const {
    return Name == O.Name && Ptx == O.Ptx && Args == O.Args && Rets == O.Rets &&
           MinSm == O.MinSm;
  }
};

struct SpecialDecl {
  std::string Name;
  std::string Ptx;
  uint16_t ArgType = 0;
  uint16_t MinSm = 0;
  bool operator==(const SpecialDecl &O) const {
    return Name == O.Name && Ptx == O.Ptx && ArgType == O.ArgType &&
           MinSm == O.MinSm;
  }
};

/// A Stack PTX instruction set that owns its tables (stack::StackInfo only
/// points at tables).
struct InstructionSet {
  std::vector<StackDecl> Stacks;
  std::vector<ArgTypeDecl> ArgTypes;
  std::vector<InstrDecl> Instrs;
  std::vector<SpecialDecl> Specials;

  /// A copy of \p Info's tables.
  static InstructionSet fromStackInfo(const stack::StackInfo &Info);
  bool operator==(const InstructionSet &O) const {
    return Stacks == O.Stacks && ArgTypes == O.ArgTypes && Instrs == O.Instrs &&
           Specials == O.Specials;
  }
};

/// A stack::StackInfo over an InstructionSet's tables. Valid while the set
/// lives unchanged.
class StackInfoView {
public:
  /// Builds the view; an error if the tables are inconsistent
  /// (StackInfo::verify) or an instruction has more than 4 args or 2 rets.
  static llvm::Expected<std::unique_ptr<StackInfoView>>
  create(const InstructionSet &Set);
  const stack::StackInfo &get() const { return Info; }

private:
  StackInfoView() = default;
  stack::StackInfo Info = {};
  std::vector<const char *> StackNames, Prefixes, ArgNames, InstrNames,
      InstrPtx, SpecialNames, SpecialPtx;
  std::vector<stack::ArgTypeInfo> ArgTypes;
  std::vector<stack::PtxInstrDesc> Instrs;
  std::vector<stack::SpecialRegDesc> Specials;
  std::vector<uint8_t> InlineLits;
  std::vector<uint16_t> InstrMinSm, SpecialMinSm;
};

/// A register of the enclosing PTX a stub reads or writes.
struct RegisterDecl {
  std::string Name;
  uint16_t StackIdx = 0;
  stack::RegKind Kind = stack::RegKind::In;
  bool operator==(const RegisterDecl &O) const {
    return Name == O.Name && StackIdx == O.StackIdx && Kind == O.Kind;
  }
};

/// What the job's source text is.
enum class SourceKind : uint8_t {
  None = 0,   ///< no PTX (the job only compiles stubs)
  Ptx = 1,    ///< PTX compiled as it is (programs are rendered PTX)
  Inject = 2, ///< PTX with inject sites: programs give one stub per inject
};

/// A type token an inject module accepts besides the built-in ones.
struct InjectTypeDecl {
  std::string Token;   ///< `DOG`
  std::string RegType; ///< `f32`
  std::string MovSuffix;
  bool operator==(const InjectTypeDecl &O) const {
    return Token == O.Token && RegType == O.RegType && MovSuffix == O.MovSuffix;
  }
};

/// How an inject job's source is read.
struct InjectOptions {
  bool Trusted = false;           ///< only scan for markers
  bool AllowUnknownTypes = false; ///< accept any type token
  std::vector<InjectTypeDecl> ExtraTypes;
  bool operator==(const InjectOptions &O) const {
    return Trusted == O.Trusted && AllowUnknownTypes == O.AllowUnknownTypes &&
           ExtraTypes == O.ExtraTypes;
  }
};

/// A named value a job carries for its reader: what the job's user needs that
/// no other record says (how a compile farm builds each module, say).
/// Keys are unique within a job.
struct MetadataEntry {
  std::string Key;
  std::string Value; ///< any bytes
  bool operator==(const MetadataEntry &O) const {
    return Key == O.Key && Value == O.Value;
  }
};

/// A compile job, sent once.
struct Job {
  SourceKind Kind = SourceKind::None;
  std::string SourceName; ///< for diagnostics (`kernel.ptx`)
  std::string Source;     ///< the template PTX or the inject module's PTX
  InjectOptions Inject;   ///< for SourceKind::Inject
  /// True: the default instruction set of the reader's build (Set unused).
  bool DefaultInstructionSet = true;
  InstructionSet Set;
  stack::StackPtxOptions StackOptions;
  std::vector<RegisterDecl> Registers;
  /// Request lists (register indices), one per inject in inject order.
  std::vector<std::vector<uint32_t>> Requests;
  std::string Target;  ///< `sm_80`; empty: the backend's default
  std::string Backend; ///< `nvptxcompiler`, `nvjitlink`, `ptxas`, or empty
  std::vector<std::string> BackendOptions;
  /// Written as a record of its own only when not empty, so a job without
  /// metadata is the message it was before the record existed; a reader that
  /// predates it skips it.
  std::vector<MetadataEntry> Metadata;

  /// The value of metadata \p Key, or null.
  const std::string *getMetadata(llvm::StringRef Key) const;

  bool operator==(const Job &O) const;
};

/// How a program is written.
enum class ProgramKind : uint8_t {
  StackWords = 1, ///< Stack PTX words (and routines)
  AstWords = 2,   ///< AST PTX words
  Stub = 3,       ///< a finished PTX stub
  Ptx = 4,        ///< a whole rendered PTX module
};

/// \returns `stack`, `ast`, `stub` or `ptx` (or `unknown`).
llvm::StringRef getProgramKindName(ProgramKind K);

/// One program for one inject.
struct WireProgram {
  ProgramKind Kind = ProgramKind::StackWords;
  uint32_t Inject = 0;
  std::vector<uint64_t> Words;
  std::vector<std::vector<uint64_t>> Routines;
  std::string Text; ///< Stub or Ptx
  bool operator==(const WireProgram &O) const {
    return Kind == O.Kind && Inject == O.Inject && Words == O.Words &&
           Routines == O.Routines && Text == O.Text;
  }
};

/// One variant: a program per inject.
struct Variant {
  uint64_t Id = 0;
  std::vector<WireProgram> Programs;
  bool operator==(const Variant &O) const {
    return Id == O.Id && Programs == O.Programs;
  }
};

/// Programs, sent many times.
struct ProgramBatch {
  std::vector<Variant> Variants;
  bool operator==(const ProgramBatch &O) const {
    return Variants == O.Variants;
  }
};

/// A located error.
struct WireDiagnostic {
  std::string Message;
  std::string File; ///< empty: not in a file
  uint32_t Line = 0, Column = 0;
  bool operator==(const WireDiagnostic &O) const {
    return Message == O.Message && File == O.File && Line == O.Line &&
           Column == O.Column;
  }
};

/// What compiling one variant gave.
struct Result {
  uint64_t Id = 0;
  std::string Name; ///< what messages call the module
  bool Ok = false;
  std::string Cubin;              ///< bytes
  std::vector<std::string> Stubs; ///< one per inject, when asked
  std::vector<WireDiagnostic> Errors;
  std::string Backend;
  std::string BackendVersion;
  std::string Log;    ///< the backend's info log
  std::string Origin; ///< `compiled`, `cached` or `duplicate`
  double Seconds = 0; ///< compile or lookup time
  bool operator==(const Result &O) const {
    return Id == O.Id && Name == O.Name && Ok == O.Ok && Cubin == O.Cubin &&
           Stubs == O.Stubs && Errors == O.Errors && Backend == O.Backend &&
           BackendVersion == O.BackendVersion && Log == O.Log &&
           Origin == O.Origin &&
           (Seconds == O.Seconds ||
            (Seconds != Seconds && O.Seconds != O.Seconds));
  }
};

/// Results, sent back.
struct ResultBatch {
  std::vector<Result> Results;
  bool operator==(const ResultBatch &O) const { return Results == O.Results; }
};

//===----------------------------------------------------------------------===//
// Writing and reading
//===----------------------------------------------------------------------===//

std::string serialize(const Job &J);
std::string serialize(const ProgramBatch &B);
std::string serialize(const ResultBatch &B);

/// Each reads exactly one message of its kind; every malformed input is an
/// error naming the byte offset where reading stopped.
llvm::Expected<Job> deserializeJob(llvm::StringRef Bytes);
llvm::Expected<ProgramBatch> deserializePrograms(llvm::StringRef Bytes);
llvm::Expected<ResultBatch> deserializeResults(llvm::StringRef Bytes);

} // namespace wire
} // namespace mmptx

#endif // MMPTX_SERIALIZE_WIRE_H
