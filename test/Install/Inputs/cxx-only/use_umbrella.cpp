// Uses the backend and the NVRTC frontend through mmptx::mmptx: it starts
// without any CUDA library and says which it finds at run time.
#include "mmptx/Backend/PTXCompiler.h"
#include "mmptx/Frontend/Nvrtc.h"
#include "mmptx/Support/ToolVersion.h"

#include "llvm/Support/raw_ostream.h"

int main() {
  llvm::outs() << "umbrella: mmptx " << mmptx::getMmptxVersion() << "\n";
  llvm::outs() << "nvrtc available: "
               << (mmptx::isNvrtcAvailable() ? "yes" : "no") << "\n";
  llvm::Expected<std::unique_ptr<mmptx::PTXCompiler>> C =
      mmptx::createPTXCompiler(mmptx::BackendKind::NvJitLink);
  if (C)
    llvm::outs() << "nvjitlink: " << (*C)->getIdentity() << "\n";
  else
    llvm::outs() << "nvjitlink: " << llvm::toString(C.takeError()) << "\n";
  return 0;
}
