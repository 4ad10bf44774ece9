//===- ReferenceWire.h - Reader of mm-ptx's serialised jobs -----*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads the buffers the reference (mm-ptx 1.1's Stack PTX Inject
/// serialiser) writes: native LP64 layout, little-endian, every count an
/// 8-byte size_t, no header, no padding, nothing checked by the writer.
/// The buffers carry no header, so the caller names the layout:
///
/// | layout   | components, in order                                      |
/// |----------|-----------------------------------------------------------|
/// | state    | ptx, compiler_info, stack_info, extra, registers, requests|
/// | 01       | compiler_info, stack_info, ptx, registers, requests,      |
/// |          | instructions, extra (the reference's 01_buffer_compile)   |
/// | <name>   | that one component                                        |
///
/// Every read is bounded by the buffer (the reference's readers are not),
/// and every count is checked against the bytes left before anything is
/// allocated: a short or corrupted buffer is an error naming the component
/// and byte offset.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_SERIALIZE_REFERENCEWIRE_H
#define MMPTX_SERIALIZE_REFERENCEWIRE_H

#include "mmptx/Serialize/Wire.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mmptx {
namespace wire {
namespace ref {

/// The components of the reference's format.
enum class Component {
  CompilerInfo,
  StackInfo,
  Extra,
  Registers,
  Requests,
  Instructions,
  Ptx
};

/// \returns `compiler_info`, `stack_info`, ... (the reference's names).
llvm::StringRef getComponentName(Component C);
/// \returns the component called \p Name, or None.
llvm::Optional<Component> parseComponentName(llvm::StringRef Name);

/// `StackPtxCompilerInfo`: five size_t in struct order.
struct CompilerInfo {
  uint64_t MaxAstSize = 0;
  uint64_t MaxAstToVisitStackDepth = 0;
  uint64_t StackSize = 0;
  uint64_t MaxFrameDepth = 0;
  uint64_t StoreSize = 0;
};

/// `StackPtxPtxInstructionDescriptor`, 31 bytes packed.
struct PtxInstrDescriptor {
  std::array<uint16_t, 4> ArgTypes = {};
  std::array<uint16_t, 2> RetTypes = {};
  uint16_t NumUniqueStacks = 0;
  uint8_t IsAligned = 0;
  std::array<std::array<uint16_t, 2>, 4> UniqueStacks = {};
  std::string Raw; ///< the 31 bytes as written
};

/// `StackPtxStackInfo`.
struct StackInfo {
  std::vector<std::string> PtxInstrs;
  std::vector<PtxInstrDescriptor> Descriptors;
  std::vector<std::string> Specials;
  std::vector<uint16_t> SpecialArgTypes;
  std::vector<std::string> LiteralPrefixes;
  std::vector<std::array<uint16_t, 2>> ArgTypes; ///< {stack, vec elems}
};

/// `StackPtxExtraInfo`: {u32 sm major, u32 sm minor, size_t limit}.
struct Extra {
  uint32_t SmMajor = 0;
  uint32_t SmMinor = 0;
  uint64_t ExecutionLimit = 0;
};

struct Register {
  std::string Name;
  uint16_t StackIdx = 0;
};

/// Where one component lies in the buffer.
struct Span {
  Component Which;
  uint64_t Offset;
  uint64_t Length;
};

/// Everything one buffer holds; components it lacks are None.
struct Buffer {
  llvm::Optional<CompilerInfo> Compiler;
  llvm::Optional<StackInfo> Stack;
  llvm::Optional<Extra> ExtraInfo;
  llvm::Optional<std::vector<Register>> Registers;
  llvm::Optional<std::vector<std::vector<uint64_t>>> Requests;
  /// Programs, each up to and including its RETURN word.
  llvm::Optional<std::vector<std::vector<uint64_t>>> Programs;
  llvm::Optional<std::string> Ptx;
  std::vector<Span> Spans; ///< in buffer order
};

/// The layouts a buffer may have.
enum class Layout { State, Example01, Single };

/// Parses \p Name (`state`, `01` or a component name) into \p L and,
/// for a single component, \p Single. \returns false if unknown.
bool parseLayout(llvm::StringRef Name, Layout &L, Component &Single);

/// Reads a whole buffer of layout \p L (\p Single: which component,
/// for Layout::Single). Bytes after the last component are an error.
llvm::Expected<Buffer> readBuffer(llvm::StringRef Bytes, Layout L,
                                  Component Single = Component::Ptx);

/// Converts what a buffer holds into mmptx's job and programs: PTX becomes
/// an inject job's source; compiler info and extra become StackOptions
/// (max_ast_size is the node limit; sm major*10+minor the target); the
/// stack tables become the default instruction set when they agree with
/// its first entries (the reference's default tables do, except that mmptx
/// reads %gridid, a .u64 register, as u64 where they read it as u32), else
/// a set of
/// their own (names made from the opcodes); registers named in a request
/// list are Mod (an unsatisfied request leaves them unchanged, as the
/// reference does), the others In; each program is a variant of one Stack PTX
/// program for inject 0 whose routines are the buffer's other programs.
llvm::Expected<Job> toJob(const Buffer &B);
ProgramBatch toPrograms(const Buffer &B);

} // namespace ref
} // namespace wire
} // namespace mmptx

#endif // MMPTX_SERIALIZE_REFERENCEWIRE_H
