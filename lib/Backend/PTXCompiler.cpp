//===- PTXCompiler.cpp - What the three backends share --------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/PTXCompiler.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/EnumNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;

static const EnumName<BackendKind> BackendNames[] = {
    {BackendKind::NvPTXCompiler, "nvptxcompiler"},
    {BackendKind::NvJitLink, "nvjitlink"},
    {BackendKind::Ptxas, "ptxas"}};

StringRef mmptx::getBackendName(BackendKind Kind) {
  return getEnumName(BackendNames, Kind);
}

Optional<BackendKind> mmptx::parseBackendName(StringRef Name) {
  return parseEnumName(BackendNames, Name.lower());
}

ArrayRef<BackendKind> mmptx::getAllBackends() {
  static const std::vector<BackendKind> All = [] {
    std::vector<BackendKind> Kinds;
    for (const EnumName<BackendKind> &E : BackendNames)
      Kinds.push_back(E.Value);
    return Kinds;
  }();
  return All;
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static const EnumName<FastCompileLevel> FastCompileNames[] = {
    {FastCompileLevel::None, "0"},
    {FastCompileLevel::Min, "min"},
    {FastCompileLevel::Mid, "mid"},
    {FastCompileLevel::Max, "max"}};

StringRef mmptx::getFastCompileName(FastCompileLevel Level) {
  return getEnumName(FastCompileNames, Level);
}

Optional<FastCompileLevel> mmptx::parseFastCompileName(StringRef Name) {
  return parseEnumName(FastCompileNames, Name);
}

// Architectures some CUDA release has assembled for; which of them this
// backend accepts is for it to say.
static const unsigned KnownSmList[] = {50, 52,  53,  60,  61,  62,  70,
                                       72, 75,  80,  86,  87,  88,  89,
                                       90, 100, 101, 103, 110, 120, 121};
static const ArrayRef<unsigned> KnownSms(KnownSmList);

Error CompileOptions::validate() const {
  StringRef Rest = Arch;
  unsigned Sm = 0;
  bool Ok = Rest.consume_front("sm_") && !Rest.empty();
  if (Ok && (Rest.back() == 'a' || Rest.back() == 'f'))
    Rest = Rest.drop_back();
  Ok = Ok && !Rest.getAsInteger(10, Sm) && is_contained(KnownSms, Sm);
  if (!Ok) {
    std::string List;
    raw_string_ostream OS(List);
    interleave(
        KnownSms, OS, [&](unsigned N) { OS << "sm_" << N; }, ", ");
    return makeError("unknown architecture '" + Arch + "' (expected sm_<N>, " +
                     "sm_<N>a or sm_<N>f with N one of " + OS.str() + ")");
  }
  if (OptLevel > 3)
    return makeError("invalid optimization level -O" + Twine(OptLevel) +
                     " (expected 0 to 3)");
  for (const std::string &X : ExtraOptions)
    if (const char *Use = getConflictingOption(X))
      return makeError("backend option '" + X + "' conflicts with mmptx's " +
                       "own: " + Use);
  return Error::success();
}

const char *CompileOptions::getConflictingOption(StringRef X) {
  // `-x`, `--x`, `-x=v`, `--x=v` and `-xv` spellings of the three
  // backends' options.
  StringRef Name = X.ltrim('-').split('=').first;
  bool Dashed = X.startswith("-");
  if (!Dashed)
    return nullptr;
  if (Name.startswith("arch") || Name == "gpu-name" || Name == "gpu_name")
    return "use --arch (arch= in Python) to choose the architecture";
  if (Name == "version" || Name == "V" || Name == "help" || Name == "h" ||
      Name == "dryrun" || Name == "dry-run")
    return "it prints instead of compiling; see the backend's own program";
  if (Name == "o" || Name == "output-file" || Name == "output_file")
    return "mmptx names the output (use -o of mmptx-compile)";
  if ((Name.size() == 2 && Name[0] == 'O' && isDigit(Name[1])) || Name == "O" ||
      Name == "opt-level" || Name == "opt_level")
    return "use -O (opt_level= in Python) to choose the optimization level";
  if (Name.startswith("maxrregcount") || Name == "maxrreg")
    return "use --maxrregcount (max_reg_count= in Python)";
  if (Name == "options-file" || Name == "optf" || Name == "input-as-string" ||
      Name == "ias")
    return "it gives the backend input mmptx does not see";
  return nullptr;
}

std::string CompileOptions::getKeyText() const {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "arch=" << Arch << ";O=" << OptLevel << ";lineinfo=" << LineInfo
     << ";maxrreg=" << MaxRegCount << ";v=" << Verbose;
  // Only when set: keys of the options that existed before stay the same.
  if (FastCompile != FastCompileLevel::None)
    OS << ";fc=" << getFastCompileName(FastCompile);
  for (const std::string &X : ExtraOptions)
    OS << ";x=" << X.size() << ':' << X;
  return OS.str();
}

std::vector<std::string> CompileOptions::getArgs(const Spelling &S) const {
  // A fast-compile level conflicts with any -O but the one it implies
  // (min and mid: -O1, max: -O0): it stands in for -O.
  std::vector<std::string> Args = {
      S.Arch + Arch,
      FastCompile == FastCompileLevel::None
          ? "-O" + std::to_string(OptLevel)
          : ("--Ofast-compile=" + getFastCompileName(FastCompile)).str()};
  if (LineInfo)
    Args.push_back(S.LineInfo);
  if (MaxRegCount)
    Args.push_back(S.MaxRegCount + std::to_string(MaxRegCount));
  if (Verbose)
    Args.push_back(S.Verbose);
  Args.insert(Args.end(), ExtraOptions.begin(), ExtraOptions.end());
  return Args;
}

std::vector<const char *> mmptx::getArgv(const std::vector<std::string> &Args) {
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  return Argv;
}

//===----------------------------------------------------------------------===//
// Log mapping
//===----------------------------------------------------------------------===//

/// Parses `<who>, line N; <severity> : <message>` (the format of all three
/// backends' messages about a PTX line).
static bool parseLineMessage(StringRef Line, unsigned &LineNo,
                             StringRef &Severity, StringRef &Message) {
  size_t At = Line.find(", line ");
  if (At == StringRef::npos)
    return false;
  StringRef Rest = Line.drop_front(At + 7);
  size_t Semi = Rest.find(';');
  if (Semi == StringRef::npos || Rest.take_front(Semi).getAsInteger(10, LineNo))
    return false;
  Rest = Rest.drop_front(Semi + 1);
  size_t Colon = Rest.find(':');
  if (Colon == StringRef::npos)
    return false;
  Severity = Rest.take_front(Colon).trim();
  Message = Rest.drop_front(Colon + 1).trim();
  return !Severity.empty() && !Severity.contains(' ');
}

StubLineMap mmptx::computeStubLineMap(StringRef Original,
                                      ArrayRef<Splice> Splices) {
  StubLineMap Map;
  // Line of the output at the current position, walking the original.
  unsigned Line = 1;
  size_t Pos = 0;
  for (const Splice &S : Splices) {
    assert(S.Begin >= Pos && S.End >= S.Begin && S.End <= Original.size() &&
           "splices must be sorted and disjoint");
    Line += Original.slice(Pos, S.Begin).count('\n');
    StubLineRange R;
    R.FirstLine = Line;
    R.NumLines = S.Stub.count('\n') + 1;
    R.Site = S.Site;
    R.Stub = S.StubName;
    R.StubFirstLine = S.StubFirstLine;
    Map.push_back(std::move(R));
    Line += S.Stub.count('\n');
    Pos = S.End;
  }
  return Map;
}

std::string mmptx::mapCompilerLog(StringRef Log, StringRef Name,
                                  const StubLineMap *Map) {
  std::string Out;
  raw_string_ostream OS(Out);
  SmallVector<StringRef, 16> Lines;
  Log.rtrim().split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.rtrim("\r");
    unsigned LineNo;
    StringRef Severity, Message;
    if (!parseLineMessage(Line, LineNo, Severity, Message)) {
      if (!Line.trim().empty())
        OS << Line << '\n';
      continue;
    }
    OS << Name << ':' << LineNo << ": " << Severity << ": " << Message << '\n';
    if (!Map)
      continue;
    for (const StubLineRange &R : *Map) {
      if (LineNo < R.FirstLine || LineNo >= R.FirstLine + R.NumLines)
        continue;
      OS << R.Stub << ':' << (R.StubFirstLine + (LineNo - R.FirstLine))
         << ": note: line " << LineNo << " comes from this stub, spliced into "
         << "inject site '" << R.Site << "'\n";
      break;
    }
  }
  return OS.str();
}

//===----------------------------------------------------------------------===//
// PTX ISA versions
//===----------------------------------------------------------------------===//

/// Parses `M.N` at the front of \p Text.
static bool parseMajorMinor(StringRef Text, unsigned &Major, unsigned &Minor) {
  StringRef MajorText = Text.take_while(isDigit);
  Text = Text.drop_front(MajorText.size());
  if (MajorText.empty() || !Text.consume_front("."))
    return false;
  StringRef MinorText = Text.take_while(isDigit);
  return !MinorText.empty() && !MajorText.getAsInteger(10, Major) &&
         !MinorText.getAsInteger(10, Minor);
}

Optional<PtxIsaVersion> mmptx::getMaxPtxIsaVersion(StringRef CudaVersion) {
  unsigned Major, Minor;
  if (!parseMajorMinor(CudaVersion, Major, Minor))
    return None;
  // CUDA 11.m and 13.m accept PTX 7.m and 9.m; CUDA 12 has two exceptions
  // (12.6 kept 8.5; 12.8 and 12.9 are 8.7 and 8.8).
  switch (Major) {
  case 11:
    return Minor <= 8 ? Optional<PtxIsaVersion>(PtxIsaVersion{7, Minor}) : None;
  case 12:
    if (Minor <= 5)
      return PtxIsaVersion{8, Minor};
    if (Minor == 6)
      return PtxIsaVersion{8, 5};
    if (Minor == 8 || Minor == 9)
      return PtxIsaVersion{8, Minor - 1};
    return None;
  case 13:
    return PtxIsaVersion{9, Minor};
  default:
    return None;
  }
}

/// The CUDA release that introduced PTX ISA \p V, e.g. `13.5` for 9.5.
static std::string getCudaReleaseOf(PtxIsaVersion V) {
  unsigned Minor = V.Minor;
  if (V.Major == 8 && V.Minor >= 6)
    Minor = V.Minor + 1;
  if (V.Major >= 7)
    return std::to_string(V.Major + 4) + "." + std::to_string(Minor);
  return "";
}

/// What gives a backend of CUDA \p Release or newer.
static std::string getInstallHint(BackendKind Kind, StringRef Release) {
  switch (Kind) {
  case BackendKind::NvJitLink:
    return ("pip install 'nvidia-nvjitlink>=" + Release +
            "' or a CUDA toolkit of " + Release + " or newer")
        .str();
  case BackendKind::NvPTXCompiler:
    return ("rebuild mmptx with the nvidia-nvptxcompiler wheel of " + Release +
            " or newer (NVPTXCOMPILER_VERSION=... utils/setup.sh), or use "
            "another backend")
        .str();
  case BackendKind::Ptxas:
    return ("put the ptxas of a CUDA toolkit of " + Release +
            " or newer on PATH (pip install 'nvidia-cuda-nvcc>=" + Release +
            "' has one)")
        .str();
  }
  llvm_unreachable("unknown backend");
}

Error mmptx::checkPtxIsaVersion(const PTXCompiler &Compiler, StringRef Ptx,
                                StringRef Name) {
  // The first directive of a module is .version; comments may precede it.
  size_t Pos = 0;
  unsigned LineNo = 1;
  StringRef Line;
  while (Pos < Ptx.size()) {
    size_t End = Ptx.find('\n', Pos);
    Line = Ptx.slice(Pos, End);
    StringRef T = Line.ltrim(" \t\r");
    if (!T.empty() && !T.startswith("//"))
      break;
    if (End == StringRef::npos)
      return Error::success();
    Pos = End + 1;
    ++LineNo;
  }
  StringRef T = Line.ltrim(" \t");
  if (!T.consume_front(".version"))
    return Error::success();
  size_t Column = Line.size() - T.size() - 8 + 1;
  PtxIsaVersion Have;
  if (!parseMajorMinor(T.ltrim(" \t"), Have.Major, Have.Minor))
    return Error::success();
  Optional<PtxIsaVersion> Max = getMaxPtxIsaVersion(Compiler.getVersion());
  if (!Max || Have.Major < Max->Major ||
      (Have.Major == Max->Major && Have.Minor <= Max->Minor))
    return Error::success();
  std::string HaveText =
      std::to_string(Have.Major) + "." + std::to_string(Have.Minor);
  std::string Msg;
  raw_string_ostream OS(Msg);
  OS << Name << ":" << LineNo << ":" << Column << ": error: PTX .version "
     << HaveText << " is newer than " << Compiler.getIdentity()
     << " accepts (up to " << Max->Major << "." << Max->Minor << ")";
  std::string Release = getCudaReleaseOf(Have);
  if (!Release.empty()) {
    StringRef Mine = Compiler.getVersion();
    StringRef MineMajorMinor =
        Mine.take_front(Mine.find('.', Mine.find('.') + 1));
    OS << "; PTX " << HaveText << " comes from CUDA " << Release
       << " (an NVRTC or nvcc of that release): "
       << getInstallHint(Compiler.getKind(), Release)
       << "; or make the PTX with the CUDA " << MineMajorMinor
       << " NVRTC (pip install 'nvidia-cuda-nvrtc==" << MineMajorMinor
       << ".*')";
  }
  return makeError(OS.str());
}

//===----------------------------------------------------------------------===//
// PTXCompiler
//===----------------------------------------------------------------------===//

/// \p Text with every \p From replaced by \p To.
static std::string replaceAll(StringRef Text, StringRef From, StringRef To) {
  std::string Out;
  size_t At;
  while ((At = Text.find(From)) != StringRef::npos) {
    Out += Text.take_front(At).str();
    Out += To.str();
    Text = Text.drop_front(At + From.size());
  }
  return Out + Text.str();
}

PTXCompiler::~PTXCompiler() = default;

std::string PTXCompiler::getIdentity() const {
  return (getName() + " " + Version).str();
}

bool PTXCompiler::supportsFastCompile() const {
  // `<major>.<minor>.<patch>`: 12.8 brought -Ofast-compile to ptxas,
  // nvPTXCompiler and nvJitLink alike.
  unsigned Major = 0, Minor = 0;
  StringRef V = Version;
  if (V.consumeInteger(10, Major) || !V.consume_front(".") ||
      V.consumeInteger(10, Minor))
    return false;
  return Major > 12 || (Major == 12 && Minor >= 8);
}

Expected<CompileResult> PTXCompiler::compile(StringRef Ptx,
                                             const CompileOptions &Opts,
                                             StringRef Name,
                                             const StubLineMap *Map) {
  if (Error E = Opts.validate())
    return E;
  if (Opts.FastCompile != FastCompileLevel::None && !supportsFastCompile())
    return makeError(Name + ": error: " + getIdentity() +
                     " has no -Ofast-compile (CUDA 12.8 or newer has it); "
                     "leave it out or choose another backend");
  // The backends answer an empty module each in its own way (nvPTXCompiler
  // with a bare result code).
  if (Ptx.trim().empty())
    return makeError(Name +
                     ":1:1: error: empty PTX: expected a '.version' directive");
  size_t Nul = Ptx.find('\0');
  if (Nul != StringRef::npos) {
    StringRef Before = Ptx.take_front(Nul);
    size_t LineStart = Before.rfind('\n') + 1; // npos + 1 == 0
    return makeError(Name + ":" + Twine(Before.count('\n') + 1) + ":" +
                     Twine(Nul - LineStart + 1) +
                     ": error: PTX contains a NUL byte (a binary file?)");
  }
  if (Error E = checkPtxIsaVersion(*this, Ptx, Name))
    return E;
  Expected<RawResult> Raw = compileImpl(Ptx, Opts);
  if (!Raw)
    return Raw.takeError();
  if (!Raw->InputPath.empty())
    Raw->Log = replaceAll(Raw->Log, Raw->InputPath, Name);
  if (Raw->Failed) {
    std::string Msg;
    raw_string_ostream OS(Msg);
    OS << Name << ": error: " << getIdentity() << " failed for " << Opts.Arch;
    if (!Raw->Status.empty())
      OS << " (" << Raw->Status << ")";
    std::string Mapped = mapCompilerLog(Raw->Log, Name, Map);
    if (!Mapped.empty())
      OS << '\n' << StringRef(Mapped).rtrim('\n');
    return makeError(OS.str());
  }
  if (Raw->Cubin.empty()) {
    // Never a result (nor a cache entry): an empty cubin loads nowhere.
    std::string Msg;
    raw_string_ostream OS(Msg);
    OS << Name << ": error: " << getIdentity() << " produced no cubin for "
       << Opts.Arch;
    std::string Mapped = mapCompilerLog(Raw->Log, Name, Map);
    if (!Mapped.empty())
      OS << '\n' << StringRef(Mapped).rtrim('\n');
    return makeError(OS.str());
  }
  CompileResult R;
  R.Cubin = std::move(Raw->Cubin);
  R.InfoLog = std::move(Raw->Log);
  R.Backend = getIdentity();
  return R;
}

Expected<std::unique_ptr<PTXCompiler>>
mmptx::createPTXCompiler(BackendKind Kind) {
  switch (Kind) {
  case BackendKind::NvPTXCompiler:
    return createNvPTXCompilerBackend();
  case BackendKind::NvJitLink:
    return createNvJitLinkBackend();
  case BackendKind::Ptxas:
    return createPtxasBackend();
  }
  llvm_unreachable("unknown backend");
}

Expected<std::unique_ptr<PTXCompiler>> mmptx::createDefaultPTXCompiler() {
  std::string Why;
  for (BackendKind Kind : getAllBackends()) {
    Expected<std::unique_ptr<PTXCompiler>> C = createPTXCompiler(Kind);
    if (C)
      return C;
    Why += "\n  " + toString(C.takeError());
  }
  return makeError("no PTX compiler backend is available:" + Why);
}

Expected<std::unique_ptr<PTXCompiler>>
mmptx::createPTXCompiler(StringRef Name) {
  if (Name.empty())
    return createDefaultPTXCompiler();
  if (Optional<BackendKind> Kind = parseBackendName(Name))
    return createPTXCompiler(*Kind);
  ArrayRef<BackendKind> All = getAllBackends();
  std::string Known;
  for (size_t I = 0; I != All.size(); ++I)
    Known += (I == 0                ? ""
              : I + 1 == All.size() ? " or "
                                    : ", ") +
             getBackendName(All[I]).str();
  return makeError("unknown backend '" + Name + "' (expected " + Known + ")");
}
