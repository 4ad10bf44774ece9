//===- mmptx-nvrtc.cpp - Compile CUDA to PTX with NVRTC in-process --------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `mmptx-nvrtc in.cu -o out.ptx [-arch=sm_80] [-I dir] [-D name]`: runs
/// NVRTC in this process, the way an application that generates kernel
/// variants at run time does, so tests can check that ptx_inject.h and
/// annotated sources compile under NVRTC (`__CUDACC_RTC__`, no host
/// headers) and not only under nvcc.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/ToolOutput.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nvrtc.h>

using namespace llvm;
using namespace mmptx;

static cl::OptionCategory nvrtcCategory("mmptx-nvrtc Options");

static cl::opt<std::string> inputFilename(cl::Positional, cl::Required,
                                          cl::desc("<input .cu file>"),
                                          cl::cat(nvrtcCategory));
static cl::opt<std::string> outputFilename("o", cl::desc("Output PTX file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"),
                                           cl::cat(nvrtcCategory));
static cl::opt<std::string> arch("arch", cl::desc("GPU architecture"),
                                 cl::init("sm_80"), cl::cat(nvrtcCategory));
static cl::list<std::string> includeDirs("I", cl::desc("Include directory"),
                                         cl::value_desc("dir"), cl::Prefix,
                                         cl::cat(nvrtcCategory));
static cl::list<std::string> defines("D", cl::desc("Define a macro"),
                                     cl::value_desc("name[=value]"),
                                     cl::Prefix, cl::cat(nvrtcCategory));

static cl::opt<bool>
    noCudaInclude("no-cuda-include",
                  cl::desc("Do not search the CUDA toolkit's include "
                           "directory (and its cccl/) after the -I ones"),
                  cl::cat(nvrtcCategory));

static const char *const toolName = "mmptx-nvrtc";

static int fail(const Twine &msg) {
  reportError(makeError(msg), toolName);
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM x(argc, argv);
  cl::HideUnrelatedOptions(nvrtcCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "mmptx-nvrtc: compile CUDA to PTX with NVRTC\n");

  ErrorOr<std::unique_ptr<MemoryBuffer>> buf =
      MemoryBuffer::getFileOrSTDIN(inputFilename);
  if (!buf)
    return fail("cannot read '" + inputFilename +
                "': " + buf.getError().message());
  std::string source = (*buf)->getBuffer().str();

  nvrtcProgram prog;
  if (nvrtcResult r = nvrtcCreateProgram(&prog, source.c_str(),
                                         inputFilename.c_str(), 0, nullptr,
                                         nullptr))
    return fail(Twine("nvrtcCreateProgram: ") + nvrtcGetErrorString(r));

  std::vector<std::string> opts;
  opts.push_back("-arch=" + arch);
  for (const std::string &dir : includeDirs)
    opts.push_back("-I" + dir);
#ifdef MMPTX_CUDA_INCLUDE_DIR
  if (!noCudaInclude) {
    opts.push_back(std::string("-I") + MMPTX_CUDA_INCLUDE_DIR);
    SmallString<128> cccl(MMPTX_CUDA_INCLUDE_DIR);
    sys::path::append(cccl, "cccl");
    if (sys::fs::is_directory(cccl))
      opts.push_back(("-I" + cccl).str());
  }
#endif
  for (const std::string &def : defines)
    opts.push_back("-D" + def);
  std::vector<const char *> optPtrs;
  for (const std::string &opt : opts)
    optPtrs.push_back(opt.c_str());

  nvrtcResult compiled =
      nvrtcCompileProgram(prog, int(optPtrs.size()), optPtrs.data());
  size_t logSize = 0;
  nvrtcGetProgramLogSize(prog, &logSize);
  if (logSize > 1) {
    std::string log(logSize, '\0');
    nvrtcGetProgramLog(prog, &log[0]);
    errs() << StringRef(log.c_str());
  }
  if (compiled != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&prog);
    return fail(Twine("compiling '") + inputFilename +
                "' failed: " + nvrtcGetErrorString(compiled));
  }
  size_t ptxSize = 0;
  nvrtcGetPTXSize(prog, &ptxSize);
  std::string ptx(ptxSize, '\0');
  nvrtcGetPTX(prog, &ptx[0]);
  nvrtcDestroyProgram(&prog);

  if (Error err = writeToolOutput(outputFilename, [&](raw_ostream &out) {
        out << StringRef(ptx.c_str());
        return Error::success();
      })) {
    reportError(std::move(err), toolName);
    return 1;
  }
  return 0;
}
