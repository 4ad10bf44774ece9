//===- StatementParser.h - On-demand statement parsing ----------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Parses one statement of a module into its structured form. Passes call
/// these only for the statements they look at; verifyModule() calls them for
/// all. Errors are located DiagnosticErrors.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_PARSER_STATEMENTPARSER_H
#define MMPTX_PARSER_STATEMENTPARSER_H

#include "mmptx/IR/Instruction.h"
#include "mmptx/IR/Module.h"

#include "llvm/Support/Error.h"

namespace mmptx {

/// Parses instruction statement \p S of \p M into \p Out (cleared first).
llvm::Error parseInstruction(const ptx::Module &M, const ptx::Statement &S,
                             ptx::Instruction &Out);

/// Parses a variable/register declaration directive into \p Out.
llvm::Error parseDeclaration(const ptx::Module &M, const ptx::Statement &S,
                             ptx::Declaration &Out);

/// Parses a function header statement into \p Out.
llvm::Error parseFunctionSignature(const ptx::Module &M,
                                   const ptx::Statement &S,
                                   ptx::FunctionSignature &Out);

/// Checks statement \p S of any kind: instructions, declarations and headers
/// are parsed; other directives have their tokens checked.
llvm::Error verifyStatement(const ptx::Module &M, const ptx::Statement &S);

/// \returns true if \p Name (with its dot) is a PTX fundamental type such as
/// `.f32`, `.b64`, `.pred` or `.bf16x2`.
bool isPTXType(llvm::StringRef Name);

/// \returns true if \p Name is a state space directive (`.reg`, `.global`..).
bool isStateSpace(llvm::StringRef Name);

} // namespace mmptx

#endif // MMPTX_PARSER_STATEMENTPARSER_H
