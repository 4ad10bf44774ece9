//===- AstStub.h - AST PTX programs typed against an inject -----*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Compiles an AST PTX program in text form into the stub of one inject
/// (`mmptx-opt --stub-gen NAME=prog.ast`):
///
///  1. The inject's variables are predeclared, by name and by stable
///     register (`_x1`): using one declares it with its type's stack and
///     its kind; a declaration in the text may restate it and is checked.
///  2. Every variable of the program must be a variable of the inject, of
///     the same stack and a compatible kind (a mod variable may be used as
///     in or out); an out variable has no value to read.
///  3. Each `(= NAME EXPR)` writes one out or mod variable; an out variable
///     no expression writes gets the zero of its type; a mod variable keeps
///     its value.
///  4. Variables are read and written through their stable registers.
///
/// Errors are located in the program text.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_AST_ASTSTUB_H
#define MMPTX_AST_ASTSTUB_H

#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Expr/InjectTyping.h"
#include "mmptx/Stack/StackCompiler.h"

#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mmptx {
namespace ast {

/// A variable of an inject, as the stub sees it.
using AstSiteVar = expr::SiteVar;

/// Parses buffer \p bufferID of \p sm and compiles it with \p ctx (whose
/// tables give the stacks: a variable's stack is found by
/// expr::findStackOf) into the stub of inject \p injectName with variables
/// \p vars. \returns the stub or a located error.
llvm::Expected<std::string> compileAstStub(const llvm::SourceMgr &Sm,
                                           unsigned BufferId,
                                           llvm::StringRef InjectName,
                                           llvm::ArrayRef<AstSiteVar> Vars,
                                           AstPtxContext &Ctx);

} // namespace ast
} // namespace mmptx

#endif // MMPTX_AST_ASTSTUB_H
