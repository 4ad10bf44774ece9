//===- Emitters.h - mmptx-tblgen backends -----------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_TBLGEN_EMITTERS_H
#define MMPTX_TBLGEN_EMITTERS_H

namespace llvm {
class raw_ostream;
class RecordKeeper;
} // namespace llvm

namespace mmptx {

/// -gen-inject-types: the inject-type X-macro table.
void emitInjectTypes(llvm::RecordKeeper &Records, llvm::raw_ostream &OS);

} // namespace mmptx

#endif // MMPTX_TBLGEN_EMITTERS_H
