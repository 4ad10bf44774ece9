//===- Compiler.h - Placement hints for the compiler ------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// MMPTX_HOT marks a function on the path of a create or a render: GCC
/// places such functions side by side (the `.text.hot` input sections, which
/// the linker groups), so the first create in a process faults in fewer
/// pages and fetches fewer cache lines of code. MMPTX_COLD marks a function
/// that only builds an error: the branches that call it move out of the hot
/// code.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_SUPPORT_COMPILER_H
#define MMPTX_SUPPORT_COMPILER_H

#if defined(__GNUC__)
#define MMPTX_HOT __attribute__((hot))
#define MMPTX_COLD __attribute__((cold, noinline))
#else
#define MMPTX_HOT
#define MMPTX_COLD
#endif

#endif // MMPTX_SUPPORT_COMPILER_H
