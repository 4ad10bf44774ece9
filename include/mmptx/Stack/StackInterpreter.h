//===- StackInterpreter.h - CPU reference for Stack PTX ---------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs a Stack PTX program on concrete inputs on the CPU, with each
/// instruction's PTX semantics, to check GPU results and in tests. The
/// program is executed by the compiler's own execution step (so stacks, meta
/// ops, routines and limits behave identically), then the DAG is evaluated.
///
/// Values are bit patterns in a uint64_t: f32/u32/s32/b32 in the low 32
/// bits, f64/u64 in all 64, f16/bf16 in the low 16, pred as 0 or 1.
///
/// Instructions are evaluated by expr::evaluateInstr (mmptx/Expr/Evaluate.h),
/// whose semantics they have.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_STACK_STACKINTERPRETER_H
#define MMPTX_STACK_STACKINTERPRETER_H

#include "mmptx/Expr/Evaluate.h"
#include "mmptx/Stack/StackCompiler.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <vector>

namespace mmptx {
namespace stack {

using expr::SpecialValueFn;

/// Interprets \p Prog with \p Inputs (one value per register, the start
/// value of Mod registers). \returns one value per request: the computed
/// value, or for an unsatisfied request zero (Out/In) or the input value
/// (Mod), as the compiled stub would leave it.
llvm::Expected<std::vector<uint64_t>> interpretStackPtx(
    StackPtxContext &Ctx, const Program &Prog, llvm::ArrayRef<Register> Regs,
    llvm::ArrayRef<uint32_t> Requests, llvm::ArrayRef<uint64_t> Inputs,
    SpecialValueFn Specials = nullptr);

using expr::bitsF32;
using expr::evaluateInstr;
using expr::f32Bits;

} // namespace stack
} // namespace mmptx

#endif // MMPTX_STACK_STACKINTERPRETER_H
