//===- Literal.h - Typed literals of expression programs --------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The 32-bit literals that expression programs (AST PTX) carry, per stack
/// type: reading them from text with range checks, writing them as PTX
/// immediates, and reading and printing the host values the interpreters
/// use. A stack type is identified by its literal prefix (`f32`, `u32`,
/// `pred`, `b16`, ...).
///
/// Literal payloads: an f32 on f32 and f64 stacks (widened exactly on f64);
/// otherwise the value's bits, zero-extended on 64-bit stacks.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_EXPR_LITERAL_H
#define MMPTX_EXPR_LITERAL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mmptx {
namespace expr {

/// How a stack's literals print as PTX immediates.
enum class LiteralKind : uint8_t {
  F32, ///< `0f3f800000`
  F64, ///< `0d3ff0000000000000` (the payload is an f32, widened)
  U32, ///< `0x00000002U`
  Hex, ///< `0x00000002` (signed, bit, predicate and narrow types)
};

/// \returns the kind of literal of a stack with PTX type \p Prefix.
LiteralKind getLiteralKind(llvm::StringRef Prefix);

/// \returns the number of value bits of PTX type \p Prefix: 1 for pred, 8,
/// 16, 32 or 64.
unsigned getTypeWidth(llvm::StringRef Prefix);

/// Reads literal \p Text for a stack with PTX type \p Prefix. Floats
/// (`1.5`, `-2e3`, `inf`, `0f3f800000`) go on f32/f64 stacks; integers
/// (decimal or `0x` hex, optionally signed, a `u` suffix allowed) on
/// integer, bit and f32/f64 stacks; a hex literal gives the bits of a
/// signed type (`0xffffffff` is -1 on s32); `true`/`false` or 0/1 on pred. A
/// value the stack cannot hold, or that a 32-bit payload cannot carry exactly,
/// is an error naming why. \returns the payload bits.
llvm::Expected<uint32_t> parseLiteral(llvm::StringRef Text,
                                      llvm::StringRef Prefix);

// The PTX immediate of a payload is written by writePtxLiteral
// (mmptx/Expr/PtxEmitter.h).

/// \returns the host value (bit pattern, see StackInterpreter.h) of a
/// literal payload on a stack with PTX type \p Prefix.
uint64_t literalValue(uint32_t Bits, llvm::StringRef Prefix);

/// Reads a host value for a variable of PTX type \p Prefix from the command
/// line (`1.5`, `-3`, `0x10`, `true`). \returns false if \p Text is not one.
bool parseValue(llvm::StringRef Text, llvm::StringRef Prefix, uint64_t &Out);

/// Prints host value \p V of PTX type \p Prefix for people: floats in
/// shortest round-trip form with their bits, integers in decimal and hex.
void printValue(llvm::raw_ostream &Os, uint64_t V, llvm::StringRef Prefix);

/// Prints f32 payload \p Bits as a literal that reads back exactly (`1.0`,
/// `-2.5`, `1e-07`), or as `0f7FC00000` (upper-case) when no decimal does.
void printF32Literal(llvm::raw_ostream &Os, uint32_t Bits);

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_LITERAL_H
