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
using expr::InstrSet;

std::vector<AstVar> AstModule::getInputs() const {
  std::vector<AstVar> In;
  In.reserve(Vars.size());
  for (const AstVarDecl &V : Vars)
    In.push_back({V.Name, V.StackIdx});
  return In;
}

AstProgram AstModule::getProgram() const {
  OutputRefs.clear();
  for (const AstOutputDecl &O : Outputs)
    OutputRefs.push_back(
        {{Vars[O.Var].Name, Vars[O.Var].StackIdx}, O.Expr.Words});
  RoutineRefs.clear();
  for (const AstRoutineDecl &R : Routines)
    RoutineRefs.push_back(R.Body.Words);
  return AstProgram{OutputRefs, RoutineRefs};
}

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

namespace {

struct SExpr {
  bool IsList = false;
  StringRef Atom; ///< the atom, or the '(' of a list
  std::vector<SExpr> Items;
  SMLoc loc() const { return SMLoc::getFromPointer(Atom.data()); }
};

class Reader {
public:
  Reader(const SourceMgr &Sm, StringRef Buf)
      : Sm(Sm), Cur(Buf.begin()), End(Buf.end()) {}

  /// Reads every top-level form.
  Error readAll(std::vector<SExpr> &Forms) {
    for (;;) {
      skipBlanks();
      if (Cur == End)
        return Error::success();
      Forms.emplace_back();
      if (Error E = read(Forms.back(), 0))
        return E;
    }
  }

private:
  void skipBlanks() {
    for (;;) {
      while (Cur != End && isSpace(*Cur))
        ++Cur;
      if (Cur != End && *Cur == ';') {
        while (Cur != End && *Cur != '\n')
          ++Cur;
        continue;
      }
      return;
    }
  }
  Error read(SExpr &X, unsigned Depth) {
    if (Depth > 10000)
      return DiagnosticError::get(Sm, SMLoc::getFromPointer(Cur),
                                  "expressions nested too deeply");
    if (*Cur == ')')
      return DiagnosticError::get(Sm, SMLoc::getFromPointer(Cur),
                                  "unexpected ')'");
    if (*Cur != '(') {
      const char *Start = Cur;
      while (Cur != End && !isSpace(*Cur) && *Cur != '(' && *Cur != ')' &&
             *Cur != ';')
        ++Cur;
      X.Atom = StringRef(Start, Cur - Start);
      return Error::success();
    }
    X.IsList = true;
    X.Atom = StringRef(Cur++, 1);
    for (;;) {
      skipBlanks();
      if (Cur == End)
        return DiagnosticError::get(Sm, X.loc(), "'(' without a matching ')'");
      if (*Cur == ')') {
        ++Cur;
        return Error::success();
      }
      X.Items.emplace_back();
      if (Error E = read(X.Items.back(), Depth + 1))
        return E;
    }
  }

  const SourceMgr &Sm;
  const char *Cur, *End;
};

bool isIdent(StringRef S) {
  if (S.empty() || !(isAlpha(S[0]) || S[0] == '_' || S[0] == '$'))
    return false;
  return all_of(S, [](char C) { return isAlnum(C) || C == '_' || C == '$'; });
}

bool looksLikeLiteral(StringRef S) {
  char C0 = S[0], C1 = S.size() > 1 ? S[1] : 0;
  StringRef Word = S.take_until([](char C) { return C == ':'; });
  return isDigit(C0) ||
         ((C0 == '-' || C0 == '+') &&
          (isDigit(C1) || C1 == '.' || C1 == 'i')) ||
         (C0 == '.' && isDigit(C1)) || Word == "true" || Word == "false";
}

//===----------------------------------------------------------------------===//
// Forms to words
//===----------------------------------------------------------------------===//

class Builder {
public:
  Builder(const SourceMgr &Sm, const InstrSet &Info,
          ArrayRef<AstVarDecl> Predeclared)
      : Sm(Sm), Info(Info), Predeclared(Predeclared) {}
  Expected<AstModule> build(std::vector<SExpr> &Forms);

private:
  Error error(const SExpr &X, const Twine &Msg) {
    return DiagnosticError::get(Sm, X.loc(), Msg);
  }
  Expected<uint16_t> parseStack(const SExpr &X);
  Error declare(const SExpr &Form);
  Error expr(const SExpr &X, int ExpectedStack, AstWords &Out);
  Expected<int> lookupVar(const SExpr &X);
  int findStackCI(StringRef Name) const {
    for (uint32_t S = 0; S != Info.NumStacks; ++S)
      if (Name.equals_insensitive(Info.StackNames[S]))
        return int(S);
    return -1;
  }
  void add(AstWords &Out, uint64_t W, const SExpr &X) {
    Out.Words.push_back(W);
    Out.Locs.push_back(X.loc());
  }

  const SourceMgr &Sm;
  const InstrSet &Info;
  ArrayRef<AstVarDecl> Predeclared;
  AstModule M;
  StringMap<uint32_t> VarIdx, RoutineIdx;
  /// Parameters of the routine being built, or null in an expression.
  const std::vector<std::string> *Params = nullptr;
};

} // namespace

Expected<uint16_t> Builder::parseStack(const SExpr &X) {
  if (X.IsList)
    return error(X, "expected a stack name");
  int S = findStackCI(X.Atom);
  if (S < 0)
    return error(X, "unknown stack '" + X.Atom + "'");
  return uint16_t(S);
}

Error Builder::declare(const SExpr &Form) {
  const SExpr &Head = Form.Items[0];
  if (Form.Items.size() != 3 || Form.Items[1].IsList)
    return error(Form, "expected '(" + Head.Atom + " NAME STACK)'");
  const SExpr &Name = Form.Items[1];
  if (!isIdent(Name.Atom))
    return error(Name, "'" + Name.Atom + "' is not a PTX identifier");
  if (Info.findInstr(Name.Atom) >= 0)
    return error(Name,
                 "variable '" + Name.Atom + "' has the name of an instruction");
  if (isReservedAstName(Name.Atom))
    return error(Name, "variable name '" + Name.Atom +
                           "' is reserved for the stub's temporaries "
                           "(ast<n>, ast_s<stack>_<n>)");
  auto It = VarIdx.find(Name.Atom);
  if (It != VarIdx.end())
    return error(Name,
                 "variable '" + Name.Atom + "' is declared " +
                     (M.Vars[It->second].Loc.getPointer() < Name.Atom.data()
                          ? "twice"
                          : "after its first use"));
  Expected<uint16_t> S = parseStack(Form.Items[2]);
  if (!S)
    return S.takeError();
  AstVarDecl D;
  D.Name = Name.Atom.str();
  D.StackIdx = *S;
  D.Kind = Head.Atom == "in"    ? InjectArgKind::In
           : Head.Atom == "out" ? InjectArgKind::Out
                                : InjectArgKind::Mod;
  D.Loc = Name.loc();
  VarIdx[Name.Atom] = uint32_t(M.Vars.size());
  M.Vars.push_back(std::move(D));
  return Error::success();
}

Expected<int> Builder::lookupVar(const SExpr &X) {
  auto It = VarIdx.find(X.Atom);
  if (It != VarIdx.end())
    return int(It->second);
  for (const AstVarDecl &P : Predeclared)
    if (P.Name == X.Atom) {
      // A site variable whose type no one stack holds must be declared.
      if (P.StackIdx >= Info.NumStacks)
        return error(X, "variable '" + X.Atom +
                            "' has no stack of its own: declare it with the "
                            "stack to use, as in (" +
                            getInjectArgKindName(P.Kind) + " " + X.Atom +
                            " STACK)");
      AstVarDecl D = P;
      D.Loc = X.loc();
      D.FirstRead = SMLoc();
      VarIdx[X.Atom] = uint32_t(M.Vars.size());
      M.Vars.push_back(std::move(D));
      return int(M.Vars.size() - 1);
    }
  return -1;
}

Error Builder::expr(const SExpr &X, int ExpectedStack, AstWords &Out) {
  if (!X.IsList) {
    StringRef A = X.Atom;
    if (A.startswith("%")) {
      StringRef Name = A.drop_front();
      int Sp = Info.findSpecial(Name);
      uint16_t Elem = 0;
      if (Sp < 0 && Name.size() > 2 && Name[Name.size() - 2] == '.') {
        size_t E = StringRef("xyzw").find(Name.back());
        int Base = Info.findSpecial(Name.drop_back(2));
        if (E != StringRef::npos && Base >= 0 &&
            Info.ArgTypes[Info.Specials[Base].TheArgType].NumVecElems > E) {
          Sp = Base;
          Elem = uint16_t(E);
        }
      }
      if (Sp < 0)
        return error(X, "unknown special register '" + A + "'");
      add(Out, encodeSpecial(uint32_t(Sp), Elem), X);
      return Error::success();
    }
    if (looksLikeLiteral(A)) {
      StringRef Text = A;
      int Stack = ExpectedStack >= 0 ? ExpectedStack : 0;
      size_t Colon = A.rfind(':');
      if (Colon != StringRef::npos) {
        Text = A.take_front(Colon);
        Stack = findStackCI(A.drop_front(Colon + 1));
        if (Stack < 0)
          return error(X, "unknown stack '" + A.drop_front(Colon + 1) + "'");
      }
      if (uint32_t(Stack) >= Info.NumStacks)
        return error(X, "no stack for literal '" + A + "'");
      Expected<uint32_t> Bits =
          expr::parseLiteral(Text, Info.LiteralPrefixes[Stack]);
      if (!Bits)
        return error(X, toString(Bits.takeError()) + " on stack " +
                            Info.StackNames[Stack]);
      add(Out, encodeConstantBits(uint16_t(Stack), *Bits), X);
      return Error::success();
    }
    if (Params) {
      auto P = find(*Params, A);
      if (P != Params->end()) {
        add(Out, encodeRoutineArg(uint32_t(P - Params->begin())), X);
        return Error::success();
      }
    }
    Expected<int> V = lookupVar(X);
    if (!V)
      return V.takeError();
    if (*V < 0) {
      if (Info.findInstr(A) >= 0 || RoutineIdx.count(A))
        return error(X, "'" + A + "' is called without parentheses: write (" +
                            A + " ...)");
      return error(X, "unknown variable '" + A + "'");
    }
    AstVarDecl &D = M.Vars[*V];
    if (D.Kind == InjectArgKind::Out)
      return error(X, "'" + A +
                          "' is an out variable, which has no value to read; "
                          "declare it 'mod' to read its value");
    if (!D.FirstRead.isValid())
      D.FirstRead = X.loc();
    add(Out, encodeInput(uint32_t(*V)), X);
    return Error::success();
  }
  if (X.Items.empty())
    return error(X, "empty expression '()'");
  const SExpr &Head = X.Items[0];
  if (Head.IsList)
    return error(Head, "expected an instruction or routine name");
  size_t NumArgs = X.Items.size() - 1;
  int Instr = Info.findInstr(Head.Atom);
  auto R = RoutineIdx.find(Head.Atom);
  if (R != RoutineIdx.end()) {
    const AstRoutineDecl &Rd = M.Routines[R->second];
    if (NumArgs != Rd.Params.size())
      return error(Head, "routine '" + Head.Atom + "' takes " +
                             Twine(Rd.Params.size()) + " argument(s), " +
                             Twine(NumArgs) + " given");
    for (size_t I = 1; I <= NumArgs; ++I)
      if (Error E = expr(X.Items[I], -1, Out))
        return E;
    if (NumArgs > 0xffff)
      return error(Head, "too many arguments");
    add(Out, encodeRoutine(R->second, uint16_t(NumArgs)), Head);
    return Error::success();
  }
  if (Instr < 0)
    return error(Head, "unknown instruction or routine '" + Head.Atom + "'");
  // Expected operand stacks, flattened.
  const expr::PtxInstrDesc &D = Info.Instrs[Instr];
  SmallVector<uint16_t, 8> Want;
  for (unsigned A = 0; A != D.NumArgs; ++A) {
    const expr::ArgTypeInfo &T = Info.ArgTypes[D.Args[A]];
    Want.append(T.NumVecElems ? T.NumVecElems : 1, T.StackIdx);
  }
  if (NumArgs != Want.size())
    return error(Head, "'" + Head.Atom + "' takes " + Twine(Want.size()) +
                           " operand(s), " + Twine(NumArgs) + " given");
  for (size_t I = 1; I <= NumArgs; ++I) {
    if (Error E = expr(X.Items[I], Want[I - 1], Out))
      return E;
    // A variable of the wrong type is reported here, at the operand, rather
    // than by the compiler at the instruction.
    uint64_t Last = Out.Words.back();
    if (getAstWordType(Last) == AstWordType::Input &&
        M.Vars[getAstWordPayload(Last)].StackIdx != Want[I - 1])
      return error(
          X.Items[I],
          "operand " + Twine(I - 1) + " of '" + Head.Atom + "' must be " +
              Info.StackNames[Want[I - 1]] + "; '" + X.Items[I].Atom + "' is " +
              Info.StackNames[M.Vars[getAstWordPayload(Last)].StackIdx]);
  }
  add(Out, encodePtx(uint32_t(Instr), uint16_t(NumArgs)), Head);
  return Error::success();
}

Expected<AstModule> Builder::build(std::vector<SExpr> &Forms) {
  // Declarations and routine headers first.
  for (SExpr &F : Forms) {
    if (!F.IsList || F.Items.empty() || F.Items[0].IsList)
      continue;
    StringRef H = F.Items[0].Atom;
    if (H == "in" || H == "out" || H == "mod") {
      if (Error E = declare(F))
        return E;
    } else if (H == "define") {
      if (F.Items.size() != 3 || !F.Items[1].IsList || F.Items[1].Items.empty())
        return error(F, "expected '(define (NAME PARAM...) EXPR)'");
      AstRoutineDecl Rd;
      for (const SExpr &P : F.Items[1].Items) {
        if (P.IsList || !isIdent(P.Atom))
          return error(P, "expected a name");
        if (&P != &F.Items[1].Items[0] && is_contained(Rd.Params, P.Atom))
          return error(P, "parameter '" + P.Atom + "' is named twice");
        if (&P != &F.Items[1].Items[0])
          Rd.Params.push_back(P.Atom.str());
      }
      const SExpr &Name = F.Items[1].Items[0];
      if (Info.findInstr(Name.Atom) >= 0)
        return error(Name, "routine '" + Name.Atom +
                               "' has the name of an instruction");
      if (!RoutineIdx.try_emplace(Name.Atom, M.Routines.size()).second)
        return error(Name, "routine '" + Name.Atom + "' is defined twice");
      Rd.Name = Name.Atom.str();
      Rd.Body.Loc = Name.loc();
      M.Routines.push_back(std::move(Rd));
    }
  }
  std::vector<bool> Written;
  const SExpr *Bare = nullptr;
  for (SExpr &F : Forms) {
    if (F.IsList && !F.Items.empty() && !F.Items[0].IsList) {
      StringRef H = F.Items[0].Atom;
      if (H == "in" || H == "out" || H == "mod")
        continue;
      if (H == "define") {
        AstRoutineDecl &Rd = M.Routines[RoutineIdx[F.Items[1].Items[0].Atom]];
        Params = &Rd.Params;
        Error E = expr(F.Items[2], -1, Rd.Body);
        Params = nullptr;
        if (E)
          return E;
        add(Rd.Body, encodeReturn(), F.Items[2]);
        continue;
      }
      if (H == "=") {
        if (F.Items.size() != 3 || F.Items[1].IsList)
          return error(F, "expected '(= NAME EXPR)'");
        Expected<int> V = lookupVar(F.Items[1]);
        if (!V)
          return V.takeError();
        if (*V < 0)
          return error(F.Items[1],
                       "unknown variable '" + F.Items[1].Atom + "'");
        if (M.Vars[*V].Kind == InjectArgKind::In)
          return error(F.Items[1], "'" + F.Items[1].Atom +
                                       "' is an in variable; only out and "
                                       "mod variables can be written");
        for (const AstOutputDecl &O : M.Outputs)
          if (O.Var == uint32_t(*V))
            return error(F.Items[1],
                         "'" + F.Items[1].Atom + "' is written twice");
        AstOutputDecl O;
        O.Var = uint32_t(*V);
        O.Expr.Loc = F.Items[1].loc();
        if (Error E = expr(F.Items[2], M.Vars[*V].StackIdx, O.Expr))
          return E;
        add(O.Expr, encodeReturn(), F.Items[2]);
        M.Outputs.push_back(std::move(O));
        continue;
      }
    }
    if (Bare)
      return error(F, "a second expression without '(= NAME ...)'");
    Bare = &F;
  }
  if (Bare) {
    // The one variable it may be for.
    int Target = -1;
    for (InjectArgKind K : {InjectArgKind::Out, InjectArgKind::Mod}) {
      int Count = 0;
      for (size_t I = 0; I != M.Vars.size(); ++I)
        if (M.Vars[I].Kind == K) {
          ++Count;
          Target = int(I);
        }
      if (Count == 1)
        break;
      if (Count > 1)
        return error(*Bare, "an expression without '(= NAME ...)' needs "
                            "exactly one out variable; this program has " +
                                Twine(Count) + " " +
                                (K == InjectArgKind::Out ? "out" : "mod") +
                                " variables");
      Target = -1;
    }
    if (Target < 0) {
      // Predeclared variables: the one out (or mod) variable of the site.
      for (InjectArgKind K : {InjectArgKind::Out, InjectArgKind::Mod}) {
        int Count = 0, Found = -1;
        for (size_t I = 0; I != Predeclared.size(); ++I)
          if (Predeclared[I].Kind == K &&
              (Found < 0 || Predeclared[I].SiteVarIdx == ~0u ||
               Predeclared[I].SiteVarIdx != Predeclared[Found].SiteVarIdx)) {
            ++Count;
            Found = int(I);
          }
        if (Count == 1) {
          SExpr Name;
          Name.Atom = StringRef(Predeclared[Found].Name);
          // Declared at the expression.
          Expected<int> V = lookupVar(Name);
          if (!V)
            return V.takeError();
          M.Vars[*V].Loc = Bare->loc();
          Target = *V;
          break;
        }
        if (Count > 1)
          break;
      }
    }
    if (Target < 0)
      return error(*Bare, "an expression without '(= NAME ...)' needs "
                          "exactly one out variable to write");
    AstOutputDecl O;
    O.Var = uint32_t(Target);
    O.Expr.Loc = Bare->loc();
    if (Error E = expr(*Bare, M.Vars[Target].StackIdx, O.Expr))
      return E;
    add(O.Expr, encodeReturn(), *Bare);
    M.Outputs.push_back(std::move(O));
  }
  return std::move(M);
}

Expected<AstModule> ast::parseAstModule(const SourceMgr &Sm, unsigned BufferId,
                                        const InstrSet &Info,
                                        ArrayRef<AstVarDecl> Predeclared) {
  std::vector<SExpr> Forms;
  Reader R(Sm, Sm.getMemoryBuffer(BufferId)->getBuffer());
  if (Error E = R.readAll(Forms))
    return E;
  Builder B(Sm, Info, Predeclared);
  return B.build(Forms);
}

Expected<AstModule> ast::parseAstModule(StringRef Text, const InstrSet &Info,
                                        StringRef BufferName) {
  // Diagnostics point into the buffer, so the SourceMgr must outlive
  // their printing: render them here.
  SourceMgr Sm;
  Sm.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, BufferName),
                        SMLoc());
  Expected<AstModule> M = parseAstModule(Sm, 1, Info);
  if (!M)
    return makeError(toString(M.takeError()));
  // Locations point into the SourceMgr's copy, which dies here.
  for (AstVarDecl &V : M->Vars)
    V.Loc = V.FirstRead = SMLoc();
  for (AstRoutineDecl &R : M->Routines) {
    R.Body.Loc = SMLoc();
    std::fill(R.Body.Locs.begin(), R.Body.Locs.end(), SMLoc());
  }
  for (AstOutputDecl &O : M->Outputs) {
    O.Expr.Loc = SMLoc();
    std::fill(O.Expr.Locs.begin(), O.Expr.Locs.end(), SMLoc());
  }
  return M;
}

Error ast::locateAstError(Error E, const SourceMgr &Sm, const AstModule &M) {
  return handleErrors(std::move(E), [&](const AstError &Ae) -> Error {
    const AstWordPos &Pos = Ae.getPos();
    const AstWords *W = nullptr;
    if (Pos.Routine != ~0u && Pos.Routine < M.Routines.size())
      W = &M.Routines[Pos.Routine].Body;
    else if (Pos.Routine == ~0u && Pos.Expr < M.Outputs.size())
      W = &M.Outputs[Pos.Expr].Expr;
    SMLoc Loc;
    if (W && Pos.Word < W->Locs.size())
      Loc = W->Locs[Pos.Word];
    else if (W)
      Loc = W->Loc;
    if (!Loc.isValid())
      return make_error<AstError>(Ae);
    return DiagnosticError::get(Sm, Loc,
                                Ae.getMessage() + " (" +
                                    getAstResultName(uint32_t(Ae.getResult())) +
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
  std::string Text;
  bool IsLiteral = false;
  uint16_t Stack = 0;
  uint32_t Bits = 0;
};
} // namespace

static std::string spellLiteral(const PrintVal &V, int ExpectedStack,
                                const InstrSet &Info) {
  std::string S;
  raw_string_ostream Os(S);
  if (V.Stack >= Info.NumStacks) {
    Os << "0x" << format_hex_no_prefix(V.Bits, 8);
    return Os.str();
  }
  StringRef P = Info.LiteralPrefixes[V.Stack];
  if (P == "f32" || P == "f64")
    expr::printF32Literal(Os, V.Bits);
  else if (P == "pred")
    Os << (V.Bits ? "true" : "false");
  else if (P.startswith("s")) {
    unsigned W = expr::getTypeWidth(P);
    int64_t X = W >= 32 ? int64_t(int32_t(V.Bits))
                        : int64_t(uint64_t(V.Bits) << (64 - W)) >> (64 - W);
    if (W == 64)
      X = int64_t(uint64_t(V.Bits));
    Os << X;
  } else if (P.startswith("b"))
    Os << "0x" << format_hex_no_prefix(V.Bits, 1);
  else
    Os << V.Bits;
  if (int(V.Stack) != (ExpectedStack >= 0 ? ExpectedStack : 0))
    Os << ":" << Info.StackNames[V.Stack];
  return Os.str();
}

static Expected<std::string> printExpr(ArrayRef<uint64_t> Words,
                                       const AstModule &M, const InstrSet &Info,
                                       const std::vector<std::string> *Params,
                                       int ExpectedStack) {
  std::vector<PrintVal> Values;
  auto Take = [&](size_t I, int Exp) {
    PrintVal &V = Values[I];
    return V.IsLiteral ? spellLiteral(V, Exp, Info) : V.Text;
  };
  for (size_t I = 0; I != Words.size(); ++I) {
    uint64_t W = Words[I];
    uint16_t Aux = getAstWordAux(W);
    uint32_t Payload = getAstWordPayload(W);
    auto Bad = [&](const Twine &Msg) {
      return makeError("word " + Twine(I) + ": " + Msg);
    };
    switch (getAstWordType(W)) {
    case AstWordType::Input:
      if (Payload >= M.Vars.size())
        return Bad("input " + Twine(Payload) + " out of range");
      Values.push_back({M.Vars[Payload].Name});
      break;
    case AstWordType::Constant: {
      PrintVal V;
      V.IsLiteral = true;
      V.Stack = Aux;
      V.Bits = Payload;
      Values.push_back(V);
      break;
    }
    case AstWordType::Special: {
      if (Payload >= Info.NumSpecials)
        return Bad("special register " + Twine(Payload) + " out of range");
      std::string T = "%" + std::string(Info.SpecialPtx[Payload]);
      if (Info.ArgTypes[Info.Specials[Payload].TheArgType].NumVecElems)
        T += std::string(".") + "xyzw"[Aux & 3];
      Values.push_back({T});
      break;
    }
    case AstWordType::RoutineArg:
      if (!Params || Payload >= Params->size())
        return Bad("routine argument " + Twine(Payload) + " out of range");
      Values.push_back({(*Params)[Payload]});
      break;
    case AstWordType::Ptx:
    case AstWordType::Routine: {
      bool IsPtx = getAstWordType(W) == AstWordType::Ptx;
      if (IsPtx ? Payload >= Info.NumInstrs : Payload >= M.Routines.size())
        return Bad((IsPtx ? "instruction " : "routine ") + Twine(Payload) +
                   " out of range");
      if (Values.size() < Aux)
        return Bad("too few operands");
      SmallVector<uint16_t, 8> Want;
      if (IsPtx) {
        const expr::PtxInstrDesc &D = Info.Instrs[Payload];
        for (unsigned A = 0; A != D.NumArgs; ++A) {
          const expr::ArgTypeInfo &T = Info.ArgTypes[D.Args[A]];
          Want.append(T.NumVecElems ? T.NumVecElems : 1, T.StackIdx);
        }
      }
      std::string T = "(";
      T += IsPtx ? Info.InstrNames[Payload] : M.Routines[Payload].Name;
      size_t Base = Values.size() - Aux;
      for (unsigned K = 0; K != Aux; ++K)
        T += " " + Take(Base + K, K < Want.size() ? int(Want[K]) : -1);
      T += ")";
      Values.resize(Base);
      Values.push_back({T});
      break;
    }
    case AstWordType::Return:
      if (Values.size() != 1)
        return Bad("RETURN with " + Twine(Values.size()) + " values");
      return Take(0, ExpectedStack);
    default:
      return Bad("not an AST PTX word");
    }
  }
  return makeError("no RETURN");
}

Error ast::printAstModule(raw_ostream &Os, const AstModule &M,
                          const InstrSet &Info) {
  for (const AstVarDecl &V : M.Vars)
    Os << "(" << getInjectArgKindName(V.Kind) << " " << V.Name << " "
       << Info.StackNames[V.StackIdx] << ")\n";
  for (size_t I = 0; I != M.Routines.size(); ++I) {
    const AstRoutineDecl &R = M.Routines[I];
    Expected<std::string> Body =
        printExpr(R.Body.Words, M, Info, &R.Params, -1);
    if (!Body)
      return makeError("routine '" + R.Name +
                       "': " + toString(Body.takeError()));
    Os << "(define (" << R.Name;
    for (const std::string &P : R.Params)
      Os << " " << P;
    Os << ") " << *Body << ")\n";
  }
  for (const AstOutputDecl &O : M.Outputs) {
    const AstVarDecl &V = M.Vars[O.Var];
    Expected<std::string> E =
        printExpr(O.Expr.Words, M, Info, nullptr, V.StackIdx);
    if (!E)
      return makeError("expression of '" + V.Name +
                       "': " + toString(E.takeError()));
    Os << "(= " << V.Name << " " << *E << ")\n";
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Word files
//===----------------------------------------------------------------------===//

void ast::printAstWords(raw_ostream &Os, const AstModule &M,
                        const InstrSet &Info) {
  for (const AstVarDecl &V : M.Vars)
    Os << "// " << getInjectArgKindName(V.Kind) << " " << V.Name << " "
       << (V.StackIdx < Info.NumStacks ? Info.StackNames[V.StackIdx] : "?")
       << "\n";
  auto Words = [&](ArrayRef<uint64_t> Ws) {
    Os << " (" << Ws.size() << " words)\n";
    for (uint64_t W : Ws)
      Os << format_hex(W, 18) << "\n";
  };
  for (const AstRoutineDecl &R : M.Routines) {
    Os << "// routine " << R.Name;
    for (const std::string &P : R.Params)
      Os << " " << P;
    Words(R.Body.Words);
  }
  for (const AstOutputDecl &O : M.Outputs) {
    Os << "// output " << M.Vars[O.Var].Name;
    Words(O.Expr.Words);
  }
}

Error ast::renumberAstInstrs(AstModule &M, ArrayRef<uint32_t> Map, bool ToMap,
                             const InstrSet &Info, const SourceMgr *Sm) {
  std::vector<AstWords *> All;
  for (AstRoutineDecl &R : M.Routines)
    All.push_back(&R.Body);
  for (AstOutputDecl &O : M.Outputs)
    All.push_back(&O.Expr);
  // Check every word first, so that an error leaves the module unchanged.
  for (int Apply = 0; Apply != 2; ++Apply)
    for (AstWords *Ws : All)
      for (size_t I = 0; I != Ws->Words.size(); ++I) {
        uint64_t &W = Ws->Words[I];
        if (getAstWordType(W) != AstWordType::Ptx)
          continue;
        uint32_t Idx = getAstWordPayload(W);
        uint32_t To = ~0u;
        if (ToMap) {
          const uint32_t *It = llvm::find(Map, Idx);
          if (It != Map.end())
            To = uint32_t(It - Map.begin());
        } else if (Idx < Map.size()) {
          To = Map[Idx];
        }
        if (To == ~0u) {
          std::string Msg =
              ToMap ? "instruction '" +
                          std::string(Idx < Info.NumInstrs ? Info.InstrPtx[Idx]
                                                           : "?") +
                          "' has no number in the instruction catalogue"
                    : ("instruction number " + Twine(Idx) +
                       " is outside the instruction catalogue (" +
                       Twine(Map.size()) + " instructions)")
                          .str();
          SMLoc Loc = I < Ws->Locs.size() ? Ws->Locs[I] : Ws->Loc;
          if (Sm && Loc.isValid())
            return DiagnosticError::get(*Sm, Loc, Msg);
          return makeError(Msg);
        }
        if (Apply)
          W = encodePtx(To, getAstWordAux(W));
      }
  return Error::success();
}

Expected<AstModule> ast::parseAstWords(const SourceMgr &Sm, unsigned BufferId,
                                       const InstrSet &Info) {
  StringRef Buf = Sm.getMemoryBuffer(BufferId)->getBuffer();
  AstModule M;
  StringMap<uint32_t> VarIdx, RoutineIdx;
  AstWords *Cur = nullptr;
  auto Fail = [&](StringRef At, const Twine &Msg) {
    return DiagnosticError::get(Sm, SMLoc::getFromPointer(At.data()), Msg);
  };
  SmallVector<StringRef, 8> Lines;
  Buf.split(Lines, '\n');
  for (StringRef Line : Lines) {
    StringRef T = Line.trim();
    if (T.empty())
      continue;
    if (!T.consume_front("//")) {
      uint64_t W;
      if (T.getAsInteger(0, W))
        return Fail(T, "expected a word (0x...) or a '//' line");
      if (!Cur)
        return Fail(T, "a word before any '// routine' or '// output' line");
      Cur->Words.push_back(W);
      Cur->Locs.push_back(SMLoc::getFromPointer(T.data()));
      continue;
    }
    // Drop a trailing "(N words)".
    size_t Paren = T.find('(');
    if (Paren != StringRef::npos)
      T = T.take_front(Paren);
    SmallVector<StringRef, 8> F;
    T.split(F, ' ', -1, false);
    if (F.empty())
      continue;
    StringRef Head = F[0];
    if (Head == "in" || Head == "out" || Head == "mod") {
      if (F.size() != 3)
        return Fail(Head, "expected '// " + Head + " NAME STACK'");
      int St = -1;
      for (uint32_t I = 0; I != Info.NumStacks; ++I)
        if (F[2].equals_insensitive(Info.StackNames[I]))
          St = int(I);
      if (St < 0)
        return Fail(F[2], "unknown stack '" + F[2] + "'");
      if (!VarIdx.try_emplace(F[1], M.Vars.size()).second)
        return Fail(F[1], "variable '" + F[1] + "' is declared twice");
      AstVarDecl D;
      D.Name = F[1].str();
      D.StackIdx = uint16_t(St);
      D.Kind = Head == "in"    ? InjectArgKind::In
               : Head == "out" ? InjectArgKind::Out
                               : InjectArgKind::Mod;
      D.Loc = SMLoc::getFromPointer(F[1].data());
      M.Vars.push_back(std::move(D));
    } else if (Head == "routine") {
      if (F.size() < 2)
        return Fail(Head, "expected '// routine NAME PARAM...'");
      if (!RoutineIdx.try_emplace(F[1], M.Routines.size()).second)
        return Fail(F[1], "routine '" + F[1] + "' is defined twice");
      AstRoutineDecl R;
      R.Name = F[1].str();
      for (size_t I = 2; I < F.size(); ++I)
        R.Params.push_back(F[I].str());
      R.Body.Loc = SMLoc::getFromPointer(F[1].data());
      M.Routines.push_back(std::move(R));
      Cur = &M.Routines.back().Body;
    } else if (Head == "output") {
      if (F.size() != 2)
        return Fail(Head, "expected '// output NAME'");
      auto It = VarIdx.find(F[1]);
      if (It == VarIdx.end())
        return Fail(F[1], "unknown variable '" + F[1] + "'");
      if (M.Vars[It->second].Kind == InjectArgKind::In)
        return Fail(F[1], "'" + F[1] + "' is an in variable");
      AstOutputDecl O;
      O.Var = It->second;
      O.Expr.Loc = SMLoc::getFromPointer(F[1].data());
      M.Outputs.push_back(std::move(O));
      Cur = &M.Outputs.back().Expr;
    } else {
      return Fail(Head, "expected 'in', 'out', 'mod', 'routine' or "
                        "'output' after '//'");
    }
  }
  return M;
}
