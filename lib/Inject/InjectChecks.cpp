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
#include "mmptx/IR/Instruction.h"
#include "mmptx/IR/Module.h"
#include "mmptx/Parser/Parser.h"
#include "mmptx/Parser/StatementParser.h"
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

static Error siteError(const Module &m, SMLoc loc, const Twine &msg) {
  return withInjectCode(DiagnosticError::get(m.getSourceMgr(), loc, msg),
                        InjectErrc::InvalidSite);
}

/// \returns the index of the statement holding \p offset's marker.
static uint32_t statementAt(const Module &m, uint32_t offset) {
  ArrayRef<Statement> stmts = m.statements();
  auto it =
      llvm::upper_bound(stmts, offset, [](uint32_t off, const Statement &s) {
        return off < s.Begin;
      });
  return it == stmts.begin() ? 0 : uint32_t(it - stmts.begin()) - 1;
}

/// \returns whether register \p reg, without its '%', is named by
/// declared name \p name (`r7` by `%r` with \p rangeCount 10, `%r<10>`;
/// \p rangeCount is -1 for a single register).
static bool declares(StringRef name, int64_t rangeCount, StringRef reg) {
  if (!name.consume_front("%"))
    return false;
  if (rangeCount < 0)
    return name == reg;
  uint64_t k;
  StringRef digits = reg;
  if (!digits.consume_front(name) || digits.empty() ||
      (digits.size() > 1 && digits[0] == '0') || digits.getAsInteger(10, k))
    return false;
  return k < uint64_t(rangeCount);
}

// The two parsers below handle the text that nvcc and mmptx's own writers
// produce for scaffolds with plain loops (StringRef::trim builds a table per
// call) and give up on anything else, which the full statement parser then
// handles. They make the site checks a small part of create.

static inline bool isBlankChar(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/// \returns whether \p text starts with `.reg`. Byte compares: the calls
/// to memcmp that StringRef::startswith makes cost more than the check.
static inline bool hasRegPrefix(StringRef text) {
  return text.size() >= 4 && text[0] == '.' && text[1] == 'r' &&
         text[2] == 'e' && text[3] == 'g';
}

/// Drops the blanks at both ends of [\p b, \p e).
static StringRef trimmed(const char *b, const char *e) {
  while (b < e && isBlankChar(*b))
    ++b;
  while (e > b && isBlankChar(e[-1]))
    --e;
  return StringRef(b, e - b);
}

/// The common `.reg .f32 %a, %b<4>;`: \returns false for anything else
/// (vectors, alignment, arrays), which parseDeclaration() handles.
static bool
parseSimpleRegDecl(StringRef text, StringRef &type,
                   SmallVectorImpl<std::pair<StringRef, int64_t>> &names) {
  const char *p = text.begin(), *e = text.end();
  if (text.size() < 6 || !hasRegPrefix(text) || !isBlankChar(p[4]) ||
      e[-1] != ';')
    return false;
  --e;
  p += 4;
  while (p < e && isBlankChar(*p))
    ++p;
  const char *t = p;
  while (p < e && !isBlankChar(*p))
    ++p;
  type = StringRef(t, p - t);
  if (type.size() < 2 || type[0] != '.')
    return false;
  while (p < e) {
    const char *c = p;
    while (c < e && *c != ',')
      ++c;
    StringRef item = trimmed(p, c);
    p = c < e ? c + 1 : e;
    if (item.size() < 2 || item[0] != '%')
      return false;
    int64_t count = -1;
    if (item.back() == '>') {
      size_t lt = item.find('<');
      if (lt == StringRef::npos ||
          item.slice(lt + 1, item.size() - 1).getAsInteger(10, count))
        return false;
      item = item.take_front(lt);
    }
    for (char ch : item)
      if (isBlankChar(ch) || ch == '[' || ch == '<' || ch == '=' || ch == '.')
        return false;
    names.push_back({item, count});
  }
  return !names.empty();
}

/// Splits the common unguarded `mov.t a, b;` into its operands; \returns
/// false for anything else, which parseInstruction() handles. \p isMov says
/// whether the statement is such a mov (false: surely no mov at all).
static bool parseSimpleMov(StringRef text, StringRef &dst, StringRef &src,
                           bool &isMov) {
  isMov = false;
  const char *p = text.begin(), *e = text.end();
  if (text.size() < 4 || p[0] != 'm' || p[1] != 'o' || p[2] != 'v')
    return *p != '@'; // a guard needs the full parser
  if (p[3] != '.' && !isBlankChar(p[3]))
    return true; // `movmatrix`
  if (e[-1] != ';')
    return false;
  --e;
  while (p < e && !isBlankChar(*p))
    ++p;
  const char *comma = nullptr;
  for (const char *q = p; q < e; ++q) {
    char c = *q;
    if (c == '{' || c == '[' || c == '}' || c == ']')
      return false;
    if (c == ',') {
      if (comma)
        return false;
      comma = q;
    }
  }
  if (!comma)
    return false;
  dst = trimmed(p, comma);
  src = trimmed(comma + 1, e);
  isMov = true;
  return true;
}

namespace {
/// Finds the `.reg` declarations of a set of registers, walking back from a
/// statement through its enclosing scopes.
struct RegisterFinder {
  /// The registers sought, without their '%'.
  SmallVector<StringRef, 8> regs;
  SmallVector<uint32_t, 8> declStmt;
  SmallVector<StringRef, 8> declType; ///< with the dot

  void find(const Module &m, uint32_t from) {
    declStmt.assign(regs.size(), Statement::NoIndex);
    declType.assign(regs.size(), StringRef());
    unsigned missing = regs.size();
    ArrayRef<Statement> stmts = m.statements();
    Declaration decl;
    SmallVector<std::pair<StringRef, int64_t>, 4> simple;
    auto recordName = [&](StringRef name, int64_t count, StringRef type,
                          uint32_t j) {
      for (size_t i = 0; i != regs.size(); ++i)
        if (declStmt[i] == Statement::NoIndex &&
            declares(name, count, regs[i])) {
          declStmt[i] = j;
          declType[i] = type;
          --missing;
        }
    };
    auto record = [&](const Declaration &d, uint32_t j) {
      for (const DeclaredName &n : d.Names)
        recordName(n.Name, n.RangeCount, d.Type, j);
    };
    for (uint32_t j = from; j-- > 0 && missing;) {
      const Statement &s = stmts[j];
      if (s.Kind == StmtKind::ScopeEnd) {
        j = s.Link;
        continue;
      }
      if (s.Kind == StmtKind::FunctionHeader) {
        // `.func (.reg .b32 %r) f(.reg .b32 %x)` declares registers too.
        FunctionSignature sig;
        if (Error e = parseFunctionSignature(m, s, sig)) {
          consumeError(std::move(e));
          break;
        }
        for (const Declaration &d : sig.Returns)
          if (d.StateSpace == ".reg")
            record(d, j);
        for (const Declaration &d : sig.Params)
          if (d.StateSpace == ".reg")
            record(d, j);
        break;
      }
      if (s.Kind != StmtKind::Directive)
        continue;
      StringRef text = m.getText(s);
      if (!hasRegPrefix(text))
        continue;
      StringRef type;
      simple.clear();
      if (parseSimpleRegDecl(text, type, simple)) {
        for (auto &n : simple)
          recordName(n.first, n.second, type, j);
        continue;
      }
      decl = Declaration();
      if (Error e = parseDeclaration(m, s, decl)) {
        consumeError(std::move(e));
        continue;
      }
      record(decl, j);
    }
  }
};
} // namespace

/// \returns the register \p ins moves from (\p operand 1) or into
/// (\p operand 0) if \p ins is a two-operand `mov`, else "".
static StringRef movOperand(const Instruction &ins, unsigned operand) {
  if (ins.Mnemonic != "mov" || ins.Operands.size() != 2 || ins.Guard.size())
    return "";
  return ins.Operands[operand].Text;
}

/// Checks the movs around the site whose START marker is statement
/// \p markerStmt: walking its scope backwards for in/mod variables and
/// forwards from the END marker for mod/out variables.
static Error verifyMovs(const Module &m, const InjectModule &im,
                        const InjectSite &site, uint32_t markerStmt,
                        ArrayRef<StringRef> regs) {
  const Inject &inj = im.getInject(site.inject);
  ArrayRef<InjectVariable> vars = im.getVariables(inj);
  ArrayRef<Statement> stmts = m.statements();
  SmallVector<bool, 8> set(vars.size()), readBack(vars.size());
  // Each walk stops once every variable it looks for is found: a site's
  // movs sit next to its markers, its scope may be a whole function body.
  unsigned unset = 0, unread = 0;
  for (const InjectVariable &v : vars) {
    unset += v.kind != InjectArgKind::Out;
    unread += v.kind != InjectArgKind::In;
  }
  Instruction ins;
  auto visit = [&](uint32_t j, unsigned operand, SmallVectorImpl<bool> &found,
                   InjectArgKind unneeded, unsigned &left) {
    if (stmts[j].Kind != StmtKind::Instruction)
      return;
    StringRef dst, src, r;
    bool isMov;
    if (parseSimpleMov(m.getText(stmts[j]), dst, src, isMov)) {
      if (!isMov)
        return;
      r = operand ? src : dst;
    } else {
      ins.clear();
      if (Error e = parseInstruction(m, stmts[j], ins)) {
        consumeError(std::move(e));
        return;
      }
      r = movOperand(ins, operand);
    }
    if (!r.consume_front("%"))
      return;
    for (size_t i = 0; i != regs.size(); ++i)
      if (!found[i] && regs[i] == r) {
        found[i] = true;
        left -= vars[i].kind != unneeded;
      }
  };
  for (uint32_t j = markerStmt; unset && j-- > 0;) {
    if (stmts[j].Kind == StmtKind::ScopeEnd) {
      j = stmts[j].Link; // a closed nested scope
      continue;
    }
    if (stmts[j].Kind == StmtKind::ScopeBegin ||
        stmts[j].Kind == StmtKind::FunctionHeader)
      break;
    visit(j, 0, set, InjectArgKind::Out, unset);
  }
  // The marker block is a few comments: step over them.
  uint32_t after = markerStmt;
  while (after < stmts.size() && stmts[after].Begin < site.removeEnd)
    ++after;
  for (uint32_t j = after; unread && j < stmts.size(); ++j) {
    if (stmts[j].Kind == StmtKind::ScopeBegin) {
      j = stmts[j].Link;
      continue;
    }
    if (stmts[j].Kind == StmtKind::ScopeEnd ||
        stmts[j].Kind == StmtKind::FunctionHeader)
      break;
    visit(j, 1, readBack, InjectArgKind::In, unread);
  }
  for (size_t i = 0; i != vars.size(); ++i) {
    const InjectVariable &v = vars[i];
    if (v.kind != InjectArgKind::Out && !set[i])
      return siteError(m, m.getLoc(site.markerOffset),
                       getInjectArgKindName(v.kind) + " variable '" + v.name +
                           "' of inject site '" + inj.name +
                           "' is never set: no 'mov %" + regs[i] +
                           ", ...' before the site in its scope");
    if (v.kind != InjectArgKind::In && !readBack[i])
      return siteError(m, m.getLoc(site.markerOffset),
                       getInjectArgKindName(v.kind) + " variable '" + v.name +
                           "' of inject site '" + inj.name +
                           "' is never read back: no 'mov ..., %" + regs[i] +
                           "' after the site in its scope");
  }
  return Error::success();
}

/// \returns an error if the site whose marker is statement \p idx is not
/// inside a function body.
static Error verifyInFunction(const Module &m, const InjectModule &im,
                              const InjectSite &site, uint32_t idx) {
  if (m.getStatement(idx).Depth > 0)
    return Error::success();
  return siteError(m, m.getLoc(site.markerOffset),
                   "inject site '" + im.getInject(site.inject).name +
                       "' is outside any function: a stub can only go into "
                       "a function body");
}

Error mmptx::verifyNormalizedSite(const Module &m, const InjectModule &im,
                                  const InjectSite &site, uint32_t idx) {
  if (idx == Statement::NoIndex)
    idx = statementAt(m, site.markerOffset);
  if (Error e = verifyInFunction(m, im, site, idx))
    return e;
  if (site.format == InjectSiteFormat::Legacy)
    return Error::success();
  const Inject &inj = im.getInject(site.inject);
  ArrayRef<InjectVariable> vars = im.getVariables(inj);
  if (vars.empty())
    return Error::success();
  RegisterFinder finder;
  for (const InjectVariable &v : vars)
    finder.regs.push_back(v.stableRegister);
  finder.find(m, idx);
  for (size_t i = 0; i != vars.size(); ++i) {
    const InjectVariable &v = vars[i];
    if (finder.declStmt[i] == Statement::NoIndex)
      return siteError(m, m.getLoc(site.markerOffset),
                       "stable register '%" + v.stableRegister +
                           "' of variable '" + v.name +
                           "' is not declared in a scope enclosing inject "
                           "site '" +
                           inj.name + "'");
    StringRef declType = finder.declType[i];
    if (!declType.consume_front(".") || declType != v.regType)
      return withInjectCode(
          DiagnosticError::getWithNote(
              m.getSourceMgr(), m.getLoc(m.getStatement(finder.declStmt[i])),
              "stable register '%" + v.stableRegister + "' is declared '" +
                  finder.declType[i] + "' but variable '" + v.name +
                  "' of inject '" + inj.name + "' has register type '." +
                  v.regType + "'",
              m.getLoc(site.markerOffset),
              "inject site '" + inj.name + "' is here"),
          InjectErrc::InvalidSite);
  }
  return verifyMovs(m, im, site, idx, finder.regs);
}

namespace {
/// The first checked site of an inject, when its declaration checks looked
/// only at its own scope: that scope holds no other scope, and all its
/// stable registers are declared in it before the marker.
struct CheckedScaffold {
  uint32_t begin = Statement::NoIndex; ///< the scope's ScopeBegin
  uint32_t marker = 0;                 ///< the START marker's statement
  bool recorded = false;               ///< begin is final (maybe NoIndex)
};
} // namespace

/// \returns the ScopeBegin of the scope holding statement \p marker if no
/// other scope starts or ends between the two, else NoIndex.
static uint32_t flatScopeBegin(ArrayRef<Statement> stmts, uint32_t marker) {
  for (uint32_t j = marker; j-- > 0;) {
    StmtKind k = stmts[j].Kind;
    if (k == StmtKind::ScopeBegin)
      return j;
    if (k == StmtKind::ScopeEnd || k == StmtKind::FunctionHeader)
      break;
  }
  return Statement::NoIndex;
}

/// \returns whether the declaration checks of the site whose marker is
/// statement \p marker see what they saw for \p first: the statements from
/// the scope's start to the marker have the same kinds and the
/// declarations the same bytes, so the backward search for declarations
/// meets the same text at the same distances.
static bool sameDeclarations(const Module &m, const CheckedScaffold &first,
                             uint32_t marker) {
  ArrayRef<Statement> stmts = m.statements();
  uint32_t n = first.marker - first.begin;
  if (marker < n || stmts[marker - n].Kind != StmtKind::ScopeBegin)
    return false;
  for (uint32_t k = 1; k != n; ++k) {
    const Statement &s = stmts[marker - n + k], &f = stmts[first.begin + k];
    if (s.Kind != f.Kind ||
        (s.Kind == StmtKind::Directive && m.getText(s) != m.getText(f)))
      return false;
  }
  return true;
}

/// \returns whether the \p n bytes at \p a and \p b are equal. Scaffold
/// texts are 8 to 24 bytes: two or three overlapping 8-byte compares, no
/// call.
static inline bool sameBytes(const char *a, const char *b, size_t n) {
  if (n < 8) {
    for (size_t i = 0; i != n; ++i)
      if (a[i] != b[i])
        return false;
    return true;
  }
  uint64_t x, y;
  memcpy(&x, a + n - 8, 8);
  memcpy(&y, b + n - 8, 8);
  if (x != y)
    return false;
  for (size_t i = 0; i + 8 < n; i += 8) {
    memcpy(&x, a + i, 8);
    memcpy(&y, b + i, 8);
    if (x != y)
      return false;
  }
  return true;
}

/// \returns whether \p s is one operand that parseSimpleMov() takes whole
/// (no comma, bracket or brace).
static inline bool isPlainOperand(const char *b, const char *e) {
  if (b == e)
    return false;
  for (; b != e; ++b)
    if (*b == ',' || *b == '{' || *b == '}' || *b == '[' || *b == ']')
      return false;
  return true;
}

namespace {
/// The texts of an inject's plain scaffold (see hasPlainScaffold()), per
/// variable, built once per inject.
struct PlainScaffold {
  struct Var {
    StringRef decl;     ///< `.reg .T %R;`
    StringRef inMov;    ///< `mov.S %R, `
    StringRef movStart; ///< `mov.S `
    StringRef readBack; ///< `, %R;`
  };
  std::string text;
  SmallVector<Var, 4> vars;

  explicit PlainScaffold(ArrayRef<InjectVariable> injectVars) {
    SmallVector<uint32_t, 16> ends;
    for (const InjectVariable &v : injectVars) {
      text += (".reg ." + v.regType + " %" + v.stableRegister + ";").str();
      ends.push_back(text.size());
      text += ("mov." + v.movSuffix + " %" + v.stableRegister + ", ").str();
      ends.push_back(text.size());
      text += ("mov." + v.movSuffix + " ").str();
      ends.push_back(text.size());
      text += (", %" + v.stableRegister + ";").str();
      ends.push_back(text.size());
    }
    uint32_t b = 0;
    auto next = [&](size_t k) {
      StringRef part(text.data() + b, ends[k] - b);
      b = ends[k];
      return part;
    };
    for (size_t i = 0; i != injectVars.size(); ++i) {
      Var v;
      v.decl = next(4 * i);
      v.inMov = next(4 * i + 1);
      v.movStart = next(4 * i + 2);
      v.readBack = next(4 * i + 3);
      vars.push_back(v);
    }
  }
  bool isDecl(size_t var, StringRef s) const {
    StringRef d = vars[var].decl;
    return s.size() == d.size() && sameBytes(s.data(), d.data(), d.size());
  }
  /// `mov.S %R, X;`
  bool isInMov(size_t var, StringRef s) const {
    StringRef p = vars[var].inMov;
    return s.size() > p.size() + 1 && s.back() == ';' &&
           sameBytes(s.data(), p.data(), p.size()) &&
           isPlainOperand(s.data() + p.size(), s.end() - 1);
  }
  /// `mov.S X, %R;`
  bool isReadBack(size_t var, StringRef s) const {
    StringRef p = vars[var].movStart, t = vars[var].readBack;
    return s.size() > p.size() + t.size() &&
           sameBytes(s.data(), p.data(), p.size()) &&
           sameBytes(s.end() - t.size(), t.data(), t.size()) &&
           isPlainOperand(s.data() + p.size(), s.end() - t.size());
  }
};
} // namespace

/// \returns true if the normalised site whose START marker is statement
/// \p marker has exactly the scaffold that nvcc's inline asm and
/// writeSiteScaffold() give it: `{`, `.reg .<type> %<stable>;` per variable,
/// `mov.<suffix> %<stable>, X;` per in/mod variable, the markers, then
/// `mov.<suffix> X, %<stable>;` per mod/out variable, all in variable order.
/// Such a site passes verifyNormalizedSite() (each declaration is the
/// nearest, of the right type, each mov where its walks look first), so
/// the statement and operand parses need not run; any other site returns
/// false and gets them. A few word compares per statement.
static bool hasPlainScaffold(const Module &m, const PlainScaffold &plain,
                             ArrayRef<InjectVariable> vars,
                             const InjectSite &site, uint32_t marker) {
  ArrayRef<Statement> stmts = m.statements();
  uint32_t j = marker;
  for (size_t i = vars.size(); i-- > 0;) {
    if (vars[i].kind == InjectArgKind::Out)
      continue;
    if (j == 0 || stmts[--j].Kind != StmtKind::Instruction ||
        !plain.isInMov(i, m.getText(stmts[j])))
      return false;
  }
  for (size_t i = vars.size(); i-- > 0;)
    if (j == 0 || stmts[--j].Kind != StmtKind::Directive ||
        !plain.isDecl(i, m.getText(stmts[j])))
      return false;
  if (j == 0 || stmts[j - 1].Kind != StmtKind::ScopeBegin)
    return false;
  uint32_t after = marker;
  while (after < stmts.size() && stmts[after].Begin < site.removeEnd)
    ++after;
  for (size_t i = 0; i != vars.size(); ++i) {
    if (vars[i].kind == InjectArgKind::In)
      continue;
    if (after == stmts.size() || stmts[after].Kind != StmtKind::Instruction ||
        !plain.isReadBack(i, m.getText(stmts[after])))
      return false;
    ++after;
  }
  return true;
}

Error mmptx::verifySites(const Module &m, const InjectModule &im,
                         ArrayRef<uint32_t> markerStmts) {
  ArrayRef<Statement> stmts = m.statements();
  std::vector<CheckedScaffold> first(im.injects().size());
  std::vector<std::unique_ptr<PlainScaffold>> plain(im.injects().size());
  SmallVector<StringRef, 8> regs;
  // Sites come in file order: one cursor finds every marker's statement.
  uint32_t j = 0;
  ArrayRef<InjectSite> sites = im.sites();
  for (size_t k = 0, n = sites.size(); k != n; ++k) {
    const InjectSite &site = sites[k];
    if (markerStmts.size() == n)
      j = markerStmts[k];
    else
      while (j + 1 < stmts.size() && stmts[j + 1].Begin <= site.markerOffset)
        ++j;
    if (site.format == InjectSiteFormat::Legacy) {
      if (Error e = verifyLegacySite(m, im, site, j))
        return e;
      continue;
    }
    if (Error e = verifyInFunction(m, im, site, j))
      return e;
    const Inject &inj = im.getInject(site.inject);
    ArrayRef<InjectVariable> vars = im.getVariables(inj);
    std::unique_ptr<PlainScaffold> &p = plain[site.inject];
    if (!p)
      p = std::make_unique<PlainScaffold>(vars);
    if (hasPlainScaffold(m, *p, vars, site, j))
      continue;
    CheckedScaffold &f = first[site.inject];
    if (vars.empty() || f.begin == Statement::NoIndex ||
        !sameDeclarations(m, f, j)) {
      if (Error e = verifyNormalizedSite(m, im, site, j))
        return e;
      if (f.recorded || vars.empty())
        continue;
      // Passed: remember the scaffold if its declarations are all local.
      f.recorded = true;
      uint32_t b = flatScopeBegin(stmts, j);
      if (b == Statement::NoIndex)
        continue;
      RegisterFinder finder;
      for (const InjectVariable &v : vars)
        finder.regs.push_back(v.stableRegister);
      finder.find(m, j);
      if (llvm::all_of(finder.declStmt, [&](uint32_t d) { return d > b; }))
        f.begin = b, f.marker = j;
      continue;
    }
    // The declarations check as the first site's did; the movs are this
    // site's own.
    regs.clear();
    for (const InjectVariable &v : vars)
      regs.push_back(v.stableRegister);
    if (Error e = verifyMovs(m, im, site, j, regs))
      return e;
  }
  return Error::success();
}

/// \returns the size in bits of PTX type \p t (no dot), or 0.
static unsigned typeBits(StringRef t) {
  if (t == "pred")
    return 1;
  StringRef digits = t.drop_while([](char c) { return isAlpha(c); });
  unsigned bits = 0;
  if (digits.consume_back("x2"))
    return digits.getAsInteger(10, bits) ? 0 : 2 * bits;
  return digits.getAsInteger(10, bits) ? 0 : bits;
}

bool mmptx::isMovCompatible(StringRef declared, StringRef movSuffix) {
  if (declared == movSuffix)
    return true;
  unsigned a = typeBits(declared), b = typeBits(movSuffix);
  if (!a || a != b)
    return false;
  auto isBits = [](StringRef t) { return t.startswith("b"); };
  auto isInt = [](StringRef t) {
    return t.startswith("u") || t.startswith("s");
  };
  return isBits(declared) || isBits(movSuffix) ||
         (isInt(declared) && isInt(movSuffix));
}

Error mmptx::verifyLegacySite(const Module &m, const InjectModule &im,
                              const InjectSite &site, uint32_t idx) {
  if (idx == Statement::NoIndex)
    idx = statementAt(m, site.markerOffset);
  if (Error e = verifyInFunction(m, im, site, idx))
    return e;
  if (site.format != InjectSiteFormat::Legacy)
    return Error::success();
  const Inject &inj = im.getInject(site.inject);
  ArrayRef<InjectVariable> vars = im.getVariables(inj);
  ArrayRef<StringRef> regs = im.getSiteRegisters(site);
  ArrayRef<uint32_t> regOffsets = im.getSiteRegisterOffsets(site);
  auto regLoc = [&](size_t i) { return m.getLoc(regOffsets[i]); };
  for (size_t i = 0; i != vars.size(); ++i)
    for (size_t k = 0; k != i; ++k)
      if (regs[i] == regs[k] && (vars[i].kind != InjectArgKind::In ||
                                 vars[k].kind != InjectArgKind::In))
        return withInjectCode(
            DiagnosticError::getWithNote(
                m.getSourceMgr(), regLoc(i),
                "register '" + regs[i] + "' is given to variables '" +
                    vars[k].name + "' (" + getInjectArgKindName(vars[k].kind) +
                    ") and '" + vars[i].name + "' (" +
                    getInjectArgKindName(vars[i].kind) + ") of inject site '" +
                    inj.name +
                    "'; a register that the stub writes must belong to one "
                    "variable",
                regLoc(k), "first given here"),
            InjectErrc::InvalidSite);
  RegisterFinder finder;
  for (StringRef r : regs)
    finder.regs.push_back(r.drop_front()); // legacy registers start with '%'

  finder.find(m, idx);
  for (size_t i = 0; i != vars.size(); ++i) {
    const InjectVariable &v = vars[i];
    if (finder.declStmt[i] == Statement::NoIndex)
      return siteError(m, regLoc(i),
                       "register '" + regs[i] + "' of variable '" + v.name +
                           "' is not declared in a scope enclosing inject "
                           "site '" +
                           inj.name + "'");
    StringRef declared = finder.declType[i].drop_front();
    StringRef mov = v.movSuffix;
    if (!isMovCompatible(declared, mov))
      return withInjectCode(DiagnosticError::getWithNote(
                                m.getSourceMgr(), regLoc(i),
                                "register '" + regs[i] + "' is declared '." +
                                    declared + "', which 'mov." + mov +
                                    "' cannot move to or from, but "
                                    "variable '" +
                                    v.name + "' of inject site '" + inj.name +
                                    "' has type '" + v.typeToken + "'",
                                m.getLoc(m.getStatement(finder.declStmt[i])),
                                "'" + regs[i] + "' is declared here"),
                            InjectErrc::InvalidSite);
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Stubs
//===----------------------------------------------------------------------===//

/// \returns whether the first operand of \p mnemonic is not a destination.
static bool hasNoDestination(StringRef mnemonic) {
  return StringSwitch<bool>(mnemonic)
      .Cases("st", "red", "bra", "brx", "bar", "barrier", "membar", "fence",
             true)
      .Cases("ret", "exit", "trap", "prefetch", "prefetchu", "stmatrix", "cp",
             "mbarrier", true)
      .Default(false);
}

Error mmptx::checkStub(StringRef stub, StringRef bufferName,
                       const InjectModule &im, const Inject &inj,
                       const WarningHandler &warn) {
  // Most stubs are short and clean: check the bytes before building a
  // SourceMgr, which only an error or a statement parse needs.
  const char *bad = nullptr;
  for (const char &c : stub)
    if (c == 0 || static_cast<unsigned char>(c) >= 0x80) {
      bad = &c;
      break;
    }
  if (!bad && stub.find_first_not_of(" \t\r\n") == StringRef::npos)
    return Error::success();
  SourceMgr sm;
  sm.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(stub, bufferName,
                                 /*RequiresNullTerminator=*/false),
      SMLoc());
  auto error = [&](const char *loc, const Twine &msg) {
    return withInjectCode(
        DiagnosticError::get(sm, SMLoc::getFromPointer(loc), msg),
        InjectErrc::InvalidStub);
  };
  if (bad) {
    if (*bad == 0)
      return error(bad, "NUL byte in the stub of inject '" + inj.name + "'");
    return error(bad, "byte 0x" + utohexstr(static_cast<unsigned char>(*bad)) +
                          " in the stub of inject '" + inj.name +
                          "': stubs are ASCII PTX");
  }
  // The parser takes whole modules, which start with `.version`: parse the
  // stub behind one, and move every location back into the stub's own
  // buffer (one line up in notes).
  static constexpr StringRef Prefix = ".version 9.0\n";
  std::string text = (Prefix + stub).str();
  SourceMgr psm;
  unsigned pid = psm.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(text, bufferName,
                                 /*RequiresNullTerminator=*/false),
      SMLoc());
  auto toStub = [&](const char *p) {
    size_t off = p - text.data();
    return stub.data() + (off < Prefix.size() ? 0 : off - Prefix.size());
  };
  auto relocate = [&](Error e) {
    return handleErrors(std::move(e), [&](const DiagnosticError &d) -> Error {
      const SMDiagnostic &diag = d.getDiagnostic();
      const char *p = diag.getLoc().getPointer();
      SMLoc loc;
      if (p >= text.data() && p <= text.data() + text.size())
        loc = SMLoc::getFromPointer(toStub(p));
      SMDiagnostic moved =
          sm.GetMessage(loc, diag.getKind(), diag.getMessage());
      std::string notes;
      StringRef rest = d.getNoteText();
      std::string head = (bufferName + ":").str();
      while (!rest.empty()) {
        StringRef line;
        std::tie(line, rest) = rest.split('\n');
        unsigned lineNo;
        StringRef tail = line;
        if (tail.consume_front(head) && !tail.consumeInteger(10, lineNo) &&
            lineNo > 1)
          notes += head + std::to_string(lineNo - 1) + tail.str();
        else
          notes += line.str();
        notes += '\n';
      }
      return withInjectCode(
          make_error<DiagnosticError>(std::move(moved), std::move(notes)),
          InjectErrc::InvalidStub);
    });
  };
  auto parsed = parseStructure(psm, pid);
  if (!parsed)
    return relocate(parsed.takeError());
  const Module &m = **parsed;

  // `%_x0` of every in variable, for the warning.
  SmallVector<std::pair<std::string, const InjectVariable *>, 8> inRegs;
  if (warn)
    for (const InjectVariable &v : im.getVariables(inj))
      if (v.kind == InjectArgKind::In)
        inRegs.push_back({("%" + v.stableRegister).str(), &v});
  SmallVector<bool, 8> warned(inRegs.size());

  Instruction ins;
  Declaration decl;
  for (const Statement &s : m.statements()) {
    if (s.Begin < Prefix.size())
      continue; // the `.version` in front
    StringRef stmtText = m.getText(s);
    switch (s.Kind) {
    case StmtKind::Comment: {
      size_t k = stmtText.find("PTX_INJECT");
      if (k == StringRef::npos)
        break;
      if (k >= 2 && stmtText.substr(k - 2, 2) == "MM")
        k -= 2;
      return error(toStub(stmtText.data() + k),
                   "inject marker text in the stub of inject '" + inj.name +
                       "': a stub cannot open or close an inject site");
    }
    case StmtKind::FunctionHeader:
      return error(toStub(stmtText.data()),
                   "the stub of inject '" + inj.name +
                       "' declares a function: a stub goes "
                       "inside a function body");
    case StmtKind::Directive: {
      StringRef word = stmtText.take_until([](char c) { return isSpace(c); });
      if (word != ".reg" && word != ".local")
        return error(toStub(stmtText.data()),
                     "directive '" + word + "' in the stub of inject '" +
                         inj.name +
                         "': only '.reg' and '.local' "
                         "declarations may appear in a stub");
      decl = Declaration();
      if (Error e = parseDeclaration(m, s, decl))
        return relocate(std::move(e));
      break;
    }
    case StmtKind::Instruction: {
      ins.clear();
      if (Error e = parseInstruction(m, s, ins))
        return relocate(std::move(e));
      if (inRegs.empty() || ins.Operands.empty() ||
          hasNoDestination(ins.Mnemonic))
        break;
      // The destination: the first operand, or a vector's elements.
      const Operand &dst = ins.Operands[0];
      size_t n = dst.K == Operand::Kind::Vector ? dst.NumElements : 0;
      for (size_t o = n ? 1 : 0; o <= n && o < ins.Operands.size(); ++o) {
        const Operand &op = ins.Operands[o];
        if (op.K != Operand::Kind::Register)
          continue;
        for (size_t r = 0; r != inRegs.size(); ++r) {
          if (warned[r] || op.Text != inRegs[r].first)
            continue;
          warned[r] = true;
          warn(sm.GetMessage(SMLoc::getFromPointer(toStub(op.Text.data())),
                             SourceMgr::DK_Warning,
                             "the stub writes '" + inRegs[r].first +
                                 "', the register of in variable '" +
                                 inRegs[r].second->name + "' of inject '" +
                                 inj.name +
                                 "'; the value does not leave the site"));
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
