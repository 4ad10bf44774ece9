//===- StackText.h - Text form of Stack PTX programs ------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A readable text form of Stack PTX programs that converts both ways with
/// the 8-byte words. Example:
/// \code
///   // comments run to the end of the line
///   .registers { x : F32 in; y : F32 in; z : F32 out; }
///   .routine sq { dup(F32) mul.ftz.f32 }
///   .program { x y mul.ftz.f32 1.0 add.ftz.f32 call sq }
///   .requests { z }
/// \endcode
///
/// Grammar (sections may repeat and come in any order; routines may be
/// called before they are defined):
/// \code
///   file     ::= section*
///   section  ::= '.include' '"' file '"'
///              | '.registers' '{' (regdecl)* '}'
///              | '.routine' ident '{' word* '}'
///              | '.program' '{' word* '}'
///              | '.requests' '{' (request ','?)* '}'
///   regdecl  ::= ident ':' STACK ('in' | 'out' | 'mod')? ';'   (default in)
///   word     ::= ident                   a register (INPUT) or an instruction
///                                        name from the tables (PTX)
///              | '%' name                special register (SPECIAL)
///              | literal (':' STACK)?    constant (CONSTANT)
///              | metaop '(' STACK ')'    dup yank_dup swap swap_with replace
///                                        drop clear rotate reverse (META)
///              | 'meta' '(' int ')'      META_CONSTANT
///              | 'store' '(' STACK ',' int ')' | 'load' '(' int ')'
///              | 'call' ident            ROUTINE
///              | 'return'                RETURN
///              | 'input' '(' int ')'     INPUT by index
///              | 'word' '(' hex ')'      any raw word (printed for words
///                                        that have no other spelling)
///   request  ::= a register declared 'out' or 'mod'
///   literal  ::= float | '0f' hex8       on the F32 stack: 1.0 -2.5e3
///              | int 'u'                 on the U32 stack: 7u 0x10u
///              | int                     on the S32 stack: -3
///   with ':STACK' any stack: 1:PRED 0x3f800000:TF32 1.5:F64 (floats only on
///   f32/f64 stacks, where integers mean their value: 2:F64 is 2.0). A
///   constant carries 32 bits, an f32 on both float stacks: a value out of
///   its range, one that underflows to 0, and on F64 one that is not exact
///   in an f32 (0.1:F64) are errors, and so is an integer outside its
///   stack's type (2147483648 on S32, 65536:F16 whose type is b16, 2:PRED);
///   a hex integer gives the bits (0xffffffff on S32 is -1).
/// \endcode
/// Register names are PTX identifiers and may not be instruction names or
/// spelled like the stub's temporaries, `_s<stack>_<n>`.
/// A caller may predeclare registers (see parseStackProgram): the first use
/// of such a name, as a word or a request, declares it.
/// Printing is canonical: parse(print(P)) == P for every program, including
/// programs of arbitrary (mutated) words.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_STACK_STACKTEXT_H
#define MMPTX_STACK_STACKTEXT_H

#include "mmptx/Stack/StackCompiler.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"

#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace mmptx {
namespace stack {

/// A register declaration of a program (owning form of Register).
struct RegisterDecl {
  std::string Name;
  uint16_t StackIdx = 0;
  RegKind Kind = RegKind::In;
  /// Where the name was declared (for a predeclared register, its first
  /// use); valid while the parsed SourceMgr lives.
  llvm::SMLoc Loc;
  /// Where the program first reads the register (by name or `input(N)`);
  /// invalid if it never does.
  llvm::SMLoc FirstRead;
};

/// An owning Stack PTX program: words plus the registers and requests it
/// is compiled with.
struct StackProgram {
  std::vector<RegisterDecl> Registers;
  std::vector<std::string> RoutineNames;
  std::vector<std::vector<uint64_t>> Routines;
  std::vector<uint64_t> Main;
  std::vector<uint32_t> Requests;
  /// Whether the text had a `.requests` section (even an empty one).
  bool HasRequests = false;

  /// \returns a view for the compiler; valid while this object is unchanged.
  Program getProgram() const;
  /// \returns the registers as the compiler takes them.
  std::vector<Register> getRegisters() const;
  /// \returns what a program without `.requests` requests: its registers
  /// declared 'out' or 'mod', in declaration order.
  std::vector<uint32_t> getDefaultRequests() const;

private:
  mutable std::vector<llvm::ArrayRef<uint64_t>> RoutineRefs;
};

/// Parses buffer \p BufferId of \p Sm. \returns the program or a located
/// DiagnosticError.
///
/// A name in \p Predeclared that is not declared in `.registers` (and is not
/// an instruction) may still be used: its first use, as a word or a request,
/// appends it to StackProgram::Registers, located at that use. Declaring it
/// after that use is an error. \p Predeclared only needs name, StackIdx and
/// kind.
///
/// `.include "file.stack"` reads the sections of another file at that point
/// (searched in the including file's directory, then in \p IncludeDirs in
/// order); its buffers are added to \p Sm. A file included a second time is
/// skipped; a file that includes itself, directly or not, and a missing
/// file are located errors.
llvm::Expected<StackProgram>
parseStackProgram(llvm::SourceMgr &Sm, unsigned BufferId, const StackInfo &Info,
                  llvm::ArrayRef<RegisterDecl> Predeclared = {},
                  llvm::ArrayRef<std::string> IncludeDirs = {});

/// Parses \p Text (named \p BufferName in diagnostics).
llvm::Expected<StackProgram>
parseStackProgram(llvm::StringRef Text, const StackInfo &Info,
                  llvm::StringRef BufferName = "<stack>",
                  llvm::ArrayRef<RegisterDecl> Predeclared = {});

/// Prints \p Prog in canonical text form.
void printStackProgram(llvm::raw_ostream &Os, const StackProgram &Prog,
                       const StackInfo &Info);

/// Prints one word in text form (`word(0x...)` when it has no other
/// spelling).
void printStackWord(llvm::raw_ostream &Os, uint64_t Word,
                    const StackProgram &Prog, const StackInfo &Info);

} // namespace stack
} // namespace mmptx

#endif // MMPTX_STACK_STACKTEXT_H
