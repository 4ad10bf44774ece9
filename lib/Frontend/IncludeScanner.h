//===- IncludeScanner.h - The files a CUDA source may read ------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the CUDA -> PTX cache key needs to know of the files NVRTC may open
/// for a source: every header its `#include` lines, `__has_include` tests
/// and pre-includes can name, found the way NVRTC finds them.
///
/// A scan can reuse what an earlier one learnt of each file it read (an
/// IncludeManifest, stored in the cache beside the PTX, as ccache's direct
/// mode keeps its manifests): a file whose identity (device, inode, size,
/// modification and status-change times to the nanosecond) is unchanged
/// is not read again; its recorded content hash and directive lines stand
/// in for it. The search itself (which files exist where, links) is done
/// afresh every time, so the key is the one a full scan gives.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_LIB_FRONTEND_INCLUDESCANNER_H
#define MMPTX_LIB_FRONTEND_INCLUDESCANNER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mmptx {

class CacheKey;

/// How a file looked when it was read: if any of this differs, its content
/// may have changed.
struct FileIdentity {
  uint64_t Device = 0, Inode = 0, Size = 0;
  int64_t ModifiedNs = 0, ChangedNs = 0;

  bool operator==(const FileIdentity &O) const {
    return Device == O.Device && Inode == O.Inode && Size == O.Size &&
           ModifiedNs == O.ModifiedNs && ChangedNs == O.ChangedNs;
  }
  bool operator!=(const FileIdentity &O) const { return !(*this == O); }
};

/// What a scan needs of one file it read.
struct ScannedFile {
  FileIdentity Identity;
  std::string Hash; ///< XXH3-128 of the content, in hex.
  /// The logical lines (continuations joined) the scan follows: those
  /// with a directive or a `__has_include`. The rest cannot change which
  /// files are read.
  std::vector<std::string> Lines;
};

/// The files one scan read, by the path it opened them by.
class IncludeManifest {
public:
  /// Reads what serialize() wrote; false (and an empty manifest) if it is
  /// not that.
  bool parse(llvm::ArrayRef<std::string> Fields);
  /// The cache entry's fields.
  std::vector<std::string> serialize() const;

  const ScannedFile *find(llvm::StringRef Path) const;
  void add(llvm::StringRef Path, ScannedFile File);
  size_t size() const { return Files.size(); }

private:
  llvm::StringMap<ScannedFile> Files;
};

/// What a scan did, for the user.
struct IncludeScanStats {
  unsigned Files = 0; ///< Files whose content the key covers.
  unsigned Read = 0;  ///< Of those, the ones read (not known unchanged).
  /// Files read whose record is new to the manifest.
  unsigned Recorded = 0;
};

/// Adds to \p Key every file \p Source (named \p Name) may read, with the
/// hash of its content; \p IncludeDirs and \p Defines are mmptx's own
/// options and \p NvrtcOptions those passed to NVRTC as they are (its -I,
/// --include-path, --pre-include and -D spellings are followed; the
/// precompiled-header options are not). \p ToolkitDirs are the toolkit's
/// include directories: headers found there are covered by the NVRTC
/// version and not read.
///
/// Over-approximates: a header is looked for in every directory NVRTC could
/// search (beside the including file as it was opened, not beside a link's
/// target; the -I directories; the working directory), each one found is
/// added, and lines in `#if 0` or comments are followed too. An include
/// spelled through a macro is followed through every definition of that
/// macro the scanned files and -D options give.
///
/// A file that \p Known holds with an unchanged identity is not read. Every
/// file read or reused whose times are old enough to trust (not within a
/// second of now, when a later write could leave them unchanged) is added
/// to \p Found, if given. \p Stats, if given, counts the files.
///
/// \returns "" when the key covers what NVRTC reads, else why it cannot
/// (the entry must then not be cached).
std::string addIncludedFiles(CacheKey &Key, llvm::StringRef Source,
                             llvm::StringRef Name,
                             llvm::ArrayRef<std::string> IncludeDirs,
                             llvm::ArrayRef<std::string> Defines,
                             llvm::ArrayRef<std::string> NvrtcOptions,
                             llvm::ArrayRef<std::string> ToolkitDirs,
                             const IncludeManifest *Known = nullptr,
                             IncludeManifest *Found = nullptr,
                             IncludeScanStats *Stats = nullptr);

} // namespace mmptx

#endif // MMPTX_LIB_FRONTEND_INCLUDESCANNER_H
