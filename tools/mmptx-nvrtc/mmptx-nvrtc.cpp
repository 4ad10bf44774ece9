//===- mmptx-nvrtc.cpp - Compile CUDA to PTX with NVRTC in-process --------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `mmptx-nvrtc in.cu -o out.ptx [-arch=sm_80] [-I dir] [-D name]
/// [-Xnvrtc opt] [--cache-dir=dir] [--no-prune]`: runs NVRTC in this process
/// (see mmptx/Frontend/Nvrtc.h), the way an application that generates
/// kernel variants at run time does. The PTX is a template: its unreferenced
/// module-scope variables and functions are pruned (see
/// mmptx/Transforms/PruneUnusedGlobals.h) unless --no-prune.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Cache/ContentCache.h"
#include "mmptx/Frontend/Nvrtc.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/ToolInit.h"
#include "mmptx/Support/ToolOutput.h"
#include "mmptx/Transforms/PruneUnusedGlobals.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;

static cl::OptionCategory NvrtcCategory("mmptx-nvrtc Options");

static cl::opt<std::string>
    InputFilename(cl::Positional, cl::Required,
                  cl::desc("<input .cu file, '-' for stdin>"),
                  cl::cat(NvrtcCategory));
static cl::opt<std::string> OutputFilename("o",
                                           cl::desc("Output PTX file "
                                                    "(default: stdout)"),
                                           cl::value_desc("filename"),
                                           cl::init("-"),
                                           cl::cat(NvrtcCategory));
static cl::opt<std::string> Arch("arch",
                                 cl::desc("GPU architecture: sm_N, or "
                                          "compute_N (default: sm_80)"),
                                 cl::value_desc("arch"), cl::init("sm_80"),
                                 cl::cat(NvrtcCategory));
static cl::list<std::string> IncludeDirs("I", cl::desc("Include directory"),
                                         cl::value_desc("dir"), cl::Prefix,
                                         cl::cat(NvrtcCategory));
static cl::list<std::string> Defines("D", cl::desc("Define a macro"),
                                     cl::value_desc("name[=value]"), cl::Prefix,
                                     cl::cat(NvrtcCategory));
static cl::list<std::string>
    ExtraOptions("Xnvrtc",
                 cl::desc("Pass an option to NVRTC as it is (-G, -lineinfo, "
                          "-std=c++17, ...)"),
                 cl::value_desc("option"), cl::cat(NvrtcCategory));
static cl::opt<std::string>
    CacheDir("cache-dir",
             cl::desc("Cache the PTX in this directory (keyed by the source, "
                      "its includes, the options and the NVRTC version)"),
             cl::value_desc("dir"), cl::cat(NvrtcCategory));
static cl::opt<bool>
    NoCudaInclude("no-cuda-include",
                  cl::desc("Do not search the CUDA toolkit's include "
                           "directory (and its cccl/) after the -I ones"),
                  cl::cat(NvrtcCategory));

static cl::opt<bool> NoPrune(
    "no-prune",
    cl::desc("Keep the module-scope variables and functions that nothing "
             "refers to (by default they are removed; .visible and .extern "
             "ones always stay). Needed to read a static with "
             "cuModuleGetGlobal"),
    cl::cat(NvrtcCategory));

static cl::opt<bool> Verbose("v",
                             cl::desc("Say whether the PTX came from the "
                                      "cache and what was pruned"),
                             cl::cat(NvrtcCategory));

static const char *const ToolName = "mmptx-nvrtc";

static int fail(Error E) {
  reportError(std::move(E), ToolName);
  return 1;
}

int main(int argc, char **argv) {
  ToolInit Init(argc, argv, "mmptx-nvrtc: compile CUDA to PTX with NVRTC\n",
                &NvrtcCategory);

  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(InputFilename);
  if (!Buf)
    return fail(makeError("cannot read '" + InputFilename +
                          "': " + Buf.getError().message()));

  // Unlike mmptx-opt's or mmptx-annotate's, this output is another
  // language: writing it over the input loses the source.
  bool Same = false;
  if (InputFilename != "-" && OutputFilename != "-" &&
      !sys::fs::equivalent(InputFilename, OutputFilename, Same) && Same)
    return fail(makeError("-o '" + OutputFilename +
                          "' is the input: the CUDA source would be "
                          "replaced by its PTX"));

  CudaCompileOptions Opts;
  Opts.Arch = Arch;
  Opts.IncludeDirs = IncludeDirs;
  Opts.Defines = Defines;
  Opts.ExtraOptions = ExtraOptions;
  Opts.UseToolkitIncludes = !NoCudaInclude;

  std::unique_ptr<ContentCache> Cache;
  if (!CacheDir.empty()) {
    // As in mmptx-compile: a cache that cannot be created, like one that
    // cannot be written, is a warning.
    Expected<std::unique_ptr<ContentCache>> C = ContentCache::open(CacheDir);
    if (C)
      Cache = std::move(*C);
    else
      WithColor::warning(errs(), ToolName)
          << toString(C.takeError()) << "; compiling without a cache\n";
  }
  Expected<CudaCompileResult> R =
      compileCudaToPtx((*Buf)->getBuffer(), InputFilename, Opts, Cache.get());
  if (!R)
    return fail(R.takeError());
  errs() << R->Log;
  if (!R->CacheNote.empty())
    WithColor::note(errs(), ToolName) << R->CacheNote << '\n';
  if (Verbose)
    errs() << ToolName << ": " << InputFilename << ": "
           << (R->FromCache ? "PTX from the cache" : "compiled") << " ("
           << getNvrtcIdentity() << ")\n";
  if (Verbose && Cache && R->CacheNote.empty())
    errs() << ToolName << ": " << InputFilename << ": cache key of "
           << R->NumKeyFiles << " included files, " << R->NumKeyFilesRead
           << " read, " << R->NumKeyFiles - R->NumKeyFilesRead
           << " known unchanged\n";
  if (!NoPrune) {
    PruneStats Stats;
    Expected<std::string> Pruned =
        prunePTX(R->Ptx, PruneOptions(), &Stats, InputFilename);
    if (!Pruned)
      return fail(Pruned.takeError());
    if (Verbose)
      errs() << ToolName << ": " << InputFilename << ": pruned "
             << Stats.Variables << " variables and " << Stats.Functions
             << " functions (" << R->Ptx.size() << " -> " << Pruned->size()
             << " bytes)\n";
    R->Ptx = std::move(*Pruned);
  }
  if (Cache) {
    std::string Msg = Cache->getStoreFailureMessage();
    if (!Msg.empty())
      WithColor::warning(errs(), ToolName) << Msg << '\n';
  }
  if (Error E = writeToolOutput(OutputFilename, [&](raw_ostream &OS) {
        OS << R->Ptx;
        return Error::success();
      }))
    return fail(std::move(E));
  return 0;
}
