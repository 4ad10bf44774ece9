//===- ToolOutput.cpp - Output files that are never half written ----------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Support/ToolOutput.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"

#ifdef LLVM_ON_UNIX
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>
#endif

using namespace llvm;
using namespace mmptx;

/// \returns \p FD, moved above the standard descriptors. With stdout
/// closed (`>&-`) a new file gets descriptor 1: writes meant for stdout
/// would land in it, and raw_fd_ostream never closes descriptors 0-2.
static int moveAboveStdio(int FD) {
#ifdef LLVM_ON_UNIX
  if (FD > 2)
    return FD;
  int Moved = ::fcntl(FD, F_DUPFD_CLOEXEC, 3);
  if (Moved < 0)
    return FD;
  ::close(FD);
  return Moved;
#else
  return FD;
#endif
}

Expected<std::unique_ptr<ToolOutput>> ToolOutput::open(StringRef Path) {
  std::unique_ptr<ToolOutput> Out(new ToolOutput(Path));
  if (Path == "-") {
    // outs(), not a second stream on fd 1: other writers stay in order.
    Out->OS = &outs();
    return Out;
  }

  // Rename over the file a symbolic link points to, keeping the link.
  Out->RenameTarget = Path;
  if (sys::fs::is_symlink_file(Path)) {
    SmallString<128> Real;
    if (!sys::fs::real_path(Path, Real))
      Out->RenameTarget = Real;
  }
  sys::fs::file_status Status;
  std::error_code StatEC = sys::fs::status(Out->RenameTarget, Status);
  bool Exists = !StatEC && sys::fs::exists(Status);
  std::error_code EC;
  if (Exists && Status.type() != sys::fs::file_type::regular_file) {
    // A device, FIFO or terminal: write in place.
    int FD;
    EC = sys::fs::openFileForWrite(Path, FD, sys::fs::CD_CreateAlways);
    if (EC)
      return makeError("cannot open output '" + Path + "': " + EC.message());
    Out->OwnedOS = std::make_unique<raw_fd_ostream>(moveAboveStdio(FD),
                                                    /*shouldClose=*/true);
    Out->OS = Out->OwnedOS.get();
    return Out;
  }

  int FD;
  EC = sys::fs::createUniqueFile(Out->RenameTarget + "-%%%%%%%%.tmp", FD,
                                 Out->TempPath);
  if (EC) {
    Out->TempPath.clear();
    return makeError("cannot open output '" + Path + "': " + EC.message());
  }
  sys::RemoveFileOnSignal(Out->TempPath);
  // The replacement keeps the mode of the file it replaces.
  if (Exists)
    (void)sys::fs::setPermissions(FD, Status.permissions());
  Out->OwnedOS = std::make_unique<raw_fd_ostream>(moveAboveStdio(FD),
                                                  /*shouldClose=*/true);
  Out->OS = Out->OwnedOS.get();
  return Out;
}

ToolOutput::~ToolOutput() {
  if (!Done)
    discard();
}

Error ToolOutput::makeWriteError(std::error_code EC) const {
  if (Path == "-")
    return makeError("cannot write to standard output: " + EC.message());
  return makeError("cannot write '" + Path + "': " + EC.message());
}

void ToolOutput::discard() {
  Done = true;
  if (!OS)
    return; // Never opened.
  if (!OwnedOS) {
    // Standard output: what was written is out; only forget the error so
    // that the stream's destructor does not abort.
    OS->flush();
    OS->clear_error();
    return;
  }
  if (!Closed)
    OwnedOS->close();
  OwnedOS->clear_error();
  if (!TempPath.empty()) {
    (void)sys::fs::remove(TempPath);
    sys::DontRemoveFileOnSignal(TempPath);
  }
}

Error ToolOutput::commit() {
  assert(!Done && "output committed twice");
  if (OwnedOS) {
    OwnedOS->close();
    Closed = true;
  } else
    OS->flush();
  if (OS->has_error()) {
    std::error_code EC = OS->error();
    discard();
    return makeWriteError(EC);
  }
  if (TempPath.empty()) {
    Done = true;
    return Error::success();
  }
  if (std::error_code EC = sys::fs::rename(TempPath, RenameTarget)) {
    discard();
    return makeWriteError(EC);
  }
  Done = true;
  sys::DontRemoveFileOnSignal(TempPath);
  return Error::success();
}

Error mmptx::printToolOutput(function_ref<void(raw_ostream &)> Print) {
  return writeToolOutput("-", [&](raw_ostream &OS) {
    Print(OS);
    return Error::success();
  });
}

Error mmptx::writeToolOutput(StringRef Path,
                             function_ref<Error(raw_ostream &)> Write) {
  auto Out = ToolOutput::open(Path);
  if (!Out)
    return Out.takeError();
  if (Error E = Write((*Out)->os()))
    return E; // ~ToolOutput discards.
  return (*Out)->commit();
}

void mmptx::ignoreStderrWriteErrorsAtExit() {
  // errs() and outs() are made first, so they are destroyed after the
  // handler has run.
  errs();
  outs();
  std::atexit([] {
    raw_fd_ostream &Out = outs();
    Out.flush();
    if (Out.has_error()) {
      std::error_code EC = Out.error();
      Out.clear_error();
      errs() << program_invocation_short_name
             << ": error: cannot write to standard output: " << EC.message()
             << '\n';
      errs().flush();
      errs().clear_error();
      // The status must say it: exit() cannot be called again from here.
      ::_exit(1);
    }
    errs().clear_error();
  });
}
