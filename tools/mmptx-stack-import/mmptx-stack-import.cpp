//===- mmptx-stack-import.cpp - JSON description to .td -------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Converts a Stack PTX instruction-set description in the reference's
/// JSON format into a .td file that keeps its numbering (see
/// mmptx/Stack/StackImport.h):
///
///   mmptx-stack-import desc.json -o MySet.td
///   mmptx-tblgen -gen-stack-tables -I <mmptx>/td MySet.td -o MySet.inc
///
//===----------------------------------------------------------------------===//

#include "mmptx/Stack/StackImport.h"
#include "mmptx/Support/Diagnostic.h"
#include "mmptx/Support/ToolInit.h"
#include "mmptx/Support/ToolOutput.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;

static cl::OptionCategory ImportCategory("mmptx-stack-import Options");
static cl::opt<std::string> InputFilename(cl::Positional,
                                          cl::desc("<description .json>"),
                                          cl::init("-"),
                                          cl::cat(ImportCategory));
static cl::opt<std::string> OutputFilename("o", cl::desc("Output .td file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"),
                                           cl::cat(ImportCategory));

/// Writes \p Text to \p Path ("-": stdout) through a temporary file renamed
/// on success, so a failed run leaves no partial output.
static Error writeOutput(StringRef Path, StringRef Text) {
  if (Path == "-") {
    outs() << Text;
    return Error::success();
  }
  Expected<sys::fs::TempFile> Tmp =
      sys::fs::TempFile::create(Path + ".tmp%%%%%%");
  if (!Tmp)
    return makeError("cannot write '" + Path +
                     "': " + toString(Tmp.takeError()));
  {
    raw_fd_ostream Os(Tmp->FD, /*shouldClose=*/false);
    Os << Text;
  }
  if (Error E = Tmp->keep(Path))
    return makeError("cannot write '" + Path + "': " + toString(std::move(E)));
  return Error::success();
}

int main(int argc, char **argv) {
  ToolInit Init(argc, argv,
                "Stack PTX JSON instruction-set description -> .td\n",
                &ImportCategory);
  auto Buf = MemoryBuffer::getFileOrSTDIN(InputFilename);
  if (!Buf) {
    WithColor::error(errs(), "mmptx-stack-import")
        << "cannot read '" << InputFilename << "': " << Buf.getError().message()
        << "\n";
    return 1;
  }
  std::string Td;
  raw_string_ostream Os(Td);
  StringRef Name = InputFilename == "-" ? "<stdin>" : StringRef(InputFilename);
  if (Error E = stack::importStackDescription((*Buf)->getBuffer(), Name, Os)) {
    reportError(std::move(E), "mmptx-stack-import");
    return 1;
  }
  Os.flush();
  if (Error E = writeOutput(OutputFilename, Td)) {
    reportError(std::move(E), "mmptx-stack-import");
    return 1;
  }
  return 0;
}
