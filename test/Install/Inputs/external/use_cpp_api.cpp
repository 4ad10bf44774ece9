// The C++ API of the installed package: PTX Inject, Stack PTX and the
// runtime's driver loader.
#include "mmptx/Inject/InjectModule.h"
#include "mmptx/Runtime/CudaDriver.h"
#include "mmptx/Stack/DefaultStackSet.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackText.h"

#include "llvm/Support/raw_ostream.h"

#include "module_ptx.h"

int main() {
  using namespace mmptx;
  auto M = InjectModule::create(ModulePtx, "k.ptx");
  if (!M) {
    llvm::errs() << llvm::toString(M.takeError()) << "\n";
    return 1;
  }
  const stack::StackInfo &Info = stack::getDefaultStackInfo();
  auto Prog = stack::parseStackProgram(
      ".registers { _x0 : F32 mod; _x1 : F32 in; }\n"
      ".program { _x1 _x0 mul.f32 }\n.requests { _x0 }\n",
      Info);
  if (!Prog) {
    llvm::errs() << llvm::toString(Prog.takeError()) << "\n";
    return 1;
  }
  stack::StackPtxContext Ctx(Info);
  std::vector<stack::Register> Regs = Prog->getRegisters();
  llvm::Expected<llvm::StringRef> Stub =
      Ctx.compile(Prog->getProgram(), Regs, Prog->Requests);
  if (!Stub) {
    llvm::errs() << llvm::toString(Stub.takeError()) << "\n";
    return 1;
  }
  std::string Out;
  if (llvm::Error E = (*M)->render({*Stub}, Out)) {
    llvm::errs() << llvm::toString(std::move(E)) << "\n";
    return 1;
  }
  llvm::outs() << "c++ api:\n" << Out;
  auto D = runtime::CudaDriver::load("/nonexistent/libcuda.so.1");
  llvm::Error E = D ? llvm::Error::success() : D.takeError();
  llvm::outs() << "runtime: "
               << (runtime::getCudaErrorKind(E) ==
                           runtime::CudaErrorKind::NoDriver
                       ? "no driver"
                       : "?")
               << "\n";
  llvm::consumeError(std::move(E));
  return 0;
}
