//===- Annotate.cpp - Rewrite comment-form inject sites -------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rewriter lexes the buffer as a C++ compiler does, as far as comments
/// go: block and line comments, backslash-newline splices, string and
/// character literals (raw strings included) and pp-numbers (for `'` digit
/// separators). Only a real block comment can be a site, so a header inside
/// another comment or a literal is left alone. The preprocessor is not run:
/// a site inside `#if 0` is rewritten too, harmlessly, since the asm stays
/// inside the disabled block.
///
/// 1. A block comment opens a site if it starts with `/*`, optional blanks,
///    then the word `PTX_INJECT`; its name is the one token that follows on
///    that line. The comment must be the first thing on its line: after
///    code (or on a line spliced to the previous one) it would otherwise
///    silently stay a comment, so that is an error.
/// 2. The site ends where the comment does, at the first `*/`, so a `/*`
///    inside it is an error. Each line in between is a variable line unless
///    blank or starting with `//`:
///      variable ::= ('in' | 'mod' | 'out') type expression ('//' comment)?
///    The type is looked up case-insensitively; the expression is the rest,
///    trimmed, with inner blanks kept. Sites of one name must agree in
///    their variables: names, kinds and types, in order.
/// 3. The lines of a site become the inline asm of printInjectAsm, indented
///    like its header and using the header line's terminator; text after the
///    `*/` follows the asm, then the terminator of the `*/` line. A broken
///    site is reported and copied unchanged, and the scan goes on, so one
///    run reports every broken site. Everything else is copied byte for byte.
///    `#line` directives around the asm map the output back to the source.
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
  os << "(*reinterpret_cast<" << cv << intType << " *>(&(" << var.expr << ")))";
}

void annotate::printInjectAsm(StringRef name, ArrayRef<SiteVar> vars,
                              StringRef indent, StringRef eol, raw_ostream &os,
                              StringRef beforeOperands) {
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
  // The scaffold and markers of the site format (InjectFormat.h), with asm
  // operands outside and `%%` for the template's `%`.
  SmallVector<std::string, 16> operands, labels;
  SmallVector<ScaffoldVar, 16> sv;
  for (size_t i = 0, e = vars.size(); i != e; ++i) {
    operands.push_back("%" + std::to_string(opnd[i]));
    labels.push_back(escapeAsm(vars[i].expr));
  }
  for (size_t i = 0, e = vars.size(); i != e; ++i)
    sv.push_back({vars[i].kind, vars[i].type->regType, vars[i].type->movSuffix,
                  vars[i].type->token, labels[i], operands[i]});
  writeSiteScaffold(escapeAsm(name), sv, "%%" + StableRegisterPrefix.str(),
                    /*withMarkers=*/true, line, [] {});
  os << body << "\"}\"" << eol << beforeOperands;

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

/// A variable of a site and where its parts are.
struct ParsedVar {
  SiteVar var;
  SMLoc kindLoc, typeLoc, exprLoc;
};

/// The first well-formed site of a name, which later ones must match.
struct FirstSite {
  SMLoc loc;
  SmallVector<ParsedVar, 8> vars;
};

/// The rewriter of one buffer.
class Rewriter {
public:
  Rewriter(const SourceMgr &sm, unsigned bufferID, const TypeTable &types,
           const AnnotateOptions &opts, raw_ostream &os)
      : sm(sm), types(types), opts(opts), os(os),
        buf(sm.getMemoryBuffer(bufferID)->getBuffer()),
        fileName(sm.getMemoryBuffer(bufferID)->getBufferIdentifier()) {}

  Expected<unsigned> run();

private:
  // The lexer: just enough of translation phases 1-3 to tell comments,
  // literals and code apart. Each function takes the position after the
  // token's opening characters and \returns the position after the token.

  /// \returns \p pos moved past any backslash-newlines (line splices).
  size_t skipSplices(size_t pos) const;
  /// \returns the position of the newline that ends a `//` comment.
  size_t skipLineComment(size_t pos) const;
  /// Sets \p close to the position of the closing `*/`, or npos if the
  /// comment runs to the end of the buffer.
  size_t skipBlockComment(size_t pos, size_t &close) const;
  /// An unterminated literal ends before the newline, as compilers recover.
  size_t skipLiteral(size_t pos, char quote) const;
  size_t skipRawString(size_t pos) const;
  /// A pp-number, which may hold `'` digit separators (C++14).
  size_t skipNumber(size_t pos, char first) const;

  /// Writes the `#line` directive that follows a site after the newline at
  /// \p newline, unless nothing follows.
  void writePendingDirective(size_t newline);
  /// Rewrites the block comment at [begin, end) if it is a site.
  void visitComment(size_t begin, size_t close, size_t end);
  /// Parses one variable line of a site into \p vars.
  Error parseVar(StringRef text, SmallVectorImpl<ParsedVar> &vars,
                 StringMap<SMLoc> &seen);
  /// Checks site \p name at \p loc against the first site of that name, or
  /// records it as the first.
  Error checkAgainstFirst(StringRef name, SMLoc loc, ArrayRef<ParsedVar> vars);

  SMLoc getLoc(size_t pos) const {
    return SMLoc::getFromPointer(buf.data() + pos);
  }
  /// \returns `#line <line> "<file name>"` and \p eol.
  std::string getLineDirective(unsigned line, StringRef eol) const;

  Error error(StringRef at, const Twine &msg) {
    return DiagnosticError::get(sm, SMLoc::getFromPointer(at.data()), msg);
  }

  const SourceMgr &sm;
  const TypeTable &types;
  const AnnotateOptions &opts;
  raw_ostream &os;
  StringRef buf;
  StringRef fileName;
  size_t copied = 0; ///< buf[0, copied) has been written
  bool directivePending = false;
  StringMap<FirstSite> firstSites;
  Error errors = Error::success();
  unsigned numSites = 0;
};

} // namespace

static bool isBlank(char c) { return c == ' ' || c == '\t'; }

/// Bytes of non-ASCII characters count as identifier characters.
static bool isIdentChar(char c) {
  return isAlnum(c) || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}

size_t Rewriter::skipSplices(size_t pos) const {
  while (pos < buf.size() && buf[pos] == '\\') {
    size_t nl = pos + 1;
    if (nl < buf.size() && buf[nl] == '\r')
      ++nl;
    if (nl == buf.size() || buf[nl] != '\n')
      break;
    pos = nl + 1;
  }
  return pos;
}

size_t Rewriter::skipLineComment(size_t pos) const {
  while ((pos = skipSplices(pos)) < buf.size() && buf[pos] != '\n')
    ++pos;
  return std::min(pos, buf.size());
}

size_t Rewriter::skipBlockComment(size_t pos, size_t &close) const {
  for (; (pos = skipSplices(pos)) < buf.size(); ++pos) {
    if (buf[pos] != '*')
      continue;
    size_t slash = skipSplices(pos + 1);
    if (slash < buf.size() && buf[slash] == '/') {
      close = pos;
      return slash + 1;
    }
  }
  close = StringRef::npos;
  return buf.size();
}

size_t Rewriter::skipLiteral(size_t pos, char quote) const {
  while ((pos = skipSplices(pos)) < buf.size()) {
    char c = buf[pos];
    if (c == quote)
      return pos + 1;
    if (c == '\n')
      return pos;
    if (c == '\\') {
      pos = skipSplices(pos + 1);
      if (pos < buf.size() && buf[pos] != '\n')
        ++pos;
      continue;
    }
    ++pos;
  }
  return buf.size();
}

size_t Rewriter::skipRawString(size_t pos) const {
  // Splices are undone inside raw strings, so the text is taken as it is.
  size_t paren = buf.find_first_of("( )\\\t\v\f\r\n", pos);
  if (paren == StringRef::npos || buf[paren] != '(' || paren - pos > 16)
    return skipLiteral(pos, '"'); // not a raw string after all
  std::string terminator = (")" + buf.slice(pos, paren) + "\"").str();
  size_t end = buf.find(terminator, paren + 1);
  return end == StringRef::npos ? buf.size() : end + terminator.size();
}

size_t Rewriter::skipNumber(size_t pos, char first) const {
  char prev = first;
  while ((pos = skipSplices(pos)) < buf.size()) {
    char c = buf[pos];
    if (c == '\'') {
      size_t next = skipSplices(pos + 1);
      if (next == buf.size() || !isIdentChar(buf[next]))
        break;
      pos = next;
      c = buf[pos];
    } else if (!isIdentChar(c) && c != '.' &&
               !((c == '+' || c == '-') && StringRef("eEpP").contains(prev))) {
      break;
    }
    prev = c;
    ++pos;
  }
  return pos;
}

/// \returns the position just after `PTX_INJECT` if \p s is `/*`, blanks,
/// `PTX_INJECT` and then a blank or the end; else npos.
static size_t matchHeader(StringRef s) {
  if (!s.startswith("/*"))
    return StringRef::npos;
  size_t pos = 2;
  while (pos < s.size() && isBlank(s[pos]))
    ++pos;
  StringRef kw = "PTX_INJECT";
  if (!s.substr(pos).startswith(kw))
    return StringRef::npos;
  pos += kw.size();
  if (pos == s.size() || isBlank(s[pos]))
    return pos;
  return StringRef::npos;
}

Error Rewriter::parseVar(StringRef text, SmallVectorImpl<ParsedVar> &vars,
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
    return error(typeWord.end(),
                 "expected an expression after inject type '" + typeWord + "'");
  SMLoc loc = SMLoc::getFromPointer(expr.data());
  auto inserted = seen.try_emplace(expr, loc);
  if (!inserted.second)
    return DiagnosticError::getWithNote(
        sm, loc, "duplicate inject variable '" + expr + "'",
        inserted.first->second, "previous use of '" + expr + "' is here");
  vars.push_back({SiteVar{kind, type, expr.str()},
                  SMLoc::getFromPointer(kindWord.data()),
                  SMLoc::getFromPointer(typeWord.data()), loc});
  return Error::success();
}

// Same checks and wording as the PTX-level check in lib/Inject, which would
// otherwise report the mismatch only after the CUDA compiler has run.
Error Rewriter::checkAgainstFirst(StringRef name, SMLoc loc,
                                  ArrayRef<ParsedVar> vars) {
  auto inserted = firstSites.try_emplace(name);
  FirstSite &first = inserted.first->second;
  if (inserted.second) {
    first.loc = loc;
    first.vars.assign(vars.begin(), vars.end());
    return Error::success();
  }
  std::string note = ("first site of inject '" + name + "' is here").str();
  auto diag = [&](SMLoc at, const Twine &msg) {
    return DiagnosticError::getWithNote(sm, at, msg, first.loc, note);
  };
  size_t numVars = vars.size(), numFirst = first.vars.size();
  for (size_t i = 0, e = std::min(numVars, numFirst); i != e; ++i) {
    const ParsedVar &a = vars[i];
    const SiteVar &v = first.vars[i].var;
    if (a.var.expr != v.expr)
      return diag(a.exprLoc, "inconsistent inject site '" + name +
                                 "': argument " + Twine(i) + " is variable '" +
                                 a.var.expr + "' here, but '" + v.expr +
                                 "' at the first site");
    auto differs = [&](SMLoc at, StringRef what, StringRef here,
                       StringRef there) {
      return diag(at, "inconsistent inject site '" + name + "': variable '" +
                          v.expr + "' (argument " + Twine(i) + ") has " + what +
                          " '" + here + "' here, but '" + there +
                          "' at the first site");
    };
    if (a.var.kind != v.kind)
      return differs(a.kindLoc, "kind", getInjectArgKindName(a.var.kind),
                     getInjectArgKindName(v.kind));
    if (a.var.type != v.type)
      return differs(a.typeLoc, "type", a.var.type->token, v.type->token);
  }
  if (numVars == numFirst)
    return Error::success();
  std::string count =
      ("inject site '" + name + "' has " + Twine(numVars) +
       (numVars == 1 ? " argument" : " arguments") +
       ", but the first site of '" + name + "' has " + Twine(numFirst))
          .str();
  if (numVars > numFirst)
    return diag(vars[numFirst].exprLoc, count + ": variable '" +
                                            vars[numFirst].var.expr +
                                            "' (argument " + Twine(numFirst) +
                                            ") is not at the first site");
  return diag(loc, count + ": variable '" + first.vars[numVars].var.expr +
                       "' (argument " + Twine(numVars) + ") is missing here");
}

std::string Rewriter::getLineDirective(unsigned line, StringRef eol) const {
  std::string text;
  raw_string_ostream dir(text);
  dir << "#line " << line << " \"";
  for (unsigned char c : fileName) {
    if (c == '\\' || c == '"')
      dir << '\\' << c;
    else if (isPrint(c))
      dir << c;
    else // an octal escape keeps any byte
      dir << '\\' << char('0' + (c >> 6)) << char('0' + ((c >> 3) & 7))
          << char('0' + (c & 7));
  }
  dir << '"' << eol;
  return dir.str();
}

void Rewriter::writePendingDirective(size_t newline) {
  directivePending = false;
  if (newline + 1 == buf.size())
    return;
  StringRef eol = newline > 0 && buf[newline - 1] == '\r' ? "\r\n" : "\n";
  os << buf.slice(copied, newline + 1)
     << getLineDirective(sm.FindLineNumber(getLoc(newline)) + 1, eol);
  copied = newline + 1;
}

/// \returns \p text without one trailing `\r`.
static StringRef dropCR(StringRef text) {
  return text.endswith("\r") ? text.drop_back() : text;
}

void Rewriter::visitComment(size_t begin, size_t close, size_t end) {
  size_t lineStart = buf.rfind('\n', begin) + 1; // npos + 1 == 0
  size_t lineEnd = std::min(buf.find('\n', begin), buf.size());
  // The comment text, without `*/`.
  size_t textEnd = close == StringRef::npos ? buf.size() : close;
  StringRef headerText = buf.slice(begin, std::min(lineEnd, textEnd));
  if (lineEnd <= textEnd)
    headerText = dropCR(headerText);
  size_t afterKw = matchHeader(headerText);
  if (afterKw == StringRef::npos)
    return;

  // A header after code would silently stay an ordinary comment; so would
  // one on a line spliced to the previous (a macro body, say).
  StringRef indent = buf.slice(lineStart, begin);
  StringRef before = buf.substr(0, lineStart);
  bool spliced = lineStart > 0 && dropCR(before.drop_back()).endswith("\\");
  if (indent.find_first_not_of(" \t") != StringRef::npos || spliced) {
    errors = joinErrors(
        std::move(errors),
        DiagnosticError::get(
            sm, getLoc(begin),
            spliced ? "inject site comment must be the first thing on its "
                      "line, which continues the previous one"
                    : "inject site comment must be the first thing on its "
                      "line"));
    return;
  }

  // The first error of the site wins.
  Error err = Error::success();
  auto fail = [&](Error e) {
    if (!err)
      err = std::move(e);
    else
      consumeError(std::move(e));
  };
  StringRef name = headerText.substr(afterKw).trim(" \t");
  if (close == StringRef::npos)
    fail(DiagnosticError::get(
        sm, getLoc(begin), "missing '*/' closing inject site '" + name + "'"));
  // `in f32 x /* the input */` ends the site at its `*/`, leaving the lines
  // after it to the compiler.
  size_t nested = buf.slice(begin + 2, textEnd).find("/*");
  if (nested != StringRef::npos)
    fail(DiagnosticError::get(sm, getLoc(begin + 2 + nested),
                              "'/*' inside a PTX_INJECT block: the block ends "
                              "at the first '*/'"));
  if (name.empty())
    fail(error(headerText.substr(afterKw), "missing inject site name"));
  else if (name.find_first_of(" \t") != StringRef::npos)
    fail(error(name.substr(name.find_first_of(" \t")).ltrim(" \t"),
               "unexpected text after inject site name '" +
                   name.take_until(isBlank) + "'"));

  // Variable lines: the rest of the comment, line by line.
  SmallVector<ParsedVar, 16> vars;
  StringMap<SMLoc> seen;
  if (lineEnd < textEnd) {
    StringRef body = buf.slice(lineEnd + 1, textEnd);
    while (!err && !body.empty()) {
      std::pair<StringRef, StringRef> split = body.split('\n');
      fail(parseVar(dropCR(split.first), vars, seen));
      body = split.second;
    }
  }
  if (vars.empty())
    fail(DiagnosticError::get(sm, getLoc(begin),
                              "inject site '" + name + "' has no variables"));
  if (!err)
    err = checkAgainstFirst(name, getLoc(begin), vars);
  if (err) {
    // Copied unchanged, so the scan goes on and reports every broken site.
    errors = joinErrors(std::move(errors), std::move(err));
    return;
  }

  // The asm replaces the lines from the header to the `*/`; text after the
  // `*/` follows it, then the terminator of the `*/` line.
  size_t closeLineEnd = std::min(buf.find('\n', end), buf.size());
  size_t tailStart = closeLineEnd;
  if (closeLineEnd < buf.size() && closeLineEnd > end &&
      buf[closeLineEnd - 1] == '\r')
    --tailStart;
  StringRef trailing = buf.slice(end, tailStart).trim(" \t");
  StringRef eol = buf[lineEnd - 1] == '\r' ? "\r\n" : "\n";
  assert(lineStart >= copied && "sites start on lines of their own");
  os << buf.slice(copied, lineStart);
  // The asm is longer than the site, so its lines are numbered from the
  // header's line and its operand lists (where an operand's errors are)
  // as the site's last two lines: the text after `*/` and the lines after
  // it keep their numbers.
  assert(!directivePending && "a code newline comes before any header");
  std::string beforeOperands;
  if (opts.lineDirectives) {
    assert(lineEnd < close && "a valid site spans two lines or more");
    os << getLineDirective(sm.FindLineNumber(getLoc(begin)), eol);
    beforeOperands =
        getLineDirective(sm.FindLineNumber(getLoc(end - 1)) - 1, eol);
  }
  SmallVector<SiteVar, 16> siteVars;
  for (const ParsedVar &var : vars)
    siteVars.push_back(var.var);
  printInjectAsm(name, siteVars, indent, eol, os, beforeOperands);
  if (!trailing.empty())
    os << ' ' << trailing;
  copied = tailStart;
  // The directive after the site waits for the end of the `*/` line, or of
  // a comment, literal or splice that the text after `*/` opens.
  directivePending = opts.lineDirectives;
  ++numSites;
}

Expected<unsigned> Rewriter::run() {
  size_t size = buf.size();
  for (size_t pos = 0; (pos = skipSplices(pos)) < size;) {
    char c = buf[pos];
    size_t next = skipSplices(pos + 1);
    char d = next < size ? buf[next] : '\0';
    if (c == '/' && d == '*') {
      size_t close;
      size_t end = skipBlockComment(next + 1, close);
      visitComment(pos, close, end);
      pos = end;
    } else if (c == '/' && d == '/') {
      pos = skipLineComment(next + 1);
    } else if (c == '"' || c == '\'') {
      pos = skipLiteral(next, c);
    } else if (isDigit(c) || (c == '.' && isDigit(d))) {
      pos = skipNumber(next, c);
    } else if (isIdentChar(c)) {
      // An encoding prefix ending in `R` opens a raw string.
      size_t start = pos;
      while (pos < size && isIdentChar(buf[pos]))
        pos = skipSplices(pos + 1);
      StringRef ident = buf.slice(start, pos);
      if (pos < size && buf[pos] == '"' &&
          (ident == "R" || ident == "LR" || ident == "uR" || ident == "UR" ||
           ident == "u8R"))
        pos = skipRawString(pos + 1);
    } else {
      if (c == '\n' && directivePending)
        writePendingDirective(pos);
      pos = next;
    }
  }
  os << buf.substr(copied);
  if (errors)
    return std::move(errors);
  return numSites;
}

Expected<unsigned> annotate::annotateSource(const SourceMgr &sm,
                                            unsigned bufferID,
                                            const TypeTable &types,
                                            raw_ostream &os,
                                            const AnnotateOptions &opts) {
  return Rewriter(sm, bufferID, types, opts, os).run();
}
