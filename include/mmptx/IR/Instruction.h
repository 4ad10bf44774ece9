//===- Instruction.h - Parsed statement forms -------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The structured view of one statement, produced on demand by
/// mmptx/Parser/StatementParser.h. All strings are StringRefs into the
/// module's buffer, so parsing allocates only when an instruction has more
/// operands than the inline capacity.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_IR_INSTRUCTION_H
#define MMPTX_IR_INSTRUCTION_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>

namespace mmptx {
namespace ptx {

/// One operand. Vector (`{a, b}`) and list (`(a, b)`) operands are followed
/// in the owning array by their NumElements element operands.
struct Operand {
  enum class Kind : uint8_t {
    Register,  ///< `%r1`, `%tid.x`, `-%f1`, `%p|%q`, `%r|p` (see Text)
    Predicate, ///< `!%p1`
    Immediate, ///< `42`, `-1`, `0x1FU`, `1.5`, `.5`, `0f3F800000`, `0d...`
    /// A name without `%`, which may also be a register: `$L__BB0_1`,
    /// `func`, `param0`, `sym+8`, `_`, `r0|p`, `input.x`, `generic(sym)`
    Symbol,
    Address, ///< `[%rd1+8]`, `[sym]`, `[tex, {%f1, %f2}]`
    Vector,  ///< `{%f1, %f2}`, `{%f1, %f2}|%p`; elements follow
    List,    ///< `(%r1, %r2)` in `call`; elements follow
    /// Anything else that is well formed, kept as its text: constant
    /// expressions such as `%r+1`, `(1<<4)|3`, `~0`, `a ? b : c`.
    Opaque,
  };
  Kind K;
  /// Number of element operands that follow a Vector or List.
  uint32_t NumElements = 0;
  /// The operand's source text, trimmed.
  llvm::StringRef Text;

  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(Text.data());
  }
};

/// `[@[!]guard] opcode[.modifier]* operand, ... ;`
struct Instruction {
  /// The predicate register of the guard (`%p1`), empty if unguarded.
  llvm::StringRef Guard;
  bool GuardNegated = false;
  /// The whole opcode with its modifiers, e.g. `add.rn.f32`.
  llvm::StringRef Opcode;
  /// The opcode without modifiers, e.g. `add`.
  llvm::StringRef Mnemonic;
  /// The dot-modifiers in order, without dots: `rn`, `f32`.
  llvm::SmallVector<llvm::StringRef, 6> Modifiers;
  /// Top-level operands interleaved with vector/list elements (see Operand).
  llvm::SmallVector<Operand, 6> Operands;

  void clear() {
    Guard = Opcode = Mnemonic = {};
    GuardNegated = false;
    Modifiers.clear();
    Operands.clear();
  }
};

/// One declared name in a variable or register declaration.
struct DeclaredName {
  llvm::StringRef Name;
  /// `%r<N>` declares N registers %r0..%r(N-1); -1 if not a range.
  int64_t RangeCount = -1;
  /// Array dimensions; 0 for `[]`.
  llvm::SmallVector<uint64_t, 1> Dims;
  /// The initializer text after `=` (without the `=`), empty if none.
  llvm::StringRef Initializer;
};

/// `.reg`, `.local`, `.shared`, `.global`, `.const`, `.param`, `.tex`, ...
/// variable declarations, with optional linkage.
struct Declaration {
  llvm::SmallVector<llvm::StringRef, 2> Linkage; ///< `.visible`, `.extern`...
  llvm::StringRef StateSpace;                    ///< `.reg`, `.global`...
  /// Remaining qualifiers in order: `.align`, `.v4`, `.f32`, `.ptr`...
  llvm::SmallVector<llvm::StringRef, 4> Qualifiers;
  /// The element type (`.f32`), empty if none was given.
  llvm::StringRef Type;
  uint64_t Alignment = 0;
  llvm::SmallVector<DeclaredName, 1> Names;
};

/// A parameter of a function header.
struct Parameter {
  Declaration Decl;
};

/// `[linkage] (.entry|.func) [(returns)] name [(params)] [perf-directives]`
struct FunctionSignature {
  llvm::SmallVector<llvm::StringRef, 2> Linkage;
  bool IsEntry = false;
  llvm::StringRef Name;
  llvm::SmallVector<Declaration, 1> Returns;
  llvm::SmallVector<Declaration, 4> Params;
  /// Performance-tuning and other trailing directives, e.g. `.maxntid`,
  /// with their raw argument text.
  llvm::SmallVector<std::pair<llvm::StringRef, llvm::StringRef>, 2> Attributes;
  bool IsPrototype = false;
};

} // namespace ptx
} // namespace mmptx

#endif // MMPTX_IR_INSTRUCTION_H
