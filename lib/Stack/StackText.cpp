//===- StackText.cpp - Text form of Stack PTX programs --------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Parser and printer of the text form described in StackText.h.
///
/// The parser is a one-token-lookahead recursive descent over a lexer that
/// splits on blanks, `//` comments and the punctuation `{ } ( ) : ; , %`.
/// Calls name routines that may be defined later, so routine names are
/// collected by a first scan over the `.routine` headers.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackText.h"

#include "mmptx/Expr/Literal.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::stack;

Program StackProgram::getProgram() const {
  RoutineRefs.assign(Routines.begin(), Routines.end());
  return Program{Main, RoutineRefs};
}

std::vector<Register> StackProgram::getRegisters() const {
  std::vector<Register> Regs;
  Regs.reserve(Registers.size());
  for (const RegisterDecl &D : Registers)
    Regs.push_back({D.Name, D.StackIdx, D.Kind});
  return Regs;
}

std::vector<uint32_t> StackProgram::getDefaultRequests() const {
  std::vector<uint32_t> Reqs;
  for (uint32_t R = 0, E = Registers.size(); R != E; ++R)
    if (Registers[R].Kind != RegKind::In)
      Reqs.push_back(R);
  return Reqs;
}

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

namespace {

struct Token {
  enum TokenKind { Eof, Punct, Directive, Ident, Number } Kind;
  StringRef Text;
};

static bool isPunct(char C) { return StringRef("{}():;,%").contains(C); }

class Lexer {
public:
  explicit Lexer(StringRef Buf) : Cur(Buf.begin()), End(Buf.end()) {}

  Token next() {
    for (;;) {
      while (Cur != End && isSpace(*Cur))
        ++Cur;
      if (End - Cur >= 2 && Cur[0] == '/' && Cur[1] == '/') {
        while (Cur != End && *Cur != '\n')
          ++Cur;
        continue;
      }
      break;
    }
    if (Cur == End)
      return {Token::Eof, StringRef(Cur, 0)};
    const char *Start = Cur;
    if (isPunct(*Cur))
      return {Token::Punct, StringRef(Cur++, 1)};
    while (Cur != End && !isSpace(*Cur) && !isPunct(*Cur) &&
           !(End - Cur >= 2 && Cur[0] == '/' && Cur[1] == '/'))
      ++Cur;
    StringRef T(Start, Cur - Start);
    char C0 = T[0];
    char C1 = T.size() > 1 ? T[1] : 0;
    if (isDigit(C0) ||
        ((C0 == '-' || C0 == '+') && (isDigit(C1) || C1 == '.')) ||
        (C0 == '.' && isDigit(C1)))
      return {Token::Number, T};
    if (C0 == '.')
      return {Token::Directive, T};
    return {Token::Ident, T};
  }

private:
  const char *Cur, *End;
};

class Parser {
public:
  Parser(SourceMgr &Sm, unsigned Id, const StackInfo &Info,
         ArrayRef<RegisterDecl> Predeclared, ArrayRef<std::string> IncludeDirs)
      : Sm(Sm), Info(Info), Lex(Sm.getMemoryBuffer(Id)->getBuffer()),
        MainId(Id), Predeclared(Predeclared), IncludeDirs(IncludeDirs) {
    for (unsigned I = 0, E = Predeclared.size(); I != E; ++I)
      PredeclaredIdx.try_emplace(Predeclared[I].Name, I);
    Tok = Lex.next();
  }

  Expected<StackProgram> parse();

private:
  /// An error at \p At; in an included file, with a note at the
  /// `.include` that brought it in.
  Error error(StringRef At, const Twine &Msg) {
    SMLoc Loc = SMLoc::getFromPointer(At.data());
    unsigned Id = Sm.FindBufferContainingLoc(Loc);
    SMLoc From = Id ? Sm.getParentIncludeLoc(Id) : SMLoc();
    if (From.isValid())
      return DiagnosticError::getWithNote(Sm, Loc, Msg, From,
                                          "included from here");
    return DiagnosticError::get(Sm, Loc, Msg);
  }
  void consume() { Tok = Lex.next(); }
  bool isPunct(char C) const {
    return Tok.Kind == Token::Punct && Tok.Text[0] == C;
  }
  Error expectPunct(char C) {
    if (!isPunct(C))
      return error(Tok.Text,
                   "expected '" + Twine(C) + "' but found " + describe(Tok));
    consume();
    return Error::success();
  }
  static std::string describe(const Token &T) {
    if (T.Kind == Token::Eof)
      return "end of file";
    return ("'" + T.Text + "'").str();
  }

  Error scanRoutines(unsigned BufId);
  Expected<std::string> resolveInclude(StringRef Name, unsigned FromBuf,
                                       StringRef At);
  Error parseRegisters();
  Error parseRequests();
  Error parseWords(std::vector<uint64_t> &Words);
  Error parseWord(std::vector<uint64_t> &Words);
  Expected<int> parseStackName();
  Expected<uint64_t> parseInt(StringRef What, uint64_t Max);
  Error parseConstant(std::vector<uint64_t> &Words);
  int declarePredeclared(StringRef Name);
  void noteRead(uint32_t Reg, StringRef At);

  SourceMgr &Sm;
  const StackInfo &Info;
  Lexer Lex;
  unsigned MainId;
  Token Tok;
  StackProgram Prog;
  ArrayRef<RegisterDecl> Predeclared;
  ArrayRef<std::string> IncludeDirs;
  /// `.include` handling: the buffer each directive (keyed by its file
  /// name token) brings in, or 0 if that file was included before; the
  /// files (real paths) included so far and those being scanned now; and
  /// the lexers of the files whose parse an include interrupted.
  DenseMap<const char *, unsigned> IncludeBuffer;
  StringSet<> IncludedFiles;
  std::vector<std::string> ActiveFiles;
  std::vector<Lexer> IncludeStack;
  StringMap<unsigned> RegIdx, RoutineIdx, PredeclaredIdx;
  /// Predeclared registers that a use has declared.
  StringSet<> ImplicitRegs;
  std::vector<bool> RoutineDefined;
  bool SawProgram = false;
};

} // namespace

static int findStackByPrefix(const StackInfo &Info, StringRef Name,
                             StringRef Prefix) {
  int S = Info.findStack(Name);
  if (S >= 0)
    return S;
  for (uint32_t I = 0; I != Info.NumStacks; ++I)
    if (Prefix == Info.LiteralPrefixes[I])
      return int(I);
  return -1;
}

/// \returns the file name of an `.include` token, or an empty string if
/// \p T is not a quoted name.
static StringRef includeName(const Token &T) {
  if (T.Kind != Token::Ident || T.Text.size() < 3 || T.Text.front() != '"' ||
      T.Text.back() != '"')
    return StringRef();
  return T.Text.drop_front().drop_back();
}

Expected<std::string> Parser::resolveInclude(StringRef Name, unsigned FromBuf,
                                             StringRef At) {
  // The including file's directory first, then the search paths in order.
  SmallVector<std::string, 4> Tried;
  auto TryPath = [&](const Twine &Path) -> std::string {
    SmallString<256> P;
    Path.toVector(P);
    Tried.push_back(P.str().str());
    SmallString<256> Real;
    if (sys::fs::is_regular_file(P) && !sys::fs::real_path(P, Real))
      return Real.str().str();
    return std::string();
  };
  if (sys::path::is_absolute(Name)) {
    std::string R = TryPath(Name);
    if (!R.empty())
      return R;
  } else {
    StringRef From = Sm.getMemoryBuffer(FromBuf)->getBufferIdentifier();
    SmallString<256> Dir = sys::path::parent_path(From);
    sys::path::append(Dir, Name);
    std::string R = TryPath(Dir);
    if (!R.empty())
      return R;
    for (const std::string &D : IncludeDirs) {
      SmallString<256> P(D);
      sys::path::append(P, Name);
      R = TryPath(P);
      if (!R.empty())
        return R;
    }
  }
  return error(At, "cannot find include file '" + Name + "' (tried " +
                       join(Tried, ", ") + "; add a directory with -I)");
}

/// \returns the width of a constant on a stack of PTX type \p Prefix: 1
/// for `pred`, the type's size below 32 bits (`u8`, `b16`), else 32 (a
/// constant carries 32 bits).
static unsigned literalWidth(StringRef Prefix) {
  if (Prefix == "pred")
    return 1;
  unsigned W = 0;
  if (Prefix.size() < 2 || Prefix.drop_front().getAsInteger(10, W) || W >= 32)
    return 32;
  return W;
}

/// \returns whether \p Bits, parsed from a literal (negative if \p Neg, hex
/// if \p Hex), is a value of a stack of type \p Prefix: a signed type
/// takes decimals in its signed range, every type its unsigned range (and
/// 32-bit ones any 32 bits, negative decimals included, as two's
/// complement).
static bool literalFits(StringRef Prefix, uint32_t Bits, bool Neg, bool Hex) {
  unsigned W = literalWidth(Prefix);
  bool IsSigned = Prefix.startswith("s") && !Hex;
  if (W == 32)
    return !IsSigned || Neg || Bits <= uint32_t(INT32_MAX);
  if (IsSigned)
    return int64_t(int32_t(Bits)) >= -(int64_t(1) << (W - 1)) &&
           int64_t(int32_t(Bits)) < (int64_t(1) << (W - 1));
  return !Neg && Bits < (uint32_t(1) << W);
}

Error Parser::scanRoutines(unsigned BufId) {
  Lexer Scan(Sm.getMemoryBuffer(BufId)->getBuffer());
  for (Token T = Scan.next(); T.Kind != Token::Eof; T = Scan.next()) {
    if (T.Kind == Token::Directive && T.Text == ".include") {
      Token File = Scan.next();
      StringRef Name = includeName(File);
      if (Name.empty())
        return error(File.Text, "expected a quoted file name after "
                                "'.include' but found " +
                                    describe(File));
      Expected<std::string> Path = resolveInclude(Name, BufId, File.Text);
      if (!Path)
        return Path.takeError();
      if (is_contained(ActiveFiles, *Path)) {
        std::string Chain;
        for (auto It = find(ActiveFiles, *Path); It != ActiveFiles.end(); ++It)
          Chain += sys::path::filename(*It).str() + " -> ";
        return error(File.Text,
                     "include cycle: " + Chain + sys::path::filename(*Path));
      }
      // A file included again (say, by two libraries) is skipped.
      if (!IncludedFiles.insert(*Path).second) {
        IncludeBuffer[File.Text.data()] = 0;
        continue;
      }
      auto Mb = MemoryBuffer::getFile(*Path);
      if (!Mb)
        return error(File.Text, "cannot read include file '" + Name +
                                    "': " + Mb.getError().message());
      unsigned Id = Sm.AddNewSourceBuffer(std::move(*Mb),
                                          SMLoc::getFromPointer(T.Text.data()));
      IncludeBuffer[File.Text.data()] = Id;
      ActiveFiles.push_back(*Path);
      if (Error E = scanRoutines(Id))
        return E;
      ActiveFiles.pop_back();
      continue;
    }
    if (T.Kind != Token::Directive || T.Text != ".routine")
      continue;
    Token Name = Scan.next();
    if (Name.Kind != Token::Ident || !isRegisterName(Name.Text))
      return error(Name.Text, "expected a routine name after '.routine'");
    if (!RoutineIdx.try_emplace(Name.Text, Prog.RoutineNames.size()).second)
      return error(Name.Text, "routine '" + Name.Text + "' is defined twice");
    Prog.RoutineNames.push_back(Name.Text.str());
  }
  return Error::success();
}

Expected<int> Parser::parseStackName() {
  if (Tok.Kind != Token::Ident)
    return error(Tok.Text, "expected a stack name but found " + describe(Tok));
  int S = Info.findStack(Tok.Text);
  if (S < 0)
    return error(Tok.Text, "unknown stack '" + Tok.Text + "'");
  consume();
  return S;
}

Expected<uint64_t> Parser::parseInt(StringRef What, uint64_t Max) {
  uint64_t V;
  if (Tok.Kind != Token::Number || Tok.Text.getAsInteger(0, V))
    return error(Tok.Text, "expected " + What + " but found " + describe(Tok));
  if (V > Max)
    return error(Tok.Text, What + " " + Tok.Text + " is out of range");
  consume();
  return V;
}

/// Declares predeclared register \p Name at this use. \returns its index, or
/// -1 if \p Name is not predeclared.
int Parser::declarePredeclared(StringRef Name) {
  auto It = PredeclaredIdx.find(Name);
  if (It == PredeclaredIdx.end())
    return -1;
  const RegisterDecl &P = Predeclared[It->second];
  unsigned Idx = Prog.Registers.size();
  RegIdx.try_emplace(Name, Idx);
  ImplicitRegs.insert(Name);
  Prog.Registers.push_back({Name.str(), P.StackIdx, P.Kind,
                            SMLoc::getFromPointer(Name.data()), SMLoc()});
  return int(Idx);
}

void Parser::noteRead(uint32_t Reg, StringRef At) {
  if (Reg < Prog.Registers.size() && !Prog.Registers[Reg].FirstRead.isValid())
    Prog.Registers[Reg].FirstRead = SMLoc::getFromPointer(At.data());
}

Error Parser::parseRegisters() {
  consume();
  if (Error E = expectPunct('{'))
    return E;
  while (!isPunct('}')) {
    StringRef Name = Tok.Text;
    if (Tok.Kind == Token::Ident && Info.findInstr(Name) >= 0)
      return error(Name,
                   "register '" + Name + "' has the name of an instruction");
    if (Tok.Kind != Token::Ident || !isRegisterName(Tok.Text))
      return error(Tok.Text,
                   "expected a register name but found " + describe(Tok));
    if (isReservedRegisterName(Name))
      return error(Name, "register name '" + Name +
                             "' is reserved for the compiler's temporaries "
                             "(_s<stack>_<n>)");
    static const char *const Keywords[] = {
        "call", "return", "meta",     "store",  "load",      "input",
        "word", "dup",    "yank_dup", "swap",   "swap_with", "replace",
        "drop", "clear",  "rotate",   "reverse"};
    if (is_contained(Keywords, Name))
      return error(Name, "register '" + Name + "' has the name of a keyword");
    if (!RegIdx.try_emplace(Name, Prog.Registers.size()).second)
      return error(Name, "register '" + Name + "' is declared " +
                             (ImplicitRegs.count(Name) ? "after its first use"
                                                       : "twice"));
    consume();
    if (Error E = expectPunct(':'))
      return E;
    Expected<int> S = parseStackName();
    if (!S)
      return S.takeError();
    RegisterDecl D{Name.str(), uint16_t(*S), RegKind::In,
                   SMLoc::getFromPointer(Name.data()), SMLoc()};
    if (Tok.Kind == Token::Ident) {
      if (Tok.Text == "in")
        D.Kind = RegKind::In;
      else if (Tok.Text == "out")
        D.Kind = RegKind::Out;
      else if (Tok.Text == "mod")
        D.Kind = RegKind::Mod;
      else
        return error(Tok.Text, "expected 'in', 'out' or 'mod' but found " +
                                   describe(Tok));
      consume();
    }
    Prog.Registers.push_back(std::move(D));
    if (Error E = expectPunct(';'))
      return E;
  }
  consume();
  return Error::success();
}

Error Parser::parseRequests() {
  Prog.HasRequests = true;
  consume();
  if (Error E = expectPunct('{'))
    return E;
  while (!isPunct('}')) {
    if (Tok.Kind != Token::Ident)
      return error(Tok.Text,
                   "expected a register name but found " + describe(Tok));
    auto It = RegIdx.find(Tok.Text);
    int R = It != RegIdx.end() ? int(It->second) : declarePredeclared(Tok.Text);
    if (R < 0)
      return error(Tok.Text, "unknown register '" + Tok.Text + "'");
    if (Prog.Registers[R].Kind == RegKind::In)
      return error(Tok.Text,
                   "request '" + Tok.Text +
                       "' is an in register, which the stub may not write" +
                       (ImplicitRegs.count(Tok.Text)
                            ? ""
                            : "; declare it 'out' or 'mod'"));
    Prog.Requests.push_back(uint32_t(R));
    consume();
    if (isPunct(',') || isPunct(';'))
      consume();
  }
  consume();
  return Error::success();
}

Error Parser::parseConstant(std::vector<uint64_t> &Words) {
  StringRef Text = Tok.Text;
  consume();
  int Stack = -1;
  bool ExplicitStack = false;
  if (isPunct(':')) {
    consume();
    Expected<int> S = parseStackName();
    if (!S)
      return S.takeError();
    Stack = *S;
    ExplicitStack = true;
  }
  bool HasU = Text.endswith("u") || Text.endswith("U");
  bool IsHexF = Text.startswith_insensitive("0f") && Text.size() == 10;
  bool IsHex =
      Text.startswith_insensitive("0x") || Text.startswith_insensitive("-0x");
  bool IsFloat =
      !IsHex && !IsHexF && Text.find_first_of(".eEnN") != StringRef::npos;
  if (!ExplicitStack) {
    if (IsFloat || IsHexF)
      Stack = findStackByPrefix(Info, "F32", "f32");
    else if (HasU)
      Stack = findStackByPrefix(Info, "U32", "u32");
    else
      Stack = findStackByPrefix(Info, "S32", "s32");
    if (Stack < 0)
      return error(Text, "no default stack for literal '" + Text +
                             "'; write it as value:STACK");
  }
  Expected<uint32_t> Bits =
      expr::parseLiteral(Text, Info.LiteralPrefixes[Stack]);
  if (!Bits)
    return error(Text, toString(Bits.takeError()) + " on stack " +
                           Info.StackNames[Stack]);
  Words.push_back(encodeConstant(uint16_t(Stack), *Bits));
  return Error::success();
}

Error Parser::parseWord(std::vector<uint64_t> &Words) {
  if (Tok.Kind == Token::Number)
    return parseConstant(Words);
  if (isPunct('%')) {
    consume();
    if (Tok.Kind != Token::Ident)
      return error(Tok.Text, "expected a special register after '%'");
    int S = Info.findSpecial(Tok.Text);
    if (S < 0)
      return error(Tok.Text, "unknown special register '%" + Tok.Text + "'");
    Words.push_back(encodeSpecial(uint32_t(S)));
    consume();
    return Error::success();
  }
  if (Tok.Kind != Token::Ident)
    return error(Tok.Text,
                 "expected an instruction but found " + describe(Tok));
  StringRef Name = Tok.Text;
  consume();
  bool Paren = isPunct('(');
  if (Name == "return") {
    Words.push_back(encodeReturn());
    return Error::success();
  }
  if (Name == "call") {
    if (Tok.Kind != Token::Ident)
      return error(Tok.Text, "expected a routine name after 'call'");
    auto It = RoutineIdx.find(Tok.Text);
    if (It == RoutineIdx.end())
      return error(Tok.Text, "unknown routine '" + Tok.Text + "'");
    Words.push_back(encodeRoutine(It->second));
    consume();
    return Error::success();
  }
  if (Paren) {
    StringRef At = Name;
    for (uint32_t Op = 0; Op != NumMetaOps; ++Op) {
      if (Name != getMetaOpName(Op))
        continue;
      consume();
      Expected<int> S = parseStackName();
      if (!S)
        return S.takeError();
      Words.push_back(encodeMeta(uint16_t(*S), MetaOp(Op)));
      return expectPunct(')');
    }
    if (Name == "meta" || Name == "load" || Name == "input" || Name == "word" ||
        Name == "store") {
      consume();
      uint16_t Stack = 0;
      if (Name == "store") {
        Expected<int> S = parseStackName();
        if (!S)
          return S.takeError();
        Stack = *S;
        if (Error E = expectPunct(','))
          return E;
      }
      Expected<uint64_t> V = parseInt(Name == "word" ? "a word" : "an index",
                                      Name == "word" ? ~0ULL : 0xffffffffULL);
      if (!V)
        return V.takeError();
      if (Name == "meta")
        Words.push_back(encodeMetaConstant(uint32_t(*V)));
      else if (Name == "load")
        Words.push_back(encodeLoad(uint32_t(*V)));
      else if (Name == "input") {
        Words.push_back(encodeInput(uint32_t(*V)));
        noteRead(uint32_t(*V), At);
      } else if (Name == "store")
        Words.push_back(encodeStore(Stack, uint32_t(*V)));
      else
        Words.push_back(*V);
      return expectPunct(')');
    }
  }
  auto It = RegIdx.find(Name);
  if (It != RegIdx.end()) {
    Words.push_back(encodeInput(It->second));
    noteRead(It->second, Name);
    return Error::success();
  }
  int In = Info.findInstr(Name);
  if (In >= 0) {
    Words.push_back(encodePtx(uint32_t(In)));
    return Error::success();
  }
  // Instructions take precedence, as declared names may not be instructions.
  int R = declarePredeclared(Name);
  if (R >= 0) {
    Words.push_back(encodeInput(uint32_t(R)));
    noteRead(uint32_t(R), Name);
    return Error::success();
  }
  return error(Name, "unknown instruction or register '" + Name + "'");
}

Error Parser::parseWords(std::vector<uint64_t> &Words) {
  if (Error E = expectPunct('{'))
    return E;
  while (!isPunct('}')) {
    if (Tok.Kind == Token::Eof || Tok.Kind == Token::Directive)
      return error(Tok.Text, "expected '}' but found " + describe(Tok));
    if (Error E = parseWord(Words))
      return E;
  }
  consume();
  return Error::success();
}

Expected<StackProgram> Parser::parse() {
  {
    SmallString<256> Real;
    StringRef Id = Sm.getMemoryBuffer(MainId)->getBufferIdentifier();
    if (!sys::fs::real_path(Id, Real))
      ActiveFiles.push_back(Real.str().str());
    if (!ActiveFiles.empty())
      IncludedFiles.insert(ActiveFiles.back());
  }
  if (Error E = scanRoutines(MainId))
    return E;
  Prog.Routines.resize(Prog.RoutineNames.size());
  RoutineDefined.assign(Prog.RoutineNames.size(), false);
  for (;;) {
    if (Tok.Kind == Token::Eof) {
      // The end of an included file continues the file that included it.
      if (IncludeStack.empty())
        break;
      Lex = IncludeStack.back();
      IncludeStack.pop_back();
      consume();
      continue;
    }
    if (Tok.Kind != Token::Directive)
      return error(Tok.Text, "expected '.registers', '.routine', '.program', "
                             "'.requests' or '.include' but found " +
                                 describe(Tok));
    StringRef D = Tok.Text;
    if (D == ".include") {
      consume();
      unsigned Id = IncludeBuffer.lookup(Tok.Text.data());
      if (!Id) {
        consume();
        continue;
      }
      IncludeStack.push_back(Lex);
      Lex = Lexer(Sm.getMemoryBuffer(Id)->getBuffer());
      consume();
    } else if (D == ".registers") {
      if (Error E = parseRegisters())
        return E;
    } else if (D == ".requests") {
      if (Error E = parseRequests())
        return E;
    } else if (D == ".program") {
      if (SawProgram)
        return error(D, "a second '.program' section");
      SawProgram = true;
      consume();
      if (Error E = parseWords(Prog.Main))
        return E;
    } else if (D == ".routine") {
      consume();
      unsigned Idx = RoutineIdx.lookup(Tok.Text);
      consume();
      RoutineDefined[Idx] = true;
      if (Error E = parseWords(Prog.Routines[Idx]))
        return E;
    } else {
      return error(D, "unknown section '" + D + "'");
    }
  }
  return std::move(Prog);
}

Expected<StackProgram> stack::parseStackProgram(
    SourceMgr &Sm, unsigned BufferId, const StackInfo &Info,
    ArrayRef<RegisterDecl> Predeclared, ArrayRef<std::string> IncludeDirs) {
  return Parser(Sm, BufferId, Info, Predeclared, IncludeDirs).parse();
}

Expected<StackProgram>
stack::parseStackProgram(StringRef Text, const StackInfo &Info,
                         StringRef BufferName,
                         ArrayRef<RegisterDecl> Predeclared) {
  SourceMgr Sm;
  unsigned Id = Sm.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, BufferName), SMLoc());
  return parseStackProgram(Sm, Id, Info, Predeclared);
}

//===----------------------------------------------------------------------===//
// Printer
//===----------------------------------------------------------------------===//

static StringRef routineName(const StackProgram &Prog, uint32_t I,
                             SmallString<16> &Storage) {
  if (I < Prog.RoutineNames.size() && !Prog.RoutineNames[I].empty())
    return Prog.RoutineNames[I];
  Storage = ("routine" + Twine(I)).str();
  return Storage;
}

void stack::printStackWord(raw_ostream &Os, uint64_t Word,
                           const StackProgram &Prog, const StackInfo &Info) {
  uint16_t Aux = getWordAux(Word);
  uint32_t Payload = getWordPayload(Word);
  auto Raw = [&] { Os << "word(" << format_hex(Word, 18) << ")"; };
  switch (getWordType(Word)) {
  case WordType::Ptx:
    if (Aux || Payload >= Info.NumInstrs)
      return Raw();
    Os << Info.InstrNames[Payload];
    return;
  case WordType::Constant: {
    if (Aux >= Info.NumStacks)
      return Raw();
    StringRef Prefix = Info.LiteralPrefixes[Aux];
    int F32 = findStackByPrefix(Info, "F32", "f32");
    int U32 = findStackByPrefix(Info, "U32", "u32");
    int S32 = findStackByPrefix(Info, "S32", "s32");
    if (int(Aux) == F32) {
      expr::printF32Literal(Os, Payload);
      return;
    }
    if (int(Aux) == U32) {
      Os << Payload << "u";
      return;
    }
    if (int(Aux) == S32) {
      Os << int32_t(Payload);
      return;
    }
    if (Prefix == "f32" || Prefix == "f64") {
      Os << "0f" << format_hex_no_prefix(Payload, 8, true);
    } else if (Prefix.startswith("s") && literalWidth(Prefix) < 32 &&
               literalFits(Prefix, Payload, int32_t(Payload) < 0, false)) {
      Os << int32_t(Payload);
    } else if (literalFits(Prefix, Payload, false, true)) {
      // Bits of a signed type beyond its decimal range print as hex.
      if (Prefix.startswith("s"))
        Os << format_hex(Payload, 2);
      else
        Os << Payload;
    } else {
      // Bits no literal of the stack spells (a mutated word).
      return Raw();
    }
    Os << ":" << Info.StackNames[Aux];
    return;
  }
  case WordType::Input:
    if (Aux)
      return Raw();
    if (Payload < Prog.Registers.size())
      Os << Prog.Registers[Payload].Name;
    else
      Os << "input(" << Payload << ")";
    return;
  case WordType::Special:
    if (Aux || Payload >= Info.NumSpecials)
      return Raw();
    Os << "%" << Info.SpecialNames[Payload];
    return;
  case WordType::Meta:
    if (Aux >= Info.NumStacks || Payload >= NumMetaOps)
      return Raw();
    Os << getMetaOpName(Payload) << "(" << Info.StackNames[Aux] << ")";
    return;
  case WordType::MetaConstant:
    if (Aux)
      return Raw();
    Os << "meta(" << Payload << ")";
    return;
  case WordType::Routine: {
    if (Aux || Payload >= Prog.Routines.size())
      return Raw();
    SmallString<16> Storage;
    Os << "call " << routineName(Prog, Payload, Storage);
    return;
  }
  case WordType::Return:
    if (Aux || Payload)
      return Raw();
    Os << "return";
    return;
  case WordType::Store:
    if (Aux >= Info.NumStacks)
      return Raw();
    Os << "store(" << Info.StackNames[Aux] << ", " << Payload << ")";
    return;
  case WordType::Load:
    if (Aux)
      return Raw();
    Os << "load(" << Payload << ")";
    return;
  default:
    return Raw();
  }
}

static void printWords(raw_ostream &Os, ArrayRef<uint64_t> Words,
                       const StackProgram &Prog, const StackInfo &Info) {
  Os << "{";
  unsigned Col = 0;
  for (uint64_t W : Words) {
    if (Col == 0)
      Os << "\n  ";
    else
      Os << " ";
    printStackWord(Os, W, Prog, Info);
    Col = (Col + 1) % 8;
  }
  Os << "\n}\n";
}

void stack::printStackProgram(raw_ostream &Os, const StackProgram &Prog,
                              const StackInfo &Info) {
  if (!Prog.Registers.empty()) {
    Os << ".registers {\n";
    for (const RegisterDecl &D : Prog.Registers) {
      Os << "  " << D.Name << " : "
         << (D.StackIdx < Info.NumStacks ? Info.StackNames[D.StackIdx] : "?")
         << " " << getInjectArgKindName(D.Kind) << ";\n";
    }
    Os << "}\n";
  }
  for (uint32_t I = 0, E = Prog.Routines.size(); I != E; ++I) {
    SmallString<16> Storage;
    Os << ".routine " << routineName(Prog, I, Storage) << " ";
    printWords(Os, Prog.Routines[I], Prog, Info);
  }
  Os << ".program ";
  printWords(Os, Prog.Main, Prog, Info);
  if (!Prog.Requests.empty()) {
    Os << ".requests {";
    for (uint32_t R : Prog.Requests)
      Os << " " << (R < Prog.Registers.size() ? Prog.Registers[R].Name : "?");
    Os << " }\n";
  }
}
