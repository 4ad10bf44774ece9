//===- InjectTypes.td - Default inject types -----------*- tablegen -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The inject types every mmptx build knows. The device header
// (mmptx/cuda/ptx_inject.h), the annotate rewriter and the inject-site
// parser all read their type tables generated from this file.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_INJECTTYPES_TD
#define MMPTX_INJECTTYPES_TD

include "InjectBase.td"

def F16    : InjectType<"F16",    "b16", "b16", "h", BindU16>;
def F16X2  : InjectType<"F16X2",  "b32", "b32", "r", BindU32>;
def BF16   : InjectType<"BF16",   "b16", "b16", "h", BindU16>;
def BF16X2 : InjectType<"BF16X2", "b32", "b32", "r", BindU32>;
def S32    : InjectType<"S32",    "s32", "s32", "r", BindValue>;
def U32    : InjectType<"U32",    "u32", "u32", "r", BindValue>;
def S64    : InjectType<"S64",    "s64", "s64", "l", BindValue>;
def U64    : InjectType<"U64",    "u64", "u64", "l", BindValue>;
def F32    : InjectType<"F32",    "f32", "f32", "f", BindValue>;
def F64    : InjectType<"F64",    "f64", "f64", "d", BindValue>;
def B32    : InjectType<"B32",    "b32", "b32", "r", BindValue>;
def B64    : InjectType<"B64",    "b64", "b64", "l", BindValue>;
// The words of a curand Philox4x32-10 state (see PTX_PHILOX).
def PHILOX : InjectType<"PHILOX", "u32", "u32", "r", BindValue>;

#endif // MMPTX_INJECTTYPES_TD
