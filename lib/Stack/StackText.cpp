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
  routineRefs.assign(routines.begin(), routines.end());
  return Program{main, routineRefs};
}

std::vector<Register> StackProgram::getRegisters() const {
  std::vector<Register> regs;
  regs.reserve(registers.size());
  for (const RegisterDecl &d : registers)
    regs.push_back({d.name, d.stackIdx, d.kind});
  return regs;
}

std::vector<uint32_t> StackProgram::getDefaultRequests() const {
  std::vector<uint32_t> reqs;
  for (uint32_t r = 0, e = registers.size(); r != e; ++r)
    if (registers[r].kind != RegKind::In)
      reqs.push_back(r);
  return reqs;
}

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

namespace {

struct Token {
  enum Kind { Eof, Punct, Directive, Ident, Number } kind;
  StringRef text;
};

static bool isPunct(char c) { return StringRef("{}():;,%").contains(c); }

class Lexer {
public:
  explicit Lexer(StringRef buf) : cur(buf.begin()), end(buf.end()) {}

  Token next() {
    for (;;) {
      while (cur != end && isSpace(*cur))
        ++cur;
      if (end - cur >= 2 && cur[0] == '/' && cur[1] == '/') {
        while (cur != end && *cur != '\n')
          ++cur;
        continue;
      }
      break;
    }
    if (cur == end)
      return {Token::Eof, StringRef(cur, 0)};
    const char *start = cur;
    if (isPunct(*cur))
      return {Token::Punct, StringRef(cur++, 1)};
    while (cur != end && !isSpace(*cur) && !isPunct(*cur) &&
           !(end - cur >= 2 && cur[0] == '/' && cur[1] == '/'))
      ++cur;
    StringRef t(start, cur - start);
    char c0 = t[0];
    char c1 = t.size() > 1 ? t[1] : 0;
    if (isDigit(c0) ||
        ((c0 == '-' || c0 == '+') && (isDigit(c1) || c1 == '.')) ||
        (c0 == '.' && isDigit(c1)))
      return {Token::Number, t};
    if (c0 == '.')
      return {Token::Directive, t};
    return {Token::Ident, t};
  }

private:
  const char *cur, *end;
};

class Parser {
public:
  Parser(SourceMgr &sm, unsigned id, const StackInfo &info,
         ArrayRef<RegisterDecl> predeclared, ArrayRef<std::string> includeDirs)
      : sm(sm), info(info), lex(sm.getMemoryBuffer(id)->getBuffer()),
        mainID(id), predeclared(predeclared), includeDirs(includeDirs) {
    for (unsigned i = 0, e = predeclared.size(); i != e; ++i)
      predeclaredIdx.try_emplace(predeclared[i].name, i);
    tok = lex.next();
  }

  Expected<StackProgram> parse();

private:
  /// An error at \p at; in an included file, with a note at the
  /// `.include` that brought it in.
  Error error(StringRef at, const Twine &msg) {
    SMLoc loc = SMLoc::getFromPointer(at.data());
    unsigned id = sm.FindBufferContainingLoc(loc);
    SMLoc from = id ? sm.getParentIncludeLoc(id) : SMLoc();
    if (from.isValid())
      return DiagnosticError::getWithNote(sm, loc, msg, from,
                                          "included from here");
    return DiagnosticError::get(sm, loc, msg);
  }
  void consume() { tok = lex.next(); }
  bool isPunct(char c) const {
    return tok.kind == Token::Punct && tok.text[0] == c;
  }
  Error expectPunct(char c) {
    if (!isPunct(c))
      return error(tok.text,
                   "expected '" + Twine(c) + "' but found " + describe(tok));
    consume();
    return Error::success();
  }
  static std::string describe(const Token &t) {
    if (t.kind == Token::Eof)
      return "end of file";
    return ("'" + t.text + "'").str();
  }

  Error scanRoutines(unsigned bufID);
  Expected<std::string> resolveInclude(StringRef name, unsigned fromBuf,
                                       StringRef at);
  Error parseRegisters();
  Error parseRequests();
  Error parseWords(std::vector<uint64_t> &words);
  Error parseWord(std::vector<uint64_t> &words);
  Expected<int> parseStackName();
  Expected<uint64_t> parseInt(StringRef what, uint64_t max);
  Error parseConstant(std::vector<uint64_t> &words);
  int declarePredeclared(StringRef name);
  void noteRead(uint32_t reg, StringRef at);

  SourceMgr &sm;
  const StackInfo &info;
  Lexer lex;
  unsigned mainID;
  Token tok;
  StackProgram prog;
  ArrayRef<RegisterDecl> predeclared;
  ArrayRef<std::string> includeDirs;
  /// `.include` handling: the buffer each directive (keyed by its file
  /// name token) brings in, or 0 if that file was included before; the
  /// files (real paths) included so far and those being scanned now; and
  /// the lexers of the files whose parse an include interrupted.
  DenseMap<const char *, unsigned> includeBuffer;
  StringSet<> includedFiles;
  std::vector<std::string> activeFiles;
  std::vector<Lexer> includeStack;
  StringMap<unsigned> regIdx, routineIdx, predeclaredIdx;
  /// Predeclared registers that a use has declared.
  StringSet<> implicitRegs;
  std::vector<bool> routineDefined;
  bool sawProgram = false;
};

} // namespace

static int findStackByPrefix(const StackInfo &info, StringRef name,
                             StringRef prefix) {
  int s = info.findStack(name);
  if (s >= 0)
    return s;
  for (uint32_t i = 0; i != info.numStacks; ++i)
    if (prefix == info.literalPrefixes[i])
      return int(i);
  return -1;
}

/// \returns the file name of an `.include` token, or an empty string if
/// \p t is not a quoted name.
static StringRef includeName(const Token &t) {
  if (t.kind != Token::Ident || t.text.size() < 3 || t.text.front() != '"' ||
      t.text.back() != '"')
    return StringRef();
  return t.text.drop_front().drop_back();
}

Expected<std::string> Parser::resolveInclude(StringRef name, unsigned fromBuf,
                                             StringRef at) {
  // The including file's directory first, then the search paths in order.
  SmallVector<std::string, 4> tried;
  auto tryPath = [&](const Twine &path) -> std::string {
    SmallString<256> p;
    path.toVector(p);
    tried.push_back(p.str().str());
    SmallString<256> real;
    if (sys::fs::is_regular_file(p) && !sys::fs::real_path(p, real))
      return real.str().str();
    return std::string();
  };
  if (sys::path::is_absolute(name)) {
    std::string r = tryPath(name);
    if (!r.empty())
      return r;
  } else {
    StringRef from = sm.getMemoryBuffer(fromBuf)->getBufferIdentifier();
    SmallString<256> dir = sys::path::parent_path(from);
    sys::path::append(dir, name);
    std::string r = tryPath(dir);
    if (!r.empty())
      return r;
    for (const std::string &d : includeDirs) {
      SmallString<256> p(d);
      sys::path::append(p, name);
      r = tryPath(p);
      if (!r.empty())
        return r;
    }
  }
  return error(at, "cannot find include file '" + name + "' (tried " +
                       join(tried, ", ") + "; add a directory with -I)");
}

/// \returns the width of a constant on a stack of PTX type \p prefix: 1
/// for `pred`, the type's size below 32 bits (`u8`, `b16`), else 32 (a
/// constant carries 32 bits).
static unsigned literalWidth(StringRef prefix) {
  if (prefix == "pred")
    return 1;
  unsigned w = 0;
  if (prefix.size() < 2 || prefix.drop_front().getAsInteger(10, w) || w >= 32)
    return 32;
  return w;
}

/// \returns whether \p bits, parsed from a literal (negative if \p neg, hex
/// if \p hex), is a value of a stack of type \p prefix: a signed type
/// takes decimals in its signed range, every type its unsigned range (and
/// 32-bit ones any 32 bits, negative decimals included, as two's
/// complement).
static bool literalFits(StringRef prefix, uint32_t bits, bool neg, bool hex) {
  unsigned w = literalWidth(prefix);
  bool isSigned = prefix.startswith("s") && !hex;
  if (w == 32)
    return !isSigned || neg || bits <= uint32_t(INT32_MAX);
  if (isSigned)
    return int64_t(int32_t(bits)) >= -(int64_t(1) << (w - 1)) &&
           int64_t(int32_t(bits)) < (int64_t(1) << (w - 1));
  return !neg && bits < (uint32_t(1) << w);
}

Error Parser::scanRoutines(unsigned bufID) {
  Lexer scan(sm.getMemoryBuffer(bufID)->getBuffer());
  for (Token t = scan.next(); t.kind != Token::Eof; t = scan.next()) {
    if (t.kind == Token::Directive && t.text == ".include") {
      Token file = scan.next();
      StringRef name = includeName(file);
      if (name.empty())
        return error(file.text, "expected a quoted file name after "
                                "'.include' but found " +
                                    describe(file));
      Expected<std::string> path = resolveInclude(name, bufID, file.text);
      if (!path)
        return path.takeError();
      if (is_contained(activeFiles, *path)) {
        std::string chain;
        for (auto it = find(activeFiles, *path); it != activeFiles.end(); ++it)
          chain += sys::path::filename(*it).str() + " -> ";
        return error(file.text,
                     "include cycle: " + chain + sys::path::filename(*path));
      }
      // A file included again (say, by two libraries) is skipped.
      if (!includedFiles.insert(*path).second) {
        includeBuffer[file.text.data()] = 0;
        continue;
      }
      auto mb = MemoryBuffer::getFile(*path);
      if (!mb)
        return error(file.text, "cannot read include file '" + name +
                                    "': " + mb.getError().message());
      unsigned id = sm.AddNewSourceBuffer(std::move(*mb),
                                          SMLoc::getFromPointer(t.text.data()));
      includeBuffer[file.text.data()] = id;
      activeFiles.push_back(*path);
      if (Error e = scanRoutines(id))
        return e;
      activeFiles.pop_back();
      continue;
    }
    if (t.kind != Token::Directive || t.text != ".routine")
      continue;
    Token name = scan.next();
    if (name.kind != Token::Ident || !isRegisterName(name.text))
      return error(name.text, "expected a routine name after '.routine'");
    if (!routineIdx.try_emplace(name.text, prog.routineNames.size()).second)
      return error(name.text, "routine '" + name.text + "' is defined twice");
    prog.routineNames.push_back(name.text.str());
  }
  return Error::success();
}

Expected<int> Parser::parseStackName() {
  if (tok.kind != Token::Ident)
    return error(tok.text, "expected a stack name but found " + describe(tok));
  int s = info.findStack(tok.text);
  if (s < 0)
    return error(tok.text, "unknown stack '" + tok.text + "'");
  consume();
  return s;
}

Expected<uint64_t> Parser::parseInt(StringRef what, uint64_t max) {
  uint64_t v;
  if (tok.kind != Token::Number || tok.text.getAsInteger(0, v))
    return error(tok.text, "expected " + what + " but found " + describe(tok));
  if (v > max)
    return error(tok.text, what + " " + tok.text + " is out of range");
  consume();
  return v;
}

/// Declares predeclared register \p name at this use. \returns its index, or
/// -1 if \p name is not predeclared.
int Parser::declarePredeclared(StringRef name) {
  auto it = predeclaredIdx.find(name);
  if (it == predeclaredIdx.end())
    return -1;
  const RegisterDecl &p = predeclared[it->second];
  unsigned idx = prog.registers.size();
  regIdx.try_emplace(name, idx);
  implicitRegs.insert(name);
  prog.registers.push_back({name.str(), p.stackIdx, p.kind,
                            SMLoc::getFromPointer(name.data()), SMLoc()});
  return int(idx);
}

void Parser::noteRead(uint32_t reg, StringRef at) {
  if (reg < prog.registers.size() && !prog.registers[reg].firstRead.isValid())
    prog.registers[reg].firstRead = SMLoc::getFromPointer(at.data());
}

Error Parser::parseRegisters() {
  consume();
  if (Error e = expectPunct('{'))
    return e;
  while (!isPunct('}')) {
    StringRef name = tok.text;
    if (tok.kind == Token::Ident && info.findInstr(name) >= 0)
      return error(name,
                   "register '" + name + "' has the name of an instruction");
    if (tok.kind != Token::Ident || !isRegisterName(tok.text))
      return error(tok.text,
                   "expected a register name but found " + describe(tok));
    if (isReservedRegisterName(name))
      return error(name, "register name '" + name +
                             "' is reserved for the compiler's temporaries "
                             "(_s<stack>_<n>)");
    static const char *const keywords[] = {
        "call", "return", "meta",     "store",  "load",      "input",
        "word", "dup",    "yank_dup", "swap",   "swap_with", "replace",
        "drop", "clear",  "rotate",   "reverse"};
    if (is_contained(keywords, name))
      return error(name, "register '" + name + "' has the name of a keyword");
    if (!regIdx.try_emplace(name, prog.registers.size()).second)
      return error(name, "register '" + name + "' is declared " +
                             (implicitRegs.count(name) ? "after its first use"
                                                       : "twice"));
    consume();
    if (Error e = expectPunct(':'))
      return e;
    Expected<int> s = parseStackName();
    if (!s)
      return s.takeError();
    RegisterDecl d{name.str(), uint16_t(*s), RegKind::In,
                   SMLoc::getFromPointer(name.data()), SMLoc()};
    if (tok.kind == Token::Ident) {
      if (tok.text == "in")
        d.kind = RegKind::In;
      else if (tok.text == "out")
        d.kind = RegKind::Out;
      else if (tok.text == "mod")
        d.kind = RegKind::Mod;
      else
        return error(tok.text, "expected 'in', 'out' or 'mod' but found " +
                                   describe(tok));
      consume();
    }
    prog.registers.push_back(std::move(d));
    if (Error e = expectPunct(';'))
      return e;
  }
  consume();
  return Error::success();
}

Error Parser::parseRequests() {
  prog.hasRequests = true;
  consume();
  if (Error e = expectPunct('{'))
    return e;
  while (!isPunct('}')) {
    if (tok.kind != Token::Ident)
      return error(tok.text,
                   "expected a register name but found " + describe(tok));
    auto it = regIdx.find(tok.text);
    int r = it != regIdx.end() ? int(it->second) : declarePredeclared(tok.text);
    if (r < 0)
      return error(tok.text, "unknown register '" + tok.text + "'");
    if (prog.registers[r].kind == RegKind::In)
      return error(tok.text,
                   "request '" + tok.text +
                       "' is an in register, which the stub may not write" +
                       (implicitRegs.count(tok.text)
                            ? ""
                            : "; declare it 'out' or 'mod'"));
    prog.requests.push_back(uint32_t(r));
    consume();
    if (isPunct(',') || isPunct(';'))
      consume();
  }
  consume();
  return Error::success();
}

Error Parser::parseConstant(std::vector<uint64_t> &words) {
  StringRef text = tok.text;
  consume();
  int stack = -1;
  bool explicitStack = false;
  if (isPunct(':')) {
    consume();
    Expected<int> s = parseStackName();
    if (!s)
      return s.takeError();
    stack = *s;
    explicitStack = true;
  }
  bool hasU = text.endswith("u") || text.endswith("U");
  bool isHexF = text.startswith_insensitive("0f") && text.size() == 10;
  bool isHex =
      text.startswith_insensitive("0x") || text.startswith_insensitive("-0x");
  bool isFloat =
      !isHex && !isHexF && text.find_first_of(".eEnN") != StringRef::npos;
  if (!explicitStack) {
    if (isFloat || isHexF)
      stack = findStackByPrefix(info, "F32", "f32");
    else if (hasU)
      stack = findStackByPrefix(info, "U32", "u32");
    else
      stack = findStackByPrefix(info, "S32", "s32");
    if (stack < 0)
      return error(text, "no default stack for literal '" + text +
                             "'; write it as value:STACK");
  }
  Expected<uint32_t> bits =
      expr::parseLiteral(text, info.literalPrefixes[stack]);
  if (!bits)
    return error(text, toString(bits.takeError()) + " on stack " +
                           info.stackNames[stack]);
  words.push_back(encodeConstant(uint16_t(stack), *bits));
  return Error::success();
}

Error Parser::parseWord(std::vector<uint64_t> &words) {
  if (tok.kind == Token::Number)
    return parseConstant(words);
  if (isPunct('%')) {
    consume();
    if (tok.kind != Token::Ident)
      return error(tok.text, "expected a special register after '%'");
    int s = info.findSpecial(tok.text);
    if (s < 0)
      return error(tok.text, "unknown special register '%" + tok.text + "'");
    words.push_back(encodeSpecial(uint32_t(s)));
    consume();
    return Error::success();
  }
  if (tok.kind != Token::Ident)
    return error(tok.text,
                 "expected an instruction but found " + describe(tok));
  StringRef name = tok.text;
  consume();
  bool paren = isPunct('(');
  if (name == "return") {
    words.push_back(encodeReturn());
    return Error::success();
  }
  if (name == "call") {
    if (tok.kind != Token::Ident)
      return error(tok.text, "expected a routine name after 'call'");
    auto it = routineIdx.find(tok.text);
    if (it == routineIdx.end())
      return error(tok.text, "unknown routine '" + tok.text + "'");
    words.push_back(encodeRoutine(it->second));
    consume();
    return Error::success();
  }
  if (paren) {
    StringRef at = name;
    for (uint32_t op = 0; op != NumMetaOps; ++op) {
      if (name != getMetaOpName(op))
        continue;
      consume();
      Expected<int> s = parseStackName();
      if (!s)
        return s.takeError();
      words.push_back(encodeMeta(uint16_t(*s), MetaOp(op)));
      return expectPunct(')');
    }
    if (name == "meta" || name == "load" || name == "input" || name == "word" ||
        name == "store") {
      consume();
      uint16_t stack = 0;
      if (name == "store") {
        Expected<int> s = parseStackName();
        if (!s)
          return s.takeError();
        stack = *s;
        if (Error e = expectPunct(','))
          return e;
      }
      Expected<uint64_t> v = parseInt(name == "word" ? "a word" : "an index",
                                      name == "word" ? ~0ULL : 0xffffffffULL);
      if (!v)
        return v.takeError();
      if (name == "meta")
        words.push_back(encodeMetaConstant(uint32_t(*v)));
      else if (name == "load")
        words.push_back(encodeLoad(uint32_t(*v)));
      else if (name == "input") {
        words.push_back(encodeInput(uint32_t(*v)));
        noteRead(uint32_t(*v), at);
      } else if (name == "store")
        words.push_back(encodeStore(stack, uint32_t(*v)));
      else
        words.push_back(*v);
      return expectPunct(')');
    }
  }
  auto it = regIdx.find(name);
  if (it != regIdx.end()) {
    words.push_back(encodeInput(it->second));
    noteRead(it->second, name);
    return Error::success();
  }
  int in = info.findInstr(name);
  if (in >= 0) {
    words.push_back(encodePtx(uint32_t(in)));
    return Error::success();
  }
  // Instructions take precedence, as declared names may not be instructions.
  int r = declarePredeclared(name);
  if (r >= 0) {
    words.push_back(encodeInput(uint32_t(r)));
    noteRead(uint32_t(r), name);
    return Error::success();
  }
  return error(name, "unknown instruction or register '" + name + "'");
}

Error Parser::parseWords(std::vector<uint64_t> &words) {
  if (Error e = expectPunct('{'))
    return e;
  while (!isPunct('}')) {
    if (tok.kind == Token::Eof || tok.kind == Token::Directive)
      return error(tok.text, "expected '}' but found " + describe(tok));
    if (Error e = parseWord(words))
      return e;
  }
  consume();
  return Error::success();
}

Expected<StackProgram> Parser::parse() {
  {
    SmallString<256> real;
    StringRef id = sm.getMemoryBuffer(mainID)->getBufferIdentifier();
    if (!sys::fs::real_path(id, real))
      activeFiles.push_back(real.str().str());
    if (!activeFiles.empty())
      includedFiles.insert(activeFiles.back());
  }
  if (Error e = scanRoutines(mainID))
    return e;
  prog.routines.resize(prog.routineNames.size());
  routineDefined.assign(prog.routineNames.size(), false);
  for (;;) {
    if (tok.kind == Token::Eof) {
      // The end of an included file continues the file that included it.
      if (includeStack.empty())
        break;
      lex = includeStack.back();
      includeStack.pop_back();
      consume();
      continue;
    }
    if (tok.kind != Token::Directive)
      return error(tok.text, "expected '.registers', '.routine', '.program', "
                             "'.requests' or '.include' but found " +
                                 describe(tok));
    StringRef d = tok.text;
    if (d == ".include") {
      consume();
      unsigned id = includeBuffer.lookup(tok.text.data());
      if (!id) {
        consume();
        continue;
      }
      includeStack.push_back(lex);
      lex = Lexer(sm.getMemoryBuffer(id)->getBuffer());
      consume();
    } else if (d == ".registers") {
      if (Error e = parseRegisters())
        return e;
    } else if (d == ".requests") {
      if (Error e = parseRequests())
        return e;
    } else if (d == ".program") {
      if (sawProgram)
        return error(d, "a second '.program' section");
      sawProgram = true;
      consume();
      if (Error e = parseWords(prog.main))
        return e;
    } else if (d == ".routine") {
      consume();
      unsigned idx = routineIdx.lookup(tok.text);
      consume();
      routineDefined[idx] = true;
      if (Error e = parseWords(prog.routines[idx]))
        return e;
    } else {
      return error(d, "unknown section '" + d + "'");
    }
  }
  return std::move(prog);
}

Expected<StackProgram> stack::parseStackProgram(
    SourceMgr &sm, unsigned bufferID, const StackInfo &info,
    ArrayRef<RegisterDecl> predeclared, ArrayRef<std::string> includeDirs) {
  return Parser(sm, bufferID, info, predeclared, includeDirs).parse();
}

Expected<StackProgram>
stack::parseStackProgram(StringRef text, const StackInfo &info,
                         StringRef bufferName,
                         ArrayRef<RegisterDecl> predeclared) {
  SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(text, bufferName), SMLoc());
  return parseStackProgram(sm, id, info, predeclared);
}

//===----------------------------------------------------------------------===//
// Printer
//===----------------------------------------------------------------------===//

static StringRef routineName(const StackProgram &prog, uint32_t i,
                             SmallString<16> &storage) {
  if (i < prog.routineNames.size() && !prog.routineNames[i].empty())
    return prog.routineNames[i];
  storage = ("routine" + Twine(i)).str();
  return storage;
}

void stack::printStackWord(raw_ostream &os, uint64_t w,
                           const StackProgram &prog, const StackInfo &info) {
  uint16_t aux = getWordAux(w);
  uint32_t payload = getWordPayload(w);
  auto raw = [&] { os << "word(" << format_hex(w, 18) << ")"; };
  switch (getWordType(w)) {
  case WordType::Ptx:
    if (aux || payload >= info.numInstrs)
      return raw();
    os << info.instrNames[payload];
    return;
  case WordType::Constant: {
    if (aux >= info.numStacks)
      return raw();
    StringRef prefix = info.literalPrefixes[aux];
    int f32 = findStackByPrefix(info, "F32", "f32");
    int u32 = findStackByPrefix(info, "U32", "u32");
    int s32 = findStackByPrefix(info, "S32", "s32");
    if (int(aux) == f32) {
      expr::printF32Literal(os, payload);
      return;
    }
    if (int(aux) == u32) {
      os << payload << "u";
      return;
    }
    if (int(aux) == s32) {
      os << int32_t(payload);
      return;
    }
    if (prefix == "f32" || prefix == "f64") {
      os << "0f" << format_hex_no_prefix(payload, 8, true);
    } else if (prefix.startswith("s") && literalWidth(prefix) < 32 &&
               literalFits(prefix, payload, int32_t(payload) < 0, false)) {
      os << int32_t(payload);
    } else if (literalFits(prefix, payload, false, true)) {
      // Bits of a signed type beyond its decimal range print as hex.
      if (prefix.startswith("s"))
        os << format_hex(payload, 2);
      else
        os << payload;
    } else {
      // Bits no literal of the stack spells (a mutated word).
      return raw();
    }
    os << ":" << info.stackNames[aux];
    return;
  }
  case WordType::Input:
    if (aux)
      return raw();
    if (payload < prog.registers.size())
      os << prog.registers[payload].name;
    else
      os << "input(" << payload << ")";
    return;
  case WordType::Special:
    if (aux || payload >= info.numSpecials)
      return raw();
    os << "%" << info.specialNames[payload];
    return;
  case WordType::Meta:
    if (aux >= info.numStacks || payload >= NumMetaOps)
      return raw();
    os << getMetaOpName(payload) << "(" << info.stackNames[aux] << ")";
    return;
  case WordType::MetaConstant:
    if (aux)
      return raw();
    os << "meta(" << payload << ")";
    return;
  case WordType::Routine: {
    if (aux || payload >= prog.routines.size())
      return raw();
    SmallString<16> storage;
    os << "call " << routineName(prog, payload, storage);
    return;
  }
  case WordType::Return:
    if (aux || payload)
      return raw();
    os << "return";
    return;
  case WordType::Store:
    if (aux >= info.numStacks)
      return raw();
    os << "store(" << info.stackNames[aux] << ", " << payload << ")";
    return;
  case WordType::Load:
    if (aux)
      return raw();
    os << "load(" << payload << ")";
    return;
  default:
    return raw();
  }
}

static void printWords(raw_ostream &os, ArrayRef<uint64_t> words,
                       const StackProgram &prog, const StackInfo &info) {
  os << "{";
  unsigned col = 0;
  for (uint64_t w : words) {
    if (col == 0)
      os << "\n  ";
    else
      os << " ";
    printStackWord(os, w, prog, info);
    col = (col + 1) % 8;
  }
  os << "\n}\n";
}

void stack::printStackProgram(raw_ostream &os, const StackProgram &prog,
                              const StackInfo &info) {
  if (!prog.registers.empty()) {
    os << ".registers {\n";
    for (const RegisterDecl &d : prog.registers) {
      os << "  " << d.name << " : "
         << (d.stackIdx < info.numStacks ? info.stackNames[d.stackIdx] : "?")
         << " " << getInjectArgKindName(d.kind) << ";\n";
    }
    os << "}\n";
  }
  for (uint32_t i = 0, e = prog.routines.size(); i != e; ++i) {
    SmallString<16> storage;
    os << ".routine " << routineName(prog, i, storage) << " ";
    printWords(os, prog.routines[i], prog, info);
  }
  os << ".program ";
  printWords(os, prog.main, prog, info);
  if (!prog.requests.empty()) {
    os << ".requests {";
    for (uint32_t r : prog.requests)
      os << " " << (r < prog.registers.size() ? prog.registers[r].name : "?");
    os << " }\n";
  }
}
