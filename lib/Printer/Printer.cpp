//===- Printer.cpp - PTX IR to text ---------------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx/Printer/Printer.h"
#include "mmptx/IR/Module.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;

void mmptx::printModule(const ptx::Module &M, raw_ostream &OS) {
  StringRef Buffer = M.getBuffer();
  uint32_t Pos = 0;
  for (const ptx::Edit &E : M.edits()) {
    OS << Buffer.substr(Pos, E.Begin - Pos) << E.Text;
    Pos = E.End;
  }
  OS << Buffer.substr(Pos);
}

size_t mmptx::getPrintedSize(const ptx::Module &M) {
  size_t Size = M.getBuffer().size();
  for (const ptx::Edit &E : M.edits())
    Size = Size - (E.End - E.Begin) + E.Text.size();
  return Size;
}

std::string mmptx::printModuleToString(const ptx::Module &M) {
  std::string Out;
  Out.reserve(getPrintedSize(M));
  StringRef Buffer = M.getBuffer();
  uint32_t Pos = 0;
  for (const ptx::Edit &E : M.edits()) {
    Out.append(Buffer.data() + Pos, E.Begin - Pos);
    Out += E.Text;
    Pos = E.End;
  }
  Out.append(Buffer.data() + Pos, Buffer.size() - Pos);
  return Out;
}
