//===- Evaluate.h - CPU evaluation of instructions --------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CPU semantics of the instructions of an instruction set, shared by
/// the Stack PTX and AST PTX interpreters. Values are bit patterns in a
/// uint64_t: f32/u32/s32/b32 in the low 32 bits, f64/u64 in all 64,
/// f16/bf16 in the low 16, pred as 0 or 1.
///
/// Semantics: f32/f64 arithmetic is IEEE with round-to-nearest-even through
/// host float/double ops (fma through std::fma); `.ftz` flushes subnormal
/// inputs and results to signed zero; `.approx` ops (rcp, sqrt, rsqrt, sin,
/// cos, lg2, ex2, tanh, div.approx) use libm, so a GPU result differs from
/// ours by at most the error bound the PTX ISA gives for that instruction
/// (2 ulp for rcp/sqrt/rsqrt/lg2/ex2/div.approx, 2^-20.9 absolute for sin
/// and cos in [-pi, pi], 2^-10.987 relative for tanh); f16/bf16 compute in
/// float and round to nearest even; integers wrap; setp comparisons other
/// than `ne` are false on NaN and `ne` is the ordered comparison; selp picks
/// `a` when the predicate is set. Warp-wide instructions (mma) are not
/// supported.
///
/// Where PTX leaves a result to the machine, the GPU's (measured on sm_90):
/// - div and rem by zero give all ones, u32 and s32 alike; INT_MIN / -1 is
///   INT_MIN and INT_MIN rem -1 is 0; shifts of 32 or more give 0 (or the
///   sign for shr.s32);
/// - a NaN result of f32 arithmetic (abs and neg included, `.ftz` or not)
///   is 0x7fffffff, of f16/bf16 arithmetic and of conversions to f16/bf16
///   0x7fff; mov, selp and copysign move bits; cvt.f32.bf16 widens the
///   bits; f32 <-> f64 conversions keep a NaN's sign and payload, quieted;
///   an f64 operation returns its first NaN operand quieted (abs and neg
///   leave it as it is) or, for a new NaN, 0xfff8000000000000.
/// - an add/sub taking a mul's product (see Contraction.h) is one fused
///   multiply-add: evaluateContracted.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_EXPR_EVALUATE_H
#define MMPTX_EXPR_EVALUATE_H

#include "mmptx/Expr/InstrSet.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mmptx {
namespace expr {

/// The value of special register \p Special, vector element \p Elem (0 for
/// scalars), for the interpreters.
using SpecialValueFn =
    llvm::function_ref<uint64_t(uint32_t Special, unsigned Elem)>;

/// Evaluates instruction \p Instr of \p Info on the flattened operand
/// elements \p Args (values as above) with the semantics described above,
/// writing its flattened result elements to \p Results. \returns an error
/// for an instruction the interpreter does not support.
llvm::Error evaluateInstr(const InstrSet &Info, uint32_t Instr,
                          llvm::ArrayRef<uint64_t> Args,
                          llvm::MutableArrayRef<uint64_t> Results);

/// Evaluates add/sub \p AddInstr (f32, f64, f16, f16x2) whose operand
/// \p ProductPos (0 or 1) is the unrounded product of \p MulArgs (negated
/// when \p NegateProduct) and whose other operand is \p Other: one fused
/// multiply-add with the add's `.ftz`, as ptxas contracts them.
llvm::Error evaluateContracted(const InstrSet &Info, uint32_t AddInstr,
                               llvm::ArrayRef<uint64_t> MulArgs,
                               bool NegateProduct, unsigned ProductPos,
                               uint64_t Other,
                               llvm::MutableArrayRef<uint64_t> Results);

/// \returns the width in bits of a value of PTX type \p Prefix (`f16x2`
/// is 32 bits, `pred` 1).
unsigned getValueWidth(llvm::StringRef Prefix);
/// \returns \p V cut to \p Width bits (a predicate to 0 or 1).
uint64_t maskToWidth(uint64_t V, unsigned Width);

/// \returns \p F as the bits of an f32 value.
uint64_t f32Bits(float F);
/// \returns the f32 value in the low bits of \p V.
float bitsF32(uint64_t V);
/// \returns \p D as the bits of an f64 value.
uint64_t f64Bits(double D);

} // namespace expr
} // namespace mmptx

#endif // MMPTX_EXPR_EVALUATE_H
