//===- mmptx-tblgen.cpp - mmptx TableGen driver ---------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Generates mmptx's tables from td/ files, one backend per -gen-* action.
/// Users run the same backends on their own .td files to add inject types
/// and instruction sets. -I, -o, -d and --write-if-changed come from
/// TableGenMain.
///
//===----------------------------------------------------------------------===//

#include "Emitters.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"

using namespace llvm;

namespace {
enum ActionType {
  PrintRecords,
  GenInjectTypes,
  GenInjectDeviceTypes,
  GenStackTables,
  GenStackCHeader
};

cl::opt<ActionType> Action(
    cl::desc("Action to perform:"),
    cl::values(clEnumValN(PrintRecords, "print-records",
                          "Print all records to stdout (default)"),
               clEnumValN(GenInjectTypes, "gen-inject-types",
                          "Generate the inject-type table"),
               clEnumValN(GenInjectDeviceTypes, "gen-inject-device-types",
                          "Generate the device header's type macros"),
               clEnumValN(GenStackTables, "gen-stack-tables",
                          "Generate Stack PTX C++ tables and encoders"),
               clEnumValN(GenStackCHeader, "gen-stack-c-header",
                          "Generate the Stack PTX C99 header")));

bool mmptxTableGenMain(raw_ostream &OS, RecordKeeper &Records) {
  switch (Action) {
  case PrintRecords:
    OS << Records;
    break;
  case GenInjectTypes:
    mmptx::emitInjectTypes(Records, OS);
    break;
  case GenStackTables:
    mmptx::emitStackTables(Records, OS);
    break;
  case GenStackCHeader:
    mmptx::emitStackCHeader(Records, OS);
    break;
  case GenInjectDeviceTypes:
    mmptx::emitInjectDeviceTypes(Records, OS);
    break;
  }
  return false;
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "mmptx table generator\n");
  return TableGenMain(argv[0], &mmptxTableGenMain);
}
