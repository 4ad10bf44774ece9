//===- SharedLibrary.cpp - CUDA libraries opened at run time --------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Support/SharedLibrary.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <mutex>
#include <unistd.h>

using namespace llvm;
using namespace mmptx;

//===----------------------------------------------------------------------===//
// SharedLibrary
//===----------------------------------------------------------------------===//

Expected<SharedLibrary> SharedLibrary::open(const std::string &Path) {
  SharedLibrary L;
  L.Path = Path;
  ::dlerror();
  L.Handle = ::dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!L.Handle) {
    const char *Msg = ::dlerror();
    return makeError(Msg ? Msg : "cannot load '" + Path + "'");
  }
  return L;
}

void *SharedLibrary::getSymbol(const char *Name) const {
  return Handle ? ::dlsym(Handle, Name) : nullptr;
}

std::string SharedLibrary::getLoadedFile() const {
  if (!Handle)
    return "";
  struct link_map *Map = nullptr;
  if (::dlinfo(Handle, RTLD_DI_LINKMAP, &Map) != 0 || !Map || !Map->l_name ||
      !*Map->l_name)
    return Path;
  SmallString<256> Real;
  if (sys::fs::real_path(Map->l_name, Real))
    return Map->l_name;
  return std::string(Real);
}

/// The version in the `Cuda compilation tools, release M.m, VM.m.p` string
/// of the ELF file \p Path's .rodata (NVIDIA's libraries carry it), or "".
static std::string readEmbeddedVersion(StringRef Path) {
  int FD = ::open(std::string(Path).c_str(), O_RDONLY | O_CLOEXEC);
  if (FD < 0)
    return "";
  struct FDCloser {
    int FD;
    ~FDCloser() { ::close(FD); }
  } Closer{FD};
  Elf64_Ehdr Eh;
  if (::pread(FD, &Eh, sizeof(Eh), 0) != ssize_t(sizeof(Eh)) ||
      memcmp(Eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      Eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      Eh.e_shentsize != sizeof(Elf64_Shdr) || Eh.e_shnum == 0 ||
      Eh.e_shnum > 4096 || Eh.e_shstrndx >= Eh.e_shnum)
    return "";
  std::vector<Elf64_Shdr> Sh(Eh.e_shnum);
  size_t ShBytes = Sh.size() * sizeof(Elf64_Shdr);
  if (::pread(FD, Sh.data(), ShBytes, off_t(Eh.e_shoff)) != ssize_t(ShBytes))
    return "";
  const Elf64_Shdr &Names = Sh[Eh.e_shstrndx];
  if (Names.sh_size > (1u << 20))
    return "";
  std::string NameTable(Names.sh_size, '\0');
  if (::pread(FD, &NameTable[0], NameTable.size(), off_t(Names.sh_offset)) !=
      ssize_t(NameTable.size()))
    return "";
  for (const Elf64_Shdr &S : Sh) {
    if (S.sh_name >= NameTable.size() ||
        StringRef(NameTable.c_str() + S.sh_name) != ".rodata" ||
        S.sh_size > (256u << 20))
      continue;
    std::string Data(S.sh_size, '\0');
    if (::pread(FD, &Data[0], Data.size(), off_t(S.sh_offset)) !=
        ssize_t(Data.size()))
      return "";
    StringRef Text(Data);
    // The first that names a version: a file that links several NVIDIA
    // libraries statically also holds the string's pieces and formats.
    StringRef Marker = "Cuda compilation tools, release ";
    for (size_t At = Text.find(Marker); At != StringRef::npos;
         At = Text.find(Marker, At + 1)) {
      StringRef Rest = Text.drop_front(At + Marker.size());
      size_t V = Rest.take_front(32).find(", V");
      if (V == StringRef::npos)
        continue;
      StringRef Version = Rest.drop_front(V + 3).take_while(
          [](char C) { return isDigit(C) || C == '.'; });
      if (Version.count('.') >= 2)
        return Version.str();
    }
    return "";
  }
  return "";
}

std::string mmptx::getLoadedLibraryVersion(unsigned Major, unsigned Minor,
                                           const void *Symbol) {
  std::string Version = std::to_string(Major) + "." + std::to_string(Minor);
  Dl_info Info;
  if (!Symbol || !dladdr(Symbol, &Info) || !Info.dli_fname)
    return Version + " (unknown library file)";
  // The file itself, through the links (`libnvrtc.so.13` ->
  // `libnvrtc.so.13.0.88`).
  SmallString<256> Real;
  if (sys::fs::real_path(Info.dli_fname, Real))
    Real = Info.dli_fname;
  auto IsExact = [&](StringRef V) {
    return V.startswith(Version + ".") && V.count('.') >= 2 &&
           all_of(V, [](char C) { return isDigit(C) || C == '.'; });
  };
  StringRef Name = sys::path::filename(Real);
  size_t So = Name.find(".so.");
  if (So != StringRef::npos && IsExact(Name.drop_front(So + 4)))
    return Name.drop_front(So + 4).str();
  // Else the version the library's own build string gives, read once per
  // file and process.
  static std::mutex Mutex;
  static StringMap<std::string> Known;
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = Known.find(Real);
  if (It == Known.end())
    It = Known.try_emplace(Real, readEmbeddedVersion(Real)).first;
  if (IsExact(It->second))
    return It->second;
  // Else the file's identity, so that another build never shares entries.
  sys::fs::file_status St;
  std::string Out = Version + " (" + std::string(Real);
  if (!sys::fs::status(Real, St))
    Out += ", " + std::to_string(St.getSize()) + " bytes, modified " +
           std::to_string(sys::toTimeT(St.getLastModificationTime()));
  return Out + ")";
}

//===----------------------------------------------------------------------===//
// The CUDA libraries
//===----------------------------------------------------------------------===//

namespace {
struct CudaLibraryInfo {
  const char *Title;
  const char *EnvVar;
  /// Sonames, newest major first: mmptx calls only entry points that both
  /// majors have.
  std::vector<const char *> Names;
  /// Under a site-packages directory: CUDA 13's wheels share nvidia/cu13,
  /// CUDA 12's have one folder each.
  std::vector<const char *> WheelDirs;
  bool InToolkit;
  const char *Install;
};

struct LibraryState {
  std::mutex Mutex;
  SharedLibrary Lib;
  std::string Override;
};

struct Registry {
  std::mutex Mutex;
  std::vector<std::string> Roots;
  LibraryState States[3];
};
} // namespace

static const CudaLibraryInfo &getInfo(CudaLibrary Lib) {
  static const CudaLibraryInfo Infos[] = {
      {"NVRTC",
       "MMPTX_NVRTC_PATH",
       {"libnvrtc.so.13", "libnvrtc.so.12"},
       {"nvidia/cu13/lib", "nvidia/cuda_nvrtc/lib"},
       true,
       "install the nvidia-cuda-nvrtc wheel (pip install "
       "'nvidia-cuda-nvrtc==13.0.*', or mmptx's [nvrtc] extra) or the CUDA "
       "toolkit (set CUDA_HOME where it is not /usr/local/cuda)"},
      {"nvJitLink",
       "MMPTX_NVJITLINK_PATH",
       {"libnvJitLink.so.13", "libnvJitLink.so.12"},
       {"nvidia/cu13/lib", "nvidia/nvjitlink/lib"},
       true,
       "install the nvidia-nvjitlink wheel (pip install "
       "'nvidia-nvjitlink==13.0.*', or mmptx's [cuda] extra) or the CUDA "
       "toolkit (set CUDA_HOME where it is not /usr/local/cuda)"},
      {"CUDA driver",
       "MMPTX_LIBCUDA",
       {"libcuda.so.1"},
       {},
       false,
       "install NVIDIA's driver, which provides libcuda.so.1"},
  };
  return Infos[int(Lib)];
}

static Registry &getRegistry() {
  static Registry R;
  return R;
}

StringRef mmptx::getCudaLibraryTitle(CudaLibrary Lib) {
  return getInfo(Lib).Title;
}

StringRef mmptx::getCudaLibraryEnvVar(CudaLibrary Lib) {
  return getInfo(Lib).EnvVar;
}

static std::string getEnv(const char *Name) {
  const char *V = std::getenv(Name);
  return V ? V : "";
}

/// The directories under which the wheels' nvidia/ folders may be.
static std::vector<std::string> getSearchRoots() {
  std::vector<std::string> Roots;
  {
    Registry &R = getRegistry();
    std::lock_guard<std::mutex> Lock(R.Mutex);
    Roots = R.Roots;
  }
  SmallVector<StringRef, 4> Parts;
  std::string FromEnv = getEnv("MMPTX_CUDA_SEARCH_ROOTS");
  StringRef(FromEnv).split(Parts, ':', -1, /*KeepEmpty=*/false);
  for (StringRef P : Parts)
    Roots.push_back(P.str());
  // A virtual environment or conda environment the tool runs in.
  for (const char *Var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    std::string Prefix = getEnv(Var);
    if (Prefix.empty())
      continue;
    SmallString<256> Lib(Prefix);
    sys::path::append(Lib, "lib");
    std::error_code EC;
    for (sys::fs::directory_iterator It(Lib, EC), End; !EC && It != End;
         It.increment(EC)) {
      StringRef Name = sys::path::filename(It->path());
      if (!Name.startswith("python3"))
        continue;
      SmallString<256> Site(It->path());
      sys::path::append(Site, "site-packages");
      Roots.push_back(std::string(Site));
    }
  }
  return Roots;
}

/// The toolkit's roots: $CUDA_HOME and $CUDA_PATH, else /usr/local/cuda.
static std::vector<std::string> getToolkitRoots() {
  std::vector<std::string> Roots;
  for (const char *Var : {"CUDA_HOME", "CUDA_PATH"}) {
    std::string Dir = getEnv(Var);
    if (!Dir.empty() &&
        std::find(Roots.begin(), Roots.end(), Dir) == Roots.end())
      Roots.push_back(Dir);
  }
  if (Roots.empty())
    Roots.push_back("/usr/local/cuda");
  return Roots;
}

static std::string getOverride(CudaLibrary Lib) {
  Registry &R = getRegistry();
  {
    LibraryState &S = R.States[int(Lib)];
    std::lock_guard<std::mutex> Lock(S.Mutex);
    if (!S.Override.empty())
      return S.Override;
  }
  return getEnv(getInfo(Lib).EnvVar);
}

static std::vector<std::string> getCandidates(CudaLibrary Lib,
                                              const std::string &Override) {
  const CudaLibraryInfo &Info = getInfo(Lib);
  if (!Override.empty())
    return {Override};
  std::vector<std::string> Out;
  if (Info.InToolkit) {
#if defined(__x86_64__)
    const char *Target = "targets/x86_64-linux/lib";
#elif defined(__aarch64__)
    const char *Target = "targets/sbsa-linux/lib";
#else
    const char *Target = nullptr;
#endif
    for (const std::string &Root : getToolkitRoots())
      for (const char *Sub : {"lib64", "lib", Target}) {
        if (!Sub)
          continue;
        for (const char *Name : Info.Names) {
          SmallString<256> P(Root);
          sys::path::append(P, Sub, Name);
          Out.push_back(std::string(P));
        }
      }
  }
  for (const char *Name : Info.Names)
    Out.push_back(Name);
  for (const std::string &Root : getSearchRoots())
    for (const char *Sub : Info.WheelDirs)
      for (const char *Name : Info.Names) {
        SmallString<256> P(Root);
        sys::path::append(P, Sub, Name);
        Out.push_back(std::string(P));
      }
  return Out;
}

/// NVRTC opens its builtins (libnvrtc-builtins.so.<major>.<minor>) by name
/// at its first compile, through the loader's search alone: found in a
/// wheel's folder, it would fail. Loaded first from beside NVRTC, the
/// builtins are found by their soname. Best effort: NVRTC reports it if it
/// cannot find them.
static void preloadNvrtcBuiltins(const SharedLibrary &Nvrtc) {
  using VersionFn = int (*)(int *, int *);
  auto *Version = reinterpret_cast<VersionFn>(Nvrtc.getSymbol("nvrtcVersion"));
  int Major = 0, Minor = 0;
  if (!Version || Version(&Major, &Minor) != 0)
    return;
  SmallString<256> Sibling(sys::path::parent_path(Nvrtc.getLoadedFile()));
  if (Sibling.empty())
    return;
  sys::path::append(Sibling, "libnvrtc-builtins.so." + std::to_string(Major) +
                                 "." + std::to_string(Minor));
  if (!sys::fs::exists(Sibling))
    return;
  Expected<SharedLibrary> B = SharedLibrary::open(std::string(Sibling));
  if (!B)
    consumeError(B.takeError());
}

std::vector<std::string> mmptx::getCudaLibraryCandidates(CudaLibrary Lib) {
  return getCandidates(Lib, getOverride(Lib));
}

Expected<const SharedLibrary &> mmptx::loadCudaLibrary(CudaLibrary Lib) {
  const CudaLibraryInfo &Info = getInfo(Lib);
  LibraryState &S = getRegistry().States[int(Lib)];
  std::lock_guard<std::mutex> Lock(S.Mutex);
  if (S.Lib.isOpen())
    return S.Lib;

  std::string Override = !S.Override.empty() ? S.Override : getEnv(Info.EnvVar);
  if (!Override.empty()) {
    Expected<SharedLibrary> L = SharedLibrary::open(Override);
    if (!L)
      return makeError(Twine(Info.Title) + " not found: " +
                       (S.Override.empty() ? "$" + Twine(Info.EnvVar) + " is '"
                                           : Twine("the path given is '")) +
                       Override + "', which cannot be loaded (" +
                       toString(L.takeError()) + "); " + Info.Install);
    S.Lib = std::move(*L);
    if (Lib == CudaLibrary::Nvrtc)
      preloadNvrtcBuiltins(S.Lib);
    return S.Lib;
  }

  std::vector<std::string> Candidates = getCandidates(Lib, "");
  // Where it looked, in the order searched; the bare names, tried by the
  // loader, as one entry.
  std::vector<std::string> Looked, Bare;
  size_t BareAt = 0;
  for (const std::string &C : Candidates) {
    bool IsFile = sys::path::has_parent_path(C);
    if (IsFile && !sys::fs::exists(C)) {
      Looked.push_back(C);
      continue;
    }
    Expected<SharedLibrary> L = SharedLibrary::open(C);
    if (L) {
      S.Lib = std::move(*L);
      if (Lib == CudaLibrary::Nvrtc)
        preloadNvrtcBuiltins(S.Lib);
      return S.Lib;
    }
    std::string Why = toString(L.takeError());
    if (IsFile) {
      Looked.push_back(C + " (" + Why + ")");
    } else {
      if (Bare.empty())
        BareAt = Looked.size();
      Bare.push_back(C);
    }
  }
  if (!Bare.empty())
    Looked.insert(Looked.begin() + BareAt,
                  "the loader path (" + join(Bare, ", ") + ")");
  std::string Msg;
  raw_string_ostream OS(Msg);
  OS << Info.Title << " not found: looked in " << join(Looked, ", ");
  OS << "; " << Info.Install;
  if (Info.InToolkit)
    OS << ", or set $" << Info.EnvVar << " to the library's path";
  return makeError(OS.str());
}

bool mmptx::setCudaLibraryPath(CudaLibrary Lib, StringRef Path) {
  LibraryState &S = getRegistry().States[int(Lib)];
  std::lock_guard<std::mutex> Lock(S.Mutex);
  if (S.Lib.isOpen())
    return false;
  S.Override = Path.str();
  return true;
}

void mmptx::addCudaLibrarySearchRoot(StringRef Dir) {
  Registry &R = getRegistry();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  if (std::find(R.Roots.begin(), R.Roots.end(), Dir) == R.Roots.end())
    R.Roots.push_back(Dir.str());
}

CudaLibraryStatus mmptx::getCudaLibraryStatus(CudaLibrary Lib) {
  CudaLibraryStatus S;
  Expected<const SharedLibrary &> L = loadCudaLibrary(Lib);
  if (!L) {
    S.Error = toString(L.takeError());
    return S;
  }
  S.Found = true;
  S.File = L->getLoadedFile();
  int Major = -1, Minor = -1;
  const void *VersionFn = nullptr; // names the library's file
  switch (Lib) {
  case CudaLibrary::Nvrtc: {
    using Fn = int (*)(int *, int *);
    auto *F = reinterpret_cast<Fn>(L->getSymbol("nvrtcVersion"));
    VersionFn = reinterpret_cast<const void *>(F);
    if (F && F(&Major, &Minor) != 0)
      Major = -1;
    break;
  }
  case CudaLibrary::NvJitLink: {
    using Fn = int (*)(unsigned *, unsigned *);
    unsigned Ma = 0, Mi = 0;
    auto *F = reinterpret_cast<Fn>(L->getSymbol("nvJitLinkVersion"));
    VersionFn = reinterpret_cast<const void *>(F);
    if (F && F(&Ma, &Mi) == 0) {
      Major = int(Ma);
      Minor = int(Mi);
    }
    break;
  }
  case CudaLibrary::Driver: {
    using Fn = int (*)(int *);
    int V = 0;
    if (auto *F = reinterpret_cast<Fn>(L->getSymbol("cuDriverGetVersion")))
      if (F(&V) == 0 && V > 0) {
        Major = V / 1000;
        Minor = (V % 1000) / 10;
      }
    break;
  }
  }
  if (Major < 0) {
    S.Version = "unknown version";
    return S;
  }
  if (Lib == CudaLibrary::Driver) {
    // The driver's file is named by the driver's release, not CUDA's.
    S.Version = std::to_string(Major) + "." + std::to_string(Minor);
    return S;
  }
  S.Version =
      getLoadedLibraryVersion(unsigned(Major), unsigned(Minor), VersionFn);
  return S;
}
