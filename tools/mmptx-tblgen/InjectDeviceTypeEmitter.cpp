//===- InjectDeviceTypeEmitter.cpp - Device-header type macros ------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Emits, from the InjectType records, the C/CUDA header of type macros that
/// mmptx/cuda/ptx_inject.h reads. For a record with token T:
///
///   #define PTX_INJECT_TYPE_T 1                       (T is known)
///   #define PTX_INJECT_TYPE_T_REG "f32"               (stable .reg type)
///   #define PTX_INJECT_TYPE_T_MOV "f32"               (normalising mov)
///   #define PTX_INJECT_TYPE_T_CONSTRAINT "f"          (asm constraint)
///   #define PTX_INJECT_TYPE_T_BIND PTX_INJECT_BIND_VALUE
///
/// The header is plain C preprocessor text (no includes), so it works under
/// nvcc and NVRTC. Identical macro redefinitions are legal, so a user header
/// generated from a .td that also includes InjectTypes.td can be included
/// next to the default one. mmptx-annotate reads the same header with
/// --types to learn user types, so one .td drives both annotation forms.
///
//===----------------------------------------------------------------------===//

#include "Emitters.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace llvm;

namespace {

class InjectDeviceTypeEmitter {
public:
  explicit InjectDeviceTypeEmitter(RecordKeeper &Records) : Records(Records) {}
  void run(raw_ostream &OS);

private:
  void emitType(raw_ostream &OS, const Record *R);

  RecordKeeper &Records;
};

} // namespace

void InjectDeviceTypeEmitter::emitType(raw_ostream &OS, const Record *R) {
  StringRef Token = R->getValueAsString("Token");
  StringRef Bind = R->getValueAsDef("Bind")->getValueAsString("Name");
  std::string Prefix = ("PTX_INJECT_TYPE_" + Token).str();
  OS << "/* " << Token << ": .reg ." << R->getValueAsString("RegType")
     << ", constraint '" << R->getValueAsString("Constraint") << "', bound as "
     << Bind << " */\n";
  OS << "#define " << Prefix << " 1\n";
  OS << "#define " << Prefix << "_REG \"" << R->getValueAsString("RegType")
     << "\"\n";
  OS << "#define " << Prefix << "_MOV \"" << R->getValueAsString("MovSuffix")
     << "\"\n";
  OS << "#define " << Prefix << "_CONSTRAINT \""
     << R->getValueAsString("Constraint") << "\"\n";
  OS << "#define " << Prefix << "_BIND PTX_INJECT_BIND_" << Bind.upper()
     << "\n\n";
}

void InjectDeviceTypeEmitter::run(raw_ostream &OS) {
  emitSourceFileHeader("Inject type macros for mmptx/cuda/ptx_inject.h", OS);
  OS << "#pragma once\n\n";
  for (const Record *R : mmptx::collectInjectTypes(Records))
    emitType(OS, R);
}

void mmptx::emitInjectDeviceTypes(RecordKeeper &Records, raw_ostream &OS) {
  InjectDeviceTypeEmitter(Records).run(OS);
}
