//===- Parser.h - PTX text to IR --------------------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Text → IR, at two speeds:
///  - parseStructure(): one pass over the bytes that finds statement
///    boundaries, scopes, functions, comments and inline-asm regions, and
///    flags the comments that contain the keyword `PTX_INJECT`
///    (SF_KeywordComment), in the same walk. It is all that inject-site
///    discovery and rendering need: every inject marker contains the
///    keyword (lib/Inject relies on it; its tests check it).
///  - verifyModule(): parses the operands of every statement (see
///    StatementParser.h) and reports the first malformed one.
/// parsePTX() does both. Neither crashes, hangs or reads out of bounds on any
/// byte sequence; every failure is a located DiagnosticError.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_PARSER_PARSER_H
#define MMPTX_PARSER_PARSER_H

#include "mmptx/IR/Module.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mmptx {

/// Runs the structural pass over buffer \p BufferID of \p SM, which must
/// outlive the returned module.
llvm::Expected<std::unique_ptr<ptx::Module>>
parseStructure(const llvm::SourceMgr &SM, unsigned BufferID);

/// Runs the structural pass over the text of \p M, a module built with
/// Module(SM, BufferID) and not parsed yet, into \p M: for a caller that
/// keeps the module on its stack.
llvm::Error parseStructure(ptx::Module &M);

/// parseStructure() that builds the statements in \p Storage (cleared
/// first), so that a caller parsing many buffers reuses one allocation
/// (and its mapped pages) instead of a fresh one each time; take it back
/// from Module::getStatementsForBuild() when done with the module.
llvm::Expected<std::unique_ptr<ptx::Module>>
parseStructure(const llvm::SourceMgr &SM, unsigned BufferID,
               std::vector<ptx::Statement> &&Storage);

/// Parses the operands of every statement of \p M; \returns the first error.
llvm::Error verifyModule(const ptx::Module &M);

/// verifyModule() that leaves out each statement for which \p Skip (given
/// the statement's text and kind) says true: for a caller that can tell
/// faster that a statement is well formed.
llvm::Error
verifyModule(const ptx::Module &M,
             llvm::function_ref<bool(llvm::StringRef, ptx::StmtKind)> Skip);

/// parseStructure() followed by verifyModule().
llvm::Expected<std::unique_ptr<ptx::Module>> parsePTX(const llvm::SourceMgr &SM,
                                                      unsigned BufferID);

/// Parses a copy of \p Text named \p Name; the module owns its SourceMgr.
/// \p Verify selects the full parse.
llvm::Expected<std::unique_ptr<ptx::Module>>
parsePTXString(llvm::StringRef Text, llvm::StringRef Name = "<string>",
               bool Verify = true);

} // namespace mmptx

#endif // MMPTX_PARSER_PARSER_H
