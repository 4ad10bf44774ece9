//===- StubCLOptions.h - Command-line flags of StubOptions ------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The flags that set StubOptions, defined once for every tool that builds
/// stubs (as CIRCT's registerFirtoolCLOptions() does for firtool's):
/// `--stack-*` for Stack PTX programs, `--ast-*` for AST PTX programs, and
/// `--stack-target-sm` for both.
/// A flag given on the command line overrides the compiler's default; one
/// that applies to no program of the run is an error.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_STUB_STUBCLOPTIONS_H
#define MMPTX_STUB_STUBCLOPTIONS_H

#include "mmptx/Expr/InstrSet.h"
#include "mmptx/Expr/Literal.h"
#include "mmptx/Expr/Vocabulary.h"
#include "mmptx/Stub/StubBuilder.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <tuple>
#include <vector>

namespace mmptx {
namespace stub {

/// Registers the flags of \p Kinds in \p Category, and `--stack-target-sm`
/// always: a tool that compiles one program kind registers that kind's
/// flags only (the other kind's are then unknown arguments). Call once,
/// before llvm::cl::ParseCommandLineOptions.
void registerStubCLOptions(llvm::cl::OptionCategory &Category,
                           llvm::ArrayRef<ProgramKind> Kinds = {
                               ProgramKind::Stack, ProgramKind::Ast});

/// Makes \p Spelling (without dashes) another name of the registered flag
/// \p Flag (`stack-size`), hidden from --help unless \p Visible: the older
/// spellings of a tool's flags keep working. A one-letter spelling also
/// takes its value attached (`-Idir`). Call after registerStubCLOptions(),
/// before parsing.
void addStubCLOptionAlias(llvm::StringRef Spelling, llvm::StringRef Flag,
                          bool Visible = false);

/// Registers the flags of \p Kind in \p Category (registerStubCLOptions())
/// with the older spellings of a tool that compiles that kind only:
/// `--target-sm`, and each of \p Unprefixed, a flag without its
/// `--stack-` or `--ast-`.
void registerStubToolOptions(llvm::cl::OptionCategory &Category,
                             ProgramKind Kind,
                             llvm::ArrayRef<llvm::StringRef> Unprefixed);

/// \returns the vocabulary that \p Option (`--vocabulary`) names, what
/// random programs draw from: an error when it names none, or when it is
/// given without random programs (\p Random false; \p RandomFlag is the
/// flag that asks for them, `random`).
llvm::Expected<expr::Vocabulary>
getRandomVocabulary(const llvm::cl::opt<std::string> &Option, bool Random,
                    llvm::StringRef RandomFlag);

/// Runs `--interpret`: parses its \p Assignments, `name=value,...`, into a
/// value for each of \p NumInputs inputs (the value given to Decls[I], a
/// variable or register with a Name and a StackIdx of \p Set, is input I's;
/// the others are 0), then \returns what \p Interpret gives for them.
/// \p Noun names a declaration in messages (`variable`).
template <typename DeclT>
llvm::Expected<std::vector<uint64_t>>
interpretAssignments(llvm::StringRef Assignments,
                     const std::vector<DeclT> &Decls, size_t NumInputs,
                     const expr::InstrSet &Set, llvm::StringRef Noun,
                     llvm::function_ref<llvm::Expected<std::vector<uint64_t>>(
                         llvm::ArrayRef<uint64_t>)>
                         Interpret) {
  std::vector<uint64_t> Values(NumInputs, 0);
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Assignments.split(Items, ',', -1, false);
  for (llvm::StringRef Item : Items) {
    llvm::StringRef Name, Value;
    std::tie(Name, Value) = Item.split('=');
    Name = Name.trim();
    auto It =
        llvm::find_if(Decls, [&](const DeclT &D) { return D.Name == Name; });
    if (It == Decls.end())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--interpret: unknown " + Noun + " '" +
                                         Name + "'");
    if (!expr::parseValue(Value.trim(), Set.LiteralPrefixes[It->StackIdx],
                          Values[It - Decls.begin()]))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--interpret: bad value '" + Value +
                                         "' for '" + Name + "'");
  }
  return Interpret(Values);
}

/// Prints what `--interpret` gives \p D (a variable or register, with a Name
/// and a StackIdx of \p Set), value \p V, as `name = value`.
template <typename DeclT>
void printInterpretValue(llvm::raw_ostream &Os, const DeclT &D, uint64_t V,
                         const expr::InstrSet &Set) {
  Os << D.Name << " = ";
  expr::printValue(Os, V, Set.LiteralPrefixes[D.StackIdx]);
  Os << "\n";
}

/// \returns the StubOptions the command line gives (the compilers' defaults
/// for flags not given). Requires registerStubCLOptions().
StubOptions getStubOptionsFromCL();

/// \returns an error naming the first flag given that applies to none of
/// \p Kinds, the kinds of the run's programs (every flag is an error when
/// there are none: \p What takes no programs).
llvm::Error checkStubCLOptionsApply(llvm::ArrayRef<ProgramKind> Kinds,
                                    llvm::StringRef What);

/// \returns the flag that sets StackPtxOptions field \p Field (`StackSize`
/// gives `--stack-size`), for messages about limits.
llvm::StringRef getStackOptionFlag(llvm::StringRef Field);

} // namespace stub
} // namespace mmptx

#endif // MMPTX_STUB_STUBCLOPTIONS_H
