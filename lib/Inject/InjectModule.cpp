//===- InjectModule.cpp - Find and check inject sites ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Creation of an InjectModule. The algorithm:
///  1. Copy the PTX into the handle (it must outlive the caller's text).
///  2. Find marker keywords: every marker contains `PTX_INJECT` and the
///     letter `J` is rare in PTX, so memchr('J') skips most of the text at
///     memory speed. The module path visits only the comment statements the
///     structural parser flagged instead.
///  3. A keyword inside a `//` comment that opens a site (`PTX_INJECT_START`,
///     `MMPTX_INJECT_BEGIN`) is parsed line by line up to its END marker.
///     A later site of a known inject whose marker lines are byte-identical
///     to the first site's is accepted with one memcmp (the common case:
///     unrolled copies); anything else is parsed and compared field by
///     field, so every difference gets a located error and a note at the
///     first site.
///  4. Each site cuts the template: text up to the site, a slot for the
///     inject's stub (legacy sites: wrapped in their normalisation
///     scaffold), then text from the end of the END line (its newline kept).
///
/// Names are looked up in one StringMap, so creation is linear in the input
/// whatever the number of sites and names.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Inject/InjectModule.h"
#include "mmptx/IR/Module.h"
#include "mmptx/Inject/InjectChecks.h"
#include "mmptx/Parser/Parser.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;
using namespace mmptx;

//===----------------------------------------------------------------------===//
// Types and errors
//===----------------------------------------------------------------------===//

char InjectError::ID = 0;

namespace {
class InjectErrorCategory : public std::error_category {
public:
  const char *name() const noexcept override { return "mmptx-inject"; }
  std::string message(int Code) const override {
    return "inject error " + std::to_string(Code);
  }
};
} // namespace

const std::error_category &mmptx::getInjectErrorCategory() {
  static const InjectErrorCategory Category;
  return Category;
}

Error mmptx::withInjectCode(Error err, InjectErrc code) {
  return handleErrors(std::move(err),
                      [&](std::unique_ptr<DiagnosticError> d) -> Error {
                        if (d->isA(InjectError::classID()))
                          return Error(std::move(d));
                        return make_error<InjectError>(code, d->getDiagnostic(),
                                                       d->getNoteText());
                      });
}

InjectErrc mmptx::takeInjectError(Error err, std::string *message) {
  InjectErrc code = InjectErrc::Success;
  handleAllErrors(
      std::move(err),
      [&](const InjectError &e) {
        code = e.getCode();
        if (message)
          *message = e.message();
      },
      [&](const StringError &e) {
        std::error_code ec = e.convertToErrorCode();
        code = ec.category() == getInjectErrorCategory()
                   ? InjectErrc(ec.value())
                   : InjectErrc::Internal;
        if (message)
          *message = e.getMessage();
      },
      [&](const ErrorInfoBase &e) {
        code = InjectErrc::Internal;
        if (message)
          *message = e.message();
      });
  return code;
}

size_t mmptx::writeNormalizedSite(std::string &out, const Inject &inj,
                                  ArrayRef<InjectVariable> vars,
                                  ArrayRef<StringRef> regs, bool leadingTab,
                                  bool withMarkers) {
  SmallVector<ScaffoldVar, 8> sv;
  for (size_t i = 0, n = vars.size(); i != n; ++i)
    sv.push_back({vars[i].kind, vars[i].regType, vars[i].movSuffix,
                  vars[i].typeToken, vars[i].name, regs[i]});
  if (leadingTab)
    out += '\t';
  out += "{\n";
  size_t stubPos = 0;
  raw_string_ostream os(out); // unbuffered: writes go straight to out
  static const std::string StablePrefix = ("%" + StableRegisterPrefix).str();
  writeSiteScaffold(
      inj.name, sv, StablePrefix, withMarkers,
      [&](const Twine &l) { os << '\t' << l << '\n'; },
      [&] {
        // The markers' last newline comes after the stub.
        if (withMarkers)
          out.pop_back();
        stubPos = out.size();
        out += '\n';
      });
  out += "\t}";
  return stubPos;
}

static Error usageError(InjectErrc code, const Twine &msg) {
  return make_error<StringError>(msg, make_error_code(code));
}

//===----------------------------------------------------------------------===//
// Scanner
//===----------------------------------------------------------------------===//

static inline bool isBlank(char c) { return c == ' ' || c == '\t'; }

/// "1 argument", "2 arguments".
static std::string plural(size_t n, StringRef noun) {
  return (Twine(n) + " " + noun + (n == 1 ? "" : "s")).str();
}

namespace mmptx {
/// Finds, parses and checks the sites of one buffer and fills the handle.
class InjectSiteScanner {
public:
  InjectSiteScanner(InjectModule &h, StringRef buf, const SourceMgr *sm,
                    StringRef bufferName, const InjectOptions &opts)
      : h(h), base(buf.data()), end(buf.data() + buf.size()), buf(buf), sm(sm),
        bufferName(bufferName), opts(opts), segStart(base),
        commentScanPos(base) {
    size_t guess = buf.size() / 512 + 8;
    h.segments.reserve(2 * guess);
    h.siteList.reserve(guess);
  }

  Error scanText();
  Error scanModule(const ptx::Module &m);
  void finish();

private:
  /// One parsed argument marker.
  struct Arg {
    StringRef reg, regType, typeToken, name;
    InjectArgKind kind;
    const char *line;
    const char *typeLoc;
    const InjectType *type;
  };
  static constexpr uint32_t NoFastPath = ~uint32_t(0);
  static constexpr uint32_t ScaffoldSegment = ~uint32_t(1);

  Error handleMarker(const char *j, const char *&resume);
  Error parseSite(const char *comment, const char *keyword, bool native,
                  const char *&resume);
  Error parseArgs(const char *keyword, StringRef name, bool native,
                  const char *body, InjectSiteFormat &format,
                  const char *&blockEnd, const char *&removeEnd);
  Error checkAgainstFirst(uint32_t index, const char *keyword, StringRef name);
  void addSite(uint32_t index, const char *keyword, const char *removeBegin,
               const char *removeEnd, InjectSiteFormat format);

  Error diag(InjectErrc code, const char *loc, const Twine &msg,
             const char *noteLoc = nullptr, const Twine &note = "");
  const InjectType *lookupType(StringRef token, bool legacy) const;
  StringRef stableName(size_t i);
  StringRef rebase(StringRef s) const {
    return StringRef(h.ptx.data() + (s.data() - base), s.size());
  }
  uint32_t offset(const char *p) const { return uint32_t(p - base); }
  bool insideBlockComment(const char *p);
  void addText(const char *b, const char *e) {
    if (e <= b)
      return;
    h.segments.push_back({h.ptx.data() + (b - base), uint32_t(e - b),
                          InjectModule::TextSegment});
    h.textSize += e - b;
  }
  const char *lineEnd(const char *p) const {
    const void *nl = memchr(p, '\n', end - p);
    return nl ? static_cast<const char *>(nl) : end;
  }

  InjectModule &h;
  const char *base, *end;
  StringRef buf;
  const SourceMgr *sm;
  std::unique_ptr<SourceMgr> ownedSM;
  StringRef bufferName;
  const InjectOptions &opts;
  const char *segStart;
  /// Per inject: the first site's marker lines after START (offset, size)
  /// for the byte-identical fast path, and its format.
  std::vector<std::pair<uint32_t, uint32_t>> firstBlock;
  std::vector<InjectSiteFormat> injectFormat;
  SmallVector<Arg, 16> args;
  /// First site of an inject: where each variable name and mm-ptx stable
  /// register was seen (duplicates are errors).
  StringMap<const char *> seenNames, seenRegs;
  /// Block-comment tracking for insideBlockComment(): only needed when the
  /// text has a `/*` at all, which nvcc's PTX never has.
  bool mayHaveBlockComments = false;
  bool inBlockComment = false;
  const char *commentScanPos;
  std::vector<StringRef> stableNames;
  StringSaver saver{h.alloc};
};
} // namespace mmptx

Error InjectSiteScanner::diag(InjectErrc code, const char *loc,
                              const Twine &msg, const char *noteLoc,
                              const Twine &note) {
  const SourceMgr *s = sm;
  if (!s) {
    ownedSM = std::make_unique<SourceMgr>();
    ownedSM->AddNewSourceBuffer(
        MemoryBuffer::getMemBuffer(buf, bufferName,
                                   /*RequiresNullTerminator=*/false),
        SMLoc());
    s = ownedSM.get();
  }
  SMDiagnostic d =
      s->GetMessage(SMLoc::getFromPointer(loc), SourceMgr::DK_Error, msg);
  std::string noteText;
  if (noteLoc) {
    raw_string_ostream os(noteText);
    printDiagnostic(
        s->GetMessage(SMLoc::getFromPointer(noteLoc), SourceMgr::DK_Note, note),
        os);
  }
  return make_error<InjectError>(code, std::move(d), std::move(noteText));
}

const InjectType *InjectSiteScanner::lookupType(StringRef token,
                                                bool legacy) const {
  auto matches = [&](const InjectType &t) {
    return legacy ? t.token.equals_insensitive(token) : t.token == token;
  };
  for (const InjectType &t : opts.extraTypes)
    if (matches(t))
      return &t;
  for (const InjectType &t : getBuiltinInjectTypes())
    if (matches(t))
      return &t;
  return nullptr;
}

StringRef InjectSiteScanner::stableName(size_t i) {
  while (stableNames.size() <= i)
    stableNames.push_back(
        saver.save(StableRegisterPrefix +
                   Twine(static_cast<uint64_t>(stableNames.size()))));
  return stableNames[i];
}

/// \returns true if \p s starts with \p word followed by a blank or its end.
static bool startsWithWord(StringRef s, StringRef word) {
  return s.startswith(word) &&
         (s.size() == word.size() || isBlank(s[word.size()]));
}

/// Pops the next blank-separated token of \p s.
static StringRef nextToken(StringRef &s) {
  s = s.ltrim(" \t");
  size_t n = s.find_first_of(" \t");
  StringRef tok = s.take_front(n);
  s = s.drop_front(tok.size());
  return tok;
}

/// \returns whether \p p lies inside a `/* */` comment. Calls come with
/// increasing \p p, so the scan for comments and strings (whose `/*` is no
/// comment) is linear over the whole text.
bool InjectSiteScanner::insideBlockComment(const char *p) {
  const char *q = commentScanPos;
  while (q < p) {
    if (inBlockComment) {
      StringRef rest(q, end - q);
      size_t close = rest.find("*/");
      if (close == StringRef::npos || q + close >= p) {
        q = p;
        break;
      }
      q += close + 2;
      inBlockComment = false;
      continue;
    }
    char c = *q;
    if (c == '"') {
      // A string ends at its quote or, unterminated, at the line's end.
      for (++q; q < end && *q != '"' && *q != '\n'; ++q)
        if (*q == '\\' && q + 1 < end && q[1] != '\n')
          ++q;
      if (q < end && *q == '"')
        ++q;
    } else if (c == '/' && q + 1 < end && q[1] == '/') {
      q = lineEnd(q);
    } else if (c == '/' && q + 1 < end && q[1] == '*') {
      inBlockComment = true;
      q += 2;
    } else {
      ++q;
    }
  }
  commentScanPos = q;
  return inBlockComment;
}

Error InjectSiteScanner::handleMarker(const char *j, const char *&resume) {
  resume = j + 1;
  if (j - base < 6 || end - j < 4 || memcmp(j - 6, "PTX_INJECT", 10) != 0)
    return Error::success();
  const char *kw = j - 6;
  bool native = kw - base >= 2 && kw[-2] == 'M' && kw[-1] == 'M';
  StringRef rest(j + 4, end - (j + 4));
  enum { None, Start, End, ArgMarker } which = None;
  if (!native) {
    if (startsWithWord(rest, "_START") || rest.startswith("_START\r") ||
        rest.startswith("_START\n"))
      which = Start;
    else if (startsWithWord(rest, "_END") || rest.startswith("_END\r") ||
             rest.startswith("_END\n"))
      which = End;
  } else {
    kw -= 2;
    if (startsWithWord(rest, "_BEGIN") || rest.startswith("_BEGIN\r") ||
        rest.startswith("_BEGIN\n"))
      which = Start;
    else if (startsWithWord(rest, "_END") || rest.startswith("_END\r") ||
             rest.startswith("_END\n"))
      which = End;
    else if (startsWithWord(rest, "_ARG") || rest.startswith("_ARG\r") ||
             rest.startswith("_ARG\n"))
      which = ArgMarker;
  }
  if (which == None)
    return Error::success();
  // Only a keyword that opens a `//` comment is a marker.
  const char *c = kw;
  while (c > base && isBlank(c[-1]))
    --c;
  if (c - base < 2 || c[-1] != '/' || c[-2] != '/')
    return Error::success();
  c -= 2;
  // ... and that comment must not itself be inside an earlier `//` comment
  // of its line (`// CHECK: // PTX_INJECT_START f` is no marker).
  for (const char *l = c; l > base && l[-1] != '\n'; --l)
    if (l - base >= 2 && l[-1] == '/' && l[-2] == '/')
      return Error::success();
  // Nor is a `//` inside a `/* */` comment a comment of its own.
  if (mayHaveBlockComments && insideBlockComment(c))
    return Error::success();
  if (which == Start)
    return parseSite(c, kw, native, resume);
  if (!native)
    return diag(InjectErrc::Formatting, kw,
                "'PTX_INJECT_END' without a matching 'PTX_INJECT_START'");
  return diag(
      InjectErrc::Formatting, kw,
      Twine(which == End ? "'MMPTX_INJECT_END'" : "'MMPTX_INJECT_ARG'") +
          " without a matching 'MMPTX_INJECT_BEGIN'");
}

Error InjectSiteScanner::parseSite(const char *comment, const char *kw,
                                   bool native, const char *&resume) {
  const char *removeBegin = comment;
  if (removeBegin > base && removeBegin[-1] == '\t')
    --removeBegin;
  StringRef keyword = native ? "MMPTX_INJECT_BEGIN" : "PTX_INJECT_START";
  const char *q = kw + keyword.size();
  const char *le = lineEnd(q);
  StringRef line = StringRef(q, le - q).rtrim(" \t\r");
  StringRef name;
  uint32_t declaredArgs = 0;
  const char *nargsLoc = nullptr;
  if (!native) {
    name = line.ltrim(" \t");
    if (name.empty())
      return diag(InjectErrc::Formatting, q,
                  "expected an inject name after 'PTX_INJECT_START'");
  } else {
    StringRef l = line;
    name = nextToken(l);
    if (name.empty())
      return diag(InjectErrc::Formatting, q,
                  "expected an inject name after 'MMPTX_INJECT_BEGIN'");
    StringRef n = nextToken(l);
    nargsLoc = n.empty() ? name.end() : n.data();
    if (n.empty())
      return diag(InjectErrc::Formatting, nargsLoc,
                  "expected the argument count after inject name '" + name +
                      "'");
    if (n.getAsInteger(10, declaredArgs))
      return diag(InjectErrc::Formatting, nargsLoc,
                  "invalid argument count '" + n + "'");
    if (!l.ltrim(" \t").empty())
      return diag(InjectErrc::Formatting, l.ltrim(" \t").data(),
                  "unexpected text after the argument count");
  }
  const char *body = le < end ? le + 1 : end;

  auto inserted = h.nameToInject.try_emplace(name, h.injectList.size());
  uint32_t index = inserted.first->second;
  if (!inserted.second && firstBlock[index].first != NoFastPath &&
      (injectFormat[index] == InjectSiteFormat::Native) == native) {
    // Fast path: marker lines byte-identical to the first site's.
    const Inject &inj = h.injectList[index];
    auto [fbOffset, fbSize] = firstBlock[index];
    if (size_t(end - body) >= fbSize &&
        memcmp(body, base + fbOffset, fbSize) == 0 &&
        (body + fbSize == end || body[fbSize] == '\n') &&
        (!native || declaredArgs == inj.numVariables)) {
      const char *blockEnd = body + fbSize;
      const char *removeEnd = blockEnd;
      if (removeEnd > body && removeEnd[-1] == '\r')
        --removeEnd;
      addSite(index, kw, removeBegin, removeEnd, injectFormat[index]);
      resume = blockEnd;
      return Error::success();
    }
  }

  InjectSiteFormat format;
  const char *blockEnd, *removeEnd;
  if (Error e = parseArgs(kw, name, native, body, format, blockEnd, removeEnd))
    return e;
  if (native && declaredArgs != args.size())
    return diag(InjectErrc::Formatting, nargsLoc,
                "inject site '" + name + "' declares " +
                    plural(declaredArgs, "argument") + " but has " +
                    plural(args.size(), "'MMPTX_INJECT_ARG' line"));

  if (inserted.second) {
    // Later sites are checked against this one, so checking it suffices.
    seenNames.clear();
    seenRegs.clear();
    for (const Arg &a : args) {
      auto n = seenNames.try_emplace(a.name, a.line);
      if (!n.second)
        return diag(InjectErrc::Formatting, a.line,
                    "inject site '" + name + "' declares variable '" + a.name +
                        "' twice",
                    n.first->second, "first declared here");
      if (format != InjectSiteFormat::MmPtx)
        continue;
      auto r = seenRegs.try_emplace(a.reg, a.line);
      if (!r.second)
        return diag(InjectErrc::Formatting, a.reg.data(),
                    "inject site '" + name + "' gives stable register '" +
                        a.reg + "' to two variables",
                    r.first->second, "first given here");
    }
    Inject inj;
    inj.name = rebase(name);
    inj.index = index;
    inj.numSites = 0;
    inj.firstVariable = h.variables.size();
    inj.numVariables = args.size();
    inj.firstSiteOffset = offset(kw);
    for (size_t i = 0, n = args.size(); i != n; ++i) {
      const Arg &a = args[i];
      InjectVariable v;
      v.name = rebase(a.name);
      v.kind = a.kind;
      v.regType = a.type ? a.type->regType : rebase(a.regType);
      v.typeToken = a.type ? a.type->token : rebase(a.typeToken);
      v.movSuffix = a.type ? a.type->movSuffix : v.regType;
      if (a.type && opts.extraTypes.size()) {
        // Extra types live only during create: keep our own copies.
        v.regType = saver.save(v.regType);
        v.typeToken = saver.save(v.typeToken);
        v.movSuffix = saver.save(v.movSuffix);
      }
      v.stableRegister =
          format == InjectSiteFormat::MmPtx ? rebase(a.reg) : stableName(i);
      h.variables.push_back(v);
    }
    h.injectList.push_back(inj);
    injectFormat.push_back(format);
    if (format == InjectSiteFormat::Legacy)
      firstBlock.push_back({NoFastPath, 0});
    else
      firstBlock.push_back({offset(body), uint32_t(blockEnd - body)});
  } else if (Error e = checkAgainstFirst(index, kw, name)) {
    return e;
  }
  addSite(index, kw, removeBegin, removeEnd, format);
  resume = blockEnd;
  return Error::success();
}

Error InjectSiteScanner::parseArgs(const char *kw, StringRef name, bool native,
                                   const char *body, InjectSiteFormat &format,
                                   const char *&blockEnd,
                                   const char *&removeEnd) {
  args.clear();
  StringRef endWord = native ? "MMPTX_INJECT_END" : "PTX_INJECT_END";
  auto notClosed = [&](const char *loc) {
    return diag(InjectErrc::Formatting, loc,
                "expected an argument marker or '// " + endWord +
                    "': inject site '" + name + "' is not closed",
                kw, "inject site '" + name + "' starts here");
  };
  int mode = -1; // 0: mm-ptx, 1: legacy
  const char *ls = body;
  while (true) {
    if (ls >= end)
      return diag(InjectErrc::Formatting, kw,
                  "inject site '" + name + "' has no '// " + endWord + "'");
    const char *le = lineEnd(ls);
    const char *ce = le;
    if (ce > ls && ce[-1] == '\r')
      --ce;
    StringRef line = StringRef(ls, ce - ls).trim(" \t");
    const char *next = le < end ? le + 1 : end;
    if (line.empty()) {
      if (le == end)
        ls = end;
      else
        ls = next;
      continue;
    }
    if (!line.startswith("//"))
      return notClosed(line.data());
    StringRef rest = line.drop_front(2).ltrim(" \t");
    if (startsWithWord(rest, endWord)) {
      StringRef tail = rest.drop_front(endWord.size()).ltrim(" \t");
      if (native) {
        StringRef endName = nextToken(tail);
        if (endName.empty())
          return diag(InjectErrc::Formatting, rest.end(),
                      "expected inject name '" + name +
                          "' after 'MMPTX_INJECT_END'");
        if (endName != name)
          return diag(InjectErrc::Formatting, endName.data(),
                      "'MMPTX_INJECT_END' names '" + endName +
                          "' but the site is '" + name + "'",
                      kw, "inject site '" + name + "' starts here");
        tail = tail.ltrim(" \t");
      }
      if (!tail.empty())
        return diag(InjectErrc::Formatting, tail.data(),
                    "unexpected text after '" + endWord + "'");
      blockEnd = le;
      removeEnd = ce;
      break;
    }
    if (startsWithWord(rest, "PTX_INJECT_START") ||
        startsWithWord(rest, "MMPTX_INJECT_BEGIN") ||
        startsWithWord(rest, "PTX_INJECT_END") ||
        startsWithWord(rest, "MMPTX_INJECT_END"))
      return notClosed(rest.data());

    Arg a;
    a.line = line.data();
    a.type = nullptr;
    StringRef kindTok;
    const char *lineEndLoc = line.end();
    if (native) {
      if (!startsWithWord(rest, "MMPTX_INJECT_ARG"))
        return notClosed(line.data());
      StringRef l = rest.drop_front(strlen("MMPTX_INJECT_ARG"));
      StringRef idx = nextToken(l);
      unsigned idxValue;
      if (idx.empty())
        return diag(InjectErrc::Formatting, lineEndLoc,
                    "expected an argument index after 'MMPTX_INJECT_ARG'");
      if (idx.getAsInteger(10, idxValue) || idxValue != args.size())
        return diag(InjectErrc::Formatting, idx.data(),
                    "argument index '" + idx + "' out of order: expected " +
                        Twine(args.size()));
      kindTok = nextToken(l);
      if (kindTok == "in")
        a.kind = InjectArgKind::In;
      else if (kindTok == "out")
        a.kind = InjectArgKind::Out;
      else if (kindTok == "mod")
        a.kind = InjectArgKind::Mod;
      else if (kindTok.empty())
        return diag(InjectErrc::Formatting, lineEndLoc,
                    "expected an argument kind ('in', 'out' or 'mod')");
      else
        return diag(InjectErrc::Formatting, kindTok.data(),
                    "invalid argument kind '" + kindTok +
                        "': expected 'in', 'out' or 'mod'");
      a.regType = nextToken(l);
      a.typeToken = nextToken(l);
      a.name = l.trim(" \t");
      format = InjectSiteFormat::Native;
    } else {
      StringRef l = rest;
      a.reg = nextToken(l);
      kindTok = nextToken(l);
      int lineMode;
      if (kindTok.size() == 1 &&
          (kindTok[0] == 'm' || kindTok[0] == 'o' || kindTok[0] == 'i')) {
        lineMode = 0;
        a.kind = kindTok[0] == 'm'   ? InjectArgKind::Mod
                 : kindTok[0] == 'o' ? InjectArgKind::Out
                                     : InjectArgKind::In;
        a.regType = nextToken(l);
      } else if ((kindTok == "in" || kindTok == "out" || kindTok == "mod") &&
                 a.reg.startswith("%")) {
        // Legacy markers carry the compiler's register (`%f1`).
        lineMode = 1;
        a.kind = kindTok == "in"    ? InjectArgKind::In
                 : kindTok == "out" ? InjectArgKind::Out
                                    : InjectArgKind::Mod;
        a.regType = "";
      } else if (kindTok.empty()) {
        return diag(InjectErrc::Formatting, lineEndLoc,
                    "expected '<register> <kind> ...' in inject argument "
                    "marker");
      } else {
        return diag(InjectErrc::Formatting, kindTok.data(),
                    "invalid argument kind '" + kindTok +
                        "': expected 'm', 'o' or 'i' (legacy markers: a "
                        "'%register' then 'in', 'out' or 'mod')");
      }
      if (mode == -1)
        mode = lineMode;
      else if (mode != lineMode)
        return diag(InjectErrc::Formatting, kindTok.data(),
                    "argument marker mixes the mm-ptx and legacy forms in "
                    "inject site '" +
                        name + "'",
                    kw, "inject site '" + name + "' starts here");
      a.typeToken = nextToken(l);
      a.name = l.trim(" \t");
      format = mode == 0 ? InjectSiteFormat::MmPtx : InjectSiteFormat::Legacy;
    }
    if ((native || mode == 0) && a.regType.empty())
      return diag(InjectErrc::Formatting, lineEndLoc,
                  "expected a register type in inject argument marker");
    if (a.typeToken.empty())
      return diag(InjectErrc::Formatting, lineEndLoc,
                  "expected a type in inject argument marker");
    if (a.name.empty())
      return diag(InjectErrc::Formatting, lineEndLoc,
                  "missing variable name in inject argument marker");
    a.typeLoc = a.typeToken.data();
    bool legacy = !native && mode == 1;
    a.type = lookupType(a.typeToken, legacy);
    if (!a.type && (legacy || !opts.allowUnknownTypes))
      return diag(InjectErrc::UnknownType, a.typeLoc,
                  "unknown inject type '" + a.typeToken + "'");
    if (a.type && !legacy && a.type->regType != a.regType)
      return diag(InjectErrc::Formatting, a.regType.data(),
                  "register type '" + a.regType +
                      "' does not match inject "
                      "type '" +
                      a.type->token + "' (" + a.type->regType + ")");
    args.push_back(a);
    ls = next;
    if (le == end)
      ls = end;
  }
  if (args.empty())
    format = native ? InjectSiteFormat::Native : InjectSiteFormat::MmPtx;
  return Error::success();
}

Error InjectSiteScanner::checkAgainstFirst(uint32_t index, const char *kw,
                                           StringRef name) {
  const Inject &inj = h.injectList[index];
  const char *firstLoc = base + inj.firstSiteOffset;
  std::string note = ("first site of inject '" + name + "' is here").str();
  if (args.size() != inj.numVariables)
    return diag(InjectErrc::InconsistentInjection, kw,
                "inject site '" + name + "' has " +
                    plural(args.size(), "argument") +
                    ", but the first site of '" + name + "' has " +
                    Twine(inj.numVariables),
                firstLoc, note);
  ArrayRef<InjectVariable> vars = h.getVariables(inj);
  for (size_t i = 0, n = args.size(); i != n; ++i) {
    const Arg &a = args[i];
    const InjectVariable &v = vars[i];
    auto differs = [&](const Twine &what, StringRef here, StringRef first) {
      return diag(InjectErrc::InconsistentInjection, a.line,
                  "inconsistent inject site '" + name + "': variable '" +
                      v.name + "' (argument " + Twine(i) + ") has " + what +
                      " '" + here + "' here, but '" + first +
                      "' at the first site",
                  firstLoc, note);
    };
    if (a.name != v.name)
      return diag(InjectErrc::InconsistentInjection, a.line,
                  "inconsistent inject site '" + name + "': argument " +
                      Twine(i) + " is variable '" + a.name + "' here, but '" +
                      v.name + "' at the first site",
                  firstLoc, note);
    if (a.kind != v.kind)
      return differs("kind", getInjectArgKindName(a.kind),
                     getInjectArgKindName(v.kind));
    StringRef typeToken = a.type ? a.type->token : a.typeToken;
    if (typeToken != v.typeToken)
      return differs("type", typeToken, v.typeToken);
    StringRef regType = a.type ? a.type->regType : a.regType;
    if (regType != v.regType)
      return differs("register type", regType, v.regType);
    // mm-ptx sites name their stable register; the others use _x<i>.
    if (!a.reg.empty() && !a.reg.startswith("%")) {
      if (a.reg != v.stableRegister)
        return differs("stable register", a.reg, v.stableRegister);
    } else if (v.stableRegister != stableName(i)) {
      return differs("stable register", stableName(i), v.stableRegister);
    }
  }
  return Error::success();
}

void InjectSiteScanner::addSite(uint32_t index, const char *kw,
                                const char *removeBegin, const char *removeEnd,
                                InjectSiteFormat format) {
  InjectSite site;
  site.inject = index;
  site.markerOffset = offset(kw);
  site.removeBegin = offset(removeBegin);
  site.removeEnd = offset(removeEnd);
  site.format = format;
  site.firstRegister = h.siteRegisters.size();
  h.siteList.push_back(site);
  ++h.injectList[index].numSites;

  addText(segStart, removeBegin);
  segStart = removeEnd;
  if (format != InjectSiteFormat::Legacy) {
    h.segments.push_back({nullptr, 0, index});
    return;
  }
  // Legacy: wrap the stub in the normalisation scaffold.
  for (const Arg &a : args)
    h.siteRegisters.push_back(rebase(a.reg));
  std::string &s = h.scaffold;
  size_t prefixBegin = s.size();
  size_t prefixEnd = writeNormalizedSite(
      s, h.injectList[index], h.getVariables(h.injectList[index]),
      makeArrayRef(h.siteRegisters).take_back(args.size()),
      /*leadingTab=*/*removeBegin == '\t', /*withMarkers=*/false);
  size_t suffixEnd = s.size();
  // Offsets into the growing scaffold string; fixed up in finish().
  h.segments.push_back({reinterpret_cast<const char *>(prefixBegin),
                        uint32_t(prefixEnd - prefixBegin), ScaffoldSegment});
  h.segments.push_back({nullptr, 0, index});
  h.segments.push_back({reinterpret_cast<const char *>(prefixEnd),
                        uint32_t(suffixEnd - prefixEnd), ScaffoldSegment});
  h.textSize += suffixEnd - prefixBegin;
}

Error InjectSiteScanner::scanText() {
  // Look for the rare '*' (memchr speed) rather than for "/*".
  for (const char *p = base; p < end;) {
    const void *star = memchr(p, '*', end - p);
    if (!star)
      break;
    p = static_cast<const char *>(star) + 1;
    if (p - 1 > base && p[-2] == '/') {
      mayHaveBlockComments = true;
      break;
    }
  }
  const char *p = base;
  while (p < end) {
    const void *j = memchr(p, 'J', end - p);
    if (!j)
      break;
    if (Error e = handleMarker(static_cast<const char *>(j), p))
      return e;
  }
  return Error::success();
}

Error InjectSiteScanner::scanModule(const ptx::Module &m) {
  const char *resume = base;
  for (const ptx::Statement &s : m.statements()) {
    if (s.Kind != ptx::StmtKind::Comment || !(s.Flags & ptx::SF_KeywordComment))
      continue;
    const char *p = base + s.Begin, *se = base + s.End;
    // Markers are `//` comments; a `/* */` comment only mentions them.
    if (p < resume || se - p < 2 || p[1] != '/')
      continue;
    while (p < se) {
      const void *j = memchr(p, 'J', se - p);
      if (!j)
        break;
      if (Error e = handleMarker(static_cast<const char *>(j), p))
        return e;
    }
    resume = std::max(resume, p);
  }
  return Error::success();
}

void InjectSiteScanner::finish() {
  addText(segStart, end);
  for (InjectModule::Segment &s : h.segments)
    if (s.inject == ScaffoldSegment) {
      s.data = h.scaffold.data() + reinterpret_cast<uintptr_t>(s.data);
      s.inject = InjectModule::TextSegment;
    }
}

//===----------------------------------------------------------------------===//
// InjectModule
//===----------------------------------------------------------------------===//

InjectModule::InjectModule() = default;
InjectModule::~InjectModule() = default;

Expected<std::unique_ptr<InjectModule>>
InjectModule::create(StringRef ptxText, StringRef bufferName,
                     const InjectOptions &options) {
  if (ptxText.size() >= UINT32_MAX)
    return usageError(InjectErrc::InvalidInput,
                      "PTX of " + Twine(ptxText.size()) +
                          " bytes is too large (limit 4 GiB)");
  std::unique_ptr<InjectModule> h(new InjectModule());
  h->ptx.assign(ptxText.data(), ptxText.size());
  if (options.trusted) {
    InjectSiteScanner scanner(*h, h->ptx, nullptr, bufferName, options);
    if (Error e = scanner.scanText())
      return e;
    scanner.finish();
    return h;
  }
  // The structural parse over the handle's own copy; its statements are
  // only needed until the checks are done.
  SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(h->ptx, bufferName,
                                 /*RequiresNullTerminator=*/false),
      SMLoc());
  auto m = parseStructure(sm, id);
  if (!m)
    return withInjectCode(m.takeError(), InjectErrc::InvalidPTX);
  InjectSiteScanner scanner(*h, h->ptx, &sm, bufferName, options);
  if (Error e = scanner.scanModule(**m))
    return e;
  scanner.finish();
  if (Error e = verifySites(**m, *h))
    return e;
  return h;
}

Expected<std::unique_ptr<InjectModule>>
InjectModule::create(const ptx::Module &m, const InjectOptions &options) {
  StringRef text = m.getBuffer();
  if (m.isModified())
    return usageError(InjectErrc::InvalidInput,
                      "the module has edits that are not applied yet; print "
                      "and re-parse it first");
  if (text.size() >= UINT32_MAX)
    return usageError(InjectErrc::InvalidInput, "PTX too large (limit 4 GiB)");
  std::unique_ptr<InjectModule> h(new InjectModule());
  h->ptx.assign(text.data(), text.size());
  InjectSiteScanner scanner(*h, text, &m.getSourceMgr(),
                            m.getBufferIdentifier(), options);
  if (Error e = scanner.scanModule(m))
    return e;
  scanner.finish();
  if (!options.trusted)
    if (Error e = verifySites(m, *h))
      return e;
  return h;
}

const Inject *InjectModule::lookupInject(StringRef name) const {
  auto it = nameToInject.find(name);
  return it == nameToInject.end() ? nullptr : &injectList[it->second];
}

const InjectVariable *InjectModule::lookupVariable(const Inject &inj,
                                                   StringRef name) const {
  for (const InjectVariable &v : getVariables(inj))
    if (v.name == name)
      return &v;
  return nullptr;
}

ArrayRef<StringRef>
InjectModule::getSiteRegisters(const InjectSite &site) const {
  if (site.format != InjectSiteFormat::Legacy)
    return {};
  return makeArrayRef(siteRegisters)
      .slice(site.firstRegister, injectList[site.inject].numVariables);
}

size_t InjectModule::getMemoryUsage() const {
  size_t bytes = sizeof(*this) + ptx.capacity() + scaffold.capacity() +
                 segments.capacity() * sizeof(Segment) +
                 injectList.capacity() * sizeof(Inject) +
                 variables.capacity() * sizeof(InjectVariable) +
                 siteList.capacity() * sizeof(InjectSite) +
                 siteRegisters.capacity() * sizeof(StringRef) +
                 alloc.getTotalMemory() +
                 nameToInject.getNumBuckets() * (sizeof(void *) + 4);
  for (const auto &e : nameToInject)
    bytes += sizeof(e) + e.getKeyLength() + 1;
  return bytes;
}

//===----------------------------------------------------------------------===//
// Rendering
//===----------------------------------------------------------------------===//

Error InjectModule::checkStubs(ArrayRef<StringRef> stubs,
                               const RenderOptions &opts) const {
  if (Error e = checkStubCount(stubs))
    return e;
  for (size_t i = 0, n = stubs.size(); i != n; ++i) {
    const Inject &inj = injectList[i];
    std::string name = i < opts.stubNames.size() && !opts.stubNames[i].empty()
                           ? opts.stubNames[i]
                           : ("<stub of inject '" + inj.name + "'>").str();
    if (Error e = checkStub(stubs[i], name, *this, inj, opts.onWarning))
      return e;
  }
  return Error::success();
}

Error InjectModule::checkStubCount(ArrayRef<StringRef> stubs) const {
  if (stubs.size() != injectList.size())
    return usageError(InjectErrc::WrongNumStubs,
                      "expected " + plural(injectList.size(), "stub") +
                          " (one per inject), got " + Twine(stubs.size()));
  return Error::success();
}

Expected<size_t> InjectModule::renderedSize(ArrayRef<StringRef> stubs) const {
  if (Error e = checkStubCount(stubs))
    return e;
  size_t size = textSize;
  for (size_t i = 0, n = stubs.size(); i != n; ++i)
    size += stubs[i].size() * injectList[i].numSites;
  return size;
}

void InjectModule::fill(ArrayRef<StringRef> stubs, char *out) const {
  const StringRef *stubData = stubs.data();
  for (const Segment &s : segments) {
    if (s.inject == TextSegment) {
      memcpy(out, s.data, s.size);
      out += s.size;
    } else {
      const StringRef &stub = stubData[s.inject];
      memcpy(out, stub.data(), stub.size());
      out += stub.size();
    }
  }
}

Error InjectModule::render(ArrayRef<StringRef> stubs, std::string &out,
                           const RenderOptions &opts) const {
  if (opts.checkStubs)
    if (Error e = checkStubs(stubs, opts))
      return e;
  Expected<size_t> size = renderedSize(stubs);
  if (!size)
    return size.takeError();
  out.clear();
  out.reserve(*size);
  const StringRef *stubData = stubs.data();
  for (const Segment &s : segments) {
    if (s.inject == TextSegment)
      out.append(s.data, s.size);
    else
      out.append(stubData[s.inject].data(), stubData[s.inject].size());
  }
  return Error::success();
}

Expected<size_t> InjectModule::render(ArrayRef<StringRef> stubs, char *buf,
                                      size_t bufSize,
                                      const RenderOptions &opts) const {
  if (opts.checkStubs)
    if (Error e = checkStubs(stubs, opts))
      return e;
  Expected<size_t> size = renderedSize(stubs);
  if (!size)
    return size.takeError();
  if (!buf && *size)
    return usageError(InjectErrc::InvalidInput, "null output buffer");
  if (bufSize < *size)
    return usageError(InjectErrc::InsufficientBuffer,
                      "output buffer of " + Twine(bufSize) +
                          " bytes is too small: the rendered PTX needs " +
                          Twine(*size));
  fill(stubs, buf);
  return *size;
}

Expected<std::vector<StringRef>>
InjectModule::orderStubs(const StringMap<StringRef> &stubsByName) const {
  std::vector<StringRef> stubs(injectList.size());
  std::vector<bool> given(injectList.size());
  SmallVector<StringRef, 4> unknown;
  for (const auto &e : stubsByName) {
    auto it = nameToInject.find(e.first());
    if (it == nameToInject.end()) {
      unknown.push_back(e.first());
      continue;
    }
    stubs[it->second] = e.second;
    given[it->second] = true;
  }
  if (!unknown.empty()) {
    llvm::sort(unknown);
    std::string msg = "stub given for unknown inject";
    msg += unknown.size() > 1 ? "s" : "";
    for (size_t i = 0; i != unknown.size(); ++i)
      msg += (i ? ", '" : " '") + unknown[i].str() + "'";
    return usageError(InjectErrc::InjectNotFound, msg);
  }
  std::string missing;
  unsigned numMissing = 0;
  for (size_t i = 0; i != injectList.size(); ++i)
    if (!given[i]) {
      missing += (numMissing++ ? ", '" : " '") + injectList[i].name.str() + "'";
    }
  if (numMissing)
    return usageError(InjectErrc::MissingStub, Twine("no stub for inject") +
                                                   (numMissing > 1 ? "s" : "") +
                                                   missing);
  return stubs;
}

Error InjectModule::render(const StringMap<StringRef> &stubsByName,
                           std::string &out, const RenderOptions &opts) const {
  auto stubs = orderStubs(stubsByName);
  if (!stubs)
    return stubs.takeError();
  return render(*stubs, out, opts);
}
