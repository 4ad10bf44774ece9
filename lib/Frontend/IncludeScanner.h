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
//===----------------------------------------------------------------------===//

#ifndef MMPTX_LIB_FRONTEND_INCLUDESCANNER_H
#define MMPTX_LIB_FRONTEND_INCLUDESCANNER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mmptx {

class CacheKey;

/// Adds to \p Key every file \p Source (named \p Name) may read, with its
/// content; \p IncludeDirs and \p Defines are mmptx's own options and
/// \p NvrtcOptions those passed to NVRTC as they are (its -I,
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
/// \returns "" when the key covers what NVRTC reads, else why it cannot
/// (the entry must then not be cached).
std::string addIncludedFiles(CacheKey &Key, llvm::StringRef Source,
                             llvm::StringRef Name,
                             llvm::ArrayRef<std::string> IncludeDirs,
                             llvm::ArrayRef<std::string> Defines,
                             llvm::ArrayRef<std::string> NvrtcOptions,
                             llvm::ArrayRef<std::string> ToolkitDirs);

} // namespace mmptx

#endif // MMPTX_LIB_FRONTEND_INCLUDESCANNER_H
