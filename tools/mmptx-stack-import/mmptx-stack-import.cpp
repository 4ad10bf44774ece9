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
#include "mmptx/Support/ToolOutput.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mmptx;

static cl::OptionCategory importCategory("mmptx-stack-import Options");
static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<description .json>"),
                                          cl::init("-"),
                                          cl::cat(importCategory));
static cl::opt<std::string> outputFilename("o", cl::desc("Output .td file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"),
                                           cl::cat(importCategory));

/// Writes \p text to \p path ("-": stdout) through a temporary file renamed
/// on success, so a failed run leaves no partial output.
static Error writeOutput(StringRef path, StringRef text) {
  if (path == "-") {
    outs() << text;
    return Error::success();
  }
  Expected<sys::fs::TempFile> tmp =
      sys::fs::TempFile::create(path + ".tmp%%%%%%");
  if (!tmp)
    return makeError("cannot write '" + path +
                     "': " + toString(tmp.takeError()));
  {
    raw_fd_ostream os(tmp->FD, /*shouldClose=*/false);
    os << text;
  }
  if (Error e = tmp->keep(path))
    return makeError("cannot write '" + path + "': " + toString(std::move(e)));
  return Error::success();
}

int main(int argc, char **argv) {
  InitLLVM x(argc, argv);
  ignoreStderrWriteErrorsAtExit();
  cl::HideUnrelatedOptions(importCategory);
  cl::ParseCommandLineOptions(
      argc, argv, "Stack PTX JSON instruction-set description -> .td\n");
  auto buf = MemoryBuffer::getFileOrSTDIN(inputFilename);
  if (!buf) {
    WithColor::error(errs(), "mmptx-stack-import")
        << "cannot read '" << inputFilename << "': " << buf.getError().message()
        << "\n";
    return 1;
  }
  std::string td;
  raw_string_ostream os(td);
  StringRef name = inputFilename == "-" ? "<stdin>" : StringRef(inputFilename);
  if (Error e = stack::importStackDescription((*buf)->getBuffer(), name, os)) {
    reportError(std::move(e), "mmptx-stack-import");
    return 1;
  }
  os.flush();
  if (Error e = writeOutput(outputFilename, td)) {
    reportError(std::move(e), "mmptx-stack-import");
    return 1;
  }
  return 0;
}
