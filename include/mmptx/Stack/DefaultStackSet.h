//===- DefaultStackSet.h - Enums and encoders of the default set -*- C++
//-*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The enums (StackType, ArgType, PtxInstr, SpecialReg) and constexpr word
/// encoders of the default instruction set (td/StackInstrs.td), in
/// namespace mmptx::stack::defaults. Its tables are getDefaultStackInfo().
/// A user's own set is included the same way from the file that
/// `mmptx-tblgen -gen-stack-tables` makes of the user's .td file:
/// \code
///   namespace mine {
///   #define GET_STACK_ENUMS
///   #define GET_STACK_ENCODERS
///   #define GET_STACK_TABLES
///   #include "MyStack.inc"      // defines mine::stackInfo
///   }
/// \endcode
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_STACK_DEFAULTSTACKSET_H
#define MMPTX_STACK_DEFAULTSTACKSET_H

#include "mmptx/Stack/StackInfo.h"

namespace mmptx {
namespace stack {
namespace defaults {

#define GET_STACK_ENUMS
#define GET_STACK_ENCODERS
#include "mmptx/Stack/StackInstrs.inc"

} // namespace defaults
} // namespace stack
} // namespace mmptx

#endif // MMPTX_STACK_DEFAULTSTACKSET_H
