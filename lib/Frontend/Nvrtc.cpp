//===- Nvrtc.cpp - CUDA to PTX with NVRTC in process ----------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Frontend/Nvrtc.h"
#include "IncludeScanner.h"
#include "mmptx/Cache/ContentCache.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "NvrtcApi.h"
#include "mmptx/Support/SharedLibrary.h"

#include <mutex>

using namespace llvm;
using namespace mmptx;
using namespace mmptx::nvrtc;

#ifdef MMPTX_HAVE_NVRTC_H
#define MMPTX_NVRTC_CHECK(Member, Name, Ret, Params)                           \
  MMPTX_CHECK_ENTRY_POINT(NvrtcApi, Member, ::nvrtc##Member, Name, "nvrtc.h")
MMPTX_NVRTC_ENTRIES(MMPTX_NVRTC_CHECK)
#undef MMPTX_NVRTC_CHECK
static_assert(NVRTC_SUCCESS == Success &&
                  NVRTC_ERROR_INVALID_OPTION == ErrorInvalidOption,
              "result codes differ from nvrtc.h");
#endif

static Expected<const NvrtcApi &> getNvrtcApi() {
  return getCudaLibraryApi<NvrtcApi>(CudaLibrary::Nvrtc);
}

bool mmptx::isNvrtcAvailable() {
  Expected<const NvrtcApi &> Api = getNvrtcApi();
  if (!Api) {
    consumeError(Api.takeError());
    return false;
  }
  return true;
}

std::string mmptx::getNvrtcIdentity() {
  Expected<const NvrtcApi &> Api = getNvrtcApi();
  if (!Api) {
    consumeError(Api.takeError());
    return "";
  }
  int Major = 0, Minor = 0;
  if (Api->Version(&Major, &Minor) != Success)
    return "nvrtc unknown";
  // The library loaded at run time, which another patch release may have
  // replaced since the build: its file name, else its own build string,
  // else the file's identity.
  return "nvrtc " +
         getLoadedLibraryVersion(unsigned(Major), unsigned(Minor),
                                 reinterpret_cast<const void *>(Api->Version));
}

/// NVRTC's log with its `file(line): error: ...` locations written as the
/// other tools write them, `file:line: error: ...`.
static std::string formatNvrtcLog(StringRef Log) {
  std::string Out;
  raw_string_ostream OS(Out);
  SmallVector<StringRef, 16> Lines;
  Log.split(Lines, '\n');
  for (size_t I = 0; I != Lines.size(); ++I) {
    StringRef Line = Lines[I];
    size_t Close = Line.find("): ");
    size_t Open = Close == StringRef::npos ? Close : Line.rfind('(', Close);
    unsigned LineNo;
    if (Open != StringRef::npos && Open != 0 &&
        !Line.slice(Open + 1, Close).getAsInteger(10, LineNo))
      OS << Line.take_front(Open) << ':' << LineNo
         << Line.drop_front(Close + 1);
    else
      OS << Line;
    if (I + 1 != Lines.size())
      OS << '\n';
  }
  return OS.str();
}

static std::vector<std::string> getNvrtcArgs(const CudaCompileOptions &Opts) {
  std::vector<std::string> Args;
  Args.push_back("-arch=" + Opts.Arch);
  for (const std::string &Dir : Opts.IncludeDirs)
    Args.push_back("-I" + Dir);
#ifdef MMPTX_CUDA_INCLUDE_DIR
  if (Opts.UseToolkitIncludes) {
    Args.push_back(std::string("-I") + MMPTX_CUDA_INCLUDE_DIR);
    SmallString<128> Cccl(MMPTX_CUDA_INCLUDE_DIR);
    sys::path::append(Cccl, "cccl");
    if (sys::fs::is_directory(Cccl))
      Args.push_back(("-I" + Cccl).str());
  }
#endif
  for (const std::string &Def : Opts.Defines)
    Args.push_back("-D" + Def);
  Args.insert(Args.end(), Opts.ExtraOptions.begin(), Opts.ExtraOptions.end());
  return Args;
}

/// Adds to \p Key what names a compile besides the included files.
static void addCompileParts(CacheKey &Key, StringRef Source, StringRef Name,
                            const CudaCompileOptions &Opts,
                            ArrayRef<std::string> Args) {
  Key.add(getNvrtcIdentity()).add(Opts.Arch);
  Key.add(Args.size());
  for (const std::string &A : Args)
    Key.add(A);
  // The name matters: NVRTC puts it in the PTX and resolves quoted includes
  // next to it.
  Key.add(Name).add(Source);
}

/// The key of a compile, or "" with \p WhyNot set; \p Known, \p Found and
/// \p Stats as addIncludedFiles takes them.
static std::string getKey(StringRef Source, StringRef Name,
                          const CudaCompileOptions &Opts, std::string &WhyNot,
                          const IncludeManifest *Known, IncludeManifest *Found,
                          IncludeScanStats *Stats) {
  CacheKey Key("cuda->ptx v3");
  std::vector<std::string> Args = getNvrtcArgs(Opts);
  addCompileParts(Key, Source, Name, Opts, Args);
  std::vector<std::string> ToolkitDirs;
#ifdef MMPTX_CUDA_INCLUDE_DIR
  if (Opts.UseToolkitIncludes)
    for (const std::string &A : Args)
      if (StringRef(A).startswith(std::string("-I") + MMPTX_CUDA_INCLUDE_DIR))
        ToolkitDirs.push_back(A.substr(2));
#endif
  WhyNot =
      addIncludedFiles(Key, Source, Name, Opts.IncludeDirs, Opts.Defines,
                       Opts.ExtraOptions, ToolkitDirs, Known, Found, Stats);
  return WhyNot.empty() ? Key.final() : "";
}

std::string mmptx::getPtxCacheKey(StringRef Source, StringRef Name,
                                  const CudaCompileOptions &Opts,
                                  std::string *WhyNot) {
  std::string Why;
  std::string Key = getKey(Source, Name, Opts, Why, nullptr, nullptr, nullptr);
  if (WhyNot)
    *WhyNot = Why;
  return Key;
}

/// The key of \p Source's compile through \p Cache, reading only the
/// included files that changed since the manifest stored under the key of
/// the source and options alone; the manifest is updated when the scan
/// learnt something new.
static std::string getCachedKey(ContentCache &Cache, StringRef Source,
                                StringRef Name, const CudaCompileOptions &Opts,
                                std::string &WhyNot, CudaCompileResult &Out) {
  CacheKey ManifestKey("cuda->ptx include manifest v1");
  addCompileParts(ManifestKey, Source, Name, Opts, getNvrtcArgs(Opts));
  std::string MKey = ManifestKey.final();
  IncludeManifest Known, Found;
  bool HaveKnown = false;
  if (Optional<std::vector<std::string>> Fields = Cache.lookup(MKey))
    HaveKnown = Known.parse(*Fields);
  IncludeScanStats Stats;
  std::string Key = getKey(Source, Name, Opts, WhyNot,
                           HaveKnown ? &Known : nullptr, &Found, &Stats);
  Out.NumKeyFiles = Stats.Files;
  Out.NumKeyFilesRead = Stats.Read;
  if (!Key.empty() &&
      (!HaveKnown || Stats.Recorded || Found.size() != Known.size())) {
    std::vector<std::string> Fields = Found.serialize();
    std::vector<StringRef> Refs(Fields.begin(), Fields.end());
    consumeError(Cache.store(MKey, Refs));
  }
  return Key;
}

Expected<CudaCompileResult>
mmptx::compileCudaToPtx(StringRef Source, StringRef Name,
                        const CudaCompileOptions &Opts, ContentCache *Cache) {
  size_t Nul = Source.find('\0');
  if (Nul != StringRef::npos) {
    SourceMgr SM;
    SM.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(
                              Source, Name, /*RequiresNullTerminator=*/false),
                          SMLoc());
    return DiagnosticError::get(SM, SMLoc::getFromPointer(Source.data() + Nul),
                                "source contains a NUL byte (NVRTC would "
                                "stop reading there)");
  }
  CudaCompileResult Out;
  std::string Key, WhyNot;
  if (Cache)
    Key = getCachedKey(*Cache, Source, Name, Opts, WhyNot, Out);
  if (!Key.empty()) {
    if (Optional<std::vector<std::string>> Fields = Cache->lookup(Key))
      if (Fields->size() == 2) {
        Out.Ptx = std::move((*Fields)[0]);
        Out.Log = std::move((*Fields)[1]);
        Out.FromCache = true;
        return Out;
      }
  }

  Expected<const NvrtcApi &> Api = getNvrtcApi();
  if (!Api)
    return Api.takeError();
  std::string Src = Source.str();
  std::string ProgName = Name.str();
  nvrtcProgram Prog;
  if (nvrtcResult R = Api->CreateProgram(&Prog, Src.c_str(), ProgName.c_str(),
                                         0, nullptr, nullptr))
    return makeError(Twine("nvrtcCreateProgram: ") + Api->GetErrorString(R));
  std::vector<std::string> Args = getNvrtcArgs(Opts);
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  nvrtcResult Compiled =
      Api->CompileProgram(Prog, int(Argv.size()), Argv.data());
  size_t LogSize = 0;
  Api->GetProgramLogSize(Prog, &LogSize);
  if (LogSize > 1) {
    std::string Log(LogSize, '\0');
    Api->GetProgramLog(Prog, &Log[0]);
    Out.Log = formatNvrtcLog(Log.c_str());
  }
  if (Compiled != Success) {
    Api->DestroyProgram(&Prog);
    std::string Msg =
        ("compiling '" + Name + "' failed: " + Api->GetErrorString(Compiled))
            .str();
    if (!Out.Log.empty())
      Msg += "\n" + StringRef(Out.Log).rtrim().str();
    // NVRTC names the option it rejects, not always its value.
    if (Compiled == ErrorInvalidOption) {
      Msg += "\nNVRTC options:";
      for (const std::string &A : Args)
        Msg += " '" + A + "'";
    }
    return makeError(Msg);
  }
  size_t PtxSize = 0;
  Api->GetPTXSize(Prog, &PtxSize);
  std::string Ptx(PtxSize, '\0');
  Api->GetPTX(Prog, &Ptx[0]);
  Api->DestroyProgram(&Prog);
  Out.Ptx = StringRef(Ptx.c_str()).str();
  if (!WhyNot.empty())
    Out.CacheNote = "the PTX of '" + Name.str() + "' is not cached: " + WhyNot;
  if (!Key.empty())
    consumeError(Cache->store(Key, {Out.Ptx, Out.Log}));
  return Out;
}
