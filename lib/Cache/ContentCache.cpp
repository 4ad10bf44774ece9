//===- ContentCache.cpp - Content-keyed on-disk cache ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Entry file layout (little endian):
///   "MMPTXC02"            8 bytes magic (the format's version: entries of
///                         another version are corrupt, so rebuilt)
///   key                   32 hex digits (the file's own name, checked)
///   payload length        u64
///   payload checksum      u64, XXH3-64 of the payload
///   payload               fields, each u64 length + bytes
///
/// Beside the `ab/` directories of entries, the file `accounting` holds the
/// directory's size (u64) and is the lock (flock) its updates hold.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Cache/ContentCache.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

// xxHash (the distribution's libxxhash-dev), compiled into this file.
#define XXH_INLINE_ALL
#include <xxhash.h>

using namespace llvm;
using namespace mmptx;

static constexpr StringLiteral Magic = "MMPTXC02";
static constexpr size_t KeySize = CacheKeySize;
static constexpr size_t HeaderSize = 8 + KeySize + 8 + 8;
static constexpr StringLiteral AccountingName = "accounting";

//===----------------------------------------------------------------------===//
// Keys
//===----------------------------------------------------------------------===//

struct CacheKey::State {
  XXH3_state_t Hasher;
};

CacheKey::CacheKey(StringRef Kind) : S(new State) {
  XXH3_128bits_reset(&S->Hasher);
  add(Kind);
}

CacheKey::CacheKey(CacheKey &&) = default;
CacheKey::~CacheKey() = default;

CacheKey &CacheKey::add(StringRef Part) {
  add(uint64_t(Part.size()));
  XXH3_128bits_update(&S->Hasher, Part.data(), Part.size());
  return *this;
}

CacheKey &CacheKey::add(uint64_t Value) {
  uint8_t Bytes[8];
  support::endian::write64le(Bytes, Value);
  XXH3_128bits_update(&S->Hasher, Bytes, 8);
  return *this;
}

static std::string toHex(XXH128_hash_t H) {
  XXH128_canonical_t C;
  XXH128_canonicalFromHash(&C, H);
  return llvm::toHex(makeArrayRef(C.digest), /*LowerCase=*/true);
}

std::string CacheKey::final() { return toHex(XXH3_128bits_digest(&S->Hasher)); }

std::string mmptx::xxh3Hex(StringRef Data) {
  return toHex(XXH3_128bits(Data.data(), Data.size()));
}

//===----------------------------------------------------------------------===//
// The cache
//===----------------------------------------------------------------------===//

static bool isEntryName(StringRef Name) {
  return Name.size() == KeySize && all_of(Name, [](char C) {
           return isDigit(C) || (C >= 'a' && C <= 'f');
         });
}

/// `<key>.tmp-XXXXXXXX`: a store's temporary.
static bool isTemporaryName(StringRef Name) {
  return Name.size() > KeySize && isEntryName(Name.take_front(KeySize)) &&
         Name.drop_front(KeySize).startswith(".tmp-");
}

/// An entry of the first format (64 hex digits: SHA-256 keys), never read.
static bool isOldEntryName(StringRef Name) {
  return Name.size() == 64 && all_of(Name, [](char C) {
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

/// Every entry file under \p Dir (two levels: `ab/abcdef...`) in \p Entries;
/// temporaries in \p Temporaries. Entries of the first format are removed.
/// Links and other files that are not regular are skipped (a lookup removes
/// them).
static void listEntries(StringRef Dir, std::vector<EntryInfo> &Entries,
                        std::vector<EntryInfo> &Temporaries) {
  std::error_code EC;
  for (sys::fs::directory_iterator Sub(Dir, EC, /*FollowSymlinks=*/false), End;
       Sub != End && !EC; Sub.increment(EC)) {
    if (sys::path::filename(Sub->path()).size() != 2 ||
        Sub->type() != sys::fs::file_type::directory_file)
      continue;
    std::error_code SubEC;
    for (sys::fs::directory_iterator It(Sub->path(), SubEC,
                                        /*FollowSymlinks=*/false);
         It != End && !SubEC; It.increment(SubEC)) {
      StringRef Name = sys::path::filename(It->path());
      if (isOldEntryName(Name)) {
        sys::fs::remove(It->path());
        continue;
      }
      bool Entry = isEntryName(Name);
      if (!Entry && !isTemporaryName(Name))
        continue;
      sys::fs::file_status St;
      if (sys::fs::status(It->path(), St, /*Follow=*/false) ||
          St.type() != sys::fs::file_type::regular_file)
        continue;
      (Entry ? Entries : Temporaries)
          .push_back({It->path(), St.getSize(), St.getLastModificationTime()});
    }
  }
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

/// Reads \p Size bytes at \p Offset of \p FD into \p Out; false on an error
/// or a short read.
static bool readExactly(int FD, uint64_t Offset, size_t Size, char *Out) {
  while (Size) {
    ssize_t N = ::pread(FD, Out, Size, off_t(Offset));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Out += N;
    Offset += uint64_t(N);
    Size -= size_t(N);
  }
  return true;
}

/// Removes whatever has an entry's name and is not an entry (a directory
/// with what it holds; a link itself, never what it points to).
static void removeNonEntry(StringRef Path) {
  sys::fs::file_status St;
  if (!sys::fs::status(Path, St, /*Follow=*/false) &&
      St.type() == sys::fs::file_type::directory_file)
    sys::fs::remove_directories(Path);
  else // sys::fs::remove() refuses FIFOs, sockets and devices.
    ::unlink(std::string(Path).c_str());
}

Optional<std::vector<std::string>> ContentCache::lookup(StringRef Key) {
  assert(isEntryName(Key) && "keys come from CacheKey::final()");
  std::string Path = getEntryPath(Key);
  auto Corrupt = [&]() -> Optional<std::vector<std::string>> {
    // Another process may have replaced it since; removing a good entry
    // only costs a rebuild.
    removeNonEntry(Path);
    ++Stats.Corrupt;
    ++Stats.Misses;
    return None;
  };
  // Never through a link, never waiting on a FIFO or a device.
  int FD = ::open(Path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0) {
    if (errno == ELOOP)
      return Corrupt();
    ++Stats.Misses;
    return None;
  }
  struct FDCloser {
    int FD;
    ~FDCloser() { ::close(FD); }
  } Closer{FD};
  struct stat St;
  if (::fstat(FD, &St) != 0 || !S_ISREG(St.st_mode) ||
      uint64_t(St.st_size) < HeaderSize)
    return Corrupt();
  char Header[HeaderSize];
  if (!readExactly(FD, 0, HeaderSize, Header))
    return Corrupt();
  StringRef H(Header, HeaderSize);
  if (!H.startswith(Magic) || H.substr(8, KeySize) != Key)
    return Corrupt();
  uint64_t Len = support::endian::read64le(Header + 8 + KeySize);
  uint64_t Sum = support::endian::read64le(Header + 8 + KeySize + 8);
  // The file holds exactly what its header says: never read past it.
  if (Len != uint64_t(St.st_size) - HeaderSize)
    return Corrupt();
  std::string Payload;
  Payload.resize(size_t(Len));
  if (!readExactly(FD, HeaderSize, Payload.size(), &Payload[0]) ||
      XXH3_64bits(Payload.data(), Payload.size()) != Sum)
    return Corrupt();
  std::vector<std::string> Fields;
  StringRef Rest = Payload;
  while (!Rest.empty()) {
    if (Rest.size() < 8)
      return Corrupt();
    uint64_t N = support::endian::read64le(Rest.data());
    Rest = Rest.drop_front(8);
    if (N > Rest.size())
      return Corrupt();
    Fields.push_back(Rest.take_front(N).str());
    Rest = Rest.drop_front(N);
  }
  // Least recently used eviction goes by modification time (the owner may
  // set it to now through a read-only descriptor).
  ::futimens(FD, nullptr);
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
    char Len[8], Sum[8];
    support::endian::write64le(Len, Payload.size());
    support::endian::write64le(Sum,
                               XXH3_64bits(Payload.data(), Payload.size()));
    OS << Magic << Key << StringRef(Len, 8) << StringRef(Sum, 8);
  }

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
  std::error_code EC = sys::fs::rename(Tmp, Path);
  if (EC == std::errc::is_a_directory) {
    // Not an entry: replaced.
    removeNonEntry(Path);
    EC = sys::fs::rename(Tmp, Path);
  }
  if (EC) {
    sys::fs::remove(Tmp);
    return storeFailed(
        makeError("cannot write cache entry '" + Path + "': " + EC.message()));
  }
  ++Stats.Stores;
  if (MaxBytes)
    account(Header.size() + Payload.size());
  return Error::success();
}

namespace {
/// The accounting file, opened and locked (exclusively) for as long as this
/// lives; not valid() where it cannot be.
class AccountLock {
public:
  explicit AccountLock(StringRef Dir) {
    SmallString<256> Path(Dir);
    sys::path::append(Path, AccountingName);
    for (int Try = 0; Try != 2 && FD < 0; ++Try) {
      FD = ::open(Path.c_str(),
                  O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
      struct stat St;
      if (FD >= 0 && (::fstat(FD, &St) != 0 || !S_ISREG(St.st_mode))) {
        ::close(FD);
        FD = -1;
        removeNonEntry(Path);
      } else if (FD < 0 && errno == ELOOP) {
        sys::fs::remove(Path);
      }
    }
    if (FD >= 0)
      while (::flock(FD, LOCK_EX) != 0)
        if (errno != EINTR) {
          ::close(FD);
          FD = -1;
          break;
        }
  }
  ~AccountLock() {
    if (FD >= 0)
      ::close(FD); // Releases the lock.
  }
  bool valid() const { return FD >= 0; }
  Optional<uint64_t> read() const {
    char Bytes[8];
    struct stat St;
    if (::fstat(FD, &St) != 0 || St.st_size != 8 ||
        !readExactly(FD, 0, 8, Bytes))
      return None;
    return support::endian::read64le(Bytes);
  }
  void write(uint64_t Size) const {
    char Bytes[8];
    support::endian::write64le(Bytes, Size);
    if (::pwrite(FD, Bytes, 8, 0) != 8 || ::ftruncate(FD, 8) != 0)
      (void)::ftruncate(FD, 0); // Unreadable: the next store measures.
  }

private:
  int FD = -1;
};
} // namespace

void ContentCache::account(uint64_t Bytes) {
  std::lock_guard<std::mutex> Guard(PruneMutex);
  AccountLock Lock(Dir);
  Optional<uint64_t> Size;
  if (Lock.valid())
    Size = Lock.read();
  uint64_t Total;
  if (!Size || !Measured.exchange(true)) {
    // Measured at this instance's first store (stale temporaries go then),
    // whenever the account is missing or unreadable, and at every store
    // where there can be no account.
    Total = pruneLocked(UINT64_MAX);
  } else {
    Total = *Size + Bytes;
  }
  if (Total > MaxBytes)
    Total = pruneLocked(MaxBytes - MaxBytes / 4);
  if (Lock.valid())
    Lock.write(Total);
}

void ContentCache::prune(uint64_t TargetBytes) {
  std::lock_guard<std::mutex> Guard(PruneMutex);
  AccountLock Lock(Dir);
  uint64_t Total = pruneLocked(TargetBytes);
  if (Lock.valid())
    Lock.write(Total);
}

uint64_t ContentCache::pruneLocked(uint64_t TargetBytes) {
  std::vector<EntryInfo> Entries, Temporaries;
  listEntries(Dir, Entries, Temporaries);
  uint64_t Total = 0;
  auto Now = std::chrono::system_clock::now();
  for (const EntryInfo &T : Temporaries) {
    if (Now - T.MTime > TemporaryMaxAge) {
      if (!sys::fs::remove(T.Path, /*IgnoreNonExisting=*/false))
        ++Stats.Evicted;
    } else {
      // Being written now: counted, not removed.
      Total += T.Size;
    }
  }
  for (const EntryInfo &E : Entries)
    Total += E.Size;
  if (Total <= TargetBytes)
    return Total;
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
  return Total;
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
