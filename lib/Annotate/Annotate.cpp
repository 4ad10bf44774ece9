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

/// \returns \p S escaped for a C string literal that is an asm template.
static std::string escapeAsm(StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == '\\' || C == '"')
      Out += '\\';
    else if (C == '%')
      Out += '%';
    Out += C;
  }
  return Out;
}

/// Writes the bound operand expression `(expr)` of \p Var.
static void printBinding(const SiteVar &Var, raw_ostream &OS) {
  StringRef Cv = Var.Kind == VarKind::In ? "const " : "";
  StringRef IntType;
  switch (Var.Type->Bind) {
  case BindKind::Value:
    OS << '(' << Var.Expr << ')';
    return;
  case BindKind::U16:
    IntType = "unsigned short";
    break;
  case BindKind::U32:
    IntType = "unsigned int";
    break;
  case BindKind::U64:
    IntType = "unsigned long long";
    break;
  }
  OS << "(*reinterpret_cast<" << Cv << IntType << " *>(&(" << Var.Expr << ")))";
}

void annotate::printInjectAsm(StringRef Name, ArrayRef<SiteVar> Vars,
                              StringRef Indent, StringRef Eol, raw_ostream &OS,
                              StringRef BeforeOperands) {
  // Asm operand numbers: outputs (mod, out) in order, then inputs.
  SmallVector<unsigned, 16> Opnd(Vars.size());
  unsigned NumOut = 0;
  for (size_t I = 0, E = Vars.size(); I != E; ++I)
    if (Vars[I].Kind != VarKind::In)
      Opnd[I] = NumOut++;
  unsigned NextIn = NumOut;
  for (size_t I = 0, E = Vars.size(); I != E; ++I)
    if (Vars[I].Kind == VarKind::In)
      Opnd[I] = NextIn++;

  std::string Body = (Indent + "    ").str();
  auto Line = [&](const Twine &Text) {
    OS << Body << '"' << Text << "\\n\\t\"" << Eol;
  };
  OS << Indent << "asm volatile(" << Eol;
  Line("{");
  // The scaffold and markers of the site format (InjectFormat.h), with asm
  // operands outside and `%%` for the template's `%`.
  SmallVector<std::string, 16> Operands, Labels;
  SmallVector<ScaffoldVar, 16> Sv;
  for (size_t I = 0, E = Vars.size(); I != E; ++I) {
    Operands.push_back("%" + std::to_string(Opnd[I]));
    Labels.push_back(escapeAsm(
        Vars[I].Label.empty() ? getVariableName(Vars[I].Expr) : Vars[I].Label));
  }
  for (size_t I = 0, E = Vars.size(); I != E; ++I)
    Sv.push_back({Vars[I].Kind, Vars[I].Type->RegType, Vars[I].Type->MovSuffix,
                  Vars[I].Type->TheToken, Labels[I], Operands[I]});
  writeSiteScaffold(escapeAsm(Name), Sv, "%%" + StableRegisterPrefix.str(),
                    /*withMarkers=*/true, Line, [] {});
  OS << Body << "\"}\"" << Eol << BeforeOperands;

  auto Clause = [&](bool Outputs) {
    OS << Body << ':';
    bool First = true;
    for (const SiteVar &Var : Vars) {
      if ((Var.Kind != VarKind::In) != Outputs)
        continue;
      OS << (First ? " " : ", ");
      First = false;
      if (Var.Kind == VarKind::Mod)
        OS << "\"+";
      else if (Var.Kind == VarKind::Out)
        OS << "\"=";
      else
        OS << '"';
      OS << Var.Type->Constraint << '"';
      printBinding(Var, OS);
    }
  };
  Clause(/*outputs=*/true);
  OS << Eol;
  Clause(/*outputs=*/false);
  OS << ");";
}

namespace {

/// A variable of a site and where its parts are.
struct ParsedVar {
  SiteVar Var;
  SMLoc KindLoc, TypeLoc, ExprLoc;
};

/// The first well-formed site of a name, which later ones must match.
struct FirstSite {
  SMLoc Loc;
  SmallVector<ParsedVar, 8> Vars;
};

/// The rewriter of one buffer.
class Rewriter {
public:
  Rewriter(const SourceMgr &Sm, unsigned BufferId, const TypeTable &Types,
           const AnnotateOptions &Opts, raw_ostream &Os)
      : Sm(Sm), Types(Types), Opts(Opts), Os(Os),
        Buf(Sm.getMemoryBuffer(BufferId)->getBuffer()),
        FileName(Sm.getMemoryBuffer(BufferId)->getBufferIdentifier()) {}

  Expected<unsigned> run();

private:
  // The lexer: just enough of translation phases 1-3 to tell comments,
  // literals and code apart. Each function takes the position after the
  // token's opening characters and \returns the position after the token.

  /// \returns \p Pos moved past any backslash-newlines (line splices).
  size_t skipSplices(size_t Pos) const;
  /// \returns the position of the newline that ends a `//` comment.
  size_t skipLineComment(size_t Pos) const;
  /// Sets \p Close to the position of the closing `*/`, or npos if the
  /// comment runs to the end of the buffer.
  size_t skipBlockComment(size_t Pos, size_t &Close) const;
  /// An unterminated literal ends before the newline, as compilers recover.
  size_t skipLiteral(size_t Pos, char Quote) const;
  size_t skipRawString(size_t Pos) const;
  /// A pp-number, which may hold `'` digit separators (C++14).
  size_t skipNumber(size_t Pos, char First) const;

  /// Writes the `#line` directive that follows a site after the newline at
  /// \p Newline, unless nothing follows.
  void writePendingDirective(size_t Newline);
  /// Rewrites the block comment at [\p Begin, \p End) if it is a site.
  void visitComment(size_t Begin, size_t Close, size_t End);
  /// Parses one variable line of a site into \p Vars.
  Error parseVar(StringRef Text, SmallVectorImpl<ParsedVar> &Vars,
                 StringMap<SMLoc> &Seen);
  /// Checks site \p Name at \p Loc against the first site of that name, or
  /// records it as the first.
  Error checkAgainstFirst(StringRef Name, SMLoc Loc, ArrayRef<ParsedVar> Vars);

  /// Sets [\p Start, \p End) to the line that holds \p Pos (\p End at its
  /// newline or the end of the buffer). Positions only grow, so a line is
  /// searched once however many sites it has.
  void findLine(size_t Pos, size_t &Start, size_t &End) {
    if (!HaveLine || Pos > LineEnd) {
      size_t From = HaveLine ? LineEnd + 1 : 0;
      size_t Nl = Buf.slice(From, Pos).rfind('\n');
      LineStart = Nl == StringRef::npos ? From : From + Nl + 1;
      LineEnd = std::min(Buf.find('\n', Pos), Buf.size());
      HaveLine = true;
    }
    Start = LineStart;
    End = LineEnd;
  }

  SMLoc getLoc(size_t Pos) const {
    return SMLoc::getFromPointer(Buf.data() + Pos);
  }
  /// \returns `#line <Line> "<file name>"` and \p Eol.
  std::string getLineDirective(unsigned Line, StringRef Eol) const;

  /// Records the error of a broken site; at the limit, the scan stops.
  void addError(Error Err) {
    Errors = joinErrors(std::move(Errors), std::move(Err));
    if (++NumErrors == Opts.ErrorLimit)
      TooManyErrors = true;
  }

  Error error(StringRef At, const Twine &Msg) {
    return DiagnosticError::get(Sm, SMLoc::getFromPointer(At.data()), Msg);
  }

  const SourceMgr &Sm;
  const TypeTable &Types;
  const AnnotateOptions &Opts;
  raw_ostream &Os;
  StringRef Buf;
  StringRef FileName;
  size_t Copied = 0; ///< Buf[0, Copied) has been written
  /// The line findLine() found last, if any.
  bool HaveLine = false;
  size_t LineStart = 0, LineEnd = 0;
  bool DirectivePending = false;
  StringMap<FirstSite> FirstSites;
  Error Errors = Error::success();
  unsigned NumErrors = 0;
  bool TooManyErrors = false;
  unsigned NumSites = 0;
};

} // namespace

static bool isBlank(char C) { return C == ' ' || C == '\t'; }

/// Bytes of non-ASCII characters count as identifier characters.
static bool isIdentChar(char C) {
  return isAlnum(C) || C == '_' || C == '$' ||
         static_cast<unsigned char>(C) >= 0x80;
}

/// Whether \p L then \p R would start another token than \p L alone (an
/// identifier or number going on, or a punctuator of two or more
/// characters, a comment or a trigraph).
static bool wouldJoin(char L, char R) {
  if (isIdentChar(L) && isIdentChar(R))
    return true;
  static const char *const Pairs[] = {
      "++", "--", "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
      "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", ".*", "..",
      "##", "%:", "<:", ":>", "<%", "%>", "//", "/*", "??", ".0", ".1",
      ".2", ".3", ".4", ".5", ".6", ".7", ".8", ".9"};
  for (const char *P : Pairs)
    if (P[0] == L && P[1] == R)
      return true;
  return false;
}

/// getVariableName(), and in \p KeptBlank the offset in \p Expr of the
/// first blank the name keeps, or npos.
static std::string getVariableName(StringRef Expr, size_t &KeptBlank) {
  const char *const Blanks = " \t\v\f\r";
  KeptBlank = StringRef::npos;
  size_t Begin = Expr.find_first_not_of(Blanks);
  std::string Name;
  for (size_t I = Begin, E = Expr.size(); I < E; ++I) {
    if (!StringRef(Blanks).contains(Expr[I])) {
      Name += Expr[I];
      continue;
    }
    size_t Next = Expr.find_first_not_of(Blanks, I);
    if (Next == StringRef::npos)
      break;
    if (wouldJoin(Name.back(), Expr[Next])) {
      if (KeptBlank == StringRef::npos)
        KeptBlank = I;
      Name += ' ';
    }
    I = Next - 1;
  }
  return Name;
}

std::string annotate::getVariableName(StringRef Expr) {
  size_t KeptBlank;
  return ::getVariableName(Expr, KeptBlank);
}

size_t Rewriter::skipSplices(size_t Pos) const {
  while (Pos < Buf.size() && Buf[Pos] == '\\') {
    size_t Nl = Pos + 1;
    if (Nl < Buf.size() && Buf[Nl] == '\r')
      ++Nl;
    if (Nl == Buf.size() || Buf[Nl] != '\n')
      break;
    Pos = Nl + 1;
  }
  return Pos;
}

size_t Rewriter::skipLineComment(size_t Pos) const {
  while ((Pos = skipSplices(Pos)) < Buf.size() && Buf[Pos] != '\n')
    ++Pos;
  return std::min(Pos, Buf.size());
}

size_t Rewriter::skipBlockComment(size_t Pos, size_t &Close) const {
  for (; (Pos = skipSplices(Pos)) < Buf.size(); ++Pos) {
    if (Buf[Pos] != '*')
      continue;
    size_t Slash = skipSplices(Pos + 1);
    if (Slash < Buf.size() && Buf[Slash] == '/') {
      Close = Pos;
      return Slash + 1;
    }
  }
  Close = StringRef::npos;
  return Buf.size();
}

size_t Rewriter::skipLiteral(size_t Pos, char Quote) const {
  while ((Pos = skipSplices(Pos)) < Buf.size()) {
    char C = Buf[Pos];
    if (C == Quote)
      return Pos + 1;
    if (C == '\n')
      return Pos;
    if (C == '\\') {
      Pos = skipSplices(Pos + 1);
      if (Pos < Buf.size() && Buf[Pos] != '\n')
        ++Pos;
      continue;
    }
    ++Pos;
  }
  return Buf.size();
}

size_t Rewriter::skipRawString(size_t Pos) const {
  // Splices are undone inside raw strings, so the text is taken as it is.
  // A delimiter has at most 16 characters: look no further.
  size_t Paren = Buf.substr(0, Pos + 17).find_first_of("( )\\\t\v\f\r\n", Pos);
  if (Paren == StringRef::npos || Buf[Paren] != '(')
    return skipLiteral(Pos, '"'); // not a raw string after all
  std::string Terminator = (")" + Buf.slice(Pos, Paren) + "\"").str();
  size_t End = Buf.find(Terminator, Paren + 1);
  return End == StringRef::npos ? Buf.size() : End + Terminator.size();
}

size_t Rewriter::skipNumber(size_t Pos, char First) const {
  char Prev = First;
  while ((Pos = skipSplices(Pos)) < Buf.size()) {
    char C = Buf[Pos];
    if (C == '\'') {
      size_t Next = skipSplices(Pos + 1);
      if (Next == Buf.size() || !isIdentChar(Buf[Next]))
        break;
      Pos = Next;
      C = Buf[Pos];
    } else if (!isIdentChar(C) && C != '.' &&
               !((C == '+' || C == '-') && StringRef("eEpP").contains(Prev))) {
      break;
    }
    Prev = C;
    ++Pos;
  }
  return Pos;
}

/// \returns the position just after `PTX_INJECT` if \p S is `/*`, blanks,
/// `PTX_INJECT` and then a blank, a line end or the end; else npos.
static size_t matchHeader(StringRef S) {
  if (!S.startswith("/*"))
    return StringRef::npos;
  size_t Pos = 2;
  while (Pos < S.size() && isBlank(S[Pos]))
    ++Pos;
  StringRef Kw = "PTX_INJECT";
  if (!S.substr(Pos).startswith(Kw))
    return StringRef::npos;
  Pos += Kw.size();
  if (Pos == S.size() || isBlank(S[Pos]) || S[Pos] == '\r' || S[Pos] == '\n')
    return Pos;
  return StringRef::npos;
}

Error Rewriter::parseVar(StringRef Text, SmallVectorImpl<ParsedVar> &Vars,
                         StringMap<SMLoc> &Seen) {
  StringRef T = Text.ltrim(" \t");
  if (T.empty() || T.startswith("//"))
    return Error::success();
  // Kind word.
  StringRef KindWord = T.take_until(isBlank);
  VarKind Kind;
  if (KindWord == "in")
    Kind = VarKind::In;
  else if (KindWord == "mod")
    Kind = VarKind::Mod;
  else if (KindWord == "out")
    Kind = VarKind::Out;
  else
    return error(KindWord, "unknown inject variable kind '" + KindWord +
                               "' (expected in, mod or out)");
  T = T.drop_front(KindWord.size()).ltrim(" \t");
  // Type token.
  StringRef TypeWord = T.take_until(isBlank);
  if (TypeWord.empty() || TypeWord.startswith("//"))
    return error(TypeWord, "expected an inject type after '" + KindWord + "'");
  const TypeInfo *Type = Types.lookup(TypeWord);
  if (!Type)
    return error(TypeWord, "unknown inject type '" + TypeWord + "'");
  T = T.drop_front(TypeWord.size());
  // Expression, without a trailing `// comment`.
  size_t Comment = T.find("//");
  if (Comment != StringRef::npos)
    T = T.substr(0, Comment);
  // Any blank C allows, a lone carriage return too: what is left must be
  // an expression.
  StringRef Expr = T.trim(" \t\v\f\r");
  if (Expr.empty())
    return error(TypeWord.end(),
                 "expected an expression after inject type '" + TypeWord + "'");
  // `in f32 a, c` is two variables written as one: one per line.
  int Depth = 0;
  for (size_t I = 0; I != Expr.size(); ++I) {
    char C = Expr[I];
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if ((C == ')' || C == ']' || C == '}') && Depth > 0)
      --Depth;
    else if (C == ',' && Depth == 0)
      return error(Expr.substr(I),
                   "',' in inject variable '" + Expr +
                       "': one variable per line (parenthesize a comma "
                       "expression)");
  }
  // The markers name it with one token.
  size_t KeptBlank;
  std::string Label = ::getVariableName(Expr, KeptBlank);
  if (KeptBlank != StringRef::npos)
    return error(Expr.substr(KeptBlank),
                 "inject variable '" + Expr +
                     "' has no name without blanks (its marker would "
                     "name it '" +
                     Label +
                     "'): copy the expression into a local variable and "
                     "annotate that");
  SMLoc Loc = SMLoc::getFromPointer(Expr.data());
  auto Inserted = Seen.try_emplace(Label, Loc);
  if (!Inserted.second)
    return DiagnosticError::getWithNote(
        Sm, Loc,
        "duplicate inject variable '" + Label +
            (Label == Expr ? "'" : "' (written '" + Expr + "')"),
        Inserted.first->second, "previous use of '" + Label + "' is here");
  Vars.push_back({SiteVar{Kind, Type, Expr.str(), std::move(Label)},
                  SMLoc::getFromPointer(KindWord.data()),
                  SMLoc::getFromPointer(TypeWord.data()), Loc});
  return Error::success();
}

// Same checks and wording as the PTX-level check in lib/Inject, which would
// otherwise report the mismatch only after the CUDA compiler has run.
Error Rewriter::checkAgainstFirst(StringRef Name, SMLoc Loc,
                                  ArrayRef<ParsedVar> Vars) {
  auto Inserted = FirstSites.try_emplace(Name);
  FirstSite &First = Inserted.first->second;
  if (Inserted.second) {
    First.Loc = Loc;
    First.Vars.assign(Vars.begin(), Vars.end());
    return Error::success();
  }
  std::string Note = ("first site of inject '" + Name + "' is here").str();
  auto Diag = [&](SMLoc At, const Twine &Msg) {
    return DiagnosticError::getWithNote(Sm, At, Msg, First.Loc, Note);
  };
  size_t NumVars = Vars.size(), NumFirst = First.Vars.size();
  for (size_t I = 0, E = std::min(NumVars, NumFirst); I != E; ++I) {
    const ParsedVar &A = Vars[I];
    const SiteVar &V = First.Vars[I].Var;
    if (A.Var.Label != V.Label)
      return Diag(A.ExprLoc, "inconsistent inject site '" + Name +
                                 "': argument " + Twine(I) + " is variable '" +
                                 A.Var.Label + "' here, but '" + V.Label +
                                 "' at the first site");
    auto Differs = [&](SMLoc At, StringRef What, StringRef Here,
                       StringRef There) {
      return Diag(At, "inconsistent inject site '" + Name + "': variable '" +
                          V.Label + "' (argument " + Twine(I) + ") has " +
                          What + " '" + Here + "' here, but '" + There +
                          "' at the first site");
    };
    if (A.Var.Kind != V.Kind)
      return Differs(A.KindLoc, "kind", getInjectArgKindName(A.Var.Kind),
                     getInjectArgKindName(V.Kind));
    if (A.Var.Type != V.Type)
      return Differs(A.TypeLoc, "type", A.Var.Type->TheToken, V.Type->TheToken);
  }
  if (NumVars == NumFirst)
    return Error::success();
  std::string Count =
      ("inject site '" + Name + "' has " + Twine(NumVars) +
       (NumVars == 1 ? " argument" : " arguments") +
       ", but the first site of '" + Name + "' has " + Twine(NumFirst))
          .str();
  if (NumVars > NumFirst)
    return Diag(Vars[NumFirst].ExprLoc, Count + ": variable '" +
                                            Vars[NumFirst].Var.Label +
                                            "' (argument " + Twine(NumFirst) +
                                            ") is not at the first site");
  return Diag(Loc, Count + ": variable '" + First.Vars[NumVars].Var.Label +
                       "' (argument " + Twine(NumVars) + ") is missing here");
}

std::string Rewriter::getLineDirective(unsigned Line, StringRef Eol) const {
  std::string Text;
  raw_string_ostream Dir(Text);
  Dir << "#line " << Line << " \"";
  for (unsigned char C : FileName) {
    if (C == '\\' || C == '"')
      Dir << '\\' << C;
    else if (isPrint(C))
      Dir << C;
    else // an octal escape keeps any byte
      Dir << '\\' << char('0' + (C >> 6)) << char('0' + ((C >> 3) & 7))
          << char('0' + (C & 7));
  }
  Dir << '"' << Eol;
  return Dir.str();
}

void Rewriter::writePendingDirective(size_t Newline) {
  DirectivePending = false;
  if (Newline + 1 == Buf.size())
    return;
  StringRef Eol = Newline > 0 && Buf[Newline - 1] == '\r' ? "\r\n" : "\n";
  Os << Buf.slice(Copied, Newline + 1)
     << getLineDirective(Sm.FindLineNumber(getLoc(Newline)) + 1, Eol);
  Copied = Newline + 1;
}

/// \returns \p Text without one trailing `\r`.
static StringRef dropCR(StringRef Text) {
  return Text.endswith("\r") ? Text.drop_back() : Text;
}

void Rewriter::visitComment(size_t Begin, size_t Close, size_t End) {
  // Most comments are not sites: look no further than `/* PTX_INJECT`
  // before finding the comment's line, which may be long (minified code).
  size_t TextEnd = Close == StringRef::npos ? Buf.size() : Close;
  if (matchHeader(Buf.slice(Begin, TextEnd)) == StringRef::npos)
    return;
  size_t LineStart, LineEnd;
  findLine(Begin, LineStart, LineEnd);
  // A UTF-8 byte order mark, which compilers skip, starts no code.
  if (LineStart == 0 && Buf.startswith("\xEF\xBB\xBF"))
    LineStart = 3;
  StringRef HeaderText = Buf.slice(Begin, std::min(LineEnd, TextEnd));
  if (LineEnd <= TextEnd)
    HeaderText = dropCR(HeaderText);
  size_t AfterKw = matchHeader(HeaderText);

  // A header after code would silently stay an ordinary comment; so would
  // one on a line spliced to the previous (a macro body, say).
  StringRef Indent = Buf.slice(LineStart, Begin);
  StringRef Before = Buf.substr(0, LineStart);
  bool Spliced = LineStart > 0 && dropCR(Before.drop_back()).endswith("\\");
  if (Indent.find_first_not_of(" \t") != StringRef::npos || Spliced) {
    addError(DiagnosticError::get(
        Sm, getLoc(Begin),
        Spliced ? "inject site comment must be the first thing on its "
                  "line, which continues the previous one"
                : "inject site comment must be the first thing on its "
                  "line"));
    return;
  }

  // The first error of the site wins.
  Error Err = Error::success();
  auto Fail = [&](Error E) {
    if (!Err)
      Err = std::move(E);
    else
      consumeError(std::move(E));
  };
  StringRef Name = HeaderText.substr(AfterKw).trim(" \t");
  if (Close == StringRef::npos)
    Fail(DiagnosticError::get(
        Sm, getLoc(Begin), "missing '*/' closing inject site '" + Name + "'"));
  // `in f32 x /* the input */` ends the site at its `*/`, leaving the lines
  // after it to the compiler.
  size_t Nested = Buf.slice(Begin + 2, TextEnd).find("/*");
  if (Nested != StringRef::npos)
    Fail(DiagnosticError::get(Sm, getLoc(Begin + 2 + Nested),
                              "'/*' inside a PTX_INJECT block: the block ends "
                              "at the first '*/'"));
  size_t Nul = Buf.slice(Begin, TextEnd).find('\0');
  if (Nul != StringRef::npos)
    Fail(DiagnosticError::get(
        Sm, getLoc(Begin + Nul),
        "NUL byte inside inject site '" + Name.take_until([](char C) {
          return C == '\0' || isBlank(C);
        }) + "'"));
  if (Name.empty())
    Fail(error(HeaderText.substr(AfterKw), "missing inject site name"));
  else if (Name.find_first_of(" \t") != StringRef::npos)
    Fail(error(Name.substr(Name.find_first_of(" \t")).ltrim(" \t"),
               "unexpected text after inject site name '" +
                   Name.take_until(isBlank) + "'"));

  // Variable lines: the rest of the comment, line by line.
  SmallVector<ParsedVar, 16> Vars;
  StringMap<SMLoc> Seen;
  if (LineEnd < TextEnd) {
    StringRef Body = Buf.slice(LineEnd + 1, TextEnd);
    while (!Err && !Body.empty()) {
      std::pair<StringRef, StringRef> Split = Body.split('\n');
      Fail(parseVar(dropCR(Split.first), Vars, Seen));
      Body = Split.second;
    }
  }
  if (Vars.empty())
    Fail(DiagnosticError::get(Sm, getLoc(Begin),
                              "inject site '" + Name + "' has no variables"));
  if (!Err)
    Err = checkAgainstFirst(Name, getLoc(Begin), Vars);
  if (Err) {
    // Copied unchanged, so the scan goes on and reports every broken site.
    addError(std::move(Err));
    return;
  }

  // The asm replaces the lines from the header to the `*/`; text after the
  // `*/` follows it, then the terminator of the `*/` line.
  size_t CloseLineEnd = std::min(Buf.find('\n', End), Buf.size());
  size_t TailStart = CloseLineEnd;
  if (CloseLineEnd < Buf.size() && CloseLineEnd > End &&
      Buf[CloseLineEnd - 1] == '\r')
    --TailStart;
  StringRef Trailing = Buf.slice(End, TailStart).trim(" \t");
  StringRef Eol = Buf[LineEnd - 1] == '\r' ? "\r\n" : "\n";
  assert(LineStart >= Copied && "sites start on lines of their own");
  Os << Buf.slice(Copied, LineStart);
  // The asm is longer than the site, so its lines are numbered from the
  // header's line and its operand lists (where an operand's errors are)
  // as the site's last two lines: the text after `*/` and the lines after
  // it keep their numbers.
  assert(!DirectivePending && "a code newline comes before any header");
  std::string BeforeOperands;
  if (Opts.LineDirectives) {
    assert(LineEnd < Close && "a valid site spans two lines or more");
    Os << getLineDirective(Sm.FindLineNumber(getLoc(Begin)), Eol);
    BeforeOperands =
        getLineDirective(Sm.FindLineNumber(getLoc(End - 1)) - 1, Eol);
  }
  SmallVector<SiteVar, 16> SiteVars;
  for (const ParsedVar &Var : Vars)
    SiteVars.push_back(Var.Var);
  printInjectAsm(Name, SiteVars, Indent, Eol, Os, BeforeOperands);
  if (!Trailing.empty())
    Os << ' ' << Trailing;
  Copied = TailStart;
  // The directive after the site waits for the end of the `*/` line, or of
  // a comment, literal or splice that the text after `*/` opens.
  DirectivePending = Opts.LineDirectives;
  ++NumSites;
}

Expected<unsigned> Rewriter::run() {
  size_t Size = Buf.size();
  for (size_t Pos = 0; !TooManyErrors && (Pos = skipSplices(Pos)) < Size;) {
    char C = Buf[Pos];
    size_t Next = skipSplices(Pos + 1);
    char D = Next < Size ? Buf[Next] : '\0';
    if (C == '/' && D == '*') {
      size_t Close;
      size_t End = skipBlockComment(Next + 1, Close);
      visitComment(Pos, Close, End);
      Pos = End;
    } else if (C == '/' && D == '/') {
      Pos = skipLineComment(Next + 1);
    } else if (C == '"' || C == '\'') {
      Pos = skipLiteral(Next, C);
    } else if (isDigit(C) || (C == '.' && isDigit(D))) {
      Pos = skipNumber(Next, C);
    } else if (isIdentChar(C)) {
      // An encoding prefix ending in `R` opens a raw string.
      size_t Start = Pos;
      while (Pos < Size && isIdentChar(Buf[Pos]))
        Pos = skipSplices(Pos + 1);
      StringRef Ident = Buf.slice(Start, Pos);
      if (Pos < Size && Buf[Pos] == '"' &&
          (Ident == "R" || Ident == "LR" || Ident == "uR" || Ident == "UR" ||
           Ident == "u8R"))
        Pos = skipRawString(Pos + 1);
    } else {
      if (C == '\n' && DirectivePending)
        writePendingDirective(Pos);
      Pos = Next;
    }
  }
  Os << Buf.substr(Copied);
  if (TooManyErrors)
    return joinErrors(std::move(Errors),
                      makeError("too many broken inject sites in '" + FileName +
                                "' (" + Twine(NumErrors) +
                                "), stopping there"));
  if (Errors)
    return std::move(Errors);
  return NumSites;
}

Expected<unsigned> annotate::annotateSource(const SourceMgr &Sm,
                                            unsigned BufferId,
                                            const TypeTable &Types,
                                            raw_ostream &OS,
                                            const AnnotateOptions &Opts) {
  return Rewriter(Sm, BufferId, Types, Opts, OS).run();
}
