//===- PtxasCompiler.cpp - The ptxas program backend ----------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// PTX -> cubin by running ptxas (from PATH, $CUDA_HOME/bin or
/// /usr/local/cuda/bin) on temporary files: a process per module, which
/// costs the process start but needs no library.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/PTXCompiler.h"
#include "mmptx/Support/Diagnostic.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <thread>

#ifdef LLVM_ON_UNIX
#include <csignal>
#include <sys/types.h>
#endif

using namespace llvm;
using namespace mmptx;

namespace {
/// Temporary files removed on every path out.
struct TempFiles {
  SmallVector<SmallString<128>, 4> Paths;
  ~TempFiles() {
    for (const SmallString<128> &P : Paths)
      sys::fs::remove(P);
  }
  Expected<StringRef> create(StringRef Suffix) {
    SmallString<128> P;
    if (std::error_code EC = sys::fs::createTemporaryFile("mmptx", Suffix, P))
      return makeError("cannot create a temporary file: " + EC.message());
    Paths.push_back(P);
    return StringRef(Paths.back());
  }
};

std::string readOrEmpty(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  return B ? (*B)->getBuffer().str() : std::string();
}

/// What runProgram() returns for a child it stopped.
constexpr int TimedOutCode = -3;

/// sys::ExecuteAndWait with a time limit that holds in a process of many
/// threads: LLVM's own limit waits for SIGALRM, which another thread may
/// receive. A child that outlives \p Seconds (0: no limit) is killed and
/// TimedOutCode returned.
int runProgram(StringRef Program, ArrayRef<StringRef> Argv,
               ArrayRef<Optional<StringRef>> Redirects, unsigned Seconds,
               std::string &ErrMsg) {
  if (!Seconds)
    return sys::ExecuteAndWait(Program, Argv, None, Redirects,
                               /*SecondsToWait=*/0, /*MemoryLimit=*/0, &ErrMsg);
  bool Failed = false;
  sys::ProcessInfo PI = sys::ExecuteNoWait(Program, Argv, None, Redirects,
                                           /*MemoryLimit=*/0, &ErrMsg, &Failed);
  if (Failed)
    return -1;
  auto Deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(Seconds);
  for (;;) {
    // A non-blocking wait: Pid 0 while the child runs.
    sys::ProcessInfo R = sys::Wait(PI, /*SecondsToWait=*/0,
                                   /*WaitUntilTerminates=*/false, &ErrMsg);
    if (R.Pid != 0)
      return R.Pid == PI.Pid ? R.ReturnCode : -1;
    if (std::chrono::steady_clock::now() >= Deadline)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
#ifdef LLVM_ON_UNIX
  ::kill(PI.Pid, SIGKILL);
#endif
  sys::Wait(PI, 0, /*WaitUntilTerminates=*/true, &ErrMsg);
  return TimedOutCode;
}

class PtxasBackend : public PTXCompiler {
public:
  PtxasBackend(std::string Program, std::string Version)
      : PTXCompiler(BackendKind::Ptxas, std::move(Version)),
        Program(std::move(Program)) {}

  Expected<RawResult> compileImpl(StringRef Ptx,
                                  const CompileOptions &Opts) override {
    TempFiles Tmp;
    Expected<StringRef> In = Tmp.create("ptx");
    Expected<StringRef> Cubin = In ? Tmp.create("cubin") : In.takeError();
    Expected<StringRef> Log = Cubin ? Tmp.create("log") : Cubin.takeError();
    if (!Log)
      return Log.takeError();
    {
      std::error_code EC;
      raw_fd_ostream OS(*In, EC);
      if (!EC) {
        OS << Ptx;
        OS.close();
        EC = OS.error();
        OS.clear_error();
      }
      if (EC)
        return makeError("cannot write '" + *In + "': " + EC.message());
    }
    std::vector<std::string> Args =
        Opts.getArgs({"-arch=", "-lineinfo", "-maxrregcount=", "-v"});
    Args.insert(Args.begin(), Program);
    Args.insert(Args.end(), {"-o", Cubin->str(), In->str()});
    SmallVector<StringRef, 16> Argv(Args.begin(), Args.end());

    // ptxas writes messages to both streams; one file keeps their order.
    Optional<StringRef> Redirects[] = {StringRef(""), *Log, *Log};
    std::string ErrMsg;
    int RC = runProgram(Program, Argv, Redirects, Opts.TimeoutSeconds, ErrMsg);
    RawResult Out;
    Out.Log = readOrEmpty(*Log);
    Out.InputPath = In->str();
    if (RC != 0) {
      Out.Failed = true;
      if (RC == TimedOutCode)
        Out.Status = "timed out after " + std::to_string(Opts.TimeoutSeconds) +
                     " s; ptxas was stopped";
      else
        Out.Status = RC < 0 ? "could not run '" + Program + "': " + ErrMsg
                            : "exit code " + std::to_string(RC);
      return Out;
    }
    Out.Cubin = readOrEmpty(*Cubin);
    return Out;
  }

private:
  std::string Program;
};
} // namespace

static std::string findPtxas() {
  if (ErrorOr<std::string> P = sys::findProgramByName("ptxas"))
    return *P;
  SmallVector<std::string, 2> Dirs;
  if (Optional<std::string> Home = sys::Process::GetEnv("CUDA_HOME"))
    Dirs.push_back(*Home + "/bin");
  Dirs.push_back("/usr/local/cuda/bin");
  for (const std::string &D : Dirs) {
    SmallString<128> P(D);
    sys::path::append(P, "ptxas");
    if (sys::fs::can_execute(P))
      return std::string(P);
  }
  return "";
}

Expected<std::unique_ptr<PTXCompiler>>
mmptx::createPtxasBackend(StringRef Path) {
  std::string Program = Path.empty() ? findPtxas() : Path.str();
  if (Program.empty())
    return makeError("the ptxas backend is not available: no ptxas on PATH, "
                     "in $CUDA_HOME/bin or in /usr/local/cuda/bin");
  // `ptxas --version` ends with `... release 13.0, V13.0.88` and a build
  // line; the V-number is the exact version.
  SmallString<128> Log;
  if (std::error_code EC = sys::fs::createTemporaryFile("mmptx", "txt", Log))
    return makeError("cannot create a temporary file: " + EC.message());
  FileRemover Remover(Log);
  Optional<StringRef> Redirects[] = {StringRef(""), StringRef(Log),
                                     StringRef(Log)};
  StringRef Argv[] = {Program, "--version"};
  std::string ErrMsg;
  int RC = sys::ExecuteAndWait(Program, Argv, None, Redirects, 0, 0, &ErrMsg);
  std::string Text = readOrEmpty(Log);
  size_t V = StringRef(Text).find(", V");
  if (RC != 0 || V == StringRef::npos)
    return makeError("the ptxas backend is not available: '" + Program +
                     " --version' failed" +
                     (ErrMsg.empty() ? "" : ": " + ErrMsg));
  StringRef Version = StringRef(Text).drop_front(V + 3);
  Version = Version.take_while([](char C) { return isDigit(C) || C == '.'; });
  return std::unique_ptr<PTXCompiler>(new PtxasBackend(Program, Version.str()));
}
