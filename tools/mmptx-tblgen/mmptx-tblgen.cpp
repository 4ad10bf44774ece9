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
/// TableGenMain, but the output and the depfile are written here, through
/// mmptx::ToolOutput like every mmptx tool: TableGenMain's own writer
/// truncates the target in place and deletes it when a run fails.
///
//===----------------------------------------------------------------------===//

#include "Emitters.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/ToolOutput.h"
#include "mmptx/Support/ToolVersion.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"

#include <set>

using namespace llvm;

namespace {
enum ActionType {
  PrintRecords,
  GenInjectTypes,
  GenInjectDeviceTypes,
  GenInjectDeviceFormat,
  GenStackTables,
  GenStackCHeader,
  GenPythonEnums
};

cl::opt<ActionType> Action(
    cl::desc("Action to perform:"),
    cl::values(clEnumValN(PrintRecords, "print-records",
                          "Print all records to stdout (default)"),
               clEnumValN(GenInjectTypes, "gen-inject-types",
                          "Generate the inject-type table"),
               clEnumValN(GenInjectDeviceTypes, "gen-inject-device-types",
                          "Generate the device header's type macros"),
               clEnumValN(GenInjectDeviceFormat, "gen-inject-device-format",
                          "Generate the device header's site-format macros"),
               clEnumValN(GenStackTables, "gen-stack-tables",
                          "Generate Stack PTX C++ tables and encoders"),
               clEnumValN(GenStackCHeader, "gen-stack-c-header",
                          "Generate the Stack PTX C99 header"),
               clEnumValN(GenPythonEnums, "gen-python-enums",
                          "Generate the Stack/AST PTX Python enums")));

/// TableGenMain's output options, taken over by this tool.
struct OutputOptions {
  std::string Output = "-";
  std::string DepFile;
  bool WriteIfChanged = false;
} Outputs;

/// \returns TableGenMain's option \p Name (registered by LLVMTableGen).
template <typename T> cl::opt<T> *getTableGenOption(StringRef Name) {
  return static_cast<cl::opt<T> *>(cl::getRegisteredOptions().lookup(Name));
}

/// Writes \p Text to the -o file and the -d depfile. \returns true on error.
bool writeOutputs(StringRef Text) {
  const char *ToolName = "mmptx-tblgen";
  bool Unchanged = false;
  if (Outputs.WriteIfChanged && sys::fs::is_regular_file(Outputs.Output))
    if (auto Existing = MemoryBuffer::getFile(Outputs.Output))
      Unchanged = (*Existing)->getBuffer() == Text;
  if (!Unchanged)
    if (Error E = mmptx::writeToolOutput(Outputs.Output, [&](raw_ostream &OS) {
          OS << Text;
          return Error::success();
        })) {
      mmptx::reportError(std::move(E), ToolName);
      return true;
    }
  if (Outputs.DepFile.empty())
    return false;
  // The files parsed besides the main input: the buffers of the included
  // files, named by the path they were found at.
  std::set<std::string> Deps;
  for (unsigned ID = 2, E = SrcMgr.getNumBuffers(); ID <= E; ++ID)
    Deps.insert(SrcMgr.getMemoryBuffer(ID)->getBufferIdentifier().str());
  if (Error E = mmptx::writeToolOutput(Outputs.DepFile, [&](raw_ostream &OS) {
        OS << Outputs.Output << ':';
        for (const std::string &Dep : Deps)
          OS << ' ' << Dep;
        OS << '\n';
        return Error::success();
      })) {
    mmptx::reportError(std::move(E), ToolName);
    return true;
  }
  return false;
}

void runBackend(raw_ostream &OS, RecordKeeper &Records) {
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
  case GenPythonEnums:
    mmptx::emitPythonEnums(Records, OS);
    break;
  case GenInjectDeviceFormat:
    mmptx::emitInjectDeviceFormat(Records, OS);
    break;
  }
}

bool mmptxTableGenMain(raw_ostream &, RecordKeeper &Records) {
  std::string Text;
  raw_string_ostream OS(Text);
  runBackend(OS, Records);
  OS.flush();
  // After errors TableGenMain reports their count and fails; nothing is
  // written.
  if (ErrorsPrinted)
    return false;
  return writeOutputs(Text);
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  mmptx::ignoreStderrWriteErrorsAtExit();
  mmptx::installToolVersionPrinter();
  cl::ParseCommandLineOptions(argc, argv, "mmptx table generator\n");
  // Take -o, -d and --write-if-changed from TableGenMain, leaving it an
  // empty output on stdout and no depfile.
  auto *Output = getTableGenOption<std::string>("o");
  auto *DepFile = getTableGenOption<std::string>("d");
  auto *WriteIfChanged = getTableGenOption<bool>("write-if-changed");
  if (!Output || !DepFile || !WriteIfChanged) {
    errs() << "mmptx-tblgen: error: LLVM's TableGen lacks -o, -d or "
              "--write-if-changed\n";
    return 1;
  }
  Outputs.Output = *Output;
  Outputs.DepFile = *DepFile;
  Outputs.WriteIfChanged = *WriteIfChanged;
  if (!Outputs.DepFile.empty() && Outputs.Output == "-") {
    mmptx::reportError(mmptx::makeError("-d needs -o"), "mmptx-tblgen");
    return 1;
  }
  Output->setValue("-");
  DepFile->setValue("");
  WriteIfChanged->setValue(false);
  return TableGenMain(argv[0], &mmptxTableGenMain);
}
