//===- InjectChecks.cpp - Checks of sites and stubs -----------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Site checks walk the statements of the structural parse backwards from a
/// site through its enclosing scopes (a closed nested scope is skipped in one
/// step through its Link) and parse only the declarations and `mov`s they
/// meet, so they cost little more than the site's own scope. verifySites()
/// first compares a site's statements with the texts of the plain scaffold
/// (hasPlainScaffold()): nvcc's and mmptx's own sites pass on word
/// compares, and only other scaffolds are walked and parsed.
///
/// A stub is checked in four steps:
///  1. every byte is ASCII and not NUL (one pass; nothing else is PTX);
///  2. the structural parser splits it into statements and rejects
///     unbalanced scopes, unterminated comments and strings;
///  3. every statement must be a label, a comment without inject-marker
///     text, a scope, a `.reg`/`.local` declaration or an instruction, and
///     declarations and instructions are parsed in full;
///  4. an instruction whose destination is the stable register of an `in`
///     variable gets a warning: that value never leaves the site.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Inject/InjectChecks.h"
#include "ByteScan.h"
#include "mmptx/IR/Instruction.h"
#include "mmptx/IR/Module.h"
#include "mmptx/Parser/Parser.h"
#include "mmptx/Parser/StatementParser.h"
#include "mmptx/Support/Compiler.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <array>
#include <cstring>
#include <memory>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ptx;

MMPTX_COLD static Error siteError(const Module &M, SMLoc Loc,
                                  const Twine &Msg) {
  return withInjectCode(DiagnosticError::get(M.getSourceMgr(), Loc, Msg),
                        InjectErrc::InvalidSite);
}

/// \returns the index of the statement holding \p Offset's marker.
MMPTX_HOT static uint32_t statementAt(const Module &M, uint32_t Offset) {
  ArrayRef<Statement> Stmts = M.statements();
  auto It =
      llvm::upper_bound(Stmts, Offset, [](uint32_t Off, const Statement &S) {
        return Off < S.Begin;
      });
  return It == Stmts.begin() ? 0 : uint32_t(It - Stmts.begin()) - 1;
}

/// \returns whether register \p Reg, without its '%', is named by
/// declared name \p Name (`r7` by `%r` with \p RangeCount 10, `%r<10>`;
/// \p RangeCount is -1 for a single register).
static bool declares(StringRef Name, int64_t RangeCount, StringRef Reg) {
  if (!Name.consume_front("%"))
    return false;
  if (RangeCount < 0)
    return Name == Reg;
  uint64_t K;
  StringRef Digits = Reg;
  if (!Digits.consume_front(Name) || Digits.empty() ||
      (Digits.size() > 1 && Digits[0] == '0') || Digits.getAsInteger(10, K))
    return false;
  return K < uint64_t(RangeCount);
}

// The two parsers below handle the text that nvcc and mmptx's own writers
// produce for scaffolds with plain loops (StringRef::trim builds a table per
// call) and give up on anything else, which the full statement parser then
// handles. They make the site checks a small part of create.

static inline bool isBlankChar(char C) {
  return C == ' ' || C == '\t' || C == '\n' || C == '\r';
}

/// \returns whether \p Text starts with `.reg`. Byte compares: the calls
/// to memcmp that StringRef::startswith makes cost more than the check.
static inline bool hasRegPrefix(StringRef Text) {
  return Text.size() >= 4 && Text[0] == '.' && Text[1] == 'r' &&
         Text[2] == 'e' && Text[3] == 'g';
}

/// Drops the blanks at both ends of [\p B, \p E).
static StringRef trimmed(const char *B, const char *E) {
  while (B < E && isBlankChar(*B))
    ++B;
  while (E > B && isBlankChar(E[-1]))
    --E;
  return StringRef(B, E - B);
}

/// The common `.reg .f32 %a, %b<4>;`: \returns false for anything else
/// (vectors, alignment, arrays), which parseDeclaration() handles.
static bool
parseSimpleRegDecl(StringRef Text, StringRef &Type,
                   SmallVectorImpl<std::pair<StringRef, int64_t>> &Names) {
  const char *P = Text.begin(), *E = Text.end();
  if (Text.size() < 6 || !hasRegPrefix(Text) || !isBlankChar(P[4]) ||
      E[-1] != ';')
    return false;
  --E;
  P += 4;
  while (P < E && isBlankChar(*P))
    ++P;
  const char *T = P;
  while (P < E && !isBlankChar(*P))
    ++P;
  Type = StringRef(T, P - T);
  if (Type.size() < 2 || Type[0] != '.')
    return false;
  while (P < E) {
    const char *C = P;
    while (C < E && *C != ',')
      ++C;
    StringRef Item = trimmed(P, C);
    P = C < E ? C + 1 : E;
    if (Item.size() < 2 || Item[0] != '%')
      return false;
    int64_t Count = -1;
    if (Item.back() == '>') {
      size_t Lt = Item.find('<');
      if (Lt == StringRef::npos ||
          Item.slice(Lt + 1, Item.size() - 1).getAsInteger(10, Count))
        return false;
      Item = Item.take_front(Lt);
    }
    for (char Ch : Item)
      if (isBlankChar(Ch) || Ch == '[' || Ch == '<' || Ch == '=' || Ch == '.')
        return false;
    Names.push_back({Item, Count});
  }
  return !Names.empty();
}

/// Splits the common unguarded `mov.t a, b;` into its operands; \returns
/// false for anything else, which parseInstruction() handles. \p IsMov says
/// whether the statement is such a mov (false: surely no mov at all).
static bool parseSimpleMov(StringRef Text, StringRef &Dst, StringRef &Src,
                           bool &IsMov) {
  IsMov = false;
  const char *P = Text.begin(), *E = Text.end();
  if (Text.size() < 4 || P[0] != 'm' || P[1] != 'o' || P[2] != 'v')
    return *P != '@'; // a guard needs the full parser
  if (P[3] != '.' && !isBlankChar(P[3]))
    return true; // `movmatrix`
  if (E[-1] != ';')
    return false;
  --E;
  while (P < E && !isBlankChar(*P))
    ++P;
  const char *Comma = nullptr;
  for (const char *Q = P; Q < E; ++Q) {
    char C = *Q;
    if (C == '{' || C == '[' || C == '}' || C == ']')
      return false;
    if (C == ',') {
      if (Comma)
        return false;
      Comma = Q;
    }
  }
  if (!Comma)
    return false;
  Dst = trimmed(P, Comma);
  Src = trimmed(Comma + 1, E);
  IsMov = true;
  return true;
}

namespace {
/// Finds the `.reg` declarations of a set of registers, walking back from a
/// statement through its enclosing scopes.
struct RegisterFinder {
  /// The registers sought, without their '%'.
  SmallVector<StringRef, 8> Regs;
  SmallVector<uint32_t, 8> DeclStmt;
  SmallVector<StringRef, 8> DeclType; ///< with the dot

  void find(const Module &M, uint32_t From) {
    DeclStmt.assign(Regs.size(), Statement::NoIndex);
    DeclType.assign(Regs.size(), StringRef());
    unsigned Missing = Regs.size();
    ArrayRef<Statement> Stmts = M.statements();
    Declaration Decl;
    SmallVector<std::pair<StringRef, int64_t>, 4> Simple;
    auto RecordName = [&](StringRef Name, int64_t Count, StringRef Type,
                          uint32_t J) {
      for (size_t I = 0; I != Regs.size(); ++I)
        if (DeclStmt[I] == Statement::NoIndex &&
            declares(Name, Count, Regs[I])) {
          DeclStmt[I] = J;
          DeclType[I] = Type;
          --Missing;
        }
    };
    auto Record = [&](const Declaration &D, uint32_t J) {
      for (const DeclaredName &N : D.Names)
        RecordName(N.Name, N.RangeCount, D.Type, J);
    };
    for (uint32_t J = From; J-- > 0 && Missing;) {
      const Statement &S = Stmts[J];
      if (S.Kind == StmtKind::ScopeEnd) {
        J = S.Link;
        continue;
      }
      if (S.Kind == StmtKind::FunctionHeader) {
        // `.func (.reg .b32 %r) f(.reg .b32 %x)` declares registers too.
        FunctionSignature Sig;
        if (Error E = parseFunctionSignature(M, S, Sig)) {
          consumeError(std::move(E));
          break;
        }
        for (const Declaration &D : Sig.Returns)
          if (D.StateSpace == ".reg")
            Record(D, J);
        for (const Declaration &D : Sig.Params)
          if (D.StateSpace == ".reg")
            Record(D, J);
        break;
      }
      if (S.Kind != StmtKind::Directive)
        continue;
      StringRef Text = M.getText(S);
      if (!hasRegPrefix(Text))
        continue;
      StringRef Type;
      Simple.clear();
      if (parseSimpleRegDecl(Text, Type, Simple)) {
        for (auto &N : Simple)
          RecordName(N.first, N.second, Type, J);
        continue;
      }
      Decl = Declaration();
      if (Error E = parseDeclaration(M, S, Decl)) {
        consumeError(std::move(E));
        continue;
      }
      Record(Decl, J);
    }
  }
};
} // namespace

/// \returns the register \p Ins moves from (\p OpIndex 1) or into
/// (\p OpIndex 0) if \p Ins is a two-operand `mov`, else "".
static StringRef movOperand(const Instruction &Ins, unsigned OpIndex) {
  if (Ins.Mnemonic != "mov" || Ins.Operands.size() != 2 || Ins.Guard.size())
    return "";
  return Ins.Operands[OpIndex].Text;
}

/// Checks the movs around the site whose START marker is statement
/// \p MarkerStmt: walking its scope backwards for in/mod variables and
/// forwards from the END marker for mod/out variables.
static Error verifyMovs(const Module &M, const InjectModule &Im,
                        const InjectSite &Site, uint32_t MarkerStmt,
                        ArrayRef<StringRef> Regs) {
  const Inject &Inj = Im.getInject(Site.TheInject);
  ArrayRef<InjectVariable> Vars = Im.getVariables(Inj);
  ArrayRef<Statement> Stmts = M.statements();
  SmallVector<bool, 8> Set(Vars.size()), ReadBack(Vars.size());
  // Each walk stops once every variable it looks for is found: a site's
  // movs sit next to its markers, its scope may be a whole function body.
  unsigned Unset = 0, Unread = 0;
  for (const InjectVariable &V : Vars) {
    Unset += V.Kind != InjectArgKind::Out;
    Unread += V.Kind != InjectArgKind::In;
  }
  Instruction Ins;
  auto Visit = [&](uint32_t J, unsigned OpIndex, SmallVectorImpl<bool> &Found,
                   InjectArgKind Unneeded, unsigned &Left) {
    if (Stmts[J].Kind != StmtKind::Instruction)
      return;
    StringRef Dst, Src, R;
    bool IsMov;
    if (parseSimpleMov(M.getText(Stmts[J]), Dst, Src, IsMov)) {
      if (!IsMov)
        return;
      R = OpIndex ? Src : Dst;
    } else {
      Ins.clear();
      if (Error E = parseInstruction(M, Stmts[J], Ins)) {
        consumeError(std::move(E));
        return;
      }
      R = movOperand(Ins, OpIndex);
    }
    if (!R.consume_front("%"))
      return;
    for (size_t I = 0; I != Regs.size(); ++I)
      if (!Found[I] && Regs[I] == R) {
        Found[I] = true;
        Left -= Vars[I].Kind != Unneeded;
      }
  };
  for (uint32_t J = MarkerStmt; Unset && J-- > 0;) {
    if (Stmts[J].Kind == StmtKind::ScopeEnd) {
      J = Stmts[J].Link; // a closed nested scope
      continue;
    }
    if (Stmts[J].Kind == StmtKind::ScopeBegin ||
        Stmts[J].Kind == StmtKind::FunctionHeader)
      break;
    Visit(J, 0, Set, InjectArgKind::Out, Unset);
  }
  // The marker block is a few comments: step over them.
  uint32_t After = MarkerStmt;
  while (After < Stmts.size() && Stmts[After].Begin < Site.RemoveEnd)
    ++After;
  for (uint32_t J = After; Unread && J < Stmts.size(); ++J) {
    if (Stmts[J].Kind == StmtKind::ScopeBegin) {
      J = Stmts[J].Link;
      continue;
    }
    if (Stmts[J].Kind == StmtKind::ScopeEnd ||
        Stmts[J].Kind == StmtKind::FunctionHeader)
      break;
    Visit(J, 1, ReadBack, InjectArgKind::In, Unread);
  }
  // "<kind> variable 'V' of inject site 'S' is never <Why> in its scope".
  auto Unused = [&](const InjectVariable &V, const Twine &Why) {
    return siteError(M, M.getLoc(Site.MarkerOffset),
                     getInjectArgKindName(V.Kind) + " variable '" + V.Name +
                         "' of inject site '" + Inj.Name + "' is never " + Why +
                         " in its scope");
  };
  for (size_t I = 0; I != Vars.size(); ++I) {
    const InjectVariable &V = Vars[I];
    if (V.Kind != InjectArgKind::Out && !Set[I])
      return Unused(V, "set: no 'mov %" + Regs[I] + ", ...' before the site");
    if (V.Kind != InjectArgKind::In && !ReadBack[I])
      return Unused(V,
                    "read back: no 'mov ..., %" + Regs[I] + "' after the site");
  }
  return Error::success();
}

/// \returns an error if the site whose marker is statement \p Idx is not
/// inside a function body.
static Error verifyInFunction(const Module &M, const InjectModule &Im,
                              const InjectSite &Site, uint32_t Idx) {
  if (M.getStatement(Idx).Depth > 0)
    return Error::success();
  return siteError(M, M.getLoc(Site.MarkerOffset),
                   "inject site '" + Im.getInject(Site.TheInject).Name +
                       "' is outside any function: a stub can only go into "
                       "a function body");
}

/// Resolves \p MarkerStmt (Statement::NoIndex: the statement at the site's
/// marker) and checks with verifyInFunction() that it is in a function.
static Error verifySiteStart(const Module &M, const InjectModule &Im,
                             const InjectSite &Site, uint32_t &MarkerStmt) {
  if (MarkerStmt == Statement::NoIndex)
    MarkerStmt = statementAt(M, Site.MarkerOffset);
  return verifyInFunction(M, Im, Site, MarkerStmt);
}

MMPTX_HOT Error mmptx::verifyNormalizedSite(const Module &M,
                                            const InjectModule &Im,
                                            const InjectSite &Site,
                                            uint32_t MarkerStmt) {
  if (Error E = verifySiteStart(M, Im, Site, MarkerStmt))
    return E;
  if (Site.Format == InjectSiteFormat::Legacy)
    return Error::success();
  const Inject &Inj = Im.getInject(Site.TheInject);
  ArrayRef<InjectVariable> Vars = Im.getVariables(Inj);
  if (Vars.empty())
    return Error::success();
  RegisterFinder Finder;
  for (const InjectVariable &V : Vars)
    Finder.Regs.push_back(V.StableRegister);
  Finder.find(M, MarkerStmt);
  for (size_t I = 0; I != Vars.size(); ++I) {
    const InjectVariable &V = Vars[I];
    if (Finder.DeclStmt[I] == Statement::NoIndex)
      return siteError(M, M.getLoc(Site.MarkerOffset),
                       "stable register '%" + V.StableRegister +
                           "' of variable '" + V.Name +
                           "' is not declared in a scope enclosing inject "
                           "site '" +
                           Inj.Name + "'");
    StringRef DeclType = Finder.DeclType[I];
    if (!DeclType.consume_front(".") || DeclType != V.RegType)
      return withInjectCode(
          DiagnosticError::getWithNote(
              M.getSourceMgr(), M.getLoc(M.getStatement(Finder.DeclStmt[I])),
              "stable register '%" + V.StableRegister + "' is declared '" +
                  Finder.DeclType[I] + "' but variable '" + V.Name +
                  "' of inject '" + Inj.Name + "' has register type '." +
                  V.RegType + "'",
              M.getLoc(Site.MarkerOffset),
              "inject site '" + Inj.Name + "' is here"),
          InjectErrc::InvalidSite);
  }
  return verifyMovs(M, Im, Site, MarkerStmt, Finder.Regs);
}

namespace {
/// The first checked site of an inject, when its declaration checks looked
/// only at its own scope: that scope holds no other scope, and all its
/// stable registers are declared in it before the marker.
struct CheckedScaffold {
  uint32_t Begin = Statement::NoIndex; ///< the scope's ScopeBegin
  uint32_t Marker = 0;                 ///< the START marker's statement
  bool Recorded = false;               ///< begin is final (maybe NoIndex)
};
} // namespace

/// \returns the ScopeBegin of the scope holding statement \p Marker if no
/// other scope starts or ends between the two, else NoIndex.
MMPTX_HOT static uint32_t flatScopeBegin(ArrayRef<Statement> Stmts,
                                         uint32_t Marker) {
  for (uint32_t J = Marker; J-- > 0;) {
    StmtKind K = Stmts[J].Kind;
    if (K == StmtKind::ScopeBegin)
      return J;
    if (K == StmtKind::ScopeEnd || K == StmtKind::FunctionHeader)
      break;
  }
  return Statement::NoIndex;
}

/// \returns whether the declaration checks of the site whose marker is
/// statement \p Marker see what they saw for \p First: the statements from
/// the scope's start to the marker have the same kinds and the
/// declarations the same bytes, so the backward search for declarations
/// meets the same text at the same distances.
static bool sameDeclarations(const Module &M, const CheckedScaffold &First,
                             uint32_t Marker) {
  ArrayRef<Statement> Stmts = M.statements();
  uint32_t N = First.Marker - First.Begin;
  if (Marker < N || Stmts[Marker - N].Kind != StmtKind::ScopeBegin)
    return false;
  for (uint32_t K = 1; K != N; ++K) {
    const Statement &S = Stmts[Marker - N + K], &F = Stmts[First.Begin + K];
    if (S.Kind != F.Kind ||
        (S.Kind == StmtKind::Directive && M.getText(S) != M.getText(F)))
      return false;
  }
  return true;
}

/// \returns whether the \p N bytes at \p A and \p B, \p N in
/// [sizeof(Word), 2 * sizeof(Word)], are equal: two overlapping compares of
/// one Word each.
template <typename Word>
static inline bool sameEnds(const char *A, const char *B, size_t N) {
  Word X0, Y0, X1, Y1;
  memcpy(&X0, A, sizeof(Word));
  memcpy(&Y0, B, sizeof(Word));
  memcpy(&X1, A + N - sizeof(Word), sizeof(Word));
  memcpy(&Y1, B + N - sizeof(Word), sizeof(Word));
  return X0 == Y0 && X1 == Y1;
}

/// \returns whether the \p N bytes at \p A and \p B are equal. Scaffold
/// texts are 8 to 24 bytes: two or three overlapping 8-byte compares, no
/// call; the pieces between them (`mov.`, ` %`, `;`) two overlapping
/// compares of 4 or 2 bytes.
static inline bool sameBytes(const char *A, const char *B, size_t N) {
  if (N < 8) {
    if (N >= 4)
      return sameEnds<uint32_t>(A, B, N);
    if (N >= 2)
      return sameEnds<uint16_t>(A, B, N);
    return N == 0 || *A == *B;
  }
  uint64_t X, Y;
  memcpy(&X, A + N - 8, 8);
  memcpy(&Y, B + N - 8, 8);
  if (X != Y)
    return false;
  for (size_t I = 0; I + 8 < N; I += 8) {
    memcpy(&X, A + I, 8);
    memcpy(&Y, B + I, 8);
    if (X != Y)
      return false;
  }
  return true;
}

/// \returns whether [\p B, \p E) is one operand that parseSimpleMov() takes
/// whole (no comma, bracket or brace).
static inline bool isPlainOperand(const char *B, const char *E) {
  if (B == E)
    return false;
  for (; B != E; ++B)
    if (*B == ',' || *B == '{' || *B == '}' || *B == '[' || *B == ']')
      return false;
  return true;
}

namespace {
/// Matches the statements of an inject's plain scaffold (see
/// hasPlainScaffold()) piece by piece against its variables' types and
/// registers: nothing is built.
struct PlainScaffold {
  explicit PlainScaffold(ArrayRef<InjectVariable> Vars) : Vars(Vars) {}

  /// `.reg .T %R;`
  bool isDecl(size_t Var, StringRef S) const {
    const InjectVariable &V = Vars[Var];
    const char *P = S.begin();
    return take(P, S.end(), ".reg .") && take(P, S.end(), V.RegType) &&
           take(P, S.end(), " %") && take(P, S.end(), V.StableRegister) &&
           take(P, S.end(), ";") && P == S.end();
  }
  /// `mov.S %R, X;`
  bool isInMov(size_t Var, StringRef S) const {
    const InjectVariable &V = Vars[Var];
    if (S.empty() || S.back() != ';')
      return false;
    const char *P = S.begin(), *E = S.end() - 1;
    return take(P, E, "mov.") && take(P, E, V.MovSuffix) && take(P, E, " %") &&
           take(P, E, V.StableRegister) && take(P, E, ", ") &&
           isPlainOperand(P, E);
  }
  /// `mov.S X, %R;`
  bool isReadBack(size_t Var, StringRef S) const {
    const InjectVariable &V = Vars[Var];
    const char *P = S.begin(), *E = S.end();
    if (!takeBack(P, E, ";") || !takeBack(P, E, V.StableRegister) ||
        !takeBack(P, E, ", %"))
      return false;
    return take(P, E, "mov.") && take(P, E, V.MovSuffix) && take(P, E, " ") &&
           isPlainOperand(P, E);
  }

private:
  /// Consumes \p Piece at \p P if [P, E) starts with it.
  static bool take(const char *&P, const char *E, StringRef Piece) {
    if (size_t(E - P) < Piece.size() ||
        !sameBytes(P, Piece.data(), Piece.size()))
      return false;
    P += Piece.size();
    return true;
  }
  /// Consumes \p Piece at the end \p E if [B, E) ends with it.
  static bool takeBack(const char *B, const char *&E, StringRef Piece) {
    if (size_t(E - B) < Piece.size() ||
        !sameBytes(E - Piece.size(), Piece.data(), Piece.size()))
      return false;
    E -= Piece.size();
    return true;
  }

  ArrayRef<InjectVariable> Vars;
};
} // namespace
MMPTX_HOT static bool hasPlainScaffold(const Module &M,
                                       const PlainScaffold &Plain,
                                       ArrayRef<InjectVariable> Vars,
                                       const InjectSite &Site,
                                       uint32_t Marker) {
  ArrayRef<Statement> Stmts = M.statements();
  uint32_t J = Marker;
  for (size_t I = Vars.size(); I-- > 0;) {
    if (Vars[I].Kind == InjectArgKind::Out)
      continue;
    if (J == 0 || Stmts[--J].Kind != StmtKind::Instruction ||
        !Plain.isInMov(I, M.getText(Stmts[J])))
      return false;
  }
  for (size_t I = Vars.size(); I-- > 0;)
    if (J == 0 || Stmts[--J].Kind != StmtKind::Directive ||
        !Plain.isDecl(I, M.getText(Stmts[J])))
      return false;
  if (J == 0 || Stmts[J - 1].Kind != StmtKind::ScopeBegin)
    return false;
  uint32_t After = Marker;
  while (After < Stmts.size() && Stmts[After].Begin < Site.RemoveEnd)
    ++After;
  for (size_t I = 0; I != Vars.size(); ++I) {
    if (Vars[I].Kind == InjectArgKind::In)
      continue;
    if (After == Stmts.size() || Stmts[After].Kind != StmtKind::Instruction ||
        !Plain.isReadBack(I, M.getText(Stmts[After])))
      return false;
    ++After;
  }
  return true;
}

MMPTX_HOT Error mmptx::verifySites(const Module &M, const InjectModule &Im,
                                   ArrayRef<uint32_t> MarkerStmts) {
  ArrayRef<Statement> Stmts = M.statements();
  SmallVector<CheckedScaffold, 8> First(Im.injects().size());
  SmallVector<StringRef, 8> Regs;
  // Sites come in file order: one cursor finds every marker's statement.
  uint32_t J = 0;
  ArrayRef<InjectSite> Sites = Im.sites();
  for (size_t K = 0, N = Sites.size(); K != N; ++K) {
    const InjectSite &Site = Sites[K];
    if (MarkerStmts.size() == N)
      J = MarkerStmts[K];
    else
      while (J + 1 < Stmts.size() && Stmts[J + 1].Begin <= Site.MarkerOffset)
        ++J;
    if (Site.Format == InjectSiteFormat::Legacy) {
      if (Error E = verifyLegacySite(M, Im, Site, J))
        return E;
      continue;
    }
    if (Error E = verifyInFunction(M, Im, Site, J))
      return E;
    const Inject &Inj = Im.getInject(Site.TheInject);
    ArrayRef<InjectVariable> Vars = Im.getVariables(Inj);
    if (hasPlainScaffold(M, PlainScaffold(Vars), Vars, Site, J))
      continue;
    CheckedScaffold &F = First[Site.TheInject];
    if (Vars.empty() || F.Begin == Statement::NoIndex ||
        !sameDeclarations(M, F, J)) {
      if (Error E = verifyNormalizedSite(M, Im, Site, J))
        return E;
      if (F.Recorded || Vars.empty())
        continue;
      // Passed: remember the scaffold if its declarations are all local.
      F.Recorded = true;
      uint32_t B = flatScopeBegin(Stmts, J);
      if (B == Statement::NoIndex)
        continue;
      RegisterFinder Finder;
      for (const InjectVariable &V : Vars)
        Finder.Regs.push_back(V.StableRegister);
      Finder.find(M, J);
      if (llvm::all_of(Finder.DeclStmt, [&](uint32_t D) { return D > B; }))
        F.Begin = B, F.Marker = J;
      continue;
    }
    // The declarations check as the first site's did; the movs are this
    // site's own.
    Regs.clear();
    for (const InjectVariable &V : Vars)
      Regs.push_back(V.StableRegister);
    if (Error E = verifyMovs(M, Im, Site, J, Regs))
      return E;
  }
  return Error::success();
}

/// \returns the size in bits of PTX type \p T (no dot), or 0.
static unsigned typeBits(StringRef T) {
  if (T == "pred")
    return 1;
  StringRef Digits = T.drop_while([](char C) { return isAlpha(C); });
  unsigned Bits = 0;
  if (Digits.consume_back("x2"))
    return Digits.getAsInteger(10, Bits) ? 0 : 2 * Bits;
  return Digits.getAsInteger(10, Bits) ? 0 : Bits;
}

bool mmptx::isMovCompatible(StringRef Declared, StringRef MovSuffix) {
  if (Declared == MovSuffix)
    return true;
  unsigned A = typeBits(Declared), B = typeBits(MovSuffix);
  if (!A || A != B)
    return false;
  auto IsBits = [](StringRef T) { return T.startswith("b"); };
  auto IsInt = [](StringRef T) {
    return T.startswith("u") || T.startswith("s");
  };
  return IsBits(Declared) || IsBits(MovSuffix) ||
         (IsInt(Declared) && IsInt(MovSuffix));
}

Error mmptx::verifyLegacySite(const Module &M, const InjectModule &Im,
                              const InjectSite &Site, uint32_t MarkerStmt) {
  if (Error E = verifySiteStart(M, Im, Site, MarkerStmt))
    return E;
  if (Site.Format != InjectSiteFormat::Legacy)
    return Error::success();
  const Inject &Inj = Im.getInject(Site.TheInject);
  ArrayRef<InjectVariable> Vars = Im.getVariables(Inj);
  ArrayRef<StringRef> Regs = Im.getSiteRegisters(Site);
  ArrayRef<uint32_t> RegOffsets = Im.getSiteRegisterOffsets(Site);
  auto RegLoc = [&](size_t I) { return M.getLoc(RegOffsets[I]); };
  for (size_t I = 0; I != Vars.size(); ++I)
    for (size_t K = 0; K != I; ++K)
      if (Regs[I] == Regs[K] && (Vars[I].Kind != InjectArgKind::In ||
                                 Vars[K].Kind != InjectArgKind::In))
        return withInjectCode(
            DiagnosticError::getWithNote(
                M.getSourceMgr(), RegLoc(I),
                "register '" + Regs[I] + "' is given to variables '" +
                    Vars[K].Name + "' (" + getInjectArgKindName(Vars[K].Kind) +
                    ") and '" + Vars[I].Name + "' (" +
                    getInjectArgKindName(Vars[I].Kind) + ") of inject site '" +
                    Inj.Name +
                    "'; a register that the stub writes must belong to one "
                    "variable",
                RegLoc(K), "first given here"),
            InjectErrc::InvalidSite);
  RegisterFinder Finder;
  for (StringRef R : Regs)
    Finder.Regs.push_back(R.drop_front()); // legacy registers start with '%'

  Finder.find(M, MarkerStmt);
  for (size_t I = 0; I != Vars.size(); ++I) {
    const InjectVariable &V = Vars[I];
    if (Finder.DeclStmt[I] == Statement::NoIndex)
      return siteError(M, RegLoc(I),
                       "register '" + Regs[I] + "' of variable '" + V.Name +
                           "' is not declared in a scope enclosing inject "
                           "site '" +
                           Inj.Name + "'");
    StringRef Declared = Finder.DeclType[I].drop_front();
    StringRef Mov = V.MovSuffix;
    if (!isMovCompatible(Declared, Mov))
      return withInjectCode(DiagnosticError::getWithNote(
                                M.getSourceMgr(), RegLoc(I),
                                "register '" + Regs[I] + "' is declared '." +
                                    Declared + "', which 'mov." + Mov +
                                    "' cannot move to or from, but "
                                    "variable '" +
                                    V.Name + "' of inject site '" + Inj.Name +
                                    "' has type '" + V.TypeToken + "'",
                                M.getLoc(M.getStatement(Finder.DeclStmt[I])),
                                "'" + Regs[I] + "' is declared here"),
                            InjectErrc::InvalidSite);
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Stubs
//===----------------------------------------------------------------------===//

/// \returns whether the first operand of \p Mnemonic is not a destination.
static bool hasNoDestination(StringRef Mnemonic) {
  return StringSwitch<bool>(Mnemonic)
      .Cases("st", "red", "bra", "brx", "bar", "barrier", "membar", "fence",
             true)
      .Cases("ret", "exit", "trap", "prefetch", "prefetchu", "stmatrix", "cp",
             "mbarrier", true)
      .Default(false);
}

namespace {
/// Byte classes of the stub scanner, one table lookup per byte.
enum StubClass : uint8_t {
  SB_Blank = 1 << 0,  ///< ' ' '\t' '\r': trimmed around lines and tokens
  SB_Space = 1 << 1,  ///< isSpace() but '\n': ' ' '\t' '\v' '\f' '\r'
  SB_Alpha = 1 << 2,  ///< [A-Za-z]
  SB_Digit = 1 << 3,  ///< [0-9]
  SB_Hex = 1 << 4,    ///< [0-9A-Fa-f]
  SB_Under = 1 << 5,  ///< '_'
  SB_Dollar = 1 << 6, ///< '$'
  /// A register's first byte after '%'.
  SB_IdentStart = SB_Alpha | SB_Under,
  /// An opcode's bytes.
  SB_OpChar = SB_Alpha | SB_Digit | SB_Under,
  /// A register's bytes.
  SB_IdentChar = SB_Alpha | SB_Digit | SB_Under | SB_Dollar,
};
struct StubTable {
  uint8_t Cls[256] = {};
  constexpr StubTable() {
    for (char C : {' ', '\t', '\r'})
      Cls[static_cast<unsigned char>(C)] |= SB_Blank;
    for (char C : {' ', '\t', '\v', '\f', '\r'})
      Cls[static_cast<unsigned char>(C)] |= SB_Space;
    for (unsigned C = 'a'; C <= 'z'; ++C)
      Cls[C] |= SB_Alpha;
    for (unsigned C = 'A'; C <= 'Z'; ++C)
      Cls[C] |= SB_Alpha;
    for (unsigned C = '0'; C <= '9'; ++C)
      Cls[C] |= SB_Digit | SB_Hex;
    for (unsigned C = 'a'; C <= 'f'; ++C)
      Cls[C] |= SB_Hex;
    for (unsigned C = 'A'; C <= 'F'; ++C)
      Cls[C] |= SB_Hex;
    Cls[static_cast<unsigned char>('_')] |= SB_Under;
    Cls[static_cast<unsigned char>('$')] |= SB_Dollar;
  }
};
constexpr StubTable StubChars;

/// A scanner for the stubs that the Stack PTX and AST PTX compilers and most
/// hand-written stubs are made of: one statement a line, each a scope brace,
/// a `.reg` declaration or an instruction whose operands are registers,
/// hex floats or short decimal integers. It accepts a strict subset of what
/// the full check accepts (a unit test checks that on mutated stubs) and
/// says "not sure" for everything else, which the full check then decides.
/// It walks the bytes once, with no copies and no calls but one memchr a
/// line. A declaration or instruction line must end in `;`, which is in no
/// byte class: the loops over a class stop at it with no bounds checks.
class SimpleStubScanner {
public:
  explicit SimpleStubScanner(ArrayRef<StringRef> InRegisters)
      : InRegisters(InRegisters) {}

  /// \returns true if \p Stub is a simple stub that the full check accepts
  /// without an error or warning.
  bool accepts(StringRef Stub) {
    int Depth = 0;
    const char *Q = Stub.begin(), *End = Stub.end();
    while (Q != End) {
      const char *Nl = static_cast<const char *>(std::memchr(Q, '\n', End - Q));
      E = Nl ? Nl : End;
      P = Q;
      Q = Nl ? Nl + 1 : End;
      // The line without the blanks around it: [P, E).
      lineBlanks();
      while (E != P && is(E[-1], SB_Blank))
        --E;
      if (P == E)
        continue;
      if (E - P == 1 && (*P == '{' || *P == '}')) {
        if (*P == '{')
          ++Depth;
        else if (--Depth < 0)
          return false;
        continue;
      }
      if (E[-1] != ';')
        return false;
      if (!(E - P >= 4 && std::memcmp(P, ".reg", 4) == 0 ? declaration()
                                                         : instruction()))
        return false;
    }
    return Depth == 0;
  }

private:
  static bool is(char C, uint8_t Mask) {
    return StubChars.Cls[static_cast<unsigned char>(C)] & Mask;
  }
  /// Whether the byte at the cursor is of \p Mask: the line's `;` is not.
  bool at(uint8_t Mask) const { return is(*P, Mask); }
  void blanks() {
    while (at(SB_Blank))
      ++P;
  }
  /// Steps over the bytes of class \p Mask, four a step: a byte is read
  /// only after one of the class, so never past the `;`.
  void skip(uint8_t Mask) {
    P = inject::skipByteRun(P, [Mask](char C) { return is(C, Mask); });
  }
  /// Trims the line: the blanks after it may go past a last `;`.
  void lineBlanks() {
    while (P != E && is(*P, SB_Blank))
      ++P;
  }
  /// `;` and nothing after it on the line.
  bool ends() const { return *P == ';' && P + 1 == E; }

  /// Consumes `%ident`; \returns it in \p Name.
  bool reg(StringRef &Name) {
    // P[1] is at most the `;`.
    if (P[0] != '%' || !is(P[1], SB_IdentStart))
      return false;
    const char *B = P;
    P += 2;
    skip(SB_IdentChar);
    Name = StringRef(B, P - B);
    return true;
  }

  /// Consumes a register, `0f` + 8 or `0d` + 16 hex digits, or a decimal
  /// integer of at most 18 digits.
  bool operand(StringRef &Reg) {
    Reg = StringRef();
    if (*P == '%')
      return reg(Reg);
    if (P[0] == '0' && (P[1] == 'f' || P[1] == 'd')) {
      // Exactly 8 or 16 hex digits, then no name byte.
      ptrdiff_t Digits = P[1] == 'f' ? 8 : 16;
      P += 2;
      const char *H = P;
      skip(SB_Hex);
      return P - H == Digits && !at(SB_IdentChar);
    }
    if (*P == '-')
      ++P;
    const char *D = P;
    skip(SB_Digit);
    return P != D && P - D <= 18 && !at(SB_IdentChar);
  }

  /// `.reg .TYPE %name;` or `.reg .TYPE %name<N>;`
  bool declaration() {
    P += 4; // .reg
    if (!at(SB_Space))
      return false;
    blanks();
    // The type: up to the next space. (Stopping at the `;` too changes no
    // verdict: a type with a `;` in it is none, and one without a space
    // after it has no register.)
    const char *T = P;
    while (!is(*P, SB_Space) && *P != ';')
      ++P;
    if (!isPTXType(StringRef(T, P - T)))
      return false;
    blanks();
    StringRef Name;
    if (!reg(Name))
      return false;
    if (*P == '<') {
      ++P;
      const char *D = P;
      skip(SB_Digit);
      if (P == D || P - D > 7 || *D == '0' || *P != '>')
        return false;
      ++P;
    }
    return ends();
  }

  /// `[@[!]%p] opcode[.mod...] operand[, operand...];`
  bool instruction() {
    if (*P == '@') {
      ++P;
      if (*P == '!')
        ++P;
      StringRef Guard;
      if (!reg(Guard) || !at(SB_Space))
        return false;
      blanks();
    }
    // The opcode and its modifiers: names that start with a letter,
    // separated by single dots.
    while (true) {
      if (!at(SB_Alpha))
        return false;
      skip(SB_OpChar);
      if (*P == '.') {
        ++P;
        continue;
      }
      break;
    }
    if (!at(SB_Space))
      return false;
    blanks();
    for (unsigned I = 0;; ++I) {
      StringRef Reg;
      if (!operand(Reg))
        return false;
      // A stub that writes an in variable's register gets a warning: the
      // full check gives it.
      if (I == 0 && !Reg.empty() && llvm::is_contained(InRegisters, Reg))
        return false;
      blanks();
      if (ends())
        return true;
      if (*P != ',')
        return false;
      ++P;
      blanks();
    }
  }

  ArrayRef<StringRef> InRegisters;
  /// The cursor and the end of the current line.
  const char *P = nullptr;
  const char *E = nullptr;
};
} // namespace

bool mmptx::isSimpleStub(StringRef Stub, ArrayRef<StringRef> InRegisters) {
  return SimpleStubScanner(InRegisters).accepts(Stub);
}

/// checkStub for a stub spliced at \p Where (`inject 'mma'`): a write to a
/// register of \p WarnRegs (`%_x0`, with the variable it belongs to) is a
/// warning through \p Warn, a write to a register of \p Reserved (that
/// the stub does not declare itself), of \p ReservedOwner, an error.
static Error
checkStubImpl(StringRef Stub, StringRef BufferName, StringRef Where,
              ArrayRef<std::pair<std::string, const InjectVariable *>> WarnRegs,
              StringRef WarnInject, ArrayRef<std::string> Reserved,
              StringRef ReservedOwner, const WarningHandler &Warn) {
  // Most stubs are short and clean: check the bytes before building a
  // SourceMgr, which only an error or a statement parse needs.
  const char *Bad = nullptr;
  for (const char &C : Stub)
    if (C == 0 || static_cast<unsigned char>(C) >= 0x80) {
      Bad = &C;
      break;
    }
  if (!Bad && Stub.find_first_not_of(" \t\r\n") == StringRef::npos)
    return Error::success();
  SourceMgr Sm;
  Sm.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(Stub, BufferName,
                                 /*RequiresNullTerminator=*/false),
      SMLoc());
  auto StubError = [&](const char *Loc, const Twine &Msg) {
    return withInjectCode(
        DiagnosticError::get(Sm, SMLoc::getFromPointer(Loc), Msg),
        InjectErrc::InvalidStub);
  };
  if (Bad) {
    if (*Bad == 0)
      return StubError(Bad, "NUL byte in the stub of " + Where);
    return StubError(Bad,
                     "byte 0x" + utohexstr(static_cast<unsigned char>(*Bad)) +
                         " in the stub of " + Where + ": stubs are ASCII PTX");
  }
  // The parser takes whole modules, which start with `.version`: parse the
  // stub behind one, and move every location back into the stub's own
  // buffer (one line up in notes).
  static constexpr StringRef Prefix = ".version 9.0\n";
  std::string Prefixed = (Prefix + Stub).str();
  SourceMgr Psm;
  unsigned Pid = Psm.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(Prefixed, BufferName,
                                 /*RequiresNullTerminator=*/false),
      SMLoc());
  auto ToStub = [&](const char *P) {
    size_t Off = P - Prefixed.data();
    return Stub.data() + (Off < Prefix.size() ? 0 : Off - Prefix.size());
  };
  auto Relocate = [&](Error E) {
    return handleErrors(std::move(E), [&](const DiagnosticError &D) -> Error {
      const SMDiagnostic &Diag = D.getDiagnostic();
      const char *P = Diag.getLoc().getPointer();
      SMLoc Loc;
      if (P >= Prefixed.data() && P <= Prefixed.data() + Prefixed.size())
        Loc = SMLoc::getFromPointer(ToStub(P));
      SMDiagnostic Moved =
          Sm.GetMessage(Loc, Diag.getKind(), Diag.getMessage());
      std::string Notes;
      StringRef Rest = D.getNoteText();
      std::string Head = (BufferName + ":").str();
      while (!Rest.empty()) {
        StringRef Line;
        std::tie(Line, Rest) = Rest.split('\n');
        unsigned LineNo;
        StringRef Tail = Line;
        if (Tail.consume_front(Head) && !Tail.consumeInteger(10, LineNo) &&
            LineNo > 1)
          Notes += Head + std::to_string(LineNo - 1) + Tail.str();
        else
          Notes += Line.str();
        Notes += '\n';
      }
      return withInjectCode(
          make_error<DiagnosticError>(std::move(Moved), std::move(Notes)),
          InjectErrc::InvalidStub);
    });
  };
  auto Parsed = parseStructure(Psm, Pid);
  if (!Parsed)
    return Relocate(Parsed.takeError());
  const Module &M = **Parsed;

  ArrayRef<std::pair<std::string, const InjectVariable *>> InRegs =
      Warn ? WarnRegs : None;
  SmallVector<bool, 8> Warned(InRegs.size());
  SmallVector<bool, 8> OwnDecl(Reserved.size());

  Instruction Ins;
  Declaration Decl;
  for (const Statement &S : M.statements()) {
    if (S.Begin < Prefix.size())
      continue; // the `.version` in front
    StringRef StmtText = M.getText(S);
    switch (S.Kind) {
    case StmtKind::Comment: {
      size_t K = StmtText.find("PTX_INJECT");
      if (K == StringRef::npos)
        break;
      if (K >= 2 && StmtText.substr(K - 2, 2) == "MM")
        K -= 2;
      return StubError(ToStub(StmtText.data() + K),
                       "inject marker text in the stub of " + Where +
                           ": a stub cannot open or close an inject site");
    }
    case StmtKind::FunctionHeader:
      return StubError(ToStub(StmtText.data()),
                       "the stub of " + Where +
                           " declares a function: a stub goes "
                           "inside a function body");
    case StmtKind::Directive: {
      StringRef Word = StmtText.take_until([](char C) { return isSpace(C); });
      if (Word != ".reg" && Word != ".local")
        return StubError(ToStub(StmtText.data()),
                         "directive '" + Word + "' in the stub of " + Where +
                             ": only '.reg' and '.local' "
                             "declarations may appear in a stub");
      Decl = Declaration();
      if (Error E = parseDeclaration(M, S, Decl))
        return Relocate(std::move(E));
      // A reserved name the stub declares itself is its own register.
      for (const DeclaredName &N : Decl.Names)
        for (size_t R = 0; R != Reserved.size(); ++R)
          if (!OwnDecl[R] && declares(N.Name, N.RangeCount,
                                      StringRef(Reserved[R]).drop_front()))
            OwnDecl[R] = true;
      break;
    }
    case StmtKind::Instruction: {
      Ins.clear();
      if (Error E = parseInstruction(M, S, Ins))
        return Relocate(std::move(E));
      if ((InRegs.empty() && Reserved.empty()) || Ins.Operands.empty() ||
          hasNoDestination(Ins.Mnemonic))
        break;
      // The destination: the first operand, or a vector's elements.
      const Operand &Dst = Ins.Operands[0];
      size_t N = Dst.K == Operand::Kind::Vector ? Dst.NumElements : 0;
      for (size_t O = N ? 1 : 0; O <= N && O < Ins.Operands.size(); ++O) {
        const Operand &Op = Ins.Operands[O];
        if (Op.K != Operand::Kind::Register)
          continue;
        for (size_t R = 0; R != Reserved.size(); ++R)
          if (!OwnDecl[R] && Op.Text == Reserved[R])
            return StubError(ToStub(Op.Text.data()),
                             "the stub of " + Where + " writes '" +
                                 Reserved[R] + "', a register of " +
                                 ReservedOwner + ": a stub may not write it");
        for (size_t R = 0; R != InRegs.size(); ++R) {
          if (Warned[R] || Op.Text != InRegs[R].first)
            continue;
          Warned[R] = true;
          Warn(Sm.GetMessage(SMLoc::getFromPointer(ToStub(Op.Text.data())),
                             SourceMgr::DK_Warning,
                             "the stub writes '" + InRegs[R].first +
                                 "', the register of in variable '" +
                                 InRegs[R].second->Name + "' of " + WarnInject +
                                 "; the value does not leave the site"));
        }
      }
      break;
    }
    case StmtKind::ScopeBegin:
    case StmtKind::ScopeEnd:
    case StmtKind::Label:
    case StmtKind::Empty:
      break;
    }
  }
  return Error::success();
}

Error mmptx::checkStub(StringRef Stub, StringRef BufferName,
                       const InjectModule &Im, const Inject &Inj,
                       const WarningHandler &Warn) {
  // `%_x0` of every in variable, for the warning.
  SmallVector<std::pair<std::string, const InjectVariable *>, 8> InRegs;
  if (Warn)
    for (const InjectVariable &V : Im.getVariables(Inj))
      if (V.Kind == InjectArgKind::In)
        InRegs.push_back({("%" + V.StableRegister).str(), &V});
  std::string Where = ("inject '" + Inj.Name + "'").str();
  return checkStubImpl(Stub, BufferName, Where, InRegs, Where, None, "", Warn);
}

Error mmptx::checkStubAt(StringRef Stub, StringRef BufferName, StringRef Where,
                         ArrayRef<std::string> Reserved,
                         StringRef ReservedOwner) {
  return checkStubImpl(Stub, BufferName, Where, None, "", Reserved,
                       ReservedOwner, nullptr);
}
