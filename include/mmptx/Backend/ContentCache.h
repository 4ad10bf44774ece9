//===- ContentCache.h - Content-keyed on-disk cache -------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A directory of entries, one file per entry, named by the SHA-256 of
/// everything that determines the entry's content (CacheKey). Used for
/// PTX -> cubin and CUDA -> PTX.
///
/// Safe under concurrent threads and processes without locks:
///   - an entry is written to a unique temporary file in its directory and
///     renamed over its name, so a reader sees a whole entry or none;
///   - each file carries a header (magic, key, payload length, payload
///     SHA-256): a truncated or corrupt file is detected, removed and
///     reported as a miss, so the caller rebuilds it;
///   - a hit touches the file's modification time, and when the directory
///     grows past its size limit the least recently used entries are
///     removed (another process removing the same file is harmless).
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_BACKEND_CONTENTCACHE_H
#define MMPTX_BACKEND_CONTENTCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SHA256.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace mmptx {

/// Builds a key from parts. Each part is hashed with its length, so
/// ("ab","c") and ("a","bc") differ.
class CacheKey {
public:
  explicit CacheKey(llvm::StringRef Kind) { add(Kind); }
  CacheKey &add(llvm::StringRef Part);
  CacheKey &add(uint64_t Value);
  /// 64 hex digits.
  std::string final();

private:
  llvm::SHA256 Hasher;
};

/// The version a library reports (\p Major.\p Minor), refined to
/// \p BuildVersion (e.g. the toolkit's `13.0.88`, known at build time) where
/// the two agree: cache keys need the exact version.
std::string getExactVersion(unsigned Major, unsigned Minor,
                            llvm::StringRef BuildVersion);

/// Hex SHA-256 of \p Data.
std::string sha256Hex(llvm::StringRef Data);

struct CacheStats {
  std::atomic<uint64_t> Hits{0}, Misses{0}, Stores{0}, Corrupt{0}, Evicted{0};
  /// Entries that could not be written (an unwritable directory, a full
  /// disk): a cost in speed that callers should make known.
  std::atomic<uint64_t> StoreFailures{0};
};

class ContentCache {
public:
  /// Opens (creating) the cache directory \p Dir with a size limit of
  /// \p MaxBytes (0: no limit). A \p Dir that is not a directory is an
  /// error; one that cannot be written is not (every store fails, counted
  /// in CacheStats::StoreFailures).
  static llvm::Expected<std::unique_ptr<ContentCache>>
  open(llvm::StringRef Dir, uint64_t MaxBytes = DefaultMaxBytes);

  static constexpr uint64_t DefaultMaxBytes = 1ull << 30;

  /// The fields stored under \p Key, or None (a miss, or a corrupt entry,
  /// which is removed).
  llvm::Optional<std::vector<std::string>> lookup(llvm::StringRef Key);
  /// Stores \p Fields under \p Key atomically; then evicts if over the limit.
  llvm::Error store(llvm::StringRef Key,
                    llvm::ArrayRef<llvm::StringRef> Fields);

  /// Removes least recently used entries until the directory holds at most
  /// \p TargetBytes.
  void prune(uint64_t TargetBytes);

  llvm::StringRef getDirectory() const { return Dir; }
  /// The file that holds \p Key.
  std::string getEntryPath(llvm::StringRef Key) const;
  const CacheStats &getStats() const { return Stats; }
  /// "" if every store succeeded, else a line for a warning: how many
  /// failed, and why the first did.
  std::string getStoreFailureMessage() const;

private:
  ContentCache(llvm::StringRef Dir, uint64_t MaxBytes)
      : Dir(Dir.str()), MaxBytes(MaxBytes) {}

  std::string Dir;
  uint64_t MaxBytes;
  /// This process's estimate of the directory's size, measured at the
  /// first store; a prune rescans.
  std::atomic<uint64_t> ApproxBytes{0};
  std::once_flag SizeKnown;
  std::mutex PruneMutex;
  CacheStats Stats;
  mutable std::mutex StoreErrorMutex;
  std::string FirstStoreError;

  /// Counts \p E as a failed store; \returns it.
  llvm::Error storeFailed(llvm::Error E);
};

/// The default cache directory: $MMPTX_CACHE_DIR, else
/// $XDG_CACHE_HOME/mmptx, else ~/.cache/mmptx.
std::string getDefaultCacheDirectory();

} // namespace mmptx

#endif // MMPTX_BACKEND_CONTENTCACHE_H
