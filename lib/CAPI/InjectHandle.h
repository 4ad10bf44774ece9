//===- InjectHandle.h - The handle of the PTX Inject C API ------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What an mmptx_inject_t holds, for the C APIs that take one (PTX Inject,
/// stubs): the module and NUL-terminated copies of every name the queries
/// return (the module's strings point into its PTX copy and are not
/// terminated).
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_LIB_CAPI_INJECTHANDLE_H
#define MMPTX_LIB_CAPI_INJECTHANDLE_H

#include "mmptx-c/PtxInject.h"
#include "mmptx/Inject/InjectModule.h"

#include "llvm/Support/Allocator.h"

#include <memory>
#include <vector>

struct mmptx_inject {
  struct Variable {
    const char *Name, *StableRegister, *RegType, *TypeToken;
    mmptx_arg_kind_t Kind;
  };
  std::unique_ptr<mmptx::InjectModule> TheModule;
  llvm::BumpPtrAllocator Alloc;
  std::vector<const char *> InjectNames;
  std::vector<Variable> Variables; // all injects, in InjectModule order
};

#endif // MMPTX_LIB_CAPI_INJECTHANDLE_H
