//===- mmptx-nvrtc.cpp - Compile CUDA to PTX with NVRTC in-process --------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `mmptx-nvrtc in.cu -o out.ptx [-arch=sm_80] [-I dir] [-D name]
/// [-Xnvrtc opt] [--cache-dir=dir]`: runs NVRTC in this process (see
/// mmptx/Frontend/Nvrtc.h), the way an application that generates kernel
/// variants at run time does.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Backend/ContentCache.h"
#include "mmptx/Frontend/Nvrtc.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/ToolOutput.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;

static cl::OptionCategory nvrtcCategory("mmptx-nvrtc Options");

static cl::opt<std::string>
    inputFilename(cl::Positional, cl::Required,
                  cl::desc("<input .cu file, '-' for stdin>"),
                  cl::cat(nvrtcCategory));
static cl::opt<std::string> outputFilename("o",
                                           cl::desc("Output PTX file "
                                                    "(default: stdout)"),
                                           cl::value_desc("filename"),
                                           cl::init("-"),
                                           cl::cat(nvrtcCategory));
static cl::opt<std::string> arch("arch",
                                 cl::desc("GPU architecture: sm_N, or "
                                          "compute_N (default: sm_80)"),
                                 cl::value_desc("arch"), cl::init("sm_80"),
                                 cl::cat(nvrtcCategory));
static cl::list<std::string> includeDirs("I", cl::desc("Include directory"),
                                         cl::value_desc("dir"), cl::Prefix,
                                         cl::cat(nvrtcCategory));
static cl::list<std::string> defines("D", cl::desc("Define a macro"),
                                     cl::value_desc("name[=value]"), cl::Prefix,
                                     cl::cat(nvrtcCategory));
static cl::list<std::string>
    extraOptions("Xnvrtc",
                 cl::desc("Pass an option to NVRTC as it is (-G, -lineinfo, "
                          "-std=c++17, ...)"),
                 cl::value_desc("option"), cl::cat(nvrtcCategory));
static cl::opt<std::string>
    cacheDir("cache-dir",
             cl::desc("Cache the PTX in this directory (keyed by the source, "
                      "its includes, the options and the NVRTC version)"),
             cl::value_desc("dir"), cl::cat(nvrtcCategory));
static cl::opt<bool>
    noCudaInclude("no-cuda-include",
                  cl::desc("Do not search the CUDA toolkit's include "
                           "directory (and its cccl/) after the -I ones"),
                  cl::cat(nvrtcCategory));

static cl::opt<bool> verbose("v",
                             cl::desc("Say whether the PTX came from the "
                                      "cache"),
                             cl::cat(nvrtcCategory));

static const char *const toolName = "mmptx-nvrtc";

static int fail(Error E) {
  reportError(std::move(E), toolName);
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM x(argc, argv);
  ignoreStderrWriteErrorsAtExit();
  cl::HideUnrelatedOptions(nvrtcCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "mmptx-nvrtc: compile CUDA to PTX with NVRTC\n");

  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(inputFilename);
  if (!Buf)
    return fail(makeError("cannot read '" + inputFilename +
                          "': " + Buf.getError().message()));

  // Unlike mmptx-opt's or mmptx-annotate's, this output is another
  // language: writing it over the input loses the source.
  bool Same = false;
  if (inputFilename != "-" && outputFilename != "-" &&
      !sys::fs::equivalent(inputFilename, outputFilename, Same) && Same)
    return fail(makeError("-o '" + outputFilename +
                          "' is the input: the CUDA source would be "
                          "replaced by its PTX"));

  CudaCompileOptions Opts;
  Opts.Arch = arch;
  Opts.IncludeDirs = includeDirs;
  Opts.Defines = defines;
  Opts.ExtraOptions = extraOptions;
  Opts.UseToolkitIncludes = !noCudaInclude;

  std::unique_ptr<ContentCache> Cache;
  if (!cacheDir.empty()) {
    Expected<std::unique_ptr<ContentCache>> C = ContentCache::open(cacheDir);
    if (!C)
      return fail(C.takeError());
    Cache = std::move(*C);
  }
  Expected<CudaCompileResult> R =
      compileCudaToPtx((*Buf)->getBuffer(), inputFilename, Opts, Cache.get());
  if (!R)
    return fail(R.takeError());
  errs() << R->Log;
  if (verbose)
    errs() << toolName << ": " << inputFilename << ": "
           << (R->FromCache ? "PTX from the cache" : "compiled") << " ("
           << getNvrtcIdentity() << ")\n";
  if (Cache) {
    std::string Msg = Cache->getStoreFailureMessage();
    if (!Msg.empty())
      WithColor::warning(errs(), toolName) << Msg << '\n';
  }
  if (Error E = writeToolOutput(outputFilename, [&](raw_ostream &OS) {
        OS << R->Ptx;
        return Error::success();
      }))
    return fail(std::move(E));
  return 0;
}
