//===- InjectTypes.cpp - The built-in inject types ------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The inject types of td/InjectTypes.td. Apart from InjectFormat.cpp, which
/// mmptx-tblgen links and which therefore must not need generated files.
///
//===----------------------------------------------------------------------===//

#include "mmptx/Inject/InjectFormat.h"

using namespace llvm;
using namespace mmptx;

// Constant-initialised: no code runs for it at start-up or first use.
static constexpr InjectType BuiltinTypes[] = {
#define GET_INJECT_TYPE_LIST
#define MMPTX_INJECT_TYPE(ID, TOKEN, REGTYPE, MOVSUFFIX, CONSTRAINT, BIND,     \
                          BITS)                                                \
  {TOKEN, REGTYPE, MOVSUFFIX, CONSTRAINT, BITS, InjectBind::BIND},
#include "mmptx/Inject/InjectTypes.inc"
};

ArrayRef<InjectType> mmptx::getBuiltinInjectTypes() { return BuiltinTypes; }
