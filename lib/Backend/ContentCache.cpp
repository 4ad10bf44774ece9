//===- ContentCache.cpp - Content-keyed on-disk cache ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Entry file layout (little endian):
///   "MMPTXC01"            8 bytes magic
///   key                   64 hex digits (the file's own name, checked)
///   payload length        u64
///   payload SHA-256       32 bytes
///   payload               fields, each u64 length + bytes
///
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/ContentCache.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;
using namespace mmptx;

static constexpr StringLiteral Magic = "MMPTXC01";
static constexpr size_t KeySize = 64;
static constexpr size_t HeaderSize = 8 + KeySize + 8 + 32;

//===----------------------------------------------------------------------===//
// Keys
//===----------------------------------------------------------------------===//

CacheKey &CacheKey::add(StringRef Part) {
  add(uint64_t(Part.size()));
  Hasher.update(Part);
  return *this;
}

CacheKey &CacheKey::add(uint64_t Value) {
  uint8_t Bytes[8];
  support::endian::write64le(Bytes, Value);
  Hasher.update(makeArrayRef(Bytes));
  return *this;
}

std::string CacheKey::final() { return toHex(Hasher.final(), true); }

std::string mmptx::getExactVersion(unsigned Major, unsigned Minor,
                                   StringRef BuildVersion) {
  std::string Version = std::to_string(Major) + "." + std::to_string(Minor);
  if (BuildVersion.startswith(Version + "."))
    return BuildVersion.str();
  return Version;
}

std::string mmptx::sha256Hex(StringRef Data) {
  return toHex(SHA256::hash(arrayRefFromStringRef(Data)), true);
}

//===----------------------------------------------------------------------===//
// The cache
//===----------------------------------------------------------------------===//

static bool isEntryName(StringRef Name) {
  return Name.size() == KeySize && all_of(Name, [](char C) {
           return isDigit(C) || (C >= 'a' && C <= 'f');
         });
}

namespace {
struct EntryInfo {
  std::string Path;
  uint64_t Size;
  sys::TimePoint<> MTime;
};
} // namespace

/// Every entry file under \p Dir (two levels: `ab/abcdef...`).
static std::vector<EntryInfo> listEntries(StringRef Dir) {
  std::vector<EntryInfo> Entries;
  std::error_code EC;
  for (sys::fs::directory_iterator Sub(Dir, EC), End; Sub != End && !EC;
       Sub.increment(EC)) {
    if (sys::path::filename(Sub->path()).size() != 2)
      continue;
    std::error_code SubEC;
    for (sys::fs::directory_iterator It(Sub->path(), SubEC);
         It != End && !SubEC; It.increment(SubEC)) {
      if (!isEntryName(sys::path::filename(It->path())))
        continue;
      sys::fs::file_status St;
      if (sys::fs::status(It->path(), St) ||
          St.type() != sys::fs::file_type::regular_file)
        continue;
      Entries.push_back(
          {It->path(), St.getSize(), St.getLastModificationTime()});
    }
  }
  return Entries;
}

Expected<std::unique_ptr<ContentCache>> ContentCache::open(StringRef Dir,
                                                           uint64_t MaxBytes) {
  if (Dir.empty())
    return makeError("cache directory is empty");
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return makeError("cannot create cache directory '" + Dir +
                     "': " + EC.message());
  // create_directories accepts an existing file of that name.
  if (!sys::fs::is_directory(Dir))
    return makeError("cache directory '" + Dir + "' is not a directory");
  return std::unique_ptr<ContentCache>(new ContentCache(Dir, MaxBytes));
}

std::string ContentCache::getEntryPath(StringRef Key) const {
  SmallString<256> Path(Dir);
  sys::path::append(Path, Key.take_front(2), Key);
  return std::string(Path);
}

Optional<std::vector<std::string>> ContentCache::lookup(StringRef Key) {
  assert(isEntryName(Key) && "keys come from CacheKey::final()");
  std::string Path = getEntryPath(Key);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf) {
    ++Stats.Misses;
    return None;
  }
  StringRef Data = (*Buf)->getBuffer();
  auto Corrupt = [&]() -> Optional<std::vector<std::string>> {
    // Another process may have replaced it since; removing a good entry
    // only costs a rebuild.
    sys::fs::remove(Path);
    ++Stats.Corrupt;
    ++Stats.Misses;
    return None;
  };
  if (Data.size() < HeaderSize || !Data.startswith(Magic) ||
      Data.substr(8, KeySize) != Key)
    return Corrupt();
  uint64_t Len = support::endian::read64le(Data.data() + 8 + KeySize);
  StringRef Sum = Data.substr(8 + KeySize + 8, 32);
  StringRef Payload = Data.drop_front(HeaderSize);
  if (Payload.size() != Len ||
      StringRef(reinterpret_cast<const char *>(
                    SHA256::hash(arrayRefFromStringRef(Payload)).data()),
                32) != Sum)
    return Corrupt();
  std::vector<std::string> Fields;
  while (!Payload.empty()) {
    if (Payload.size() < 8)
      return Corrupt();
    uint64_t N = support::endian::read64le(Payload.data());
    Payload = Payload.drop_front(8);
    if (N > Payload.size())
      return Corrupt();
    Fields.push_back(Payload.take_front(N).str());
    Payload = Payload.drop_front(N);
  }
  // Least recently used eviction goes by modification time.
  int FD;
  if (!sys::fs::openFileForReadWrite(Path, FD, sys::fs::CD_OpenExisting,
                                     sys::fs::OF_None)) {
    sys::fs::setLastAccessAndModificationTime(FD,
                                              std::chrono::system_clock::now());
    sys::Process::SafelyCloseFileDescriptor(FD);
  }
  ++Stats.Hits;
  return Fields;
}

Error ContentCache::storeFailed(Error E) {
  ++Stats.StoreFailures;
  std::string Msg = toString(std::move(E));
  {
    std::lock_guard<std::mutex> Lock(StoreErrorMutex);
    if (FirstStoreError.empty())
      FirstStoreError = Msg;
  }
  return makeError(Msg);
}

std::string ContentCache::getStoreFailureMessage() const {
  uint64_t N = Stats.StoreFailures;
  if (!N)
    return "";
  std::lock_guard<std::mutex> Lock(StoreErrorMutex);
  return ("cache '" + Dir + "': " + Twine(N) +
          (N == 1 ? " entry was" : " entries were") +
          " not written, so later runs will compile again (" + FirstStoreError +
          ")")
      .str();
}

Error ContentCache::store(StringRef Key, ArrayRef<StringRef> Fields) {
  assert(isEntryName(Key) && "keys come from CacheKey::final()");
  std::string Payload;
  {
    raw_string_ostream OS(Payload);
    for (StringRef F : Fields) {
      char Len[8];
      support::endian::write64le(Len, F.size());
      OS << StringRef(Len, 8) << F;
    }
  }
  std::string Header;
  {
    raw_string_ostream OS(Header);
    char Len[8];
    support::endian::write64le(Len, Payload.size());
    std::array<uint8_t, 32> Sum = SHA256::hash(arrayRefFromStringRef(Payload));
    OS << Magic << Key << StringRef(Len, 8)
       << StringRef(reinterpret_cast<const char *>(Sum.data()), 32);
  }

  // The directory is measured at the first store of this process (before
  // its entry is written, so it is counted once), not at open: a run that
  // only hits never lists it.
  if (MaxBytes)
    std::call_once(SizeKnown, [&] {
      uint64_t Size = 0;
      for (const EntryInfo &E : listEntries(Dir))
        Size += E.Size;
      ApproxBytes = Size;
    });

  std::string Path = getEntryPath(Key);
  StringRef SubDir = sys::path::parent_path(Path);
  if (std::error_code EC = sys::fs::create_directories(SubDir))
    return storeFailed(makeError("cannot create cache directory '" + SubDir +
                                 "': " + EC.message()));
  // The temporary lives beside the entry so the rename stays in one file
  // system; its name never looks like an entry.
  int FD;
  SmallString<256> Tmp;
  if (std::error_code EC = sys::fs::createUniqueFile(
          Twine(Path) + ".tmp-%%%%%%%%", FD, Tmp, sys::fs::OF_None))
    return storeFailed(makeError("cannot write cache entry in '" + SubDir +
                                 "': " + EC.message()));
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Header << Payload;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      sys::fs::remove(Tmp);
      return storeFailed(
          makeError("cannot write cache entry '" + Tmp + "': " + EC.message()));
    }
  }
  if (std::error_code EC = sys::fs::rename(Tmp, Path)) {
    sys::fs::remove(Tmp);
    return storeFailed(
        makeError("cannot write cache entry '" + Path + "': " + EC.message()));
  }
  ++Stats.Stores;
  if (!MaxBytes)
    return Error::success();
  uint64_t Size = ApproxBytes += Header.size() + Payload.size();
  if (Size > MaxBytes)
    prune(MaxBytes - MaxBytes / 4);
  return Error::success();
}

void ContentCache::prune(uint64_t TargetBytes) {
  std::lock_guard<std::mutex> Lock(PruneMutex);
  std::vector<EntryInfo> Entries = listEntries(Dir);
  uint64_t Total = 0;
  for (const EntryInfo &E : Entries)
    Total += E.Size;
  // Oldest first; ties broken by path so concurrent pruners agree.
  llvm::sort(Entries, [](const EntryInfo &A, const EntryInfo &B) {
    return A.MTime != B.MTime ? A.MTime < B.MTime : A.Path < B.Path;
  });
  for (const EntryInfo &E : Entries) {
    if (Total <= TargetBytes)
      break;
    if (!sys::fs::remove(E.Path, /*IgnoreNonExisting=*/false))
      ++Stats.Evicted;
    Total -= E.Size;
  }
  ApproxBytes = Total;
}

std::string mmptx::getDefaultCacheDirectory() {
  if (Optional<std::string> Dir = sys::Process::GetEnv("MMPTX_CACHE_DIR"))
    if (!Dir->empty())
      return *Dir;
  SmallString<256> Path;
  if (Optional<std::string> Xdg = sys::Process::GetEnv("XDG_CACHE_HOME"))
    Path = *Xdg;
  if (Path.empty() && sys::path::home_directory(Path))
    sys::path::append(Path, ".cache");
  if (Path.empty())
    sys::path::system_temp_directory(/*ErasedOnReboot=*/false, Path);
  sys::path::append(Path, "mmptx");
  return std::string(Path);
}
