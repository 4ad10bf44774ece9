//===- InjectChecks.h - Checks of sites and stubs ---------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The checks that make rendering safe, shared by InjectModule::create (C++
/// and C), the normalize pass and mmptx-opt:
///  - a normalised site's scaffold declares and sets its stable registers
///    and reads the written ones back (verifyNormalizedSite);
///  - a legacy comment-form site names compiler registers that are declared,
///    of a type its variables can be moved from, and never one register for
///    two variables that are written (verifyLegacySite);
///  - a stub is PTX that can stand inside a function body: instructions,
///    `.reg`/`.local` declarations, labels, comments and balanced scopes,
///    ASCII only, and no inject markers (checkStub).
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_INJECT_INJECTCHECKS_H
#define MMPTX_INJECT_INJECTCHECKS_H

#include "mmptx/Inject/InjectModule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mmptx {
namespace ptx {
class Module;
enum class StmtKind : uint8_t;
} // namespace ptx

/// Parses the operands of every statement of \p M, as verifyModule() does,
/// and \returns the same first error; statements that isPlainStatement()
/// accepts are not parsed.
llvm::Error verifyOperands(const ptx::Module &M);

/// \returns whether \p Text, a statement of kind \p Kind, has one of the
/// shapes of compiled PTX that the statement parser always accepts
/// (instructions whose operands are registers, short numbers, names,
/// simple addresses and vectors; declarations without initializers;
/// lexed-only directives such as `.loc`; labels). A false result decides
/// nothing: the statement parser does.
bool isPlainStatement(llvm::StringRef Text, ptx::StmtKind Kind);

/// Both site checks first check that the site lies inside a function body.
///
/// Checks already-normalised \p Site of \p Im, found in \p M: its stable
/// registers are declared with the marker's types in enclosing scopes, in
/// and mod variables are set by a `mov` before the site and mod and out
/// variables read back by a `mov` after it. Legacy sites pass.
/// \p MarkerStmt is the index of the statement holding the site's START
/// marker when the caller knows it (saves a search).
llvm::Error verifyNormalizedSite(const ptx::Module &M, const InjectModule &Im,
                                 const InjectSite &Site,
                                 uint32_t MarkerStmt = ~uint32_t(0));

/// Checks the compiler registers of legacy \p Site of \p Im, found in
/// \p M: each is declared in a scope enclosing the site, with a type that
/// its variable's `mov` accepts, and no register belongs to two variables
/// when one of them is written. Other sites pass.
llvm::Error verifyLegacySite(const ptx::Module &M, const InjectModule &Im,
                             const InjectSite &Site,
                             uint32_t MarkerStmt = ~uint32_t(0));

/// Runs verifyLegacySite or verifyNormalizedSite on every site of \p Im,
/// found in \p M; \returns the first error. Same verdicts as checking each
/// site alone, but a normalised site whose scope, up to its marker, has the
/// statements of its inject's first site with byte-identical declarations
/// (unrolled copies) reuses that site's declaration checks, and a site
/// with the exact scaffold that nvcc and writeSiteScaffold() produce is
/// recognised by comparing its statements' bytes. \p MarkerStmts, when it
/// has one entry per site, gives the statement of each site's START
/// marker (saves a walk over the statements).
llvm::Error verifySites(const ptx::Module &M, const InjectModule &Im,
                        llvm::ArrayRef<uint32_t> MarkerStmts = {});

/// Checks \p Stub, named \p BufferName in errors, before it is spliced at
/// the sites of inject \p Inj of \p Im. Errors are located in the stub and
/// carry InjectErrc::InvalidStub. A stub that writes the stable register of
/// an `in` variable (the write is lost) gets a warning through \p Warn.
llvm::Error checkStub(llvm::StringRef Stub, llvm::StringRef BufferName,
                      const InjectModule &Im, const Inject &Inj,
                      const WarningHandler &Warn = nullptr);

/// \returns whether \p Stub is made only of the statements that the Stack
/// PTX and AST PTX compilers emit (scope braces, `.reg` declarations and
/// instructions whose operands are registers, hex floats or short integers,
/// one a line), none of which writes a register of \p InRegisters (`%_x0`).
/// Render accepts such a stub without parsing it (checkStub()); every stub
/// this accepts, checkStub() accepts with no warning.
bool isSimpleStub(llvm::StringRef Stub,
                  llvm::ArrayRef<llvm::StringRef> InRegisters = {});

/// Checks \p Stub, named \p BufferName in errors, as checkStub does, for a
/// place that is not an inject site (a site of a packed module), called
/// \p Where in messages (`packed site 'program 3'`). A write to a register
/// of \p Reserved (`%rk4`) that the stub does not declare itself is an
/// error naming \p ReservedOwner (`the packed module`).
llvm::Error checkStubAt(llvm::StringRef Stub, llvm::StringRef BufferName,
                        llvm::StringRef Where,
                        llvm::ArrayRef<std::string> Reserved,
                        llvm::StringRef ReservedOwner);

/// \returns whether a register declared \p Declared (`b32`, no dot) may be
/// the operand of a `mov.<movSuffix>`: the same type, a bit type of the
/// same size, or integers of the same size.
bool isMovCompatible(llvm::StringRef Declared, llvm::StringRef MovSuffix);

} // namespace mmptx

#endif // MMPTX_INJECT_INJECTCHECKS_H
