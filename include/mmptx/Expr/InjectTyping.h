//===- InjectTyping.h - Typing expression programs against sites -*- C++ -*-=//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How a program of either expression front end (Stack PTX, AST PTX) is
/// typed against the variables of an inject site: which stack holds a
/// variable of an inject type, and whether a program's statement of a
/// variable (stack and kind) fits the site. A built-in inject type lives on
/// the stack of its name; a user's type (`DOG` in f32 registers) on the one
/// stack whose values have its register type, or on any such stack the
/// program restates it on.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_EXPR_INJECTTYPING_H
#define MMPTX_EXPR_INJECTTYPING_H

#include "mmptx/Expr/InstrSet.h"
#include "mmptx/Inject/InjectFormat.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mmptx {
namespace expr {

/// A variable of an inject site, as a stub sees it.
struct SiteVar {
  llvm::StringRef Name;           ///< as annotated, `acc`
  llvm::StringRef StableRegister; ///< `_x1`
  llvm::StringRef TypeToken;      ///< inject type, `F32`
  InjectArgKind Kind = InjectArgKind::In;
  /// PTX type of its register, `f32`; empty: the type's stack is the one
  /// of its name.
  llvm::StringRef RegType;
};

/// \returns the PTX register type of the values of stack \p S: that of the
/// built-in inject type of the same name (`F16` holds `b16`), else the
/// stack's literal prefix.
llvm::StringRef getStackRegType(const InstrSet &Info, unsigned S);

/// \returns the stack of variable \p V: the stack named like its type when
/// that holds its register type (every built-in type), else the one stack
/// that holds its register type; -1 when none does and -2 when several do
/// (the program must restate the variable on one of them).
int findStackOf(const InstrSet &Info, const SiteVar &V);

/// \returns why variable \p V has no stack of its own.
std::string describeMissingStack(const InstrSet &Info, const SiteVar &V);

/// \returns the variable of \p Vars named \p Name (as annotated or by its
/// stable register), or null.
const SiteVar *findSiteVar(llvm::ArrayRef<SiteVar> Vars, llvm::StringRef Name);

/// Checks a program's statement of variable \p V of inject \p InjectName:
/// on stack \p Stack (numStacks when it gave none and none was found) as
/// kind \p Kind. A mod variable may be stated as any kind.
/// \returns the message saying why it does not fit, or "" when it does.
std::string checkSiteVarUse(const InstrSet &Info, llvm::StringRef InjectName,
                            const SiteVar &V, unsigned Stack,
                            InjectArgKind Kind);

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_INJECTTYPING_H
