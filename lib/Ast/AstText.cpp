//===- AstText.cpp - S-expression text form of AST PTX --------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The text is read in two steps: a reader turns it into located
/// S-expressions, then forms are turned into declarations and postorder
/// words. Routine headers are collected first, so that calls may precede
/// definitions. The printer rebuilds trees from the words.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Ast/AstText.h"

#include "mmptx/Expr/Literal.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::ast;
using stack::RegKind;
using stack::StackInfo;

std::vector<AstVar> AstModule::getInputs() const {
  std::vector<AstVar> in;
  in.reserve(vars.size());
  for (const AstVarDecl &v : vars)
    in.push_back({v.name, v.stackIdx});
  return in;
}

AstProgram AstModule::getProgram() const {
  outputRefs.clear();
  for (const AstOutputDecl &o : outputs)
    outputRefs.push_back(
        {{vars[o.var].name, vars[o.var].stackIdx}, o.expr.words});
  routineRefs.clear();
  for (const AstRoutineDecl &r : routines)
    routineRefs.push_back(r.body.words);
  return AstProgram{outputRefs, routineRefs};
}

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

namespace {

struct SExpr {
  bool isList = false;
  StringRef atom; ///< the atom, or the '(' of a list
  std::vector<SExpr> items;
  SMLoc loc() const { return SMLoc::getFromPointer(atom.data()); }
};

class Reader {
public:
  Reader(const SourceMgr &sm, StringRef buf)
      : sm(sm), cur(buf.begin()), end(buf.end()) {}

  /// Reads every top-level form.
  Error readAll(std::vector<SExpr> &forms) {
    for (;;) {
      skipBlanks();
      if (cur == end)
        return Error::success();
      forms.emplace_back();
      if (Error e = read(forms.back(), 0))
        return e;
    }
  }

private:
  void skipBlanks() {
    for (;;) {
      while (cur != end && isSpace(*cur))
        ++cur;
      if (cur != end && *cur == ';') {
        while (cur != end && *cur != '\n')
          ++cur;
        continue;
      }
      return;
    }
  }
  Error read(SExpr &x, unsigned depth) {
    if (depth > 10000)
      return DiagnosticError::get(sm, SMLoc::getFromPointer(cur),
                                  "expressions nested too deeply");
    if (*cur == ')')
      return DiagnosticError::get(sm, SMLoc::getFromPointer(cur),
                                  "unexpected ')'");
    if (*cur != '(') {
      const char *start = cur;
      while (cur != end && !isSpace(*cur) && *cur != '(' && *cur != ')' &&
             *cur != ';')
        ++cur;
      x.atom = StringRef(start, cur - start);
      return Error::success();
    }
    x.isList = true;
    x.atom = StringRef(cur++, 1);
    for (;;) {
      skipBlanks();
      if (cur == end)
        return DiagnosticError::get(sm, x.loc(), "'(' without a matching ')'");
      if (*cur == ')') {
        ++cur;
        return Error::success();
      }
      x.items.emplace_back();
      if (Error e = read(x.items.back(), depth + 1))
        return e;
    }
  }

  const SourceMgr &sm;
  const char *cur, *end;
};

bool isIdent(StringRef s) {
  if (s.empty() || !(isAlpha(s[0]) || s[0] == '_' || s[0] == '$'))
    return false;
  return all_of(s, [](char c) { return isAlnum(c) || c == '_' || c == '$'; });
}

bool looksLikeLiteral(StringRef s) {
  char c0 = s[0], c1 = s.size() > 1 ? s[1] : 0;
  StringRef word = s.take_until([](char c) { return c == ':'; });
  return isDigit(c0) ||
         ((c0 == '-' || c0 == '+') &&
          (isDigit(c1) || c1 == '.' || c1 == 'i')) ||
         (c0 == '.' && isDigit(c1)) || word == "true" || word == "false";
}

//===----------------------------------------------------------------------===//
// Forms to words
//===----------------------------------------------------------------------===//

class Builder {
public:
  Builder(const SourceMgr &sm, const StackInfo &info,
          ArrayRef<AstVarDecl> predeclared)
      : sm(sm), info(info), predeclared(predeclared) {}
  Expected<AstModule> build(std::vector<SExpr> &forms);

private:
  Error error(const SExpr &x, const Twine &msg) {
    return DiagnosticError::get(sm, x.loc(), msg);
  }
  Expected<uint16_t> parseStack(const SExpr &x);
  Error declare(const SExpr &form);
  Error expr(const SExpr &x, int expected, AstWords &out);
  Expected<int> lookupVar(const SExpr &x);
  int findStackCI(StringRef name) const {
    for (uint32_t s = 0; s != info.numStacks; ++s)
      if (name.equals_insensitive(info.stackNames[s]))
        return int(s);
    return -1;
  }
  void add(AstWords &out, uint64_t w, const SExpr &x) {
    out.words.push_back(w);
    out.locs.push_back(x.loc());
  }

  const SourceMgr &sm;
  const StackInfo &info;
  ArrayRef<AstVarDecl> predeclared;
  AstModule m;
  StringMap<uint32_t> varIdx, routineIdx;
  /// Parameters of the routine being built, or null in an expression.
  const std::vector<std::string> *params = nullptr;
};

} // namespace

Expected<uint16_t> Builder::parseStack(const SExpr &x) {
  if (x.isList)
    return error(x, "expected a stack name");
  int s = findStackCI(x.atom);
  if (s < 0)
    return error(x, "unknown stack '" + x.atom + "'");
  return uint16_t(s);
}

Error Builder::declare(const SExpr &form) {
  const SExpr &head = form.items[0];
  if (form.items.size() != 3 || form.items[1].isList)
    return error(form, "expected '(" + head.atom + " NAME STACK)'");
  const SExpr &name = form.items[1];
  if (!isIdent(name.atom))
    return error(name, "'" + name.atom + "' is not a PTX identifier");
  if (info.findInstr(name.atom) >= 0)
    return error(name,
                 "variable '" + name.atom + "' has the name of an instruction");
  if (isReservedAstName(name.atom))
    return error(name, "variable name '" + name.atom +
                           "' is reserved for the stub's temporaries "
                           "(ast<n>, ast_s<stack>_<n>)");
  auto it = varIdx.find(name.atom);
  if (it != varIdx.end())
    return error(name,
                 "variable '" + name.atom + "' is declared " +
                     (m.vars[it->second].loc.getPointer() < name.atom.data()
                          ? "twice"
                          : "after its first use"));
  Expected<uint16_t> s = parseStack(form.items[2]);
  if (!s)
    return s.takeError();
  AstVarDecl d;
  d.name = name.atom.str();
  d.stackIdx = *s;
  d.kind = head.atom == "in"    ? RegKind::In
           : head.atom == "out" ? RegKind::Out
                                : RegKind::Mod;
  d.loc = name.loc();
  varIdx[name.atom] = uint32_t(m.vars.size());
  m.vars.push_back(std::move(d));
  return Error::success();
}

Expected<int> Builder::lookupVar(const SExpr &x) {
  auto it = varIdx.find(x.atom);
  if (it != varIdx.end())
    return int(it->second);
  for (const AstVarDecl &p : predeclared)
    if (p.name == x.atom) {
      // A site variable whose type no one stack holds must be declared.
      if (p.stackIdx >= info.numStacks)
        return error(x, "variable '" + x.atom +
                            "' has no stack of its own: declare it with the "
                            "stack to use, as in (" +
                            getInjectArgKindName(p.kind) + " " + x.atom +
                            " STACK)");
      AstVarDecl d = p;
      d.loc = x.loc();
      d.firstRead = SMLoc();
      varIdx[x.atom] = uint32_t(m.vars.size());
      m.vars.push_back(std::move(d));
      return int(m.vars.size() - 1);
    }
  return -1;
}

Error Builder::expr(const SExpr &x, int expected, AstWords &out) {
  if (!x.isList) {
    StringRef a = x.atom;
    if (a.startswith("%")) {
      StringRef name = a.drop_front();
      int sp = info.findSpecial(name);
      uint16_t elem = 0;
      if (sp < 0 && name.size() > 2 && name[name.size() - 2] == '.') {
        size_t e = StringRef("xyzw").find(name.back());
        int base = info.findSpecial(name.drop_back(2));
        if (e != StringRef::npos && base >= 0 &&
            info.argTypes[info.specials[base].argType].numVecElems > e) {
          sp = base;
          elem = uint16_t(e);
        }
      }
      if (sp < 0)
        return error(x, "unknown special register '" + a + "'");
      add(out, encodeSpecial(uint32_t(sp), elem), x);
      return Error::success();
    }
    if (looksLikeLiteral(a)) {
      StringRef text = a;
      int stack = expected >= 0 ? expected : 0;
      size_t colon = a.rfind(':');
      if (colon != StringRef::npos) {
        text = a.take_front(colon);
        stack = findStackCI(a.drop_front(colon + 1));
        if (stack < 0)
          return error(x, "unknown stack '" + a.drop_front(colon + 1) + "'");
      }
      if (uint32_t(stack) >= info.numStacks)
        return error(x, "no stack for literal '" + a + "'");
      Expected<uint32_t> bits =
          expr::parseLiteral(text, info.literalPrefixes[stack]);
      if (!bits)
        return error(x, toString(bits.takeError()) + " on stack " +
                            info.stackNames[stack]);
      add(out, encodeConstantBits(uint16_t(stack), *bits), x);
      return Error::success();
    }
    if (params) {
      auto p = find(*params, a);
      if (p != params->end()) {
        add(out, encodeRoutineArg(uint32_t(p - params->begin())), x);
        return Error::success();
      }
    }
    Expected<int> v = lookupVar(x);
    if (!v)
      return v.takeError();
    if (*v < 0) {
      if (info.findInstr(a) >= 0 || routineIdx.count(a))
        return error(x, "'" + a + "' is called without parentheses: write (" +
                            a + " ...)");
      return error(x, "unknown variable '" + a + "'");
    }
    AstVarDecl &d = m.vars[*v];
    if (d.kind == RegKind::Out)
      return error(x, "'" + a +
                          "' is an out variable, which has no value to read; "
                          "declare it 'mod' to read its value");
    if (!d.firstRead.isValid())
      d.firstRead = x.loc();
    add(out, encodeInput(uint32_t(*v)), x);
    return Error::success();
  }
  if (x.items.empty())
    return error(x, "empty expression '()'");
  const SExpr &head = x.items[0];
  if (head.isList)
    return error(head, "expected an instruction or routine name");
  size_t numArgs = x.items.size() - 1;
  int instr = info.findInstr(head.atom);
  auto r = routineIdx.find(head.atom);
  if (r != routineIdx.end()) {
    const AstRoutineDecl &rd = m.routines[r->second];
    if (numArgs != rd.params.size())
      return error(head, "routine '" + head.atom + "' takes " +
                             Twine(rd.params.size()) + " argument(s), " +
                             Twine(numArgs) + " given");
    for (size_t i = 1; i <= numArgs; ++i)
      if (Error e = expr(x.items[i], -1, out))
        return e;
    if (numArgs > 0xffff)
      return error(head, "too many arguments");
    add(out, encodeRoutine(r->second, uint16_t(numArgs)), head);
    return Error::success();
  }
  if (instr < 0)
    return error(head, "unknown instruction or routine '" + head.atom + "'");
  // Expected operand stacks, flattened.
  const stack::PtxInstrDesc &d = info.instrs[instr];
  SmallVector<uint16_t, 8> want;
  for (unsigned a = 0; a != d.numArgs; ++a) {
    const stack::ArgTypeInfo &t = info.argTypes[d.args[a]];
    want.append(t.numVecElems ? t.numVecElems : 1, t.stackIdx);
  }
  if (numArgs != want.size())
    return error(head, "'" + head.atom + "' takes " + Twine(want.size()) +
                           " operand(s), " + Twine(numArgs) + " given");
  for (size_t i = 1; i <= numArgs; ++i) {
    if (Error e = expr(x.items[i], want[i - 1], out))
      return e;
    // A variable of the wrong type is reported here, at the operand, rather
    // than by the compiler at the instruction.
    uint64_t last = out.words.back();
    if (getAstWordType(last) == AstWordType::Input &&
        m.vars[getAstWordPayload(last)].stackIdx != want[i - 1])
      return error(
          x.items[i],
          "operand " + Twine(i - 1) + " of '" + head.atom + "' must be " +
              info.stackNames[want[i - 1]] + "; '" + x.items[i].atom + "' is " +
              info.stackNames[m.vars[getAstWordPayload(last)].stackIdx]);
  }
  add(out, encodePtx(uint32_t(instr), uint16_t(numArgs)), head);
  return Error::success();
}

Expected<AstModule> Builder::build(std::vector<SExpr> &forms) {
  // Declarations and routine headers first.
  for (SExpr &f : forms) {
    if (!f.isList || f.items.empty() || f.items[0].isList)
      continue;
    StringRef h = f.items[0].atom;
    if (h == "in" || h == "out" || h == "mod") {
      if (Error e = declare(f))
        return e;
    } else if (h == "define") {
      if (f.items.size() != 3 || !f.items[1].isList || f.items[1].items.empty())
        return error(f, "expected '(define (NAME PARAM...) EXPR)'");
      AstRoutineDecl rd;
      for (const SExpr &p : f.items[1].items) {
        if (p.isList || !isIdent(p.atom))
          return error(p, "expected a name");
        if (&p != &f.items[1].items[0] && is_contained(rd.params, p.atom))
          return error(p, "parameter '" + p.atom + "' is named twice");
        if (&p != &f.items[1].items[0])
          rd.params.push_back(p.atom.str());
      }
      const SExpr &name = f.items[1].items[0];
      if (info.findInstr(name.atom) >= 0)
        return error(name, "routine '" + name.atom +
                               "' has the name of an instruction");
      if (!routineIdx.try_emplace(name.atom, m.routines.size()).second)
        return error(name, "routine '" + name.atom + "' is defined twice");
      rd.name = name.atom.str();
      rd.body.loc = name.loc();
      m.routines.push_back(std::move(rd));
    }
  }
  std::vector<bool> written;
  const SExpr *bare = nullptr;
  for (SExpr &f : forms) {
    if (f.isList && !f.items.empty() && !f.items[0].isList) {
      StringRef h = f.items[0].atom;
      if (h == "in" || h == "out" || h == "mod")
        continue;
      if (h == "define") {
        AstRoutineDecl &rd = m.routines[routineIdx[f.items[1].items[0].atom]];
        params = &rd.params;
        Error e = expr(f.items[2], -1, rd.body);
        params = nullptr;
        if (e)
          return e;
        add(rd.body, encodeReturn(), f.items[2]);
        continue;
      }
      if (h == "=") {
        if (f.items.size() != 3 || f.items[1].isList)
          return error(f, "expected '(= NAME EXPR)'");
        Expected<int> v = lookupVar(f.items[1]);
        if (!v)
          return v.takeError();
        if (*v < 0)
          return error(f.items[1],
                       "unknown variable '" + f.items[1].atom + "'");
        if (m.vars[*v].kind == RegKind::In)
          return error(f.items[1], "'" + f.items[1].atom +
                                       "' is an in variable; only out and "
                                       "mod variables can be written");
        for (const AstOutputDecl &o : m.outputs)
          if (o.var == uint32_t(*v))
            return error(f.items[1],
                         "'" + f.items[1].atom + "' is written twice");
        AstOutputDecl o;
        o.var = uint32_t(*v);
        o.expr.loc = f.items[1].loc();
        if (Error e = expr(f.items[2], m.vars[*v].stackIdx, o.expr))
          return e;
        add(o.expr, encodeReturn(), f.items[2]);
        m.outputs.push_back(std::move(o));
        continue;
      }
    }
    if (bare)
      return error(f, "a second expression without '(= NAME ...)'");
    bare = &f;
  }
  if (bare) {
    // The one variable it may be for.
    int target = -1;
    for (RegKind k : {RegKind::Out, RegKind::Mod}) {
      int count = 0;
      for (size_t i = 0; i != m.vars.size(); ++i)
        if (m.vars[i].kind == k) {
          ++count;
          target = int(i);
        }
      if (count == 1)
        break;
      if (count > 1)
        return error(*bare, "an expression without '(= NAME ...)' needs "
                            "exactly one out variable; this program has " +
                                Twine(count) + " " +
                                (k == RegKind::Out ? "out" : "mod") +
                                " variables");
      target = -1;
    }
    if (target < 0) {
      // Predeclared variables: the one out (or mod) variable of the site.
      for (RegKind k : {RegKind::Out, RegKind::Mod}) {
        int count = 0, found = -1;
        for (size_t i = 0; i != predeclared.size(); ++i)
          if (predeclared[i].kind == k &&
              (found < 0 || predeclared[i].siteVar == ~0u ||
               predeclared[i].siteVar != predeclared[found].siteVar)) {
            ++count;
            found = int(i);
          }
        if (count == 1) {
          SExpr name;
          name.atom = StringRef(predeclared[found].name);
          // Declared at the expression.
          Expected<int> v = lookupVar(name);
          if (!v)
            return v.takeError();
          m.vars[*v].loc = bare->loc();
          target = *v;
          break;
        }
        if (count > 1)
          break;
      }
    }
    if (target < 0)
      return error(*bare, "an expression without '(= NAME ...)' needs "
                          "exactly one out variable to write");
    AstOutputDecl o;
    o.var = uint32_t(target);
    o.expr.loc = bare->loc();
    if (Error e = expr(*bare, m.vars[target].stackIdx, o.expr))
      return e;
    add(o.expr, encodeReturn(), *bare);
    m.outputs.push_back(std::move(o));
  }
  return std::move(m);
}

Expected<AstModule> ast::parseAstModule(const SourceMgr &sm, unsigned bufferID,
                                        const StackInfo &info,
                                        ArrayRef<AstVarDecl> predeclared) {
  std::vector<SExpr> forms;
  Reader reader(sm, sm.getMemoryBuffer(bufferID)->getBuffer());
  if (Error e = reader.readAll(forms))
    return e;
  Builder b(sm, info, predeclared);
  return b.build(forms);
}

Expected<AstModule> ast::parseAstModule(StringRef text, const StackInfo &info,
                                        StringRef bufferName) {
  // Diagnostics point into the buffer, so the SourceMgr must outlive
  // their printing: render them here.
  SourceMgr sm;
  sm.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(text, bufferName),
                        SMLoc());
  Expected<AstModule> m = parseAstModule(sm, 1, info);
  if (!m)
    return makeError(toString(m.takeError()));
  // Locations point into the SourceMgr's copy, which dies here.
  for (AstVarDecl &v : m->vars)
    v.loc = v.firstRead = SMLoc();
  for (AstRoutineDecl &r : m->routines) {
    r.body.loc = SMLoc();
    std::fill(r.body.locs.begin(), r.body.locs.end(), SMLoc());
  }
  for (AstOutputDecl &o : m->outputs) {
    o.expr.loc = SMLoc();
    std::fill(o.expr.locs.begin(), o.expr.locs.end(), SMLoc());
  }
  return m;
}

Error ast::locateAstError(Error e, const SourceMgr &sm, const AstModule &m) {
  return handleErrors(std::move(e), [&](const AstError &ae) -> Error {
    const AstWordPos &pos = ae.getPos();
    const AstWords *w = nullptr;
    if (pos.routine != ~0u && pos.routine < m.routines.size())
      w = &m.routines[pos.routine].body;
    else if (pos.routine == ~0u && pos.expr < m.outputs.size())
      w = &m.outputs[pos.expr].expr;
    SMLoc loc;
    if (w && pos.word < w->locs.size())
      loc = w->locs[pos.word];
    else if (w)
      loc = w->loc;
    if (!loc.isValid())
      return make_error<AstError>(ae);
    return DiagnosticError::get(sm, loc,
                                ae.getMessage() + " (" +
                                    getAstResultName(uint32_t(ae.getResult())) +
                                    ")");
  });
}

//===----------------------------------------------------------------------===//
// Printer
//===----------------------------------------------------------------------===//

namespace {
/// A value on the printer's stack: its text, or a literal still to be
/// spelled for the slot it ends up in.
struct PrintVal {
  std::string text;
  bool isLiteral = false;
  uint16_t stack = 0;
  uint32_t bits = 0;
};
} // namespace

static std::string spellLiteral(const PrintVal &v, int expected,
                                const StackInfo &info) {
  std::string s;
  raw_string_ostream os(s);
  if (v.stack >= info.numStacks) {
    os << "0x" << format_hex_no_prefix(v.bits, 8);
    return os.str();
  }
  StringRef p = info.literalPrefixes[v.stack];
  if (p == "f32" || p == "f64")
    expr::printF32Literal(os, v.bits);
  else if (p == "pred")
    os << (v.bits ? "true" : "false");
  else if (p.startswith("s")) {
    unsigned w = expr::getTypeWidth(p);
    int64_t x = w >= 32 ? int64_t(int32_t(v.bits))
                        : int64_t(uint64_t(v.bits) << (64 - w)) >> (64 - w);
    if (w == 64)
      x = int64_t(uint64_t(v.bits));
    os << x;
  } else if (p.startswith("b"))
    os << "0x" << format_hex_no_prefix(v.bits, 1);
  else
    os << v.bits;
  if (int(v.stack) != (expected >= 0 ? expected : 0))
    os << ":" << info.stackNames[v.stack];
  return os.str();
}

static Expected<std::string>
printExpr(ArrayRef<uint64_t> words, const AstModule &m, const StackInfo &info,
          const std::vector<std::string> *params, int expected) {
  std::vector<PrintVal> st;
  auto take = [&](size_t i, int exp) {
    PrintVal &v = st[i];
    return v.isLiteral ? spellLiteral(v, exp, info) : v.text;
  };
  for (size_t i = 0; i != words.size(); ++i) {
    uint64_t w = words[i];
    uint16_t aux = getAstWordAux(w);
    uint32_t payload = getAstWordPayload(w);
    auto bad = [&](const Twine &msg) {
      return makeError("word " + Twine(i) + ": " + msg);
    };
    switch (getAstWordType(w)) {
    case AstWordType::Input:
      if (payload >= m.vars.size())
        return bad("input " + Twine(payload) + " out of range");
      st.push_back({m.vars[payload].name});
      break;
    case AstWordType::Constant: {
      PrintVal v;
      v.isLiteral = true;
      v.stack = aux;
      v.bits = payload;
      st.push_back(v);
      break;
    }
    case AstWordType::Special: {
      if (payload >= info.numSpecials)
        return bad("special register " + Twine(payload) + " out of range");
      std::string t = "%" + std::string(info.specialPtx[payload]);
      if (info.argTypes[info.specials[payload].argType].numVecElems)
        t += std::string(".") + "xyzw"[aux & 3];
      st.push_back({t});
      break;
    }
    case AstWordType::RoutineArg:
      if (!params || payload >= params->size())
        return bad("routine argument " + Twine(payload) + " out of range");
      st.push_back({(*params)[payload]});
      break;
    case AstWordType::Ptx:
    case AstWordType::Routine: {
      bool isPtx = getAstWordType(w) == AstWordType::Ptx;
      if (isPtx ? payload >= info.numInstrs : payload >= m.routines.size())
        return bad((isPtx ? "instruction " : "routine ") + Twine(payload) +
                   " out of range");
      if (st.size() < aux)
        return bad("too few operands");
      SmallVector<uint16_t, 8> want;
      if (isPtx) {
        const stack::PtxInstrDesc &d = info.instrs[payload];
        for (unsigned a = 0; a != d.numArgs; ++a) {
          const stack::ArgTypeInfo &t = info.argTypes[d.args[a]];
          want.append(t.numVecElems ? t.numVecElems : 1, t.stackIdx);
        }
      }
      std::string t = "(";
      t += isPtx ? info.instrNames[payload] : m.routines[payload].name;
      size_t base = st.size() - aux;
      for (unsigned k = 0; k != aux; ++k)
        t += " " + take(base + k, k < want.size() ? int(want[k]) : -1);
      t += ")";
      st.resize(base);
      st.push_back({t});
      break;
    }
    case AstWordType::Return:
      if (st.size() != 1)
        return bad("RETURN with " + Twine(st.size()) + " values");
      return take(0, expected);
    default:
      return bad("not an AST PTX word");
    }
  }
  return makeError("no RETURN");
}

Error ast::printAstModule(raw_ostream &os, const AstModule &m,
                          const StackInfo &info) {
  for (const AstVarDecl &v : m.vars)
    os << "(" << getInjectArgKindName(v.kind) << " " << v.name << " "
       << info.stackNames[v.stackIdx] << ")\n";
  for (size_t i = 0; i != m.routines.size(); ++i) {
    const AstRoutineDecl &r = m.routines[i];
    Expected<std::string> body =
        printExpr(r.body.words, m, info, &r.params, -1);
    if (!body)
      return makeError("routine '" + r.name +
                       "': " + toString(body.takeError()));
    os << "(define (" << r.name;
    for (const std::string &p : r.params)
      os << " " << p;
    os << ") " << *body << ")\n";
  }
  for (const AstOutputDecl &o : m.outputs) {
    const AstVarDecl &v = m.vars[o.var];
    Expected<std::string> e =
        printExpr(o.expr.words, m, info, nullptr, v.stackIdx);
    if (!e)
      return makeError("expression of '" + v.name +
                       "': " + toString(e.takeError()));
    os << "(= " << v.name << " " << *e << ")\n";
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Word files
//===----------------------------------------------------------------------===//

void ast::printAstWords(raw_ostream &os, const AstModule &m,
                        const StackInfo &info) {
  for (const AstVarDecl &v : m.vars)
    os << "// " << getInjectArgKindName(v.kind) << " " << v.name << " "
       << (v.stackIdx < info.numStacks ? info.stackNames[v.stackIdx] : "?")
       << "\n";
  auto words = [&](ArrayRef<uint64_t> ws) {
    os << " (" << ws.size() << " words)\n";
    for (uint64_t w : ws)
      os << format_hex(w, 18) << "\n";
  };
  for (const AstRoutineDecl &r : m.routines) {
    os << "// routine " << r.name;
    for (const std::string &p : r.params)
      os << " " << p;
    words(r.body.words);
  }
  for (const AstOutputDecl &o : m.outputs) {
    os << "// output " << m.vars[o.var].name;
    words(o.expr.words);
  }
}

Error ast::renumberAstInstrs(AstModule &m, ArrayRef<uint32_t> map, bool toMap,
                             const StackInfo &info, const SourceMgr *sm) {
  std::vector<AstWords *> all;
  for (AstRoutineDecl &r : m.routines)
    all.push_back(&r.body);
  for (AstOutputDecl &o : m.outputs)
    all.push_back(&o.expr);
  // Check every word first, so that an error leaves the module unchanged.
  for (int apply = 0; apply != 2; ++apply)
    for (AstWords *ws : all)
      for (size_t i = 0; i != ws->words.size(); ++i) {
        uint64_t &w = ws->words[i];
        if (getAstWordType(w) != AstWordType::Ptx)
          continue;
        uint32_t idx = getAstWordPayload(w);
        uint32_t to = ~0u;
        if (toMap) {
          const uint32_t *it = llvm::find(map, idx);
          if (it != map.end())
            to = uint32_t(it - map.begin());
        } else if (idx < map.size()) {
          to = map[idx];
        }
        if (to == ~0u) {
          std::string msg =
              toMap ? "instruction '" +
                          std::string(idx < info.numInstrs ? info.instrPtx[idx]
                                                           : "?") +
                          "' has no number in the instruction catalogue"
                    : ("instruction number " + Twine(idx) +
                       " is outside the instruction catalogue (" +
                       Twine(map.size()) + " instructions)")
                          .str();
          SMLoc loc = i < ws->locs.size() ? ws->locs[i] : ws->loc;
          if (sm && loc.isValid())
            return DiagnosticError::get(*sm, loc, msg);
          return makeError(msg);
        }
        if (apply)
          w = encodePtx(to, getAstWordAux(w));
      }
  return Error::success();
}

Expected<AstModule> ast::parseAstWords(const SourceMgr &sm, unsigned bufferID,
                                       const StackInfo &info) {
  StringRef buf = sm.getMemoryBuffer(bufferID)->getBuffer();
  AstModule m;
  StringMap<uint32_t> varIdx, routineIdx;
  AstWords *cur = nullptr;
  auto error = [&](StringRef at, const Twine &msg) {
    return DiagnosticError::get(sm, SMLoc::getFromPointer(at.data()), msg);
  };
  SmallVector<StringRef, 8> lines;
  buf.split(lines, '\n');
  for (StringRef line : lines) {
    StringRef t = line.trim();
    if (t.empty())
      continue;
    if (!t.consume_front("//")) {
      uint64_t w;
      if (t.getAsInteger(0, w))
        return error(t, "expected a word (0x...) or a '//' line");
      if (!cur)
        return error(t, "a word before any '// routine' or '// output' line");
      cur->words.push_back(w);
      cur->locs.push_back(SMLoc::getFromPointer(t.data()));
      continue;
    }
    // Drop a trailing "(N words)".
    size_t paren = t.find('(');
    if (paren != StringRef::npos)
      t = t.take_front(paren);
    SmallVector<StringRef, 8> f;
    t.split(f, ' ', -1, false);
    if (f.empty())
      continue;
    StringRef head = f[0];
    if (head == "in" || head == "out" || head == "mod") {
      if (f.size() != 3)
        return error(head, "expected '// " + head + " NAME STACK'");
      int st = -1;
      for (uint32_t i = 0; i != info.numStacks; ++i)
        if (f[2].equals_insensitive(info.stackNames[i]))
          st = int(i);
      if (st < 0)
        return error(f[2], "unknown stack '" + f[2] + "'");
      if (!varIdx.try_emplace(f[1], m.vars.size()).second)
        return error(f[1], "variable '" + f[1] + "' is declared twice");
      AstVarDecl d;
      d.name = f[1].str();
      d.stackIdx = uint16_t(st);
      d.kind = head == "in"    ? RegKind::In
               : head == "out" ? RegKind::Out
                               : RegKind::Mod;
      d.loc = SMLoc::getFromPointer(f[1].data());
      m.vars.push_back(std::move(d));
    } else if (head == "routine") {
      if (f.size() < 2)
        return error(head, "expected '// routine NAME PARAM...'");
      if (!routineIdx.try_emplace(f[1], m.routines.size()).second)
        return error(f[1], "routine '" + f[1] + "' is defined twice");
      AstRoutineDecl r;
      r.name = f[1].str();
      for (size_t i = 2; i < f.size(); ++i)
        r.params.push_back(f[i].str());
      r.body.loc = SMLoc::getFromPointer(f[1].data());
      m.routines.push_back(std::move(r));
      cur = &m.routines.back().body;
    } else if (head == "output") {
      if (f.size() != 2)
        return error(head, "expected '// output NAME'");
      auto it = varIdx.find(f[1]);
      if (it == varIdx.end())
        return error(f[1], "unknown variable '" + f[1] + "'");
      if (m.vars[it->second].kind == RegKind::In)
        return error(f[1], "'" + f[1] + "' is an in variable");
      AstOutputDecl o;
      o.var = it->second;
      o.expr.loc = SMLoc::getFromPointer(f[1].data());
      m.outputs.push_back(std::move(o));
      cur = &m.outputs.back().expr;
    } else {
      return error(head, "expected 'in', 'out', 'mod', 'routine' or "
                         "'output' after '//'");
    }
  }
  return m;
}
