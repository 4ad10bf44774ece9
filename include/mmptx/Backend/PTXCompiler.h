//===- PTXCompiler.h - PTX to cubin through one interface -------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The last step of the pipeline, PTX -> cubin, behind one interface with
/// three implementations:
///   - nvPTXCompiler: the static library (from the `nvidia-nvptxcompiler`
///     wheel), in process;
///   - nvJitLink: the toolkit's shared library, in process;
///   - ptxas: the program, one process per module.
/// They do not give the same code (nvJitLink allocates registers
/// differently), so the backend's name and exact version are part of every
/// result and every cache key.
///
/// compile() is thread-safe: none of the three serialises threads, and the
/// batch driver (Batch.h) runs many compiles on one PTXCompiler at once.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_BACKEND_PTXCOMPILER_H
#define MMPTX_BACKEND_PTXCOMPILER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mmptx {

enum class BackendKind { NvPTXCompiler, NvJitLink, Ptxas };

/// `nvptxcompiler`, `nvjitlink` or `ptxas`: the names the tools accept.
llvm::StringRef getBackendName(BackendKind Kind);
llvm::Optional<BackendKind> parseBackendName(llvm::StringRef Name);
/// Every backend, in order of preference (in process and cheapest first).
llvm::ArrayRef<BackendKind> getAllBackends();

/// `-Ofast-compile=<level>`: how much code quality the backend gives up for
/// compile time. Every backend of CUDA 12.8 or newer has it.
enum class FastCompileLevel { None, Min, Mid, Max };

/// `min`, `mid`, `max` (`0` for None).
llvm::StringRef getFastCompileName(FastCompileLevel Level);
/// `0`, `min`, `mid` or `max`; None for anything else.
llvm::Optional<FastCompileLevel> parseFastCompileName(llvm::StringRef Name);

/// Options common to the three backends; each translates them to its own
/// spelling. ExtraOptions are passed as they are (the backend's syntax).
struct CompileOptions {
  std::string Arch = "sm_80";
  /// Ignored (not passed) when FastCompile is set: each fast-compile level
  /// implies its own optimisation level.
  unsigned OptLevel = 3;
  /// Passed as `--Ofast-compile=<level>` to every backend.
  FastCompileLevel FastCompile = FastCompileLevel::None;
  bool LineInfo = false;
  /// Register limit per thread; 0 leaves it to the compiler.
  unsigned MaxRegCount = 0;
  /// Ask for the resource usage (`-v`) in the info log.
  bool Verbose = false;
  std::vector<std::string> ExtraOptions;
  /// For ptxas: seconds after which the process is killed and the compile
  /// fails as timed out (0: no limit). Not part of the cache key; the
  /// in-process backends cannot be stopped (compileBatch handles them).
  unsigned TimeoutSeconds = 0;

  /// Checks the architecture (`sm_<N>`, `sm_<N>a` or `sm_<N>f` with a known
  /// N), the -O level, and that no ExtraOptions conflicts with these
  /// options or with how mmptx runs the backend.
  llvm::Error validate() const;
  /// Why the backend option \p X may not be passed (which of mmptx's own
  /// options to use instead), or null: `-arch`/`--gpu-name`, `-O<n>`,
  /// `-maxrregcount`, `-o`/`--output-file`, `--version`/`--help`/`-h`,
  /// `--options-file`/`--input-as-string`, in any of their spellings.
  static const char *getConflictingOption(llvm::StringRef X);
  /// A canonical text of every option, for cache keys.
  std::string getKeyText() const;

  /// How one backend spells the common options.
  struct Spelling {
    const char *Arch, *LineInfo, *MaxRegCount, *Verbose;
  };
  /// The backend's arguments: `<Arch><arch> -O<n>` (or
  /// `--Ofast-compile=<level>`), then the flags that are set, then
  /// ExtraOptions.
  std::vector<std::string> getArgs(const Spelling &S) const;
};

/// Pointers to \p Args' strings, for C interfaces (valid while Args lives).
std::vector<const char *> getArgv(const std::vector<std::string> &Args);

/// One range of rendered PTX lines that came from a spliced stub. The render
/// step knows these; given them, a compiler message about PTX line L in
/// [FirstLine, FirstLine + NumLines) is reported at line
/// StubFirstLine + (L - FirstLine) of Stub, in the site named Site.
struct StubLineRange {
  unsigned FirstLine = 0; ///< 1-based line of the rendered PTX.
  unsigned NumLines = 0;
  std::string Site; ///< Inject site, e.g. `gemm` or `gemm#3`.
  std::string Stub; ///< Where the stub came from (a file name).
  unsigned StubFirstLine = 1;
};
using StubLineMap = std::vector<StubLineRange>;

/// One splice of a render: bytes [Begin, End) of the original PTX replaced
/// by Stub (what an InjectSite's removeBegin/removeEnd and its inject's stub
/// give).
struct Splice {
  size_t Begin = 0, End = 0;
  llvm::StringRef Stub;
  std::string Site;     ///< For messages, e.g. `mma#17`.
  std::string StubName; ///< Where the stub came from, e.g. `l1.stack`.
  /// The stub's first line in StubName (1 for a stub file of its own).
  unsigned StubFirstLine = 1;
};

/// The line map of the PTX that splicing \p Splices (sorted by Begin, not
/// overlapping) into \p Original gives.
StubLineMap computeStubLineMap(llvm::StringRef Original,
                               llvm::ArrayRef<Splice> Splices);

/// The cubin of one module and what produced it.
struct CompileResult {
  std::string Cubin;
  std::string InfoLog;
  /// `<backend> <version>`, e.g. `ptxas 13.0.88`.
  std::string Backend;
};

class PTXCompiler {
public:
  virtual ~PTXCompiler();

  BackendKind getKind() const { return Kind; }
  llvm::StringRef getName() const { return getBackendName(Kind); }
  /// The exact version, e.g. `13.0.88`.
  llvm::StringRef getVersion() const { return Version; }
  /// `<name> <version>`: what results and cache keys record.
  std::string getIdentity() const;
  /// Whether the backend has `-Ofast-compile` (CUDA 12.8 and newer).
  bool supportsFastCompile() const;

  /// Compiles \p Ptx (named \p Name in messages) to a cubin. A failure is
  /// an error whose message holds the compiler's log, each `line N` message
  /// rewritten as `Name:N: ...` and, where \p Map places line N in a stub,
  /// followed by a note at the stub's line.
  llvm::Expected<CompileResult> compile(llvm::StringRef Ptx,
                                        const CompileOptions &Opts,
                                        llvm::StringRef Name = "<ptx>",
                                        const StubLineMap *Map = nullptr);

protected:
  PTXCompiler(BackendKind Kind, std::string Version)
      : Kind(Kind), Version(std::move(Version)) {}

  /// What the backend produced: on failure, Failed is set and Log holds the
  /// compiler's messages.
  struct RawResult {
    bool Failed = false;
    std::string Cubin;
    std::string Log;
    std::string Status; ///< Why it failed, beyond the log (a result code).
    /// Where the backend read the PTX from (a temporary file), if anywhere:
    /// the log names the module instead.
    std::string InputPath;
  };
  virtual llvm::Expected<RawResult> compileImpl(llvm::StringRef Ptx,
                                                const CompileOptions &Opts) = 0;

private:
  BackendKind Kind;
  std::string Version;
};

/// Creates the backend \p Kind, or an error saying why it is not available
/// in this build or on this machine.
llvm::Expected<std::unique_ptr<PTXCompiler>>
createPTXCompiler(BackendKind Kind);

/// The first backend of getAllBackends() that can be created.
llvm::Expected<std::unique_ptr<PTXCompiler>> createDefaultPTXCompiler();

/// The backend a user names (`nvptxcompiler`, `nvjitlink`, `ptxas`), or the
/// default one when \p Name is empty; an unknown name is an error listing
/// the known ones.
llvm::Expected<std::unique_ptr<PTXCompiler>>
createPTXCompiler(llvm::StringRef Name);

/// Rewrites a compiler log for a module named \p Name: `... line N; error :
/// msg` becomes `Name:N: error: msg`, plus a note where \p Map places line N
/// in a stub. Other lines pass unchanged.
std::string mapCompilerLog(llvm::StringRef Log, llvm::StringRef Name,
                           const StubLineMap *Map);

/// A PTX ISA version, e.g. {9, 0} for `.version 9.0`.
struct PtxIsaVersion {
  unsigned Major = 0, Minor = 0;
};

/// The highest PTX ISA version the compilers of CUDA \p CudaVersion (`13.0`,
/// `12.8.93`) accept, or None for a release this build does not know.
llvm::Optional<PtxIsaVersion> getMaxPtxIsaVersion(llvm::StringRef CudaVersion);

/// Checks \p Ptx's `.version` against what \p Compiler accepts (by its CUDA
/// release): a newer one is an error at the directive that names both
/// versions, the CUDA release that makes such PTX and what to install. PTX
/// without a readable `.version`, or a backend of an unknown release,
/// passes (the backend then speaks for itself).
llvm::Error checkPtxIsaVersion(const PTXCompiler &Compiler, llvm::StringRef Ptx,
                               llvm::StringRef Name);

// The individual backends (created through createPTXCompiler).
llvm::Expected<std::unique_ptr<PTXCompiler>> createNvPTXCompilerBackend();
llvm::Expected<std::unique_ptr<PTXCompiler>> createNvJitLinkBackend();
/// \p Path: the ptxas program; empty searches PATH, then the toolkit's bin.
llvm::Expected<std::unique_ptr<PTXCompiler>>
createPtxasBackend(llvm::StringRef Path = "");

} // namespace mmptx

#endif // MMPTX_BACKEND_PTXCOMPILER_H
