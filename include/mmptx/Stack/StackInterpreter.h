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
/// Semantics: f32/f64 arithmetic is IEEE with round-to-nearest-even through
/// host float/double ops (fma through std::fma); `.ftz` flushes subnormal
/// inputs and results to signed zero; `.approx` ops (rcp, sqrt, rsqrt, sin,
/// cos, lg2, ex2, tanh, div.approx) use libm, so a GPU result differs from
/// ours by at most the error bound the PTX ISA gives for that instruction
/// (2 ulp for rcp/sqrt/rsqrt/lg2/ex2/div.approx, 2^-20.9 absolute for sin
/// and cos in [-pi, pi], 2^-10.987 relative for tanh); f16/bf16 compute in
/// float and round to nearest even; integers wrap; div/rem by zero give
/// all-ones / the dividend (what the hardware returns); shifts of 32 or more
/// give 0 (or the sign for shr.s32); setp comparisons other than `ne` are
/// false on NaN and `ne` is the ordered comparison; selp picks `a` when the
/// predicate is set. Warp-wide instructions (mma) are not supported.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_STACK_STACKINTERPRETER_H
#define MMPTX_STACK_STACKINTERPRETER_H

#include "mmptx/Stack/StackCompiler.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <vector>

namespace mmptx {
namespace stack {

/// The value of special register \p special, vector element \p elem (0 for
/// scalars).
using SpecialValueFn =
    llvm::function_ref<uint64_t(uint32_t special, unsigned elem)>;

/// Interprets \p prog with \p inputs (one value per register, the start
/// value of Mod registers). \returns one value per request: the computed
/// value, or for an unsatisfied request zero (Out/In) or the input value
/// (Mod), as the compiled stub would leave it.
llvm::Expected<std::vector<uint64_t>> interpretStackPtx(
    StackPtxContext &ctx, const Program &prog, llvm::ArrayRef<Register> regs,
    llvm::ArrayRef<uint32_t> requests, llvm::ArrayRef<uint64_t> inputs,
    SpecialValueFn specials = nullptr);

/// Evaluates instruction \p instr of \p info on the flattened operand
/// elements \p args (values as above) with the semantics described above,
/// writing its flattened result elements to \p results. \returns an error
/// for an instruction the interpreter does not support.
llvm::Error evaluateInstr(const StackInfo &info, uint32_t instr,
                          llvm::ArrayRef<uint64_t> args,
                          llvm::MutableArrayRef<uint64_t> results);

/// \returns \p f as the bits of an f32 value.
uint64_t f32Bits(float f);
/// \returns the f32 value in the low bits of \p v.
float bitsF32(uint64_t v);

} // namespace stack
} // namespace mmptx

#endif // MMPTX_STACK_STACKINTERPRETER_H
