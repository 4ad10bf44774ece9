//===- ToolVersion.cpp - What `--version` prints --------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Support/ToolVersion.h"
#include "mmptx/Support/SharedLibrary.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Host.h"

#include <mutex>
#include <vector>

using namespace llvm;
using namespace mmptx;

#ifndef MMPTX_VERSION
#define MMPTX_VERSION "unknown"
#endif

const char *mmptx::getMmptxVersion() { return MMPTX_VERSION; }

namespace {
struct ExtraLines {
  std::mutex Mutex;
  std::vector<std::function<std::string()>> Lines;
};
} // namespace

static ExtraLines &getExtraLines() {
  static ExtraLines L;
  return L;
}

void mmptx::addToolVersionLine(std::function<std::string()> Line) {
  ExtraLines &L = getExtraLines();
  std::lock_guard<std::mutex> Lock(L.Mutex);
  L.Lines.push_back(std::move(Line));
}

void mmptx::printToolVersion(raw_ostream &OS) {
  OS << "mmptx version " << getMmptxVersion() << "\n";
  OS << "  LLVM " << LLVM_VERSION_STRING << ", host " << sys::getProcessTriple()
     << "\n";
  for (CudaLibrary Lib :
       {CudaLibrary::Nvrtc, CudaLibrary::NvJitLink, CudaLibrary::Driver}) {
    CudaLibraryStatus S = getCudaLibraryStatus(Lib);
    OS << "  " << getCudaLibraryTitle(Lib) << ": ";
    if (S.Found)
      OS << S.Version << " (" << S.File << ")\n";
    else
      OS << "not found (set $" << getCudaLibraryEnvVar(Lib)
         << " or see the error of a call that needs it)\n";
  }
  std::vector<std::function<std::string()>> Lines;
  {
    ExtraLines &L = getExtraLines();
    std::lock_guard<std::mutex> Lock(L.Mutex);
    Lines = L.Lines;
  }
  for (const auto &Line : Lines)
    OS << "  " << Line() << "\n";
}

void mmptx::installToolVersionPrinter() {
  cl::SetVersionPrinter([](raw_ostream &OS) { printToolVersion(OS); });
}
