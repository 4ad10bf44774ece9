//===- Emitters.h - mmptx-tblgen backends -----------------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_TBLGEN_EMITTERS_H
#define MMPTX_TBLGEN_EMITTERS_H

#include <vector>

namespace llvm {
class raw_ostream;
class Record;
class RecordKeeper;
} // namespace llvm

namespace mmptx {

/// -gen-inject-types: the inject-type X-macro table.
void emitInjectTypes(llvm::RecordKeeper &Records, llvm::raw_ostream &OS);

/// -gen-stack-tables: Stack PTX enums, encoders and tables (C++ view).
void emitStackTables(llvm::RecordKeeper &Records, llvm::raw_ostream &OS);

/// -gen-stack-c-header: the same tables in their C99 view; one emitter
/// (StackTablesEmitter.cpp) writes both.
void emitStackCHeader(llvm::RecordKeeper &Records, llvm::raw_ostream &OS);

/// -gen-inject-device-types: the type macros of the CUDA device header
/// (mmptx/cuda/ptx_inject.h).
void emitInjectDeviceTypes(llvm::RecordKeeper &Records, llvm::raw_ostream &OS);

/// -gen-python-enums: the instruction set's and the word formats' Python
/// IntEnums (the mmptx package's mmptx._enums).
void emitPythonEnums(llvm::RecordKeeper &Records, llvm::raw_ostream &OS);

/// -gen-inject-device-format: the site-format macros of the CUDA device
/// header, written by the scaffold writers of mmptx/Inject/InjectFormat.h.
void emitInjectDeviceFormat(llvm::RecordKeeper &Records, llvm::raw_ostream &OS);

/// \returns the InjectType records in definition order, each validated
/// (identifier token, known register type and mov suffix, constraint letter
/// matching the register width, unique token); bad records are fatal errors.
std::vector<llvm::Record *> collectInjectTypes(llvm::RecordKeeper &Records);

} // namespace mmptx

#endif // MMPTX_TBLGEN_EMITTERS_H
