//===- ToolOutput.h - Output files that are never half written --*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How every mmptx tool writes its output. A tool's output either appears
/// complete or not at all:
///
///  - a regular file (or a new one) is written to a temporary file beside
///    it, in the same directory, and renamed over it only on success; a
///    failed run leaves an existing file byte-identical, and the input may
///    be the output (`mmptx-opt F -o F`: the rename keeps a memory-mapped
///    input valid);
///  - `-` is standard output;
///  - anything else that exists (/dev/null, /dev/full, a FIFO, a terminal)
///    is written in place: renaming over a device would replace it.
///
/// Write errors (a full disk, a closed stdout) come back as an llvm::Error
/// naming the output, never as a fatal error of the stream's destructor.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_SUPPORT_TOOLOUTPUT_H
#define MMPTX_SUPPORT_TOOLOUTPUT_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace mmptx {

/// One output of a tool. Write to os(), then commit(); an output destroyed
/// without a successful commit() leaves no trace (the temporary file is
/// removed and the target is untouched).
class ToolOutput {
public:
  /// Opens \p Path for writing (see the file comment for the three kinds).
  static llvm::Expected<std::unique_ptr<ToolOutput>> open(llvm::StringRef Path);

  ToolOutput(const ToolOutput &) = delete;
  ToolOutput &operator=(const ToolOutput &) = delete;
  ~ToolOutput();

  llvm::raw_ostream &os() { return *OS; }
  llvm::StringRef getPath() const { return Path; }

  /// Flushes, checks for write errors and, for a regular file, renames the
  /// temporary file over the target. On error nothing is left behind.
  llvm::Error commit();

private:
  explicit ToolOutput(llvm::StringRef Path) : Path(Path.str()) {}

  /// \returns "cannot write '<path>': <why>".
  llvm::Error makeWriteError(std::error_code EC) const;
  /// Closes and removes the temporary file, if any.
  void discard();

  std::string Path;
  /// The file renamed over Path by commit(); empty when writing in place.
  llvm::SmallString<128> TempPath;
  /// Where the rename goes: Path, or the file a symbolic link points to.
  llvm::SmallString<128> RenameTarget;
  std::unique_ptr<llvm::raw_fd_ostream> OwnedOS;
  llvm::raw_fd_ostream *OS = nullptr;
  bool Closed = false;
  bool Done = false;
};

/// Writes \p Path through a ToolOutput: \p Write produces the contents;
/// when it fails, its error is returned and the output discarded.
llvm::Error
writeToolOutput(llvm::StringRef Path,
                llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write);

/// Writes what \p Print prints (which cannot fail itself) to standard
/// output through a ToolOutput: a write error (a closed stdout, a full disk)
/// is the error returned, not an abort at exit.
llvm::Error
printToolOutput(llvm::function_ref<void(llvm::raw_ostream &)> Print);

/// A tool whose stderr is closed or full cannot report anything, but must
/// still exit with its status: LLVM aborts at exit when `errs()` saw a
/// write error. Likewise what went to `outs()` (--help, --version,
/// --help-hidden, a listing) and could not be written is reported at exit
/// as `<tool>: error: cannot write to standard output: <why>` and exit
/// status 1, never an abort. Call once at the start of main(); it covers
/// exit() too.
void ignoreStderrWriteErrorsAtExit();

} // namespace mmptx

#endif // MMPTX_SUPPORT_TOOLOUTPUT_H
