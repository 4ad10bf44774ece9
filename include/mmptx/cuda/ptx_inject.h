//===- ptx_inject.h - PTX Inject device annotations -------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Marks an *inject site* in CUDA device code. After CUDA -> PTX (nvcc or
/// NVRTC) the PTX carries marker comments that mmptx parses; mmptx later
/// splices a PTX stub into every copy of the site.
///
///   #include "mmptx/cuda/ptx_inject.h"
///   PTX_INJECT("func", PTX_IN(F32, x), PTX_MOD(F32, acc, c[i]),
///              PTX_OUT(F16, y));
///
/// Operands, in any order and any mix (at most 64 per site):
///   PTX_IN(TYPE, name)          read-only; `name` is the C expression and
///                               the label used in markers and queries
///   PTX_IN(TYPE, label, expr)   read-only; `expr` is any asm operand
///                               expression (`v.w`, `arr[1]`, `c(i, j)`)
///   PTX_MOD(...), PTX_OUT(...)  the same for read-write and write-only
///   PTX_PHILOX(state)           the six words of a curandStatePhilox4_32_10
///                               (key.x, key.y IN; ctr.x MOD; ctr.y/z/w IN,
///                               labels philox_key_x ... philox_ctr_w)
/// PTX_INJECT_TOK(site, ...) takes the site name as an identifier.
///
/// TYPE is a token of the inject-type table: the generated header
/// mmptx/cuda/PtxInjectTypes.h (from td/InjectTypes.td: F16, F16X2, BF16,
/// BF16X2, S32, U32, S64, U64, F32, F64, B32, B64, PHILOX) plus any header the
/// user generates from an own .td file with
///   mmptx-tblgen -gen-inject-device-types -I <mmptx>/td MyTypes.td -o MyTypes.h
/// and includes before using its tokens. There is no predicate type: inline
/// asm has no predicate operands (no constraint letter), so pass a U32 0/1
/// and let the stub `setp` it.
///
/// Each site expands to one `asm volatile` statement whose text is the site
/// format of mmptx/Inject/InjectFormat.h: the macros of the generated
/// mmptx/cuda/PtxInjectFormat.h are written by its scaffold writers
/// (mmptx-tblgen -gen-inject-device-format). Line by line, with i the
/// operand's position in the source (0-based):
///
///   {
///   .reg .<regtype> %_x<i>;                         every operand
///   mov.<mov> %_x<i>, %<asm operand>;               every in and mod operand
///   // MMPTX_INJECT_BEGIN <name> <number of operands>
///   // MMPTX_INJECT_ARG <i> <in|mod|out> <regtype> <TYPE> <label>
///   // MMPTX_INJECT_END <name>
///   mov.<mov> %<asm operand>, %_x<i>;               every mod and out operand
///   }
///
/// The `%_x<i>` registers live in the asm block's own `{ }` scope, so every
/// copy of a site (unrolled loops, inlined functions) uses the same names and
/// one stub fits all copies. (The asm string spells them `%%_x<i>`: in an
/// asm statement with operands, nvcc reads `%_` as an operand reference.) GCC-style asm needs outputs before inputs, so
/// the asm operands are numbered: mod and out operands in source order, then
/// in operands in source order; the markers keep source order.
///
/// Why `asm volatile`: a non-volatile asm statement whose outputs are all
/// unused is a pure expression to the CUDA compiler, which deletes it, so the
/// site silently disappears from the PTX (or may be merged with an identical
/// copy). Volatile keeps every site where it was written; the cost is that
/// the compiler cannot delete a site whose results are dead, which is what a
/// stub injected later needs anyway.
///
/// Binding (the BIND of the type): `value` passes `(expr)`; `u16`, `u32`,
/// `u64` reinterpret the storage of the object as an unsigned integer of that
/// width (`*reinterpret_cast<unsigned short *>(&(expr))`, `const` for in
/// operands), which is how __half, __half2, __nv_bfloat16 and friends reach a
/// 16/32-bit register. Those operands must therefore be lvalues.
///
/// mmptx-annotate rewrites the comment form (`/* PTX_INJECT name` ... `*/`)
/// into exactly this asm, so both forms give the same PTX.
///
/// Limits, all compile-time errors: at least one operand; TYPE tokens and the
/// names of the 2-argument form are macro-expanded before use, so they must
/// not be macros; labels (the operand's spelling in the 2-argument form) must
/// not contain blanks, `%` or `"` (they are copied into the asm text as one
/// marker field: write `p[i+1]`, or label it: `PTX_IN(F32, next, p[i + 1])`); an expression with a top-level comma (`f<a, b>()`) must be
/// parenthesised. On the host side of `__host__ __device__` code (no
/// __CUDA_ARCH__) a site expands to nothing.
///
/// The header has no includes besides the generated type macros, so it
/// works under NVRTC (`__CUDACC_RTC__`) with `-I<src>/include
/// -I<build>/include`. The numbered macro ladders below follow one pattern
/// each; to raise the operand limit extend every ladder together.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_CUDA_PTX_INJECT_H
#define MMPTX_CUDA_PTX_INJECT_H

#include "mmptx/cuda/PtxInjectFormat.h"
#include "mmptx/cuda/PtxInjectTypes.h"

//===----------------------------------------------------------------------===//
// Public interface
//===----------------------------------------------------------------------===//

#define PTX_IN(...) PTX_INJECT_OPND_(mmptx_in, __VA_ARGS__)
#define PTX_MOD(...) PTX_INJECT_OPND_(mmptx_mod, __VA_ARGS__)
#define PTX_OUT(...) PTX_INJECT_OPND_(mmptx_out, __VA_ARGS__)

#define PTX_PHILOX(state)                                                      \
  PTX_IN(PHILOX, philox_key_x, (state).key.x),                                 \
      PTX_IN(PHILOX, philox_key_y, (state).key.y),                             \
      PTX_MOD(PHILOX, philox_ctr_x, (state).ctr.x),                            \
      PTX_IN(PHILOX, philox_ctr_y, (state).ctr.y),                             \
      PTX_IN(PHILOX, philox_ctr_z, (state).ctr.z),                             \
      PTX_IN(PHILOX, philox_ctr_w, (state).ctr.w)

#if defined(__CUDA_ARCH__)
#define PTX_INJECT(name, ...)                                                  \
  MMPTX_INJ_A_(name, MMPTX_NARG_(__VA_ARGS__), __VA_ARGS__)
#else
#define PTX_INJECT(name, ...) ((void)0)
#endif
#define PTX_INJECT_TOK(site, ...) PTX_INJECT(#site, __VA_ARGS__)

// Bind kinds, named by the generated PTX_INJECT_TYPE_<T>_BIND macros. Q is
// `const` for in operands and empty otherwise.
#define PTX_INJECT_BIND_VALUE(Q, e) (e)
#define PTX_INJECT_BIND_U16(Q, e) (*reinterpret_cast<Q unsigned short *>(&(e)))
#define PTX_INJECT_BIND_U32(Q, e) (*reinterpret_cast<Q unsigned int *>(&(e)))
#define PTX_INJECT_BIND_U64(Q, e)                                              \
  (*reinterpret_cast<Q unsigned long long *>(&(e)))

//===----------------------------------------------------------------------===//
// Implementation. An operand descriptor becomes the tuple
//   (kind, "TYPE", "label", expr, "regtype", "mov", "c", BIND)
// and the site enriches each with its position i, its asm operand number and
// whether a comma precedes it in its clause:
//   (kind, "TYPE", "label", expr, "regtype", "mov", "c", BIND, i, opnd, sep)
//===----------------------------------------------------------------------===//

#define MMPTX_STR_(x) MMPTX_STR_I_(x)
#define MMPTX_STR_I_(x) #x

// Operand descriptors: 2- or 3-argument form.
#define PTX_INJECT_OPND_(k, ...)                                               \
  MMPTX_OPND_SEL_(MMPTX_NARG_(__VA_ARGS__))(k, __VA_ARGS__)
#define MMPTX_OPND_SEL_(n) MMPTX_OPND_SEL_I_(n)
#define MMPTX_OPND_SEL_I_(n) MMPTX_OPND_##n##_
#define MMPTX_OPND_2_(k, T, x)                                                 \
  (k, #T, #x, x, PTX_INJECT_TYPE_##T##_REG, PTX_INJECT_TYPE_##T##_MOV,         \
   PTX_INJECT_TYPE_##T##_CONSTRAINT, PTX_INJECT_TYPE_##T##_BIND)
#define MMPTX_OPND_3_(k, T, l, e)                                              \
  (k, #T, #l, e, PTX_INJECT_TYPE_##T##_REG, PTX_INJECT_TYPE_##T##_MOV,         \
   PTX_INJECT_TYPE_##T##_CONSTRAINT, PTX_INJECT_TYPE_##T##_BIND)

// Kind properties (the marker spelling and which kinds are moved in and
// out are the site format's: MMPTX_FMT_*_<kind> in PtxInjectFormat.h).
#define MMPTX_KISOUT_mmptx_in 0
#define MMPTX_KISOUT_mmptx_mod 1
#define MMPTX_KISOUT_mmptx_out 1
#define MMPTX_KISIN_mmptx_in 1
#define MMPTX_KISIN_mmptx_mod 0
#define MMPTX_KISIN_mmptx_out 0
#define MMPTX_KPFX_mmptx_mod "+"
#define MMPTX_KPFX_mmptx_out "="
#define MMPTX_KQUAL_mmptx_in const
#define MMPTX_KQUAL_mmptx_mod
#define MMPTX_KQUAL_mmptx_out

#define MMPTX_ISOUT_(t) MMPTX_ISOUT_X_(MMPTX_ISOUT_I_ t)
#define MMPTX_ISOUT_X_(x) x
#define MMPTX_ISOUT_I_(k, ...) MMPTX_ISOUT_II_(k)
#define MMPTX_ISOUT_II_(k) MMPTX_KISOUT_##k
#define MMPTX_ISIN_(t) MMPTX_ISIN_X_(MMPTX_ISIN_I_ t)
#define MMPTX_ISIN_X_(x) x
#define MMPTX_ISIN_I_(k, ...) MMPTX_ISIN_II_(k)
#define MMPTX_ISIN_II_(k) MMPTX_KISIN_##k

// Small arithmetic: increment, add a bit, select, is-nonzero, comma-if.
#define MMPTX_INC_(n) MMPTX_INC_I_(n)
#define MMPTX_INC_I_(n) MMPTX_INC_##n
#define MMPTX_ADDB_(a, b) MMPTX_ADDB_I_(a, b)
#define MMPTX_ADDB_I_(a, b) MMPTX_ADDB_##b(a)
#define MMPTX_ADDB_0(a) a
#define MMPTX_ADDB_1(a) MMPTX_INC_(a)
#define MMPTX_SEL_(b, x, y) MMPTX_SEL_I_(b, x, y)
#define MMPTX_SEL_I_(b, x, y) MMPTX_SEL_##b(x, y)
#define MMPTX_SEL_0(x, y) y
#define MMPTX_SEL_1(x, y) x
#define MMPTX_BOOL_(n) MMPTX_BOOL_I_(n)
#define MMPTX_BOOL_I_(n) MMPTX_BOOL_##n
#define MMPTX_COMMA_IF_(b) MMPTX_COMMA_IF_I_(b)
#define MMPTX_COMMA_IF_I_(b) MMPTX_COMMA_IF_##b
#define MMPTX_COMMA_IF_0
#define MMPTX_COMMA_IF_1 ,

#define MMPTX_NARG_(...)                                                       \
  MMPTX_NARG_I_(__VA_ARGS__, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define MMPTX_NARG_I_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, _49, _50, _51, _52, _53, _54, _55, _56, _57, _58, _59, _60, _61, _62, _63, _64, N, ...) N
#define MMPTX_INC_0 1
#define MMPTX_INC_1 2
#define MMPTX_INC_2 3
#define MMPTX_INC_3 4
#define MMPTX_INC_4 5
#define MMPTX_INC_5 6
#define MMPTX_INC_6 7
#define MMPTX_INC_7 8
#define MMPTX_INC_8 9
#define MMPTX_INC_9 10
#define MMPTX_INC_10 11
#define MMPTX_INC_11 12
#define MMPTX_INC_12 13
#define MMPTX_INC_13 14
#define MMPTX_INC_14 15
#define MMPTX_INC_15 16
#define MMPTX_INC_16 17
#define MMPTX_INC_17 18
#define MMPTX_INC_18 19
#define MMPTX_INC_19 20
#define MMPTX_INC_20 21
#define MMPTX_INC_21 22
#define MMPTX_INC_22 23
#define MMPTX_INC_23 24
#define MMPTX_INC_24 25
#define MMPTX_INC_25 26
#define MMPTX_INC_26 27
#define MMPTX_INC_27 28
#define MMPTX_INC_28 29
#define MMPTX_INC_29 30
#define MMPTX_INC_30 31
#define MMPTX_INC_31 32
#define MMPTX_INC_32 33
#define MMPTX_INC_33 34
#define MMPTX_INC_34 35
#define MMPTX_INC_35 36
#define MMPTX_INC_36 37
#define MMPTX_INC_37 38
#define MMPTX_INC_38 39
#define MMPTX_INC_39 40
#define MMPTX_INC_40 41
#define MMPTX_INC_41 42
#define MMPTX_INC_42 43
#define MMPTX_INC_43 44
#define MMPTX_INC_44 45
#define MMPTX_INC_45 46
#define MMPTX_INC_46 47
#define MMPTX_INC_47 48
#define MMPTX_INC_48 49
#define MMPTX_INC_49 50
#define MMPTX_INC_50 51
#define MMPTX_INC_51 52
#define MMPTX_INC_52 53
#define MMPTX_INC_53 54
#define MMPTX_INC_54 55
#define MMPTX_INC_55 56
#define MMPTX_INC_56 57
#define MMPTX_INC_57 58
#define MMPTX_INC_58 59
#define MMPTX_INC_59 60
#define MMPTX_INC_60 61
#define MMPTX_INC_61 62
#define MMPTX_INC_62 63
#define MMPTX_INC_63 64
#define MMPTX_INC_64 65
#define MMPTX_BOOL_0 0
#define MMPTX_BOOL_1 1
#define MMPTX_BOOL_2 1
#define MMPTX_BOOL_3 1
#define MMPTX_BOOL_4 1
#define MMPTX_BOOL_5 1
#define MMPTX_BOOL_6 1
#define MMPTX_BOOL_7 1
#define MMPTX_BOOL_8 1
#define MMPTX_BOOL_9 1
#define MMPTX_BOOL_10 1
#define MMPTX_BOOL_11 1
#define MMPTX_BOOL_12 1
#define MMPTX_BOOL_13 1
#define MMPTX_BOOL_14 1
#define MMPTX_BOOL_15 1
#define MMPTX_BOOL_16 1
#define MMPTX_BOOL_17 1
#define MMPTX_BOOL_18 1
#define MMPTX_BOOL_19 1
#define MMPTX_BOOL_20 1
#define MMPTX_BOOL_21 1
#define MMPTX_BOOL_22 1
#define MMPTX_BOOL_23 1
#define MMPTX_BOOL_24 1
#define MMPTX_BOOL_25 1
#define MMPTX_BOOL_26 1
#define MMPTX_BOOL_27 1
#define MMPTX_BOOL_28 1
#define MMPTX_BOOL_29 1
#define MMPTX_BOOL_30 1
#define MMPTX_BOOL_31 1
#define MMPTX_BOOL_32 1
#define MMPTX_BOOL_33 1
#define MMPTX_BOOL_34 1
#define MMPTX_BOOL_35 1
#define MMPTX_BOOL_36 1
#define MMPTX_BOOL_37 1
#define MMPTX_BOOL_38 1
#define MMPTX_BOOL_39 1
#define MMPTX_BOOL_40 1
#define MMPTX_BOOL_41 1
#define MMPTX_BOOL_42 1
#define MMPTX_BOOL_43 1
#define MMPTX_BOOL_44 1
#define MMPTX_BOOL_45 1
#define MMPTX_BOOL_46 1
#define MMPTX_BOOL_47 1
#define MMPTX_BOOL_48 1
#define MMPTX_BOOL_49 1
#define MMPTX_BOOL_50 1
#define MMPTX_BOOL_51 1
#define MMPTX_BOOL_52 1
#define MMPTX_BOOL_53 1
#define MMPTX_BOOL_54 1
#define MMPTX_BOOL_55 1
#define MMPTX_BOOL_56 1
#define MMPTX_BOOL_57 1
#define MMPTX_BOOL_58 1
#define MMPTX_BOOL_59 1
#define MMPTX_BOOL_60 1
#define MMPTX_BOOL_61 1
#define MMPTX_BOOL_62 1
#define MMPTX_BOOL_63 1
#define MMPTX_BOOL_64 1

// Number of mod and out operands: 0 + isout(t1) + isout(t2) + ...
#define MMPTX_NOUT_(n, ...) MMPTX_NOUT_I_(n, __VA_ARGS__)
#define MMPTX_NOUT_I_(n, ...) MMPTX_NOUT_##n(0, __VA_ARGS__)
#define MMPTX_NOUT_1(a, t) MMPTX_ADDB_(a, MMPTX_ISOUT_(t))
#define MMPTX_NOUT_2(a, t, ...)                                              \
  MMPTX_NOUT_1(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_3(a, t, ...)                                              \
  MMPTX_NOUT_2(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_4(a, t, ...)                                              \
  MMPTX_NOUT_3(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_5(a, t, ...)                                              \
  MMPTX_NOUT_4(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_6(a, t, ...)                                              \
  MMPTX_NOUT_5(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_7(a, t, ...)                                              \
  MMPTX_NOUT_6(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_8(a, t, ...)                                              \
  MMPTX_NOUT_7(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_9(a, t, ...)                                              \
  MMPTX_NOUT_8(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_10(a, t, ...)                                              \
  MMPTX_NOUT_9(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_11(a, t, ...)                                              \
  MMPTX_NOUT_10(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_12(a, t, ...)                                              \
  MMPTX_NOUT_11(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_13(a, t, ...)                                              \
  MMPTX_NOUT_12(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_14(a, t, ...)                                              \
  MMPTX_NOUT_13(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_15(a, t, ...)                                              \
  MMPTX_NOUT_14(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_16(a, t, ...)                                              \
  MMPTX_NOUT_15(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_17(a, t, ...)                                              \
  MMPTX_NOUT_16(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_18(a, t, ...)                                              \
  MMPTX_NOUT_17(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_19(a, t, ...)                                              \
  MMPTX_NOUT_18(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_20(a, t, ...)                                              \
  MMPTX_NOUT_19(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_21(a, t, ...)                                              \
  MMPTX_NOUT_20(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_22(a, t, ...)                                              \
  MMPTX_NOUT_21(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_23(a, t, ...)                                              \
  MMPTX_NOUT_22(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_24(a, t, ...)                                              \
  MMPTX_NOUT_23(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_25(a, t, ...)                                              \
  MMPTX_NOUT_24(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_26(a, t, ...)                                              \
  MMPTX_NOUT_25(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_27(a, t, ...)                                              \
  MMPTX_NOUT_26(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_28(a, t, ...)                                              \
  MMPTX_NOUT_27(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_29(a, t, ...)                                              \
  MMPTX_NOUT_28(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_30(a, t, ...)                                              \
  MMPTX_NOUT_29(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_31(a, t, ...)                                              \
  MMPTX_NOUT_30(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_32(a, t, ...)                                              \
  MMPTX_NOUT_31(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_33(a, t, ...)                                              \
  MMPTX_NOUT_32(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_34(a, t, ...)                                              \
  MMPTX_NOUT_33(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_35(a, t, ...)                                              \
  MMPTX_NOUT_34(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_36(a, t, ...)                                              \
  MMPTX_NOUT_35(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_37(a, t, ...)                                              \
  MMPTX_NOUT_36(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_38(a, t, ...)                                              \
  MMPTX_NOUT_37(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_39(a, t, ...)                                              \
  MMPTX_NOUT_38(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_40(a, t, ...)                                              \
  MMPTX_NOUT_39(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_41(a, t, ...)                                              \
  MMPTX_NOUT_40(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_42(a, t, ...)                                              \
  MMPTX_NOUT_41(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_43(a, t, ...)                                              \
  MMPTX_NOUT_42(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_44(a, t, ...)                                              \
  MMPTX_NOUT_43(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_45(a, t, ...)                                              \
  MMPTX_NOUT_44(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_46(a, t, ...)                                              \
  MMPTX_NOUT_45(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_47(a, t, ...)                                              \
  MMPTX_NOUT_46(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_48(a, t, ...)                                              \
  MMPTX_NOUT_47(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_49(a, t, ...)                                              \
  MMPTX_NOUT_48(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_50(a, t, ...)                                              \
  MMPTX_NOUT_49(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_51(a, t, ...)                                              \
  MMPTX_NOUT_50(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_52(a, t, ...)                                              \
  MMPTX_NOUT_51(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_53(a, t, ...)                                              \
  MMPTX_NOUT_52(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_54(a, t, ...)                                              \
  MMPTX_NOUT_53(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_55(a, t, ...)                                              \
  MMPTX_NOUT_54(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_56(a, t, ...)                                              \
  MMPTX_NOUT_55(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_57(a, t, ...)                                              \
  MMPTX_NOUT_56(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_58(a, t, ...)                                              \
  MMPTX_NOUT_57(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_59(a, t, ...)                                              \
  MMPTX_NOUT_58(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_60(a, t, ...)                                              \
  MMPTX_NOUT_59(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_61(a, t, ...)                                              \
  MMPTX_NOUT_60(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_62(a, t, ...)                                              \
  MMPTX_NOUT_61(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_63(a, t, ...)                                              \
  MMPTX_NOUT_62(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)
#define MMPTX_NOUT_64(a, t, ...)                                              \
  MMPTX_NOUT_63(MMPTX_ADDB_(a, MMPTX_ISOUT_(t)), __VA_ARGS__)

// Enrichment: state (i, next output operand, inputs so far, next input
// operand); the input operands start after the last output.
#define MMPTX_ENR_(n, nout, ...) MMPTX_ENR_I_(n, nout, __VA_ARGS__)
#define MMPTX_ENR_I_(n, nout, ...) MMPTX_ENR_##n(0, 0, 0, nout, __VA_ARGS__)
#define MMPTX_ENR_1(i, o, ni, n, t) MMPTX_MK_(i, o, ni, n, t)
#define MMPTX_ENR_2(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_1(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_3(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_2(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_4(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_3(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_5(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_4(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_6(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_5(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_7(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_6(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_8(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_7(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_9(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_8(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_10(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_9(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_11(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_10(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_12(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_11(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_13(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_12(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_14(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_13(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_15(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_14(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_16(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_15(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_17(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_16(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_18(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_17(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_19(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_18(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_20(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_19(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_21(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_20(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_22(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_21(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_23(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_22(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_24(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_23(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_25(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_24(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_26(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_25(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_27(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_26(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_28(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_27(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_29(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_28(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_30(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_29(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_31(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_30(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_32(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_31(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_33(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_32(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_34(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_33(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_35(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_34(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_36(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_35(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_37(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_36(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_38(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_37(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_39(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_38(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_40(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_39(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_41(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_40(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_42(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_41(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_43(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_42(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_44(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_43(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_45(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_44(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_46(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_45(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_47(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_46(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_48(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_47(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_49(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_48(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_50(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_49(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_51(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_50(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_52(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_51(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_53(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_52(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_54(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_53(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_55(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_54(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_56(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_55(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_57(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_56(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_58(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_57(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_59(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_58(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_60(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_59(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_61(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_60(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_62(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_61(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_63(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_62(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_ENR_64(i, o, ni, n, t, ...)                                      \
  MMPTX_MK_(i, o, ni, n, t),                                                   \
      MMPTX_ENR_63(MMPTX_INC_(i), MMPTX_ADDB_(o, MMPTX_ISOUT_(t)),               \
                  MMPTX_ADDB_(ni, MMPTX_ISIN_(t)),                              \
                  MMPTX_ADDB_(n, MMPTX_ISIN_(t)), __VA_ARGS__)
#define MMPTX_MK_(i, o, ni, n, t)                                              \
  MMPTX_MK_X_((i, o, ni, n, MMPTX_ISOUT_(t), MMPTX_UNPAREN_ t))
#define MMPTX_UNPAREN_(...) __VA_ARGS__
#define MMPTX_MK_X_(args) MMPTX_MK_I_ args
#define MMPTX_MK_I_(i, o, ni, n, isout, k, Ts, ls, e, reg, mov, c, bind)        \
  (k, Ts, ls, e, reg, mov, c, bind, i, MMPTX_SEL_(isout, o, n),                \
   MMPTX_SEL_(isout, MMPTX_BOOL_(o), MMPTX_BOOL_(ni)))

// For each enriched tuple t: M t.
#define MMPTX_FE_(n, M, ...) MMPTX_FE_I_(n, M, __VA_ARGS__)
#define MMPTX_FE_I_(n, M, ...) MMPTX_FE_##n(M, __VA_ARGS__)
#define MMPTX_FE_1(M, t) M t
#define MMPTX_FE_2(M, t, ...) M t MMPTX_FE_1(M, __VA_ARGS__)
#define MMPTX_FE_3(M, t, ...) M t MMPTX_FE_2(M, __VA_ARGS__)
#define MMPTX_FE_4(M, t, ...) M t MMPTX_FE_3(M, __VA_ARGS__)
#define MMPTX_FE_5(M, t, ...) M t MMPTX_FE_4(M, __VA_ARGS__)
#define MMPTX_FE_6(M, t, ...) M t MMPTX_FE_5(M, __VA_ARGS__)
#define MMPTX_FE_7(M, t, ...) M t MMPTX_FE_6(M, __VA_ARGS__)
#define MMPTX_FE_8(M, t, ...) M t MMPTX_FE_7(M, __VA_ARGS__)
#define MMPTX_FE_9(M, t, ...) M t MMPTX_FE_8(M, __VA_ARGS__)
#define MMPTX_FE_10(M, t, ...) M t MMPTX_FE_9(M, __VA_ARGS__)
#define MMPTX_FE_11(M, t, ...) M t MMPTX_FE_10(M, __VA_ARGS__)
#define MMPTX_FE_12(M, t, ...) M t MMPTX_FE_11(M, __VA_ARGS__)
#define MMPTX_FE_13(M, t, ...) M t MMPTX_FE_12(M, __VA_ARGS__)
#define MMPTX_FE_14(M, t, ...) M t MMPTX_FE_13(M, __VA_ARGS__)
#define MMPTX_FE_15(M, t, ...) M t MMPTX_FE_14(M, __VA_ARGS__)
#define MMPTX_FE_16(M, t, ...) M t MMPTX_FE_15(M, __VA_ARGS__)
#define MMPTX_FE_17(M, t, ...) M t MMPTX_FE_16(M, __VA_ARGS__)
#define MMPTX_FE_18(M, t, ...) M t MMPTX_FE_17(M, __VA_ARGS__)
#define MMPTX_FE_19(M, t, ...) M t MMPTX_FE_18(M, __VA_ARGS__)
#define MMPTX_FE_20(M, t, ...) M t MMPTX_FE_19(M, __VA_ARGS__)
#define MMPTX_FE_21(M, t, ...) M t MMPTX_FE_20(M, __VA_ARGS__)
#define MMPTX_FE_22(M, t, ...) M t MMPTX_FE_21(M, __VA_ARGS__)
#define MMPTX_FE_23(M, t, ...) M t MMPTX_FE_22(M, __VA_ARGS__)
#define MMPTX_FE_24(M, t, ...) M t MMPTX_FE_23(M, __VA_ARGS__)
#define MMPTX_FE_25(M, t, ...) M t MMPTX_FE_24(M, __VA_ARGS__)
#define MMPTX_FE_26(M, t, ...) M t MMPTX_FE_25(M, __VA_ARGS__)
#define MMPTX_FE_27(M, t, ...) M t MMPTX_FE_26(M, __VA_ARGS__)
#define MMPTX_FE_28(M, t, ...) M t MMPTX_FE_27(M, __VA_ARGS__)
#define MMPTX_FE_29(M, t, ...) M t MMPTX_FE_28(M, __VA_ARGS__)
#define MMPTX_FE_30(M, t, ...) M t MMPTX_FE_29(M, __VA_ARGS__)
#define MMPTX_FE_31(M, t, ...) M t MMPTX_FE_30(M, __VA_ARGS__)
#define MMPTX_FE_32(M, t, ...) M t MMPTX_FE_31(M, __VA_ARGS__)
#define MMPTX_FE_33(M, t, ...) M t MMPTX_FE_32(M, __VA_ARGS__)
#define MMPTX_FE_34(M, t, ...) M t MMPTX_FE_33(M, __VA_ARGS__)
#define MMPTX_FE_35(M, t, ...) M t MMPTX_FE_34(M, __VA_ARGS__)
#define MMPTX_FE_36(M, t, ...) M t MMPTX_FE_35(M, __VA_ARGS__)
#define MMPTX_FE_37(M, t, ...) M t MMPTX_FE_36(M, __VA_ARGS__)
#define MMPTX_FE_38(M, t, ...) M t MMPTX_FE_37(M, __VA_ARGS__)
#define MMPTX_FE_39(M, t, ...) M t MMPTX_FE_38(M, __VA_ARGS__)
#define MMPTX_FE_40(M, t, ...) M t MMPTX_FE_39(M, __VA_ARGS__)
#define MMPTX_FE_41(M, t, ...) M t MMPTX_FE_40(M, __VA_ARGS__)
#define MMPTX_FE_42(M, t, ...) M t MMPTX_FE_41(M, __VA_ARGS__)
#define MMPTX_FE_43(M, t, ...) M t MMPTX_FE_42(M, __VA_ARGS__)
#define MMPTX_FE_44(M, t, ...) M t MMPTX_FE_43(M, __VA_ARGS__)
#define MMPTX_FE_45(M, t, ...) M t MMPTX_FE_44(M, __VA_ARGS__)
#define MMPTX_FE_46(M, t, ...) M t MMPTX_FE_45(M, __VA_ARGS__)
#define MMPTX_FE_47(M, t, ...) M t MMPTX_FE_46(M, __VA_ARGS__)
#define MMPTX_FE_48(M, t, ...) M t MMPTX_FE_47(M, __VA_ARGS__)
#define MMPTX_FE_49(M, t, ...) M t MMPTX_FE_48(M, __VA_ARGS__)
#define MMPTX_FE_50(M, t, ...) M t MMPTX_FE_49(M, __VA_ARGS__)
#define MMPTX_FE_51(M, t, ...) M t MMPTX_FE_50(M, __VA_ARGS__)
#define MMPTX_FE_52(M, t, ...) M t MMPTX_FE_51(M, __VA_ARGS__)
#define MMPTX_FE_53(M, t, ...) M t MMPTX_FE_52(M, __VA_ARGS__)
#define MMPTX_FE_54(M, t, ...) M t MMPTX_FE_53(M, __VA_ARGS__)
#define MMPTX_FE_55(M, t, ...) M t MMPTX_FE_54(M, __VA_ARGS__)
#define MMPTX_FE_56(M, t, ...) M t MMPTX_FE_55(M, __VA_ARGS__)
#define MMPTX_FE_57(M, t, ...) M t MMPTX_FE_56(M, __VA_ARGS__)
#define MMPTX_FE_58(M, t, ...) M t MMPTX_FE_57(M, __VA_ARGS__)
#define MMPTX_FE_59(M, t, ...) M t MMPTX_FE_58(M, __VA_ARGS__)
#define MMPTX_FE_60(M, t, ...) M t MMPTX_FE_59(M, __VA_ARGS__)
#define MMPTX_FE_61(M, t, ...) M t MMPTX_FE_60(M, __VA_ARGS__)
#define MMPTX_FE_62(M, t, ...) M t MMPTX_FE_61(M, __VA_ARGS__)
#define MMPTX_FE_63(M, t, ...) M t MMPTX_FE_62(M, __VA_ARGS__)
#define MMPTX_FE_64(M, t, ...) M t MMPTX_FE_63(M, __VA_ARGS__)

// The lines of the asm statement, one per enriched tuple: the site format's
// line macros (PtxInjectFormat.h, generated from mmptx/Inject/InjectFormat.h).
#define MMPTX_DECL_(k, Ts, ls, e, reg, mov, c, bind, i, op, sep)               \
  MMPTX_FMT_DECL_(reg, i)
#define MMPTX_MOVIN_(k, Ts, ls, e, reg, mov, c, bind, i, op, sep)              \
  MMPTX_MOVIN_I_(k, mov, i, op)
#define MMPTX_MOVIN_I_(k, mov, i, op) MMPTX_FMT_MOVIN_##k(mov, i, op)
#define MMPTX_MARK_(k, Ts, ls, e, reg, mov, c, bind, i, op, sep)               \
  MMPTX_MARK_I_(k, Ts, ls, reg, i)
#define MMPTX_MARK_I_(k, Ts, ls, reg, i)                                       \
  MMPTX_FMT_ARG_(i, MMPTX_FMT_KIND_##k, reg, Ts, ls)
#define MMPTX_MOVOUT_(k, Ts, ls, e, reg, mov, c, bind, i, op, sep)             \
  MMPTX_MOVOUT_I_(k, mov, i, op)
#define MMPTX_MOVOUT_I_(k, mov, i, op) MMPTX_FMT_MOVOUT_##k(mov, i, op)
#define MMPTX_OUTC_(k, Ts, ls, e, reg, mov, c, bind, i, op, sep)               \
  MMPTX_OUTC_I_(k, c, bind, e, sep)
#define MMPTX_OUTC_I_(k, c, bind, e, sep) MMPTX_OUTC_##k(k, c, bind, e, sep)
#define MMPTX_OUTC_mmptx_in(k, c, bind, e, sep)
#define MMPTX_OUTC_mmptx_mod(k, c, bind, e, sep)                               \
  MMPTX_COMMA_IF_(sep) MMPTX_KPFX_##k c(bind(MMPTX_KQUAL_##k, e))
#define MMPTX_OUTC_mmptx_out(k, c, bind, e, sep)                               \
  MMPTX_OUTC_mmptx_mod(k, c, bind, e, sep)
#define MMPTX_INC_OPND_(k, Ts, ls, e, reg, mov, c, bind, i, op, sep)           \
  MMPTX_INCL_I_(k, c, bind, e, sep)
#define MMPTX_INCL_I_(k, c, bind, e, sep) MMPTX_INCL_##k(c, bind, e, sep)
#define MMPTX_INCL_mmptx_in(c, bind, e, sep)                                   \
  MMPTX_COMMA_IF_(sep) c(bind(const, e))
#define MMPTX_INCL_mmptx_mod(c, bind, e, sep)
#define MMPTX_INCL_mmptx_out(c, bind, e, sep)

// The site: count operands, count outputs, enrich, emit.
#define MMPTX_INJ_A_(name, n, ...)                                             \
  MMPTX_INJ_B_(name, n, MMPTX_NOUT_(n, __VA_ARGS__), __VA_ARGS__)
#define MMPTX_INJ_B_(name, n, nout, ...)                                       \
  MMPTX_INJ_C_(name, n, MMPTX_ENR_(n, nout, __VA_ARGS__))
#define MMPTX_INJ_C_(name, n, ...)                                             \
  do {                                                                         \
    static_assert(mmptx_site_name_ok_(name),                                   \
                  "PTX_INJECT: the site name must not be empty or contain "    \
                  "blanks, '%' or quotes");                                    \
    MMPTX_FE_(n, MMPTX_CHECK_, __VA_ARGS__)                                    \
    asm volatile(MMPTX_FMT_SITE_(name, n,                                      \
                                 MMPTX_FE_(n, MMPTX_DECL_, __VA_ARGS__),       \
                                 MMPTX_FE_(n, MMPTX_MOVIN_, __VA_ARGS__),      \
                                 MMPTX_FE_(n, MMPTX_MARK_, __VA_ARGS__),       \
                                 MMPTX_FE_(n, MMPTX_MOVOUT_, __VA_ARGS__))     \
                 : MMPTX_FE_(n, MMPTX_OUTC_, __VA_ARGS__)                      \
                 : MMPTX_FE_(n, MMPTX_INC_OPND_, __VA_ARGS__));                \
  } while (0)

// Names and labels are copied into the asm text, where '%' would start an
// operand reference and a quote would end the string: reject them at compile
// time instead of emitting a garbled marker. Neither may contain blanks
// either: each is one field of its marker (write `c(i,j)`, or label the
// operand: PTX_IN(F32, cij, c(i, j))).
__host__ __device__ constexpr bool mmptx_marker_text_ok_(const char *s,
                                                        bool isName) {
  return *s == 0 ? true
         : (*s == '%' || *s == '"' || (isName && (*s == ' ' || *s == '\t')))
             ? false
             : mmptx_marker_text_ok_(s + 1, isName);
}
__host__ __device__ constexpr bool mmptx_site_name_ok_(const char *s) {
  return *s != 0 && mmptx_marker_text_ok_(s, true);
}
#define MMPTX_CHECK_(k, Ts, ls, e, reg, mov, c, bind, i, op, sep)              \
  static_assert(mmptx_marker_text_ok_(ls, true),                               \
                "PTX_INJECT: operand label " ls " contains a blank, '%' or a " \
                "quote; write it without blanks or name it with the "         \
                "3-argument form PTX_IN(TYPE, label, expr)");

#endif // MMPTX_CUDA_PTX_INJECT_H
