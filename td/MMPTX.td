//===- MMPTX.td - All of mmptx's TableGen descriptions -*- tablegen -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

include "InjectTypes.td"
include "StackInstrs.td"
