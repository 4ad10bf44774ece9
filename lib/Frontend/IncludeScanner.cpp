//===- IncludeScanner.cpp - The files a CUDA source may read --------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "IncludeScanner.h"
#include "mmptx/Cache/ContentCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;
using namespace mmptx;

namespace {

struct Macro {
  bool FunctionLike = false;
  SmallVector<std::string, 4> Params;
  std::string Body;
};

/// An include whose target a macro gives, evaluated once every definition
/// is known.
struct MacroInclude {
  std::string Operand;
  std::string Dir; ///< For a quoted result: the including file's directory.
  std::string Where;
};

class IncludeScanner {
public:
  IncludeScanner(CacheKey &Key, ArrayRef<std::string> SearchDirs,
                 ArrayRef<std::string> ToolkitDirs,
                 const IncludeManifest *Known, IncludeManifest *Found,
                 IncludeScanStats *Stats)
      : Key(Key), SearchDirs(SearchDirs.begin(), SearchDirs.end()),
        ToolkitDirs(ToolkitDirs.begin(), ToolkitDirs.end()), Known(Known),
        Found(Found), Stats(Stats) {
    // Times from this one on (less the time stamps' granularity) may not
    // change when the file is written again.
    TrustedBeforeNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count() -
                      RecentNs;
  }

  void define(StringRef Def);
  void scanText(StringRef Text, StringRef Dir, StringRef Where);
  void scanLine(StringRef Line, StringRef Dir, StringRef Where);
  void include(StringRef Target, bool Quoted, StringRef Dir);
  /// Follows the macro includes until no new file or definition appears.
  void finish();

  std::string WhyNot;

private:
  void addMacro(StringRef Line);
  void hasInclude(StringRef Line, StringRef Dir, StringRef Where);
  /// The targets (`"x"` or `<x>`) \p Operand expands to, through every
  /// definition; false if one cannot be known.
  bool expand(StringRef Operand, unsigned Depth,
              SmallVectorImpl<std::string> &Out);
  void notCached(const Twine &Why) {
    if (WhyNot.empty())
      WhyNot = Why.str();
  }

  /// The content of the regular file \p Path (as \p Path names it), or
  /// the file as an earlier scan saw it; false (and the reason noted) if
  /// it cannot be read.
  bool getFile(StringRef Path, const struct stat &St, ScannedFile &Out);

  /// What the scan saw of a path: each one is looked at once (the same
  /// header is looked for from many files).
  struct PathInfo {
    bool Exists = false;
    struct stat St;
    std::string RealFile; ///< Of a regular file, once needed.
  };
  PathInfo &lookAt(StringRef Path) {
    auto Inserted = Paths.try_emplace(Path);
    PathInfo &Info = Inserted.first->second;
    if (Inserted.second)
      Info.Exists = ::stat(Inserted.first->getKeyData(), &Info.St) == 0;
    return Info;
  }

  /// The real path of directory \p Dir ("" for the working directory),
  /// or \p Dir where it has none; each directory is resolved once.
  const std::string &getRealDir(StringRef Dir);

  /// A file whose times are this close to now (or later) is read again
  /// next time: a write within the time stamps' granularity could leave
  /// them unchanged.
  static constexpr int64_t RecentNs = 1000000000;
  /// A header larger than this is not read (nor the source cached).
  static constexpr uint64_t MaxHeaderBytes = 256u << 20;

  CacheKey &Key;
  std::vector<std::string> SearchDirs, ToolkitDirs;
  const IncludeManifest *Known;
  IncludeManifest *Found;
  IncludeScanStats *Stats;
  int64_t TrustedBeforeNs;
  StringMap<std::string> RealDirs;
  StringMap<PathInfo> Paths;
  StringMap<std::vector<Macro>> Macros;
  size_t NumMacros = 0;
  std::vector<MacroInclude> Pending;
  StringSet<> Visited;
};

} // namespace

static bool isIdentStart(char C) { return isAlpha(C) || C == '_'; }
static bool isIdentChar(char C) { return isAlnum(C) || C == '_'; }

/// \p S without leading blanks and `/* */` comments.
static StringRef skipBlanks(StringRef S) {
  while (true) {
    S = S.ltrim(" \t\r\f\v");
    if (!S.startswith("/*"))
      return S;
    size_t End = S.find("*/", 2);
    S = End == StringRef::npos ? StringRef() : S.drop_front(End + 2);
  }
}

/// \p S without a trailing `//` comment and blanks.
static StringRef dropLineComment(StringRef S) {
  size_t C = S.find("//");
  return (C == StringRef::npos ? S : S.take_front(C)).rtrim(" \t\r\f\v");
}

static StringRef takeIdent(StringRef &S) {
  size_t N = 0;
  if (!S.empty() && isIdentStart(S[0]))
    while (N < S.size() && isIdentChar(S[N]))
      ++N;
  StringRef Id = S.take_front(N);
  S = S.drop_front(N);
  return Id;
}

void IncludeScanner::define(StringRef Def) {
  std::pair<StringRef, StringRef> NV = Def.split('=');
  std::string Line = NV.first.str() + " " +
                     (Def.contains('=') ? NV.second.str() : std::string("1"));
  addMacro(Line);
}

void IncludeScanner::addMacro(StringRef Line) {
  StringRef Rest = skipBlanks(Line);
  StringRef Name = takeIdent(Rest);
  if (Name.empty())
    return;
  Macro M;
  if (Rest.consume_front("(")) {
    M.FunctionLike = true;
    size_t Close = Rest.find(')');
    if (Close == StringRef::npos)
      return;
    SmallVector<StringRef, 4> Params;
    Rest.take_front(Close).split(Params, ',');
    for (StringRef P : Params)
      if (!P.trim().empty())
        M.Params.push_back(P.trim().str());
    Rest = Rest.drop_front(Close + 1);
  }
  M.Body = dropLineComment(skipBlanks(Rest)).str();
  std::vector<Macro> &Defs = Macros[Name];
  for (const Macro &D : Defs)
    if (D.FunctionLike == M.FunctionLike && D.Params == M.Params &&
        D.Body == M.Body)
      return;
  Defs.push_back(std::move(M));
  ++NumMacros;
}

static FileIdentity getIdentity(const struct stat &St) {
  FileIdentity Id;
  Id.Device = uint64_t(St.st_dev);
  Id.Inode = uint64_t(St.st_ino);
  Id.Size = uint64_t(St.st_size);
  Id.ModifiedNs = int64_t(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec;
  Id.ChangedNs = int64_t(St.st_ctim.tv_sec) * 1000000000 + St.st_ctim.tv_nsec;
  return Id;
}

/// The logical lines of \p Text (a backslash before the newline continues
/// the line) that can name a file or define a macro.
static void getDirectiveLines(StringRef Text, std::vector<std::string> &Out);

bool IncludeScanner::getFile(StringRef Path, const struct stat &St,
                             ScannedFile &Out) {
  FileIdentity Id = getIdentity(St);
  auto Trusted = [&](const FileIdentity &I) {
    return I.ModifiedNs < TrustedBeforeNs && I.ChangedNs < TrustedBeforeNs;
  };
  if (Stats)
    ++Stats->Files;
  if (Known)
    if (const ScannedFile *F = Known->find(Path))
      if (F->Identity == Id && Trusted(Id)) {
        Out = *F;
        if (Found)
          Found->add(Path, Out);
        return true;
      }
  if (Stats)
    ++Stats->Read;
  // As the cache reads its entries: a regular file only (it may have been
  // replaced since it was looked at), without waiting on a FIFO, and never
  // more than its size.
  std::string P = Path.str();
  int FD = ::open(P.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0) {
    notCached("cannot read '" + Path + "': " +
              std::error_code(errno, std::generic_category()).message());
    return false;
  }
  struct FDCloser {
    int FD;
    ~FDCloser() { ::close(FD); }
  } Closer{FD};
  struct stat OpenSt;
  if (::fstat(FD, &OpenSt) != 0 || !S_ISREG(OpenSt.st_mode)) {
    notCached("'" + Path + "' is no longer a regular file");
    return false;
  }
  Id = getIdentity(OpenSt);
  if (Id.Size > MaxHeaderBytes) {
    notCached("'" + Path + "' is larger than " + Twine(MaxHeaderBytes >> 20) +
              " MiB");
    return false;
  }
  std::string Content(size_t(Id.Size) + 1, '\0');
  size_t Got = 0;
  while (Got < Content.size()) {
    ssize_t N = ::read(FD, &Content[Got], Content.size() - Got);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      notCached("cannot read '" + Path + "': " +
                std::error_code(errno, std::generic_category()).message());
      return false;
    }
    if (N == 0)
      break;
    Got += size_t(N);
  }
  if (Got != Id.Size) {
    notCached("'" + Path + "' changed while it was read");
    return false;
  }
  Content.resize(Got);
  Out.Identity = Id;
  Out.Hash = xxh3Hex(Content);
  Out.Lines.clear();
  getDirectiveLines(Content, Out.Lines);
  if (Found && Trusted(Id)) {
    Found->add(Path, Out);
    if (Stats)
      ++Stats->Recorded;
  }
  return true;
}

const std::string &IncludeScanner::getRealDir(StringRef Dir) {
  auto Inserted = RealDirs.try_emplace(Dir);
  std::string &Real = Inserted.first->second;
  if (Inserted.second) {
    SmallString<256> R;
    if (sys::fs::real_path(Dir.empty() ? "." : Dir, R))
      R = Dir;
    Real = std::string(R);
  }
  return Real;
}

void IncludeScanner::include(StringRef Target, bool Quoted, StringRef Dir) {
  Key.add(Quoted ? "quoted" : "angled").add(Target);
  if (Target.empty())
    return;
  SmallVector<std::pair<std::string, bool>, 8> Candidates; // dir, toolkit
  if (sys::path::is_absolute(Target)) {
    Candidates.push_back({"", false});
  } else {
    if (Quoted) {
      Candidates.push_back({Dir.str(), false});
      Candidates.push_back({".", false});
    }
    for (const std::string &D : SearchDirs)
      Candidates.push_back({D, false});
    for (const std::string &D : ToolkitDirs)
      Candidates.push_back({D, true});
  }
  for (const auto &C : Candidates) {
    SmallString<256> P(C.first);
    sys::path::append(P, Target);
    PathInfo &Info = lookAt(P);
    if (!Info.Exists)
      continue;
    const struct stat &St = Info.St;
    if (C.second) {
      // The toolkit's own headers: the NVRTC version covers them.
      Key.add("toolkit").add(P);
      continue;
    }
    if (!S_ISREG(St.st_mode)) {
      Key.add("not a file").add(P);
      continue;
    }
    // Quoted includes inside it are looked for beside it as it was opened
    // (a link's own directory, not its target's): the directory's real
    // path names that place.
    StringRef Parent = sys::path::parent_path(P);
    const std::string &RealDir = getRealDir(Parent);
    // The file's real path: beside its directory's, unless it is a link.
    if (Info.RealFile.empty()) {
      SmallString<256> RealFile;
      struct stat LinkSt;
      if (::lstat(P.c_str(), &LinkSt) == 0 && !S_ISLNK(LinkSt.st_mode)) {
        RealFile = RealDir;
        sys::path::append(RealFile, sys::path::filename(P));
      } else if (sys::fs::real_path(P, RealFile)) {
        RealFile = P;
      }
      Info.RealFile = std::string(RealFile);
    }
    const std::string &RealFile = Info.RealFile;
    Key.add("found").add(P).add(RealFile);
    std::string Id = RealFile + "\n" + RealDir;
    if (!Visited.insert(Id).second)
      continue;
    ScannedFile F;
    if (!getFile(P, St, F))
      continue;
    Key.add(F.Hash);
    for (const std::string &Line : F.Lines)
      scanLine(Line, RealDir, P);
  }
}

void IncludeScanner::hasInclude(StringRef Line, StringRef Dir,
                                StringRef Where) {
  size_t At;
  while ((At = Line.find("__has_include")) != StringRef::npos) {
    Line = Line.drop_front(At + 13);
    Line.consume_front("_next");
    StringRef Rest = skipBlanks(Line);
    if (!Rest.consume_front("("))
      continue; // `defined(__has_include)` and the like.
    Rest = skipBlanks(Rest);
    char Close = Rest.startswith("\"") ? '"' : Rest.startswith("<") ? '>' : 0;
    size_t End = Close ? Rest.find(Close, 1) : StringRef::npos;
    if (End == StringRef::npos) {
      notCached(Where + ": __has_include of a name that a macro gives");
      return;
    }
    include(Rest.slice(1, End), Close == '"', Dir);
  }
}

/// Whether scanLine() can do anything with \p Line.
static bool isDirectiveLine(StringRef Line) {
  if (Line.contains("__has_include"))
    return true;
  StringRef L = skipBlanks(Line);
  if (!L.consume_front("#") && !L.consume_front("%:") &&
      !L.consume_front("?\?="))
    return false;
  L = skipBlanks(L);
  StringRef Directive = takeIdent(L);
  return Directive == "define" || Directive == "include" ||
         Directive == "include_next" || Directive == "import";
}

static void getDirectiveLines(StringRef Text, std::vector<std::string> &Out) {
  std::string Line;
  for (size_t I = 0; I <= Text.size(); ++I) {
    if (I == Text.size() || Text[I] == '\n') {
      if (isDirectiveLine(Line))
        Out.push_back(Line);
      Line.clear();
      continue;
    }
    if (Text[I] == '\\') {
      size_t J = I + 1;
      if (J < Text.size() && Text[J] == '\r')
        ++J;
      if (J < Text.size() && Text[J] == '\n') {
        I = J;
        continue;
      }
    }
    Line += Text[I];
  }
}

void IncludeScanner::scanText(StringRef Text, StringRef Dir, StringRef Where) {
  std::vector<std::string> Lines;
  getDirectiveLines(Text, Lines);
  for (const std::string &Line : Lines)
    scanLine(Line, Dir, Where);
}

void IncludeScanner::scanLine(StringRef Line, StringRef Dir, StringRef Where) {
  if (Line.contains("__has_include"))
    hasInclude(Line, Dir, Where);
  StringRef L = skipBlanks(Line);
  if (!L.consume_front("#") && !L.consume_front("%:") &&
      !L.consume_front("?\?="))
    return;
  L = skipBlanks(L);
  StringRef Directive = takeIdent(L);
  if (Directive == "define") {
    addMacro(L);
    return;
  }
  if (Directive != "include" && Directive != "include_next" &&
      Directive != "import")
    return;
  StringRef Operand = dropLineComment(skipBlanks(L));
  char Close = Operand.startswith("\"")  ? '"'
               : Operand.startswith("<") ? '>'
                                         : 0;
  size_t End = Close ? Operand.find(Close, 1) : StringRef::npos;
  if (Close && End != StringRef::npos) {
    include(Operand.slice(1, End), Close == '"', Dir);
    return;
  }
  // Through a macro: evaluated when every definition is known.
  Pending.push_back({Operand.str(), Dir.str(), Where.str()});
}

bool IncludeScanner::expand(StringRef Operand, unsigned Depth,
                            SmallVectorImpl<std::string> &Out) {
  Operand = skipBlanks(dropLineComment(Operand));
  if (Operand.startswith("\"") || Operand.startswith("<")) {
    char Close = Operand[0] == '"' ? '"' : '>';
    size_t End = Operand.find(Close, 1);
    if (End == StringRef::npos)
      return false;
    Out.push_back(Operand.take_front(End + 1).str());
    return true;
  }
  if (Depth > 16 || Out.size() > 64)
    return false;
  StringRef Rest = Operand;
  StringRef Name = takeIdent(Rest);
  auto It = Macros.find(Name);
  if (Name.empty() || It == Macros.end())
    return false;
  // A copy: expanding may not add definitions, but keep it simple.
  std::vector<Macro> Defs = It->second;
  for (const Macro &M : Defs) {
    if (M.Body.find('#') != std::string::npos)
      return false; // Stringizing and pasting are not followed.
    if (!M.FunctionLike) {
      if (!expand((M.Body + " " + Rest).str(), Depth + 1, Out))
        return false;
      continue;
    }
    StringRef Args = skipBlanks(Rest);
    if (!Args.consume_front("("))
      return false;
    SmallVector<std::string, 4> Values(1);
    unsigned Nest = 0;
    size_t I = 0;
    for (; I < Args.size(); ++I) {
      char C = Args[I];
      if (C == ')' && Nest == 0)
        break;
      if (C == '(')
        ++Nest;
      else if (C == ')')
        --Nest;
      if (C == ',' && Nest == 0)
        Values.emplace_back();
      else
        Values.back() += C;
    }
    if (I == Args.size())
      return false;
    if (M.Params.empty() && Values.size() == 1 &&
        StringRef(Values[0]).trim().empty())
      Values.clear();
    if (Values.size() != M.Params.size())
      return false;
    // Each parameter replaced by its argument.
    std::string Body;
    StringRef B = M.Body;
    while (!B.empty()) {
      if (isIdentStart(B[0])) {
        StringRef Id = takeIdent(B);
        auto P = llvm::find(M.Params, Id);
        Body += P == M.Params.end()
                    ? Id.str()
                    : StringRef(Values[P - M.Params.begin()]).trim().str();
        continue;
      }
      Body += B[0];
      B = B.drop_front();
    }
    if (!expand(Body + " " + Args.drop_front(I + 1).str(), Depth + 1, Out))
      return false;
  }
  return true;
}

void IncludeScanner::finish() {
  // Each round follows every macro include through the definitions known
  // so far; the files found may define more, or include more.
  while (WhyNot.empty()) {
    size_t Files = Visited.size(), Defs = NumMacros, Count = Pending.size();
    for (size_t I = 0; I < Pending.size() && WhyNot.empty(); ++I) {
      MacroInclude P = Pending[I];
      SmallVector<std::string, 4> Targets;
      if (!expand(P.Operand, 0, Targets)) {
        notCached(P.Where + ": #include " + P.Operand +
                  ": a macro's expansion that mmptx cannot follow");
        break;
      }
      Key.add("macro").add(P.Operand);
      for (const std::string &T : Targets)
        include(StringRef(T).drop_front().drop_back(), T[0] == '"', P.Dir);
    }
    if (Visited.size() == Files && NumMacros == Defs && Pending.size() == Count)
      break;
  }
}

std::string mmptx::addIncludedFiles(
    CacheKey &Key, StringRef Source, StringRef Name,
    ArrayRef<std::string> IncludeDirs, ArrayRef<std::string> Defines,
    ArrayRef<std::string> NvrtcOptions, ArrayRef<std::string> ToolkitDirs,
    const IncludeManifest *Known, IncludeManifest *Found,
    IncludeScanStats *Stats) {
  std::vector<std::string> Dirs(IncludeDirs.begin(), IncludeDirs.end());
  std::vector<std::string> PreIncludes;
  std::vector<std::string> MoreDefines(Defines.begin(), Defines.end());
  std::string WhyNot;
  for (StringRef O : NvrtcOptions) {
    StringRef V = O;
    if (V.consume_front("--include-path=") || V.consume_front("-I")) {
      if (V.empty()) {
        WhyNot = "NVRTC option '" + O.str() + "' without its directory";
        break;
      }
      Dirs.push_back(V.str());
    } else if (V.consume_front("--pre-include=") ||
               V.consume_front("--preinclude=") ||
               V.consume_front("-include=")) {
      PreIncludes.push_back(V.str());
    } else if (V.consume_front("--define-macro=") || V.consume_front("-D")) {
      MoreDefines.push_back(V.str());
    } else if (O.startswith("--include-path") ||
               O.startswith("--pre-include") || O.startswith("--preinclude") ||
               O.startswith("-include") || O.contains("pch")) {
      // Another spelling, or precompiled headers (a file NVRTC reads
      // that the source does not name).
      WhyNot =
          "NVRTC option '" + O.str() + "' reads files mmptx does not follow";
      break;
    }
  }
  StringRef Dir = sys::path::parent_path(Name);
  if (Dir.empty())
    Dir = ".";
  IncludeScanner S(Key, Dirs, ToolkitDirs, Known, Found, Stats);
  S.WhyNot = WhyNot;
  for (const std::string &D : MoreDefines)
    S.define(D);
  for (const std::string &P : PreIncludes)
    S.include(P, /*Quoted=*/true, Dir);
  S.scanText(Source, Dir, Name);
  S.finish();
  return S.WhyNot;
}

// A manifest's fields: a tag, then four per file: its path, its identity
// (five little-endian 64-bit words), its content hash and its directive
// lines, each ending in a newline.
static const char ManifestTag[] = "mmptx include manifest v1";

bool IncludeManifest::parse(ArrayRef<std::string> Fields) {
  Files.clear();
  if (Fields.empty() || Fields[0] != ManifestTag || Fields.size() % 4 != 1)
    return false;
  for (size_t I = 1; I < Fields.size(); I += 4) {
    ScannedFile F;
    StringRef Id = Fields[I + 1];
    if (Id.size() != 40 || Fields[I + 2].size() != CacheKeySize) {
      Files.clear();
      return false;
    }
    auto Word = [&](unsigned N) {
      return support::endian::read64le(Id.data() + 8 * N);
    };
    F.Identity.Device = Word(0);
    F.Identity.Inode = Word(1);
    F.Identity.Size = Word(2);
    F.Identity.ModifiedNs = int64_t(Word(3));
    F.Identity.ChangedNs = int64_t(Word(4));
    F.Hash = Fields[I + 2];
    StringRef Lines = Fields[I + 3];
    while (!Lines.empty()) {
      std::pair<StringRef, StringRef> LR = Lines.split('\n');
      F.Lines.push_back(LR.first.str());
      Lines = LR.second;
    }
    Files[Fields[I]] = std::move(F);
  }
  return true;
}

std::vector<std::string> IncludeManifest::serialize() const {
  // In path order, so equal manifests are equal entries.
  std::vector<StringRef> Paths;
  for (const auto &E : Files)
    Paths.push_back(E.getKey());
  llvm::sort(Paths);
  std::vector<std::string> Fields{ManifestTag};
  for (StringRef P : Paths) {
    const ScannedFile &F = Files.find(P)->second;
    char Id[40];
    uint64_t Words[5] = {F.Identity.Device, F.Identity.Inode, F.Identity.Size,
                         uint64_t(F.Identity.ModifiedNs),
                         uint64_t(F.Identity.ChangedNs)};
    for (unsigned N = 0; N != 5; ++N)
      support::endian::write64le(Id + 8 * N, Words[N]);
    std::string Lines;
    for (const std::string &L : F.Lines)
      Lines += L + "\n";
    Fields.push_back(P.str());
    Fields.push_back(std::string(Id, 40));
    Fields.push_back(F.Hash);
    Fields.push_back(std::move(Lines));
  }
  return Fields;
}

const ScannedFile *IncludeManifest::find(StringRef Path) const {
  auto It = Files.find(Path);
  return It == Files.end() ? nullptr : &It->second;
}

void IncludeManifest::add(StringRef Path, ScannedFile File) {
  Files[Path] = std::move(File);
}
