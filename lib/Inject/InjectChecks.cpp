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
/// meet, so they cost little more than the site's own scope.
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
  auto it = llvm::upper_bound(
      stmts, offset, [](uint32_t off, const Statement &s) { return off < s.Begin; });
  return it == stmts.begin() ? 0 : uint32_t(it - stmts.begin()) - 1;
}

/// \returns whether register \p reg is named by \p n (`%r7` by `%r<10>`).
static bool declares(const DeclaredName &n, StringRef reg) {
  if (n.RangeCount < 0)
    return n.Name == reg;
  uint64_t k;
  StringRef digits = reg;
  if (!digits.consume_front(n.Name) || digits.empty() ||
      (digits.size() > 1 && digits[0] == '0') || digits.getAsInteger(10, k))
    return false;
  return k < uint64_t(n.RangeCount);
}

namespace {
/// Finds the `.reg` declarations of a set of registers, walking back from a
/// statement through its enclosing scopes.
struct RegisterFinder {
  /// The registers sought, with '%'.
  SmallVector<StringRef, 8> regs;
  SmallVector<uint32_t, 8> declStmt;
  SmallVector<StringRef, 8> declType; ///< with the dot
  /// Only `.reg` statements whose text contains this are parsed.
  StringRef filter;

  void find(const Module &m, uint32_t from) {
    declStmt.assign(regs.size(), Statement::NoIndex);
    declType.assign(regs.size(), StringRef());
    unsigned missing = regs.size();
    ArrayRef<Statement> stmts = m.statements();
    Declaration decl;
    auto record = [&](const Declaration &d, uint32_t j) {
      for (const DeclaredName &n : d.Names)
        for (size_t i = 0; i != regs.size(); ++i)
          if (declStmt[i] == Statement::NoIndex && declares(n, regs[i])) {
            declStmt[i] = j;
            declType[i] = d.Type;
            --missing;
          }
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
      if (!text.startswith(".reg") || !text.contains(filter))
        continue;
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
  Instruction ins;
  auto visit = [&](uint32_t j, unsigned operand,
                   SmallVectorImpl<bool> &found) {
    if (stmts[j].Kind != StmtKind::Instruction)
      return;
    ins.clear();
    if (Error e = parseInstruction(m, stmts[j], ins)) {
      consumeError(std::move(e));
      return;
    }
    StringRef r = movOperand(ins, operand);
    for (size_t i = 0; i != regs.size(); ++i)
      if (regs[i] == r)
        found[i] = true;
  };
  for (uint32_t j = markerStmt; j-- > 0;) {
    if (stmts[j].Kind == StmtKind::ScopeEnd) {
      j = stmts[j].Link; // a closed nested scope
      continue;
    }
    if (stmts[j].Kind == StmtKind::ScopeBegin ||
        stmts[j].Kind == StmtKind::FunctionHeader)
      break;
    visit(j, 0, set);
  }
  auto after = llvm::lower_bound(stmts, site.removeEnd,
                                 [](const Statement &s, uint32_t off) {
                                   return s.Begin < off;
                                 });
  for (uint32_t j = after - stmts.begin(); j < stmts.size(); ++j) {
    if (stmts[j].Kind == StmtKind::ScopeBegin) {
      j = stmts[j].Link;
      continue;
    }
    if (stmts[j].Kind == StmtKind::ScopeEnd ||
        stmts[j].Kind == StmtKind::FunctionHeader)
      break;
    visit(j, 1, readBack);
  }
  for (size_t i = 0; i != vars.size(); ++i) {
    const InjectVariable &v = vars[i];
    if (v.kind != InjectArgKind::Out && !set[i])
      return siteError(m, m.getLoc(site.markerOffset),
                       getInjectArgKindName(v.kind) + " variable '" + v.name +
                           "' of inject site '" + inj.name +
                           "' is never set: no 'mov " + regs[i] +
                           ", ...' before the site in its scope");
    if (v.kind != InjectArgKind::In && !readBack[i])
      return siteError(m, m.getLoc(site.markerOffset),
                       getInjectArgKindName(v.kind) + " variable '" + v.name +
                           "' of inject site '" + inj.name +
                           "' is never read back: no 'mov ..., " + regs[i] +
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
                                  const InjectSite &site) {
  uint32_t idx = statementAt(m, site.markerOffset);
  if (Error e = verifyInFunction(m, im, site, idx))
    return e;
  if (site.format == InjectSiteFormat::Legacy)
    return Error::success();
  const Inject &inj = im.getInject(site.inject);
  ArrayRef<InjectVariable> vars = im.getVariables(inj);
  if (vars.empty())
    return Error::success();
  SmallVector<std::string, 8> names;
  RegisterFinder finder;
  finder.filter = "%_x";
  for (const InjectVariable &v : vars)
    names.push_back(("%" + v.stableRegister).str());
  for (const std::string &n : names)
    finder.regs.push_back(n);
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
    if (finder.declType[i] != ("." + v.regType).str())
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
                              const InjectSite &site) {
  uint32_t idx = statementAt(m, site.markerOffset);
  if (Error e = verifyInFunction(m, im, site, idx))
    return e;
  if (site.format != InjectSiteFormat::Legacy)
    return Error::success();
  const Inject &inj = im.getInject(site.inject);
  ArrayRef<InjectVariable> vars = im.getVariables(inj);
  ArrayRef<StringRef> regs = im.getSiteRegisters(site);
  auto regLoc = [&](size_t i) {
    // The handle's registers point into its own copy of the text, at the
    // same offsets as in the module.
    return m.getLoc(uint32_t(regs[i].data() - im.getPTX().data()));
  };
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
                    getInjectArgKindName(vars[i].kind) +
                    ") of inject site '" + inj.name +
                    "'; a register that the stub writes must belong to one "
                    "variable",
                regLoc(k), "first given here"),
            InjectErrc::InvalidSite);
  RegisterFinder finder;
  finder.filter = "%";
  finder.regs.assign(regs.begin(), regs.end());
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
      return withInjectCode(
          DiagnosticError::getWithNote(
              m.getSourceMgr(), regLoc(i),
              "register '" + regs[i] + "' is declared '." + declared +
                  "', which 'mov." + mov + "' cannot move to or from, but "
                  "variable '" + v.name + "' of inject site '" + inj.name +
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
      .Cases("ret", "exit", "trap", "prefetch", "prefetchu", "stmatrix",
             "cp", "mbarrier", true)
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
  unsigned id = sm.AddNewSourceBuffer(
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
  auto parsed = parseStructure(sm, id);
  if (!parsed)
    return withInjectCode(parsed.takeError(), InjectErrc::InvalidStub);
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
    StringRef text = m.getText(s);
    switch (s.Kind) {
    case StmtKind::Comment: {
      size_t k = text.find("PTX_INJECT");
      if (k == StringRef::npos)
        break;
      if (k >= 2 && text.substr(k - 2, 2) == "MM")
        k -= 2;
      return error(text.data() + k,
                   "inject marker text in the stub of inject '" + inj.name +
                       "': a stub cannot open or close an inject site");
    }
    case StmtKind::FunctionHeader:
      return error(text.data(), "the stub of inject '" + inj.name +
                                    "' declares a function: a stub goes "
                                    "inside a function body");
    case StmtKind::Directive: {
      StringRef word = text.take_until([](char c) { return isSpace(c); });
      if (word != ".reg" && word != ".local")
        return error(text.data(),
                     "directive '" + word + "' in the stub of inject '" +
                         inj.name + "': only '.reg' and '.local' "
                         "declarations may appear in a stub");
      decl = Declaration();
      if (Error e = parseDeclaration(m, s, decl))
        return withInjectCode(std::move(e), InjectErrc::InvalidStub);
      break;
    }
    case StmtKind::Instruction: {
      ins.clear();
      if (Error e = parseInstruction(m, s, ins))
        return withInjectCode(std::move(e), InjectErrc::InvalidStub);
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
          warn(sm.GetMessage(op.getLoc(), SourceMgr::DK_Warning,
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
