//===- ContentCache.h - Content-keyed on-disk cache -------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A directory of entries, one file per entry, named by the XXH3-128 hash
/// (xxHash) of everything that determines the entry's content (CacheKey).
/// Used for PTX -> cubin and CUDA -> PTX.
///
/// Safe under concurrent threads and processes:
///   - an entry is written to a unique temporary file in its directory and
///     renamed over its name, so a reader sees a whole entry or none;
///   - each file carries a header (magic, key, payload length, payload
///     checksum): a truncated or corrupt file is detected, removed and
///     reported as a miss, so the caller rebuilds it;
///   - an entry is read only if it is a regular file (opened without
///     following a symbolic link and without blocking), and never past the
///     length its header gives: a link, a FIFO, a device, a directory or a
///     file longer or shorter than its header says is removed as corrupt;
///   - a hit touches the file's modification time. The directory's size is
///     kept in a shared accounting file, updated under a lock by every
///     store of every process; when it passes the limit the least recently
///     used entries are removed, and temporaries older than an hour (left
///     by a killed writer) are removed whenever the directory is measured.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_CACHE_CONTENTCACHE_H
#define MMPTX_CACHE_CONTENTCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mmptx {

/// Builds a key from parts: the XXH3-128 hash of them all, one pass over
/// the bytes. Each part is hashed with its length, so ("ab","c") and
/// ("a","bc") differ.
class CacheKey {
public:
  explicit CacheKey(llvm::StringRef Kind);
  CacheKey(CacheKey &&);
  ~CacheKey();
  CacheKey &add(llvm::StringRef Part);
  CacheKey &add(uint64_t Value);
  /// 32 hex digits.
  std::string final();

private:
  struct State;
  std::unique_ptr<State> S;
};

/// The number of hex digits of a key.
constexpr size_t CacheKeySize = 32;

/// Hex XXH3-128 of \p Data (32 digits).
std::string xxh3Hex(llvm::StringRef Data);

struct CacheStats {
  std::atomic<uint64_t> Hits{0}, Misses{0}, Stores{0}, Corrupt{0}, Evicted{0};
  /// Entries that could not be written (an unwritable directory, a full
  /// disk): a cost in speed that callers should make known.
  std::atomic<uint64_t> StoreFailures{0};
};

class ContentCache {
public:
  /// Opens (creating) the cache directory \p Dir with a size limit of
  /// \p MaxBytes (0: no limit). A \p Dir that cannot be created or is not a
  /// directory is an error (the tools warn and compile without a cache);
  /// one that exists but cannot be written is not: it still serves hits,
  /// and every store fails, counted in CacheStats::StoreFailures.
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
  /// \p TargetBytes, and temporaries older than TemporaryMaxAge.
  void prune(uint64_t TargetBytes);

  /// How old a temporary (`<key>.tmp-*`) must be to count as left by a
  /// writer that was killed.
  static constexpr std::chrono::seconds TemporaryMaxAge{3600};

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
  /// Set once this instance has measured the directory (at its first
  /// store): after that, it adds what it stores to the shared account.
  std::atomic<bool> Measured{false};
  std::mutex PruneMutex;
  CacheStats Stats;
  mutable std::mutex StoreErrorMutex;
  std::string FirstStoreError;

  /// Counts \p E as a failed store; \returns it.
  llvm::Error storeFailed(llvm::Error E);
  /// Adds \p Bytes to the shared account of the directory's size (under its
  /// lock), measuring the directory instead at this instance's first store
  /// or when the account is unreadable, and prunes past the limit.
  void account(uint64_t Bytes);
  /// Lists the directory, removes stale temporaries and the least recently
  /// used entries down to \p TargetBytes; \returns the size left.
  uint64_t pruneLocked(uint64_t TargetBytes);
};

/// The default cache directory: $MMPTX_CACHE_DIR, else
/// $XDG_CACHE_HOME/mmptx, else ~/.cache/mmptx.
std::string getDefaultCacheDirectory();

} // namespace mmptx

#endif // MMPTX_CACHE_CONTENTCACHE_H
