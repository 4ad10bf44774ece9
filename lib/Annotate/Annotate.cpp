//===- Annotate.cpp - Rewrite comment-form inject sites -------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rewriter works line by line, keeping each line's own terminator:
///
/// 1. Outside a site, a line whose first non-blank text is `/*`, optional
///    blanks, then the word `PTX_INJECT` opens a site; its name is the one
///    token that follows. Any other line is copied. A header behind `//`
///    (`// /* PTX_INJECT f`) is an ordinary comment line and is copied; a
///    header after code on the same line is an error, since it would
///    otherwise silently stay a comment.
/// 2. Inside a site, the first `*/` on a line closes the site (C rules:
///    `//` means nothing inside a block comment). The text before it is a
///    variable line unless blank or starting with `//`:
///      variable ::= ('in' | 'mod' | 'out') type expression ('//' comment)?
///    The type is looked up case-insensitively; the expression is the rest,
///    trimmed, with inner blanks kept. Text after `*/` follows the asm.
/// 3. A closed site becomes the inline asm of printInjectAsm, indented like
///    its header and using the header line's terminator; the terminator of
///    the `*/` line ends it. A broken site is reported and copied unchanged,
///    and the scan goes on, so one run reports every broken site.
///
/// printInjectAsm produces the same asm template as ptx_inject.h: operands
/// in source order, stable registers `%_x<i>` (written `%%_x<i>` in the asm
/// string), asm operands numbered outputs (mod, out) first, then inputs.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Annotate/Annotate.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;
using namespace mmptx::annotate;

StringRef annotate::getVarKindName(VarKind kind) {
  switch (kind) {
  case VarKind::In:
    return "in";
  case VarKind::Mod:
    return "mod";
  case VarKind::Out:
    return "out";
  }
  llvm_unreachable("unknown VarKind");
}

/// \returns \p s escaped for a C string literal that is an asm template.
static std::string escapeAsm(StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '"')
      out += '\\';
    else if (c == '%')
      out += '%';
    out += c;
  }
  return out;
}

/// Writes the bound operand expression `(expr)` of \p var.
static void printBinding(const SiteVar &var, raw_ostream &os) {
  StringRef cv = var.kind == VarKind::In ? "const " : "";
  StringRef intType;
  switch (var.type->bind) {
  case BindKind::Value:
    os << '(' << var.expr << ')';
    return;
  case BindKind::U16:
    intType = "unsigned short";
    break;
  case BindKind::U32:
    intType = "unsigned int";
    break;
  case BindKind::U64:
    intType = "unsigned long long";
    break;
  }
  os << "(*reinterpret_cast<" << cv << intType << " *>(&(" << var.expr
     << ")))";
}

void annotate::printInjectAsm(StringRef name, ArrayRef<SiteVar> vars,
                              StringRef indent, StringRef eol,
                              raw_ostream &os) {
  // Asm operand numbers: outputs (mod, out) in order, then inputs.
  SmallVector<unsigned, 16> opnd(vars.size());
  unsigned numOut = 0;
  for (size_t i = 0, e = vars.size(); i != e; ++i)
    if (vars[i].kind != VarKind::In)
      opnd[i] = numOut++;
  unsigned nextIn = numOut;
  for (size_t i = 0, e = vars.size(); i != e; ++i)
    if (vars[i].kind == VarKind::In)
      opnd[i] = nextIn++;

  std::string body = (indent + "    ").str();
  auto line = [&](const Twine &text) {
    os << body << '"' << text << "\\n\\t\"" << eol;
  };
  os << indent << "asm volatile(" << eol;
  line("{");
  for (size_t i = 0, e = vars.size(); i != e; ++i)
    line(".reg ." + vars[i].type->regType + " %%_x" + Twine(i) + ";");
  for (size_t i = 0, e = vars.size(); i != e; ++i)
    if (vars[i].kind != VarKind::Out)
      line("mov." + vars[i].type->movSuffix + " %%_x" + Twine(i) + ", %" +
           Twine(opnd[i]) + ";");
  std::string escName = escapeAsm(name);
  line("// MMPTX_INJECT_BEGIN " + escName + " " + Twine(vars.size()));
  for (size_t i = 0, e = vars.size(); i != e; ++i)
    line("// MMPTX_INJECT_ARG " + Twine(i) + " " +
         getVarKindName(vars[i].kind) + " " + vars[i].type->regType + " " +
         vars[i].type->token + " " + escapeAsm(vars[i].expr));
  line("// MMPTX_INJECT_END " + escName);
  for (size_t i = 0, e = vars.size(); i != e; ++i)
    if (vars[i].kind != VarKind::In)
      line("mov." + vars[i].type->movSuffix + " %" + Twine(opnd[i]) +
           ", %%_x" + Twine(i) + ";");
  os << body << "\"}\"" << eol;

  auto clause = [&](bool outputs) {
    os << body << ':';
    bool first = true;
    for (const SiteVar &var : vars) {
      if ((var.kind != VarKind::In) != outputs)
        continue;
      os << (first ? " " : ", ");
      first = false;
      if (var.kind == VarKind::Mod)
        os << "\"+";
      else if (var.kind == VarKind::Out)
        os << "\"=";
      else
        os << '"';
      os << var.type->constraint << '"';
      printBinding(var, os);
    }
  };
  clause(/*outputs=*/true);
  os << eol;
  clause(/*outputs=*/false);
  os << ");";
}

namespace {

/// One source line: its text and its terminator (`\n`, `\r\n` or none).
struct Line {
  StringRef text;
  StringRef eol;
};

/// The rewriter of one buffer.
class Rewriter {
public:
  Rewriter(const SourceMgr &sm, unsigned bufferID, const TypeTable &types,
           raw_ostream &os)
      : sm(sm), types(types), os(os),
        buf(sm.getMemoryBuffer(bufferID)->getBuffer()) {}

  Expected<unsigned> run();

private:
  /// Splits the buffer into lines.
  void splitLines();
  /// If line \p idx opens a site, rewrites the site and \returns the index of
  /// the first line after it; otherwise \returns \p idx.
  size_t trySite(size_t idx);
  /// Parses one variable line (the text before any `*/`) into \p vars.
  Error parseVar(StringRef text, SmallVectorImpl<SiteVar> &vars,
                 StringMap<SMLoc> &seen);

  Error error(StringRef at, const Twine &msg) {
    return DiagnosticError::get(sm, SMLoc::getFromPointer(at.data()), msg);
  }

  const SourceMgr &sm;
  const TypeTable &types;
  raw_ostream &os;
  StringRef buf;
  std::vector<Line> lines;
  Error errors = Error::success();
  unsigned numSites = 0;
};

} // namespace

void Rewriter::splitLines() {
  StringRef rest = buf;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    if (nl == StringRef::npos) {
      lines.push_back({rest, StringRef()});
      break;
    }
    StringRef text = rest.substr(0, nl);
    StringRef eol = rest.substr(nl, 1);
    if (text.endswith("\r")) {
      eol = rest.substr(nl - 1, 2);
      text = text.drop_back();
    }
    lines.push_back({text, eol});
    rest = rest.substr(nl + 1);
  }
}

static bool isBlank(char c) { return c == ' ' || c == '\t'; }

/// \returns the position just after `PTX_INJECT` if \p s, from \p pos, is
/// `/*`, blanks, `PTX_INJECT` and then a blank, `*/` or the end; else npos.
static size_t matchHeader(StringRef s, size_t pos) {
  if (!s.substr(pos).startswith("/*"))
    return StringRef::npos;
  pos += 2;
  while (pos < s.size() && isBlank(s[pos]))
    ++pos;
  StringRef kw = "PTX_INJECT";
  if (!s.substr(pos).startswith(kw))
    return StringRef::npos;
  pos += kw.size();
  if (pos == s.size() || isBlank(s[pos]) || s.substr(pos).startswith("*/"))
    return pos;
  return StringRef::npos;
}

Error Rewriter::parseVar(StringRef text, SmallVectorImpl<SiteVar> &vars,
                         StringMap<SMLoc> &seen) {
  StringRef t = text.ltrim(" \t");
  if (t.empty() || t.startswith("//"))
    return Error::success();
  // Kind word.
  StringRef kindWord = t.take_until(isBlank);
  VarKind kind;
  if (kindWord == "in")
    kind = VarKind::In;
  else if (kindWord == "mod")
    kind = VarKind::Mod;
  else if (kindWord == "out")
    kind = VarKind::Out;
  else
    return error(kindWord, "unknown inject variable kind '" + kindWord +
                               "' (expected in, mod or out)");
  t = t.drop_front(kindWord.size()).ltrim(" \t");
  // Type token.
  StringRef typeWord = t.take_until(isBlank);
  if (typeWord.empty() || typeWord.startswith("//"))
    return error(typeWord, "expected an inject type after '" + kindWord + "'");
  const TypeInfo *type = types.lookup(typeWord);
  if (!type)
    return error(typeWord, "unknown inject type '" + typeWord + "'");
  t = t.drop_front(typeWord.size());
  // Expression, without a trailing `// comment`.
  size_t comment = t.find("//");
  if (comment != StringRef::npos)
    t = t.substr(0, comment);
  StringRef expr = t.trim(" \t");
  if (expr.empty())
    return error(typeWord.end(), "expected an expression after inject type '" +
                                     typeWord + "'");
  SMLoc loc = SMLoc::getFromPointer(expr.data());
  auto inserted = seen.try_emplace(expr, loc);
  if (!inserted.second)
    return DiagnosticError::getWithNote(
        sm, loc, "duplicate inject variable '" + expr + "'",
        inserted.first->second, "previous use of '" + expr + "' is here");
  vars.push_back(SiteVar{kind, type, expr.str()});
  return Error::success();
}

/// \returns true if \p pos of \p line is inside a "..." literal.
static bool isInStringLiteral(StringRef line, size_t pos) {
  bool inString = false;
  for (size_t i = 0; i < pos; ++i) {
    if (line[i] == '\\')
      ++i;
    else if (line[i] == '"')
      inString = !inString;
  }
  return inString;
}

size_t Rewriter::trySite(size_t idx) {
  StringRef header = lines[idx].text;
  size_t first = header.find_first_not_of(" \t");
  size_t afterKw = StringRef::npos;
  if (first != StringRef::npos)
    afterKw = matchHeader(header, first);
  if (afterKw == StringRef::npos) {
    // A header after code on the same line (and not behind `//`) would stay
    // an ordinary comment without anyone noticing.
    size_t slash = header.find("//");
    for (size_t pos = header.find("/*"); pos != StringRef::npos;
         pos = header.find("/*", pos + 1)) {
      if (slash != StringRef::npos && slash < pos)
        break;
      if (isInStringLiteral(header, pos))
        continue;
      if (matchHeader(header, pos) != StringRef::npos) {
        errors = joinErrors(
            std::move(errors),
            error(header.substr(pos),
                  "inject site comment must be the first thing on its line"));
        break;
      }
    }
    return idx;
  }
  StringRef indent = header.substr(0, first);
  StringRef headerAt = header.substr(first);

  // Site name: one token; the header may also close the site.
  StringRef rest = header.substr(afterKw);
  bool closedOnHeader = false;
  StringRef trailing;
  size_t close = rest.find("*/");
  if (close != StringRef::npos) {
    closedOnHeader = true;
    trailing = rest.substr(close + 2).trim(" \t");
    rest = rest.substr(0, close);
  }
  StringRef name = rest.trim(" \t");
  // The first error of the site wins.
  Error err = Error::success();
  auto fail = [&](Error e) {
    if (!err)
      err = std::move(e);
    else
      consumeError(std::move(e));
  };
  if (name.empty())
    fail(error(header.substr(afterKw), "missing inject site name"));
  else if (name.find_first_of(" \t") != StringRef::npos)
    fail(error(name.substr(name.find_first_of(" \t")).ltrim(" \t"),
               "unexpected text after inject site name '" +
                   name.take_until(isBlank) + "'"));

  // Variable lines up to the closing `*/`.
  SmallVector<SiteVar, 16> vars;
  StringMap<SMLoc> seen;
  size_t end = idx; // the line holding `*/`
  if (!closedOnHeader) {
    for (end = idx + 1; end < lines.size(); ++end) {
      StringRef text = lines[end].text;
      size_t pos = text.find("*/");
      StringRef var = pos == StringRef::npos ? text : text.substr(0, pos);
      if (!err)
        err = parseVar(var, vars, seen);
      if (pos != StringRef::npos) {
        trailing = text.substr(pos + 2).trim(" \t");
        break;
      }
    }
    if (end == lines.size()) {
      // Running into the end of the file explains any other error.
      consumeError(std::move(err));
      err = error(headerAt, "missing '*/' closing inject site '" + name + "'");
      end = lines.size() - 1;
    }
  }
  if (!err && vars.empty())
    err = error(headerAt, "inject site '" + name + "' has no variables");

  if (err) {
    errors = joinErrors(std::move(errors), std::move(err));
    for (size_t i = idx; i <= end; ++i)
      os << lines[i].text << lines[i].eol;
    return end + 1;
  }
  StringRef eol = lines[idx].eol.empty() ? StringRef("\n") : lines[idx].eol;
  printInjectAsm(name, vars, indent, eol, os);
  if (!trailing.empty())
    os << ' ' << trailing;
  os << lines[end].eol;
  ++numSites;
  return end + 1;
}

Expected<unsigned> Rewriter::run() {
  splitLines();
  for (size_t idx = 0; idx < lines.size();) {
    size_t next = trySite(idx);
    if (next == idx) {
      os << lines[idx].text << lines[idx].eol;
      ++idx;
    } else {
      idx = next;
    }
  }
  if (errors)
    return std::move(errors);
  return numSites;
}

Expected<unsigned> annotate::annotateSource(const SourceMgr &sm,
                                            unsigned bufferID,
                                            const TypeTable &types,
                                            raw_ostream &os) {
  return Rewriter(sm, bufferID, types, os).run();
}
