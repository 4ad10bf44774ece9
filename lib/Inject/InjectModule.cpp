//===- InjectModule.cpp - Find and check inject sites ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Creation of an InjectModule. The algorithm:
///  1. Find marker keywords: every marker contains `PTX_INJECT` and the
///     letter `J` is rare in PTX, so memchr('J') skips most of the text at
///     memory speed. The module path visits only the comment statements the
///     structural parser flagged instead.
///  2. A keyword inside a `//` comment that opens a site (`PTX_INJECT_START`,
///     `MMPTX_INJECT_BEGIN`) is parsed line by line up to its END marker.
///     A later site of a known inject whose marker lines are byte-identical
///     to the first site's is accepted with one memcmp (the common case:
///     unrolled copies); anything else is parsed and compared field by
///     field, so every difference gets a located error and a note at the
///     first site.
///  3. Each site is a slot in the template: the text up to the site, the
///     stub (legacy sites: in their normalisation scaffold), then text from
///     the end of the END line (its newline kept).
///  4. The handle keeps only what render needs (see finish()): the template,
///     one allocation of exactly the input less the marker blocks, filled
///     by one copy per site; compact site records; and one block with the
///     variables' strings. The caller's text is read in place and never
///     copied whole, so a handle holds less than its input and a create
///     touches (page-faults) little more memory than the template.
///
/// Names are looked up in one StringMap, so creation is linear in the input
/// whatever the number of sites and names.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Inject/InjectModule.h"
#include "mmptx/IR/Module.h"
#include "mmptx/Inject/InjectChecks.h"
#include "mmptx/Parser/Parser.h"
#include "mmptx/Support/Compiler.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

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

Error mmptx::withInjectCode(Error Err, InjectErrc Code) {
  return handleErrors(std::move(Err),
                      [&](std::unique_ptr<DiagnosticError> D) -> Error {
                        if (D->isA(InjectError::classID()))
                          return Error(std::move(D));
                        return make_error<InjectError>(Code, D->getDiagnostic(),
                                                       D->getNoteText());
                      });
}

InjectErrc mmptx::takeInjectError(Error Err, std::string *Message) {
  InjectErrc Code = InjectErrc::Success;
  handleAllErrors(
      std::move(Err),
      [&](const InjectError &E) {
        Code = E.getCode();
        if (Message)
          *Message = E.message();
      },
      [&](const StringError &E) {
        std::error_code Ec = E.convertToErrorCode();
        Code = Ec.category() == getInjectErrorCategory()
                   ? InjectErrc(Ec.value())
                   : InjectErrc::Internal;
        if (Message)
          *Message = E.getMessage();
      },
      [&](const ErrorInfoBase &E) {
        Code = InjectErrc::Internal;
        if (Message)
          *Message = E.message();
      });
  return Code;
}

size_t mmptx::writeNormalizedSite(std::string &Out, const Inject &Inj,
                                  ArrayRef<InjectVariable> Vars,
                                  ArrayRef<StringRef> Regs, bool LeadingTab,
                                  bool WithMarkers) {
  SmallVector<ScaffoldVar, 8> Sv;
  for (size_t I = 0, N = Vars.size(); I != N; ++I)
    Sv.push_back({Vars[I].Kind, Vars[I].RegType, Vars[I].MovSuffix,
                  Vars[I].TypeToken, Vars[I].Name, Regs[I]});
  if (LeadingTab)
    Out += '\t';
  Out += "{\n";
  size_t StubPos = 0;
  raw_string_ostream Os(Out); // unbuffered: writes go straight to out
  static const std::string StablePrefix = ("%" + StableRegisterPrefix).str();
  writeSiteScaffold(
      Inj.Name, Sv, StablePrefix, WithMarkers,
      [&](const Twine &L) { Os << '\t' << L << '\n'; },
      [&] {
        // The markers' last newline comes after the stub.
        if (WithMarkers)
          Out.pop_back();
        StubPos = Out.size();
        Out += '\n';
      });
  Out += "\t}";
  return StubPos;
}

MMPTX_COLD static Error usageError(InjectErrc Code, const Twine &Msg) {
  return make_error<StringError>(Msg, make_error_code(Code));
}

//===----------------------------------------------------------------------===//
// Scanner
//===----------------------------------------------------------------------===//

static inline bool isBlank(char C) { return C == ' ' || C == '\t'; }

/// "1 argument", "2 arguments".
static std::string plural(size_t N, StringRef Noun) {
  return (Twine(N) + " " + Noun + (N == 1 ? "" : "s")).str();
}

namespace mmptx {
/// Finds, parses and checks the sites of one buffer and fills the handle.
class InjectSiteScanner {
public:
  InjectSiteScanner(InjectModule &H, StringRef Buf, const SourceMgr *Sm,
                    StringRef BufferName, const InjectOptions &Opts)
      : H(H), Base(Buf.data()), BufferEnd(Buf.data() + Buf.size()), Buf(Buf),
        Sm(Sm), BufferName(BufferName), Opts(Opts), CommentScanPos(Base) {
    // nvcc's sites are about one in 360 bytes. Growth reallocates (a large
    // block is moved by mremap, not copied) and finish() trims in place.
    // (Reserving for the most sites the input can hold would touch no more
    // pages, but a block that large makes glibc map and unmap the
    // create's other big blocks each time.)
    H.SiteList.reserve(Buf.size() / 256 + 8);
  }

  Error scanText();
  Error scanModule(const ptx::Module &M);
  void finish();

private:
  /// One parsed argument marker.
  struct Arg {
    StringRef Reg, RegType, TypeToken, Name;
    InjectArgKind Kind;
    const char *Line;
    const char *TypeLoc;
    const InjectType *Type;
  };
  static constexpr uint32_t NoFastPath = ~uint32_t(0);

  Error handleMarker(const char *J, const char *&Resume);
  /// Calls handleMarker() at each 'J' from \p P to \p End, \p P following
  /// as it resumes.
  Error scanRange(const char *&P, const char *End);
  Error parseSite(const char *Comment, const char *Kw, bool Native,
                  const char *&Resume);
  Error parseArgs(const char *Keyword, StringRef Name, bool Native,
                  const char *Body, InjectSiteFormat &Format,
                  const char *&BlockEnd, const char *&RemoveEnd);
  Error checkAgainstFirst(uint32_t Index, const char *Kw, StringRef Name);
  void addSite(uint32_t Index, const char *Kw, const char *RemoveBegin,
               const char *RemoveEnd, InjectSiteFormat Format);

  MMPTX_COLD Error diag(InjectErrc Code, const char *Loc, const Twine &Msg,
                        const char *NoteLoc = nullptr, const Twine &Note = "");
  const InjectType *lookupType(StringRef Token, bool Legacy) const;
  StringRef stableName(size_t I);
  uint32_t offset(const char *P) const { return uint32_t(P - Base); }
  bool insideBlockComment(const char *P);
  const char *lineEnd(const char *P) const {
    const void *Nl = memchr(P, '\n', BufferEnd - P);
    return Nl ? static_cast<const char *>(Nl) : BufferEnd;
  }

  InjectModule &H;
  const char *Base, *BufferEnd;
  StringRef Buf;
  const SourceMgr *Sm;
  std::unique_ptr<SourceMgr> OwnedSm;
  StringRef BufferName;
  const InjectOptions &Opts;
  /// Per inject: the first site's marker lines after START (offset, size)
  /// for the byte-identical fast path, its format and its newlines.
  std::vector<std::pair<uint32_t, uint32_t>> FirstBlock;
  std::vector<InjectSiteFormat> InjectFormat;
  std::vector<uint32_t> InjectMarkerLines;
  /// The name and index of the previous site.
  StringRef LastName;
  uint32_t LastIndex = NoFastPath;
  /// Per variable: its type is a built-in one, whose strings are static.
  std::vector<bool> BuiltinType;
  /// Bytes of the input in marker blocks.
  size_t RemovedBytes = 0;
  SmallVector<Arg, 16> Args;
  /// First site of an inject: where each variable name and mm-ptx stable
  /// register was seen (duplicates are errors).
  StringMap<const char *> SeenNames, SeenRegs;
  /// Block-comment tracking for insideBlockComment(): only needed when the
  /// text has a `/*` at all, which nvcc's PTX never has.
  bool MayHaveBlockComments = false;
  bool InBlockComment = false;
  const char *CommentScanPos;
  std::vector<StringRef> StableNames;
  /// scanModule(): the statement being scanned, and per site the statement
  /// of its START marker.
  uint32_t CurrentStmt = ptx::Statement::NoIndex;
  SmallVector<uint32_t, 8> MarkerStmts;

public:
  ArrayRef<uint32_t> getMarkerStatements() const { return MarkerStmts; }

private:
  /// Strings that live only during create (stable names, copies of extra
  /// types' fields); finish() copies what the handle keeps.
  BumpPtrAllocator Scratch;
  StringSaver Saver{Scratch};
};
} // namespace mmptx

Error InjectSiteScanner::diag(InjectErrc Code, const char *Loc,
                              const Twine &Msg, const char *NoteLoc,
                              const Twine &Note) {
  const SourceMgr *S = Sm;
  if (!S) {
    OwnedSm = std::make_unique<SourceMgr>();
    OwnedSm->AddNewSourceBuffer(
        MemoryBuffer::getMemBuffer(Buf, BufferName,
                                   /*RequiresNullTerminator=*/false),
        SMLoc());
    S = OwnedSm.get();
  }
  SMDiagnostic D =
      S->GetMessage(SMLoc::getFromPointer(Loc), SourceMgr::DK_Error, Msg);
  std::string NoteText;
  if (NoteLoc) {
    raw_string_ostream Os(NoteText);
    printDiagnostic(
        S->GetMessage(SMLoc::getFromPointer(NoteLoc), SourceMgr::DK_Note, Note),
        Os);
  }
  return make_error<InjectError>(Code, std::move(D), std::move(NoteText));
}

MMPTX_HOT const InjectType *InjectSiteScanner::lookupType(StringRef Token,
                                                          bool Legacy) const {
  auto Matches = [&](const InjectType &T) {
    return Legacy ? T.TheToken.equals_insensitive(Token) : T.TheToken == Token;
  };
  for (const InjectType &T : Opts.ExtraTypes)
    if (Matches(T))
      return &T;
  for (const InjectType &T : getBuiltinInjectTypes())
    if (Matches(T))
      return &T;
  return nullptr;
}

StringRef InjectSiteScanner::stableName(size_t I) {
  while (StableNames.size() <= I)
    StableNames.push_back(
        Saver.save(StableRegisterPrefix +
                   Twine(static_cast<uint64_t>(StableNames.size()))));
  return StableNames[I];
}

/// \returns true if \p S starts with \p Word followed by a blank or its end.
static bool startsWithWord(StringRef S, StringRef Word) {
  return S.startswith(Word) &&
         (S.size() == Word.size() || isBlank(S[Word.size()]));
}

/// \p S without its leading blanks (spaces and tabs). By hand: StringRef's
/// ltrim(" \t") builds a byte set per call.
static StringRef skipBlanks(StringRef S) {
  size_t I = 0;
  while (I < S.size() && isBlank(S[I]))
    ++I;
  return S.drop_front(I);
}

/// \p S without its leading and trailing blanks.
MMPTX_HOT static StringRef trimBlanks(StringRef S) {
  S = skipBlanks(S);
  size_t N = S.size();
  while (N && isBlank(S[N - 1]))
    --N;
  return S.take_front(N);
}

/// Pops the next blank-separated token of \p S.
MMPTX_HOT static StringRef nextToken(StringRef &S) {
  S = skipBlanks(S);
  size_t N = 0;
  while (N < S.size() && !isBlank(S[N]))
    ++N;
  StringRef Tok = S.take_front(N);
  S = S.drop_front(N);
  return Tok;
}

/// \returns whether \p P lies inside a `/* */` comment. Calls come with
/// increasing \p P, so the scan for comments and strings (whose `/*` is no
/// comment) is linear over the whole text.
bool InjectSiteScanner::insideBlockComment(const char *P) {
  const char *Q = CommentScanPos;
  while (Q < P) {
    if (InBlockComment) {
      StringRef Rest(Q, BufferEnd - Q);
      size_t Close = Rest.find("*/");
      if (Close == StringRef::npos || Q + Close >= P) {
        Q = P;
        break;
      }
      Q += Close + 2;
      InBlockComment = false;
      continue;
    }
    char C = *Q;
    if (C == '"') {
      // A string ends at its quote or, unterminated, at the line's end.
      for (++Q; Q < BufferEnd && *Q != '"' && *Q != '\n'; ++Q)
        if (*Q == '\\' && Q + 1 < BufferEnd && Q[1] != '\n')
          ++Q;
      if (Q < BufferEnd && *Q == '"')
        ++Q;
    } else if (C == '/' && Q + 1 < BufferEnd && Q[1] == '/') {
      Q = lineEnd(Q);
    } else if (C == '/' && Q + 1 < BufferEnd && Q[1] == '*') {
      InBlockComment = true;
      Q += 2;
    } else {
      ++Q;
    }
  }
  CommentScanPos = Q;
  return InBlockComment;
}

MMPTX_HOT Error InjectSiteScanner::handleMarker(const char *J,
                                                const char *&Resume) {
  Resume = J + 1;
  if (J - Base < 6 || BufferEnd - J < 4 || memcmp(J - 6, "PTX_INJECT", 10) != 0)
    return Error::success();
  const char *Kw = J - 6;
  bool Native = Kw - Base >= 2 && Kw[-2] == 'M' && Kw[-1] == 'M';
  StringRef Rest(J + 4, BufferEnd - (J + 4));
  enum { None, Start, End, ArgMarker } Which = None;
  // Rest starts with the word K, or with K and a line end.
  auto Is = [&Rest](StringRef K) {
    return startsWithWord(Rest, K) ||
           (Rest.size() > K.size() && Rest.startswith(K) &&
            (Rest[K.size()] == '\r' || Rest[K.size()] == '\n'));
  };
  if (!Native) {
    if (Is("_START"))
      Which = Start;
    else if (Is("_END"))
      Which = End;
  } else {
    Kw -= 2;
    if (Is("_BEGIN"))
      Which = Start;
    else if (Is("_END"))
      Which = End;
    else if (Is("_ARG"))
      Which = ArgMarker;
  }
  if (Which == None)
    return Error::success();
  // Only a keyword that opens a `//` comment is a marker.
  const char *C = Kw;
  while (C > Base && isBlank(C[-1]))
    --C;
  if (C - Base < 2 || C[-1] != '/' || C[-2] != '/')
    return Error::success();
  C -= 2;
  // ... and that comment must not itself be inside an earlier `//` comment
  // of its line (`// CHECK: // PTX_INJECT_START f` is no marker).
  for (const char *L = C; L > Base && L[-1] != '\n'; --L)
    if (L - Base >= 2 && L[-1] == '/' && L[-2] == '/')
      return Error::success();
  // Nor is a `//` inside a `/* */` comment a comment of its own.
  if (MayHaveBlockComments && insideBlockComment(C))
    return Error::success();
  if (Which == Start)
    return parseSite(C, Kw, Native, Resume);
  if (!Native)
    return diag(InjectErrc::Formatting, Kw,
                "'PTX_INJECT_END' without a matching 'PTX_INJECT_START'");
  return diag(
      InjectErrc::Formatting, Kw,
      Twine(Which == End ? "'MMPTX_INJECT_END'" : "'MMPTX_INJECT_ARG'") +
          " without a matching 'MMPTX_INJECT_BEGIN'");
}

MMPTX_HOT Error InjectSiteScanner::parseSite(const char *Comment,
                                             const char *Kw, bool Native,
                                             const char *&Resume) {
  const char *RemoveBegin = Comment;
  if (RemoveBegin > Base && RemoveBegin[-1] == '\t')
    --RemoveBegin;
  StringRef Keyword = Native ? "MMPTX_INJECT_BEGIN" : "PTX_INJECT_START";
  const char *Q = Kw + Keyword.size();
  const char *Le = lineEnd(Q);
  // Trims by hand: StringRef's build a table per call.
  const char *Lb = Q, *Lend = Le;
  while (Lend > Lb && (isBlank(Lend[-1]) || Lend[-1] == '\r'))
    --Lend;
  StringRef Line(Lb, Lend - Lb);
  StringRef Name;
  uint32_t DeclaredArgs = 0;
  const char *NargsLoc = nullptr;
  if (!Native) {
    while (Lb < Lend && isBlank(*Lb))
      ++Lb;
    Name = StringRef(Lb, Lend - Lb);
    if (Name.empty())
      return diag(InjectErrc::Formatting, Q,
                  "expected an inject name after 'PTX_INJECT_START'");
  } else {
    StringRef L = Line;
    Name = nextToken(L);
    if (Name.empty())
      return diag(InjectErrc::Formatting, Q,
                  "expected an inject name after 'MMPTX_INJECT_BEGIN'");
    StringRef N = nextToken(L);
    NargsLoc = N.empty() ? Name.end() : N.data();
    if (N.empty())
      return diag(InjectErrc::Formatting, NargsLoc,
                  "expected the argument count after inject name '" + Name +
                      "'");
    if (N.getAsInteger(10, DeclaredArgs))
      return diag(InjectErrc::Formatting, NargsLoc,
                  "invalid argument count '" + N + "'");
    if (!skipBlanks(L).empty())
      return diag(InjectErrc::Formatting, skipBlanks(L).data(),
                  "unexpected text after the argument count");
  }
  const char *Body = Le < BufferEnd ? Le + 1 : BufferEnd;

  // Unrolled copies come in runs: most sites have the previous site's name.
  uint32_t Index;
  bool IsNew = false;
  StringRef Key;
  if (LastIndex != NoFastPath && Name == LastName) {
    Index = LastIndex;
  } else {
    auto Inserted = H.NameToInject.try_emplace(Name, H.InjectList.size());
    Index = Inserted.first->second;
    IsNew = Inserted.second;
    Key = Inserted.first->getKey();
  }
  LastName = Name;
  LastIndex = Index;
  if (!IsNew && FirstBlock[Index].first != NoFastPath &&
      (InjectFormat[Index] == InjectSiteFormat::Native) == Native) {
    // Fast path: marker lines byte-identical to the first site's.
    const Inject &Inj = H.InjectList[Index];
    auto [fbOffset, fbSize] = FirstBlock[Index];
    if (size_t(BufferEnd - Body) >= fbSize &&
        memcmp(Body, Base + fbOffset, fbSize) == 0 &&
        (Body + fbSize == BufferEnd || Body[fbSize] == '\n') &&
        (!Native || DeclaredArgs == Inj.NumVariables)) {
      const char *BlockEnd = Body + fbSize;
      const char *RemoveEnd = BlockEnd;
      if (RemoveEnd > Body && RemoveEnd[-1] == '\r')
        --RemoveEnd;
      addSite(Index, Kw, RemoveBegin, RemoveEnd, InjectFormat[Index]);
      H.SiteList.back().MarkerLines = InjectMarkerLines[Index];
      Resume = BlockEnd;
      return Error::success();
    }
  }

  InjectSiteFormat Format;
  const char *BlockEnd, *RemoveEnd;
  if (Error E = parseArgs(Kw, Name, Native, Body, Format, BlockEnd, RemoveEnd))
    return E;
  if (Native && DeclaredArgs != Args.size())
    return diag(InjectErrc::Formatting, NargsLoc,
                "inject site '" + Name + "' declares " +
                    plural(DeclaredArgs, "argument") + " but has " +
                    plural(Args.size(), "'MMPTX_INJECT_ARG' line"));

  if (IsNew) {
    // Later sites are checked against this one, so checking it suffices.
    // A few arguments are compared pairwise (no map to fill); many through
    // the maps.
    bool Small = Args.size() <= 16;
    if (!Small) {
      SeenNames.clear();
      SeenRegs.clear();
    }
    auto FirstWith = [&](size_t I, StringRef Arg::*Field) -> const char * {
      if (!Small) {
        auto &Seen = Field == &Arg::Name ? SeenNames : SeenRegs;
        auto Ins = Seen.try_emplace(Args[I].*Field, Args[I].Line);
        return Ins.second ? nullptr : Ins.first->second;
      }
      for (size_t J = 0; J != I; ++J)
        if (Args[J].*Field == Args[I].*Field)
          return Args[J].Line;
      return nullptr;
    };
    for (size_t I = 0, N = Args.size(); I != N; ++I) {
      const Arg &A = Args[I];
      if (const char *First = FirstWith(I, &Arg::Name))
        return diag(InjectErrc::Formatting, A.Line,
                    "inject site '" + Name + "' declares variable '" + A.Name +
                        "' twice",
                    First, "first declared here");
      if (Format != InjectSiteFormat::MmPtx)
        continue;
      if (const char *First = FirstWith(I, &Arg::Reg))
        return diag(InjectErrc::Formatting, A.Reg.data(),
                    "inject site '" + Name + "' gives stable register '" +
                        A.Reg + "' to two variables",
                    First, "first given here");
    }
    Inject Inj;
    Inj.Name = Key; // stable: the map's own copy
    Inj.Index = Index;
    Inj.NumSites = 0;
    Inj.FirstVariable = H.Variables.size();
    Inj.NumVariables = Args.size();
    Inj.FirstSiteOffset = offset(Kw);
    // Room for this inject's variables at once, growing geometrically.
    auto Grow = [&](auto &V) {
      if (V.capacity() < V.size() + Args.size())
        V.reserve(std::max(2 * V.capacity(), V.size() + Args.size()));
    };
    Grow(H.Variables);
    Grow(BuiltinType);
    for (size_t I = 0, N = Args.size(); I != N; ++I) {
      const Arg &A = Args[I];
      // Strings into the input or the extra types for now; finish() gives
      // the handle its own copies.
      InjectVariable V;
      V.Name = A.Name;
      V.Kind = A.Kind;
      V.RegType = A.Type ? A.Type->RegType : A.RegType;
      V.TypeToken = A.Type ? A.Type->TheToken : A.TypeToken;
      V.MovSuffix = A.Type ? A.Type->MovSuffix : V.RegType;
      V.StableRegister =
          Format == InjectSiteFormat::MmPtx ? A.Reg : stableName(I);
      H.Variables.push_back(V);
      ArrayRef<InjectType> Builtins = getBuiltinInjectTypes();
      BuiltinType.push_back(A.Type && A.Type >= Builtins.begin() &&
                            A.Type < Builtins.end());
    }
    H.InjectList.push_back(Inj);
    InjectFormat.push_back(Format);
    if (Format == InjectSiteFormat::Legacy)
      FirstBlock.push_back({NoFastPath, 0});
    else
      FirstBlock.push_back({offset(Body), uint32_t(BlockEnd - Body)});
    InjectMarkerLines.push_back(
        uint32_t(std::count(RemoveBegin, RemoveEnd, '\n')));
  } else if (Error E = checkAgainstFirst(Index, Kw, Name)) {
    return E;
  }
  addSite(Index, Kw, RemoveBegin, RemoveEnd, Format);
  H.SiteList.back().MarkerLines = InjectMarkerLines[Index];
  if (!IsNew)
    H.SiteList.back().MarkerLines =
        uint32_t(std::count(RemoveBegin, RemoveEnd, '\n'));
  Resume = BlockEnd;
  return Error::success();
}

MMPTX_HOT Error InjectSiteScanner::parseArgs(
    const char *Keyword, StringRef Name, bool Native, const char *Body,
    InjectSiteFormat &Format, const char *&BlockEnd, const char *&RemoveEnd) {
  Args.clear();
  StringRef EndWord = Native ? "MMPTX_INJECT_END" : "PTX_INJECT_END";
  auto NotClosed = [&](const char *Loc) {
    return diag(InjectErrc::Formatting, Loc,
                "expected an argument marker or '// " + EndWord +
                    "': inject site '" + Name + "' is not closed",
                Keyword, "inject site '" + Name + "' starts here");
  };
  int Mode = -1; // 0: mm-ptx, 1: legacy
  const char *Ls = Body;
  while (true) {
    if (Ls >= BufferEnd)
      return diag(InjectErrc::Formatting, Keyword,
                  "inject site '" + Name + "' has no '// " + EndWord + "'");
    const char *Le = lineEnd(Ls);
    const char *Ce = Le;
    if (Ce > Ls && Ce[-1] == '\r')
      --Ce;
    StringRef Line = trimBlanks(StringRef(Ls, Ce - Ls));
    const char *Next = Le < BufferEnd ? Le + 1 : BufferEnd;
    if (Line.empty()) {
      if (Le == BufferEnd)
        Ls = BufferEnd;
      else
        Ls = Next;
      continue;
    }
    if (!Line.startswith("//"))
      return NotClosed(Line.data());
    StringRef Rest = skipBlanks(Line.drop_front(2));
    if (startsWithWord(Rest, EndWord)) {
      StringRef Tail = skipBlanks(Rest.drop_front(EndWord.size()));
      if (Native) {
        StringRef EndName = nextToken(Tail);
        if (EndName.empty())
          return diag(InjectErrc::Formatting, Rest.end(),
                      "expected inject name '" + Name +
                          "' after 'MMPTX_INJECT_END'");
        if (EndName != Name)
          return diag(InjectErrc::Formatting, EndName.data(),
                      "'MMPTX_INJECT_END' names '" + EndName +
                          "' but the site is '" + Name + "'",
                      Keyword, "inject site '" + Name + "' starts here");
        Tail = skipBlanks(Tail);
      }
      if (!Tail.empty())
        return diag(InjectErrc::Formatting, Tail.data(),
                    "unexpected text after '" + EndWord + "'");
      BlockEnd = Le;
      RemoveEnd = Ce;
      break;
    }
    if (startsWithWord(Rest, "PTX_INJECT_START") ||
        startsWithWord(Rest, "MMPTX_INJECT_BEGIN") ||
        startsWithWord(Rest, "PTX_INJECT_END") ||
        startsWithWord(Rest, "MMPTX_INJECT_END"))
      return NotClosed(Rest.data());

    Arg A;
    A.Line = Line.data();
    A.Type = nullptr;
    StringRef KindTok;
    const char *LineEndLoc = Line.end();
    if (Native) {
      if (!startsWithWord(Rest, "MMPTX_INJECT_ARG"))
        return NotClosed(Line.data());
      StringRef L = Rest.drop_front(strlen("MMPTX_INJECT_ARG"));
      StringRef Idx = nextToken(L);
      unsigned IdxValue;
      if (Idx.empty())
        return diag(InjectErrc::Formatting, LineEndLoc,
                    "expected an argument index after 'MMPTX_INJECT_ARG'");
      if (Idx.getAsInteger(10, IdxValue) || IdxValue != Args.size())
        return diag(InjectErrc::Formatting, Idx.data(),
                    "argument index '" + Idx + "' out of order: expected " +
                        Twine(Args.size()));
      KindTok = nextToken(L);
      if (KindTok == "in")
        A.Kind = InjectArgKind::In;
      else if (KindTok == "out")
        A.Kind = InjectArgKind::Out;
      else if (KindTok == "mod")
        A.Kind = InjectArgKind::Mod;
      else if (KindTok.empty())
        return diag(InjectErrc::Formatting, LineEndLoc,
                    "expected an argument kind ('in', 'out' or 'mod')");
      else
        return diag(InjectErrc::Formatting, KindTok.data(),
                    "invalid argument kind '" + KindTok +
                        "': expected 'in', 'out' or 'mod'");
      A.RegType = nextToken(L);
      A.TypeToken = nextToken(L);
      A.Name = trimBlanks(L);
      // mmptx's writers name a variable with one token; mm-ptx's form
      // (below) keeps its inner blanks.
      size_t Blank = A.Name.find_first_of(" \t");
      if (Blank != StringRef::npos)
        return diag(InjectErrc::Formatting,
                    A.Name.drop_front(Blank).ltrim(" \t").data(),
                    "unexpected text after variable name '" +
                        A.Name.take_front(Blank) +
                        "' in inject argument marker: mmptx markers name a "
                        "variable with one token (with the device header, "
                        "write the operand without blanks or label it: "
                        "PTX_IN(TYPE, label, expr))");
      Format = InjectSiteFormat::Native;
    } else {
      StringRef L = Rest;
      A.Reg = nextToken(L);
      KindTok = nextToken(L);
      int LineMode;
      if (KindTok.size() == 1 &&
          (KindTok[0] == 'm' || KindTok[0] == 'o' || KindTok[0] == 'i')) {
        LineMode = 0;
        A.Kind = KindTok[0] == 'm'   ? InjectArgKind::Mod
                 : KindTok[0] == 'o' ? InjectArgKind::Out
                                     : InjectArgKind::In;
        A.RegType = nextToken(L);
      } else if ((KindTok == "in" || KindTok == "out" || KindTok == "mod") &&
                 A.Reg.startswith("%")) {
        // Legacy markers carry the compiler's register (`%f1`).
        LineMode = 1;
        A.Kind = KindTok == "in"    ? InjectArgKind::In
                 : KindTok == "out" ? InjectArgKind::Out
                                    : InjectArgKind::Mod;
        A.RegType = "";
      } else if (KindTok.empty()) {
        return diag(InjectErrc::Formatting, LineEndLoc,
                    "expected '<register> <kind> ...' in inject argument "
                    "marker");
      } else {
        return diag(InjectErrc::Formatting, KindTok.data(),
                    "invalid argument kind '" + KindTok +
                        "': expected 'm', 'o' or 'i' (legacy markers: a "
                        "'%register' then 'in', 'out' or 'mod')");
      }
      if (Mode == -1)
        Mode = LineMode;
      else if (Mode != LineMode)
        return diag(InjectErrc::Formatting, KindTok.data(),
                    "argument marker mixes the mm-ptx and legacy forms in "
                    "inject site '" +
                        Name + "'",
                    Keyword, "inject site '" + Name + "' starts here");
      A.TypeToken = nextToken(L);
      A.Name = trimBlanks(L);
      Format = Mode == 0 ? InjectSiteFormat::MmPtx : InjectSiteFormat::Legacy;
    }
    if ((Native || Mode == 0) && A.RegType.empty())
      return diag(InjectErrc::Formatting, LineEndLoc,
                  "expected a register type in inject argument marker");
    if (A.TypeToken.empty())
      return diag(InjectErrc::Formatting, LineEndLoc,
                  "expected a type in inject argument marker");
    if (A.Name.empty())
      return diag(InjectErrc::Formatting, LineEndLoc,
                  "missing variable name in inject argument marker");
    A.TypeLoc = A.TypeToken.data();
    bool Legacy = !Native && Mode == 1;
    A.Type = lookupType(A.TypeToken, Legacy);
    if (!A.Type && (Legacy || !Opts.AllowUnknownTypes))
      return diag(InjectErrc::UnknownType, A.TypeLoc,
                  "unknown inject type '" + A.TypeToken + "'");
    if (A.Type && !Legacy && A.Type->RegType != A.RegType)
      return diag(InjectErrc::Formatting, A.RegType.data(),
                  "register type '" + A.RegType +
                      "' does not match inject "
                      "type '" +
                      A.Type->TheToken + "' (" + A.Type->RegType + ")");
    Args.push_back(A);
    Ls = Next;
    if (Le == BufferEnd)
      Ls = BufferEnd;
  }
  if (Args.empty())
    Format = Native ? InjectSiteFormat::Native : InjectSiteFormat::MmPtx;
  return Error::success();
}

Error InjectSiteScanner::checkAgainstFirst(uint32_t Index, const char *Kw,
                                           StringRef Name) {
  const Inject &Inj = H.InjectList[Index];
  const char *FirstLoc = Base + Inj.FirstSiteOffset;
  // Built for an error only: most sites agree with the first.
  auto Note = [&] {
    return ("first site of inject '" + Name + "' is here").str();
  };
  if (Args.size() != Inj.NumVariables)
    return diag(InjectErrc::InconsistentInjection, Kw,
                "inject site '" + Name + "' has " +
                    plural(Args.size(), "argument") +
                    ", but the first site of '" + Name + "' has " +
                    Twine(Inj.NumVariables),
                FirstLoc, Note());
  ArrayRef<InjectVariable> Vars = H.getVariables(Inj);
  for (size_t I = 0, N = Args.size(); I != N; ++I) {
    const Arg &A = Args[I];
    const InjectVariable &V = Vars[I];
    auto Differs = [&](const Twine &What, StringRef Here, StringRef First) {
      return diag(InjectErrc::InconsistentInjection, A.Line,
                  "inconsistent inject site '" + Name + "': variable '" +
                      V.Name + "' (argument " + Twine(I) + ") has " + What +
                      " '" + Here + "' here, but '" + First +
                      "' at the first site",
                  FirstLoc, Note());
    };
    if (A.Name != V.Name)
      return diag(InjectErrc::InconsistentInjection, A.Line,
                  "inconsistent inject site '" + Name + "': argument " +
                      Twine(I) + " is variable '" + A.Name + "' here, but '" +
                      V.Name + "' at the first site",
                  FirstLoc, Note());
    if (A.Kind != V.Kind)
      return Differs("kind", getInjectArgKindName(A.Kind),
                     getInjectArgKindName(V.Kind));
    StringRef TypeToken = A.Type ? A.Type->TheToken : A.TypeToken;
    if (TypeToken != V.TypeToken)
      return Differs("type", TypeToken, V.TypeToken);
    StringRef RegType = A.Type ? A.Type->RegType : A.RegType;
    if (RegType != V.RegType)
      return Differs("register type", RegType, V.RegType);
    // mm-ptx sites name their stable register; the others use _x<i>.
    if (!A.Reg.empty() && !A.Reg.startswith("%")) {
      if (A.Reg != V.StableRegister)
        return Differs("stable register", A.Reg, V.StableRegister);
    } else if (V.StableRegister != stableName(I)) {
      return Differs("stable register", stableName(I), V.StableRegister);
    }
  }
  return Error::success();
}

MMPTX_HOT void InjectSiteScanner::addSite(uint32_t Index, const char *Kw,
                                          const char *RemoveBegin,
                                          const char *RemoveEnd,
                                          InjectSiteFormat Format) {
  InjectSite Site;
  Site.TheInject = Index;
  Site.MarkerOffset = offset(Kw);
  Site.RemoveBegin = offset(RemoveBegin);
  Site.RemoveEnd = offset(RemoveEnd);
  Site.Slot = uint32_t(Site.RemoveBegin - RemovedBytes);
  Site.MarkerLines = 0;
  Site.Format = Format;
  Site.FirstRegister = H.SiteRegisters.size();
  H.SiteList.pushBack(Site);
  ++H.InjectList[Index].NumSites;
  if (CurrentStmt != ptx::Statement::NoIndex)
    MarkerStmts.push_back(CurrentStmt);
  RemovedBytes += RemoveEnd - RemoveBegin;
  if (Format != InjectSiteFormat::Legacy)
    return;
  // Legacy: the stub goes into the normalisation scaffold.
  for (const Arg &A : Args) {
    H.SiteRegisters.push_back(A.Reg);
    H.SiteRegisterOffsets.push_back(offset(A.Reg.data()));
  }
  std::string &S = H.Scaffold;
  size_t PrefixEnd = writeNormalizedSite(
      S, H.InjectList[Index], H.getVariables(H.InjectList[Index]),
      makeArrayRef(H.SiteRegisters).take_back(Args.size()),
      /*leadingTab=*/*RemoveBegin == '\t', /*withMarkers=*/false);
  H.ScaffoldEnds.push_back(uint32_t(PrefixEnd));
  H.ScaffoldEnds.push_back(uint32_t(S.size()));
}

MMPTX_HOT Error InjectSiteScanner::scanText() {
  // Look for the rare '*' (memchr speed) rather than for "/*".
  for (const char *P = Base; P < BufferEnd;) {
    const void *Star = memchr(P, '*', BufferEnd - P);
    if (!Star)
      break;
    P = static_cast<const char *>(Star) + 1;
    if (P - 1 > Base && P[-2] == '/') {
      MayHaveBlockComments = true;
      break;
    }
  }
  const char *P = Base;
  return scanRange(P, BufferEnd);
}

MMPTX_HOT Error InjectSiteScanner::scanRange(const char *&P, const char *End) {
  while (P < End) {
    const void *J = memchr(P, 'J', End - P);
    if (!J)
      break;
    if (Error E = handleMarker(static_cast<const char *>(J), P))
      return E;
  }
  return Error::success();
}

MMPTX_HOT Error InjectSiteScanner::scanModule(const ptx::Module &M) {
  const char *Resume = Base;
  ArrayRef<ptx::Statement> Stmts = M.statements();
  for (size_t I = 0, N = Stmts.size(); I != N; ++I) {
    const ptx::Statement &S = Stmts[I];
    if (S.Kind != ptx::StmtKind::Comment || !(S.Flags & ptx::SF_KeywordComment))
      continue;
    CurrentStmt = uint32_t(I);
    const char *P = Base + S.Begin, *Se = Base + S.End;
    // Markers are `//` comments; a `/* */` comment only mentions them.
    if (P < Resume || Se - P < 2 || P[1] != '/')
      continue;
    if (Error E = scanRange(P, Se))
      return E;
    Resume = std::max(Resume, P);
  }
  return Error::success();
}

/// Reallocates \p V to its size when that saves memory.
template <typename T> static void trimCapacity(std::vector<T> &V) {
  if (V.capacity() > V.size())
    std::vector<T>(V.begin(), V.end()).swap(V);
}

MMPTX_HOT void InjectSiteScanner::finish() {
  // The template: the input less the marker blocks, in one allocation of
  // its exact size (not zeroed: every byte is copied once).
  size_t Size = Buf.size() - RemovedBytes;
  H.TemplateText.reset(new char[Size ? Size : 1]);
  H.TemplateSize = Size;
  char *Out = H.TemplateText.get();
  uint32_t From = 0;
  for (const InjectSite &Site : H.SiteList) {
    memcpy(Out, Base + From, Site.RemoveBegin - From);
    Out += Site.RemoveBegin - From;
    From = Site.RemoveEnd;
  }
  memcpy(Out, Base + From, Buf.size() - From);
  // Give back the records' slack: a handle lives on. (shrink_to_fit() does
  // nothing without exceptions in libstdc++.)
  H.SiteList.trim();
  trimCapacity(H.InjectList);
  trimCapacity(H.Variables);

  // One block for the strings of the variables and legacy registers that
  // point into the input or into scratch; the built-in types' are static.
  size_t Total = 0;
  for (size_t I = 0, N = H.Variables.size(); I != N; ++I) {
    InjectVariable &V = H.Variables[I];
    Total += V.Name.size() + V.StableRegister.size();
    if (!BuiltinType[I])
      Total += V.RegType.size() + V.TypeToken.size() + V.MovSuffix.size();
  }
  for (StringRef R : H.SiteRegisters)
    Total += R.size();
  if (!Total)
    return;
  H.Strings.reset(new char[Total]);
  H.StringsSize = Total;
  char *P = H.Strings.get();
  auto Own = [&](StringRef &Str) {
    memcpy(P, Str.data(), Str.size());
    Str = StringRef(P, Str.size());
    P += Str.size();
  };
  for (size_t I = 0, N = H.Variables.size(); I != N; ++I) {
    InjectVariable &V = H.Variables[I];
    Own(V.Name);
    Own(V.StableRegister);
    if (!BuiltinType[I]) {
      Own(V.RegType);
      Own(V.TypeToken);
      Own(V.MovSuffix);
    }
  }
  for (StringRef &R : H.SiteRegisters)
    Own(R);
}

//===----------------------------------------------------------------------===//
// InjectModule
//===----------------------------------------------------------------------===//

InjectModule::InjectModule() = default;
InjectModule::~InjectModule() = default;

static_assert(std::is_trivially_copyable<InjectSite>::value,
              "SiteStorage moves sites with realloc");

InjectModule::SiteStorage::~SiteStorage() { free(Items); }

MMPTX_HOT void InjectModule::SiteStorage::reserve(size_t N) {
  if (N <= Capacity)
    return;
  Items =
      static_cast<InjectSite *>(safe_realloc(Items, N * sizeof(InjectSite)));
  Capacity = N;
}

void InjectModule::SiteStorage::pushBack(const InjectSite &Site) {
  if (Count == Capacity)
    reserve(2 * Capacity + 8);
  Items[Count++] = Site;
}

MMPTX_HOT void InjectModule::SiteStorage::trim() {
  if (Count == Capacity)
    return;
  if (!Count) {
    free(Items);
    Items = nullptr;
  } else {
    // Shrinking keeps the block where it is (glibc splits it, or mremaps a
    // mapped one): no copy.
    Items = static_cast<InjectSite *>(
        safe_realloc(Items, Count * sizeof(InjectSite)));
  }
  Capacity = Count;
}

/// The statements' memory kept per thread between checked creates of
/// large texts, up to 1 MiB.
static std::vector<ptx::Statement> &scratchStatements() {
  static thread_local std::vector<ptx::Statement> Scratch;
  return Scratch;
}

LLVM_ATTRIBUTE_NOINLINE static std::vector<ptx::Statement>
takeScratchStatements() {
  return std::move(scratchStatements());
}

LLVM_ATTRIBUTE_NOINLINE static void
keepScratchStatements(std::vector<ptx::Statement> &S) {
  constexpr size_t MaxScratchStatements = (1 << 20) / sizeof(ptx::Statement);
  if (S.capacity() <= MaxScratchStatements)
    scratchStatements().swap(S);
}

MMPTX_HOT Expected<std::unique_ptr<InjectModule>>
InjectModule::create(StringRef PtxText, StringRef BufferName,
                     const InjectOptions &Options) {
  if (PtxText.size() >= UINT32_MAX)
    return usageError(InjectErrc::InvalidInput,
                      "PTX of " + Twine(PtxText.size()) +
                          " bytes is too large (limit 4 GiB)");
  std::unique_ptr<InjectModule> H(new InjectModule());
  if (Options.Trusted) {
    InjectSiteScanner Scanner(*H, PtxText, nullptr, BufferName, Options);
    if (Error E = Scanner.scanText())
      return E;
    Scanner.finish();
    return H;
  }
  // The structural parse of the caller's text; its statements are only
  // needed until the checks are done, and its SourceMgr only for an error.
  // The statements' memory of a large text is kept per thread between
  // creates (scratchStatements()): a program that makes many handles maps
  // it once instead of page-faulting a fresh block for every create. A
  // small text's statements fit in a block malloc reuses anyway, and its
  // creates never touch the thread-local storage (whose first use
  // registers a destructor with the C library).
  constexpr size_t MinScratchText = 64 << 10;
  bool UseScratch = PtxText.size() >= MinScratchText;
  ptx::Module M(PtxText, BufferName);
  if (UseScratch) {
    std::vector<ptx::Statement> Storage = takeScratchStatements();
    Storage.clear();
    M.getStatementsForBuild().swap(Storage);
  }
  auto KeepScratch = make_scope_exit([&] {
    if (UseScratch)
      keepScratchStatements(M.getStatementsForBuild());
  });
  if (Error E = parseStructure(M))
    return withInjectCode(std::move(E), InjectErrc::InvalidPTX);
  // The operands too, as mmptx-opt checks them (`.reg .f33`, a literal
  // that does not fit in 64 bits); the common statement shapes by a scan.
  if (Error E = verifyOperands(M))
    return withInjectCode(std::move(E), InjectErrc::InvalidPTX);
  InjectSiteScanner Scanner(*H, PtxText, nullptr, BufferName, Options);
  if (Error E = Scanner.scanModule(M))
    return E;
  Scanner.finish();
  if (Error E = verifySites(M, *H, Scanner.getMarkerStatements()))
    return E;
  return H;
}

Expected<std::unique_ptr<InjectModule>>
InjectModule::create(const ptx::Module &M, const InjectOptions &Options) {
  StringRef Text = M.getBuffer();
  if (M.isModified())
    return usageError(InjectErrc::InvalidInput,
                      "the module has edits that are not applied yet; print "
                      "and re-parse it first");
  if (Text.size() >= UINT32_MAX)
    return usageError(InjectErrc::InvalidInput, "PTX too large (limit 4 GiB)");
  std::unique_ptr<InjectModule> H(new InjectModule());
  InjectSiteScanner Scanner(*H, Text, &M.getSourceMgr(),
                            M.getBufferIdentifier(), Options);
  if (Error E = Scanner.scanModule(M))
    return E;
  Scanner.finish();
  if (!Options.Trusted)
    if (Error E = verifySites(M, *H, Scanner.getMarkerStatements()))
      return E;
  return H;
}

const Inject *InjectModule::lookupInject(StringRef Name) const {
  auto It = NameToInject.find(Name);
  return It == NameToInject.end() ? nullptr : &InjectList[It->second];
}

const InjectVariable *InjectModule::lookupVariable(const Inject &Inj,
                                                   StringRef Name) const {
  for (const InjectVariable &V : getVariables(Inj))
    if (V.Name == Name)
      return &V;
  return nullptr;
}

template <typename T>
ArrayRef<T> InjectModule::registersOf(const InjectSite &Site,
                                      const std::vector<T> &All) const {
  if (Site.Format != InjectSiteFormat::Legacy)
    return {};
  return makeArrayRef(All).slice(Site.FirstRegister,
                                 InjectList[Site.TheInject].NumVariables);
}

ArrayRef<StringRef>
InjectModule::getSiteRegisters(const InjectSite &Site) const {
  return registersOf(Site, SiteRegisters);
}

ArrayRef<uint32_t>
InjectModule::getSiteRegisterOffsets(const InjectSite &Site) const {
  return registersOf(Site, SiteRegisterOffsets);
}

size_t InjectModule::getMemoryUsage() const {
  size_t Bytes = sizeof(*this) + TemplateSize + Scaffold.capacity() +
                 ScaffoldEnds.capacity() * sizeof(uint32_t) +
                 InjectList.capacity() * sizeof(Inject) +
                 Variables.capacity() * sizeof(InjectVariable) +
                 SiteList.Capacity * sizeof(InjectSite) +
                 SiteRegisters.capacity() * sizeof(StringRef) +
                 SiteRegisterOffsets.capacity() * sizeof(uint32_t) +
                 StringsSize +
                 NameToInject.getNumBuckets() * (sizeof(void *) + 4);
  for (const auto &E : NameToInject)
    Bytes += sizeof(E) + E.getKeyLength() + 1;
  return Bytes;
}

//===----------------------------------------------------------------------===//
// Rendering
//===----------------------------------------------------------------------===//

Error InjectModule::checkStubs(ArrayRef<StringRef> Stubs,
                               const RenderOptions &Opts) const {
  if (Error E = checkStubCount(Stubs))
    return E;
  return checkStubTexts(Stubs, Opts);
}

Error InjectModule::checkStubTexts(ArrayRef<StringRef> Stubs,
                                   const RenderOptions &Opts) const {
  for (size_t I = 0, N = Stubs.size(); I != N; ++I) {
    // The common case, without building a name only errors need and
    // without parsing: a stub of the statements the expression compilers
    // emit (see isSimpleStub). With a warning handler, every stub is
    // parsed.
    if (!Opts.OnWarning && isSimpleStub(Stubs[I]))
      continue;
    const Inject &Inj = InjectList[I];
    std::string Name = I < Opts.StubNames.size() && !Opts.StubNames[I].empty()
                           ? Opts.StubNames[I]
                           : ("<stub of inject '" + Inj.Name + "'>").str();
    if (Error E = checkStub(Stubs[I], Name, *this, Inj, Opts.OnWarning))
      return E;
  }
  return Error::success();
}

Error InjectModule::checkStubCount(ArrayRef<StringRef> Stubs) const {
  if (Stubs.size() != InjectList.size())
    return usageError(InjectErrc::WrongNumStubs,
                      "expected " + plural(InjectList.size(), "stub") +
                          " (one per inject), got " + Twine(Stubs.size()));
  return Error::success();
}

Expected<size_t> InjectModule::renderedSize(ArrayRef<StringRef> Stubs) const {
  if (Error E = checkStubCount(Stubs))
    return E;
  return sizeWith(Stubs);
}

size_t InjectModule::sizeWith(ArrayRef<StringRef> Stubs) const {
  size_t Size = TemplateSize + Scaffold.size();
  for (size_t I = 0, N = Stubs.size(); I != N; ++I)
    Size += Stubs[I].size() * InjectList[I].NumSites;
  return Size;
}

template <typename Sink>
void InjectModule::fill(ArrayRef<StringRef> Stubs, Sink Append) const {
  const char *Text = TemplateText.get();
  const StringRef *StubData = Stubs.data();
  const uint32_t *ScaffoldEnd = ScaffoldEnds.data();
  uint32_t From = 0, ScaffoldFrom = 0;
  for (const InjectSite &Site : SiteList) {
    Append(Text + From, Site.Slot - From);
    From = Site.Slot;
    const StringRef &Stub = StubData[Site.TheInject];
    if (Site.Format != InjectSiteFormat::Legacy) {
      Append(Stub.data(), Stub.size());
      continue;
    }
    uint32_t PrefixEnd = *ScaffoldEnd++, SuffixEnd = *ScaffoldEnd++;
    Append(Scaffold.data() + ScaffoldFrom, PrefixEnd - ScaffoldFrom);
    Append(Stub.data(), Stub.size());
    Append(Scaffold.data() + PrefixEnd, SuffixEnd - PrefixEnd);
    ScaffoldFrom = SuffixEnd;
  }
  Append(Text + From, TemplateSize - From);
}

Expected<size_t>
InjectModule::checkedRenderedSize(ArrayRef<StringRef> Stubs,
                                  const RenderOptions &Opts) const {
  if (Error E = checkStubCount(Stubs))
    return E;
  if (Opts.CheckStubs)
    if (Error E = checkStubTexts(Stubs, Opts))
      return E;
  return sizeWith(Stubs);
}

Error InjectModule::render(ArrayRef<StringRef> Stubs, std::string &Out,
                           const RenderOptions &Opts) const {
  Expected<size_t> Size = checkedRenderedSize(Stubs, Opts);
  if (!Size)
    return Size.takeError();
  Out.clear();
  Out.reserve(*Size);
  fill(Stubs, [&](const char *Data, size_t N) { Out.append(Data, N); });
  return Error::success();
}

Expected<size_t> InjectModule::render(ArrayRef<StringRef> Stubs, char *Buf,
                                      size_t BufSize,
                                      const RenderOptions &Opts) const {
  Expected<size_t> Size = checkedRenderedSize(Stubs, Opts);
  if (!Size)
    return Size.takeError();
  if (!Buf && *Size)
    return usageError(InjectErrc::InvalidInput, "null output buffer");
  if (BufSize < *Size)
    return usageError(InjectErrc::InsufficientBuffer,
                      "output buffer of " + Twine(BufSize) +
                          " bytes is too small: the rendered PTX needs " +
                          Twine(*Size));
  char *Out = Buf;
  fill(Stubs, [&](const char *Data, size_t N) {
    memcpy(Out, Data, N);
    Out += N;
  });
  return *Size;
}

Expected<std::vector<StringRef>>
InjectModule::orderStubs(const StringMap<StringRef> &StubsByName) const {
  std::vector<StringRef> Stubs(InjectList.size());
  std::vector<bool> Given(InjectList.size());
  SmallVector<StringRef, 4> Unknown;
  for (const auto &E : StubsByName) {
    auto It = NameToInject.find(E.first());
    if (It == NameToInject.end()) {
      Unknown.push_back(E.first());
      continue;
    }
    Stubs[It->second] = E.second;
    Given[It->second] = true;
  }
  if (!Unknown.empty()) {
    llvm::sort(Unknown);
    std::string Msg = "stub given for unknown inject";
    Msg += Unknown.size() > 1 ? "s" : "";
    for (size_t I = 0; I != Unknown.size(); ++I)
      Msg += (I ? ", '" : " '") + Unknown[I].str() + "'";
    return usageError(InjectErrc::InjectNotFound, Msg);
  }
  std::string Missing;
  unsigned NumMissing = 0;
  for (size_t I = 0; I != InjectList.size(); ++I)
    if (!Given[I]) {
      Missing += (NumMissing++ ? ", '" : " '") + InjectList[I].Name.str() + "'";
    }
  if (NumMissing)
    return usageError(InjectErrc::MissingStub, Twine("no stub for inject") +
                                                   (NumMissing > 1 ? "s" : "") +
                                                   Missing);
  return Stubs;
}

Error InjectModule::render(const StringMap<StringRef> &StubsByName,
                           std::string &Out, const RenderOptions &Opts) const {
  auto Stubs = orderStubs(StubsByName);
  if (!Stubs)
    return Stubs.takeError();
  return render(*Stubs, Out, Opts);
}
