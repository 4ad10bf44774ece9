//===- StackInstrs.td - Default Stack PTX instruction set -*- tablegen -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The instruction set every mmptx build knows: the reference set (its 9
// stacks, 15 arg types, 38 instructions and 32 special registers) first,
// then the extensions (f64, b32, bf16, u64; full f32/f64 arithmetic, integer
// and bitwise ops, setp/selp variants, conversions, f16/bf16 x2 forms, more
// mma shapes). Every record assembles for each target from its MinSm on
// (ptxas 13 checked at sm_75, 80, 86, 89 and 90; the f16 arithmetic's
// sm_53 and tanh's sm_75 come from the ISA's target notes, since ptxas 13
// assembles nothing older than sm_75).
//
// Word numbering. The reference ships two descriptions of this set that
// number it differently: the one its examples, documentation and generated
// default tables use (examples/type_descriptions/stack_ptx_descriptions.json,
// the "examples" numbering) and the one its own tests use
// (tests/stack_ptx_descriptions.json, the "tests" numbering). mmptx numbers
// stacks, arg types, instructions and special registers as the examples
// description does, so the reference's 8-byte words keep their meaning
// (test/Stack/reference-words.test) and its serialised default tables equal
// these entry for entry, except that %gridid (a .u64 register) is read as
// u64 here and as u32 there (unittests/Serialize/ReferenceWireTest.cpp):
//
//   stack     examples  tests        stack     examples  tests
//   F32       0         0            TF32      4         5
//   U32       1         1            F16       5         6
//   S32       2         3            F16X2     6         7
//   PRED      3         4            U8        7         8
//   PHILOX    8         2
//
// Words written against the tests numbering are translated with
// `mmptx-stack --word-numbering=tests` (stack::convertWordNumbering), which
// renumbers the stack index of CONSTANT, META and STORE words; instruction
// and special-register indices are kept as they are.
//
// Each instruction is preceded by a `///` line quoting its PTX ISA syntax.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_STACKINSTRS_TD
#define MMPTX_STACKINSTRS_TD

include "StackBase.td"

//===----------------------------------------------------------------------===//
// Stacks (the reference's examples numbering, then the extensions)
//===----------------------------------------------------------------------===//

def StackF32    : StackType<"F32", "f32">;
def StackU32    : StackType<"U32", "u32">;
def StackS32    : StackType<"S32", "s32">;
def StackPRED   : StackType<"PRED", "pred">;
def StackTF32   : StackType<"TF32", "b32"> {
  let InlineLiterals = 0;
}
def StackF16    : StackType<"F16", "b16"> {
  let InlineLiterals = 0;
}
def StackF16X2  : StackType<"F16X2", "b32"> {
  let InlineLiterals = 0;
}
def StackU8     : StackType<"U8", "u8">;
def StackPHILOX : StackType<"PHILOX", "u32">;
def StackF64    : StackType<"F64", "f64">;
def StackB32    : StackType<"B32", "b32">;
def StackBF16   : StackType<"BF16", "b16"> {
  let InlineLiterals = 0;
}
def StackBF16X2 : StackType<"BF16X2", "b32"> {
  let InlineLiterals = 0;
}
def StackU64    : StackType<"U64", "u64">;

//===----------------------------------------------------------------------===//
// Operand shapes (the reference's 15 in its examples order, then ours)
//===----------------------------------------------------------------------===//

def ArgF32     : ArgType<StackF32, 0>;
def ArgTF32    : ArgType<StackTF32, 0>;
def ArgV1TF32  : ArgType<StackTF32, 1>;
def ArgV2TF32  : ArgType<StackTF32, 2>;
def ArgV4F32   : ArgType<StackF32, 4>;
def ArgS32     : ArgType<StackS32, 0>;
def ArgU32     : ArgType<StackU32, 0>;
def ArgV4U32   : ArgType<StackU32, 4>;
def ArgPRED    : ArgType<StackPRED, 0>;
def ArgF16     : ArgType<StackF16, 0>;
def ArgF16X2   : ArgType<StackF16X2, 0>;
def ArgV2F16   : ArgType<StackF16, 2>;
def ArgU8      : ArgType<StackU8, 0>;
def ArgV4U8    : ArgType<StackU8, 4>;
def ArgPHILOX  : ArgType<StackPHILOX, 0>;
def ArgV4TF32  : ArgType<StackTF32, 4>;
def ArgF64     : ArgType<StackF64, 0>;
def ArgB32     : ArgType<StackB32, 0>;
def ArgBF16    : ArgType<StackBF16, 0>;
def ArgBF16X2  : ArgType<StackBF16X2, 0>;
def ArgU64     : ArgType<StackU64, 0>;
def ArgV2F16X2 : ArgType<StackF16X2, 2>;
def ArgV4F16X2 : ArgType<StackF16X2, 4>;
def ArgV2BF16  : ArgType<StackBF16, 2>;

//===----------------------------------------------------------------------===//
// The reference set
//===----------------------------------------------------------------------===//

/// add.u32 d, a, b;
def AddU32 : PtxInstr<"add.u32", [ArgU32, ArgU32], [ArgU32]>;
/// sub.u32 d, a, b;
def SubU32 : PtxInstr<"sub.u32", [ArgU32, ArgU32], [ArgU32]>;
/// mul.lo.u32 d, a, b;
def MulLoU32 : PtxInstr<"mul.lo.u32", [ArgU32, ArgU32], [ArgU32]>;
/// mad.lo.u32 d, a, b, c;
def MadLoU32 : PtxInstr<"mad.lo.u32", [ArgU32, ArgU32, ArgU32], [ArgU32]>;
/// copysign.f32 d, a, b;
def CopysignF32 : PtxInstr<"copysign.f32", [ArgF32, ArgF32], [ArgF32]>;
/// add{.rnd}{.ftz}{.sat}.f32 d, a, b;
def AddFtzF32 : PtxInstr<"add.ftz.f32", [ArgF32, ArgF32], [ArgF32]>;
/// sub{.rnd}{.ftz}{.sat}.f32 d, a, b;
def SubFtzF32 : PtxInstr<"sub.ftz.f32", [ArgF32, ArgF32], [ArgF32]>;
/// mul{.rnd}{.ftz}{.sat}.f32 d, a, b;
def MulFtzF32 : PtxInstr<"mul.ftz.f32", [ArgF32, ArgF32], [ArgF32]>;
/// fma.rnd{.ftz}{.sat}.f32 d, a, b, c;
def FmaRnFtzF32 : PtxInstr<"fma.rn.ftz.f32", [ArgF32, ArgF32, ArgF32],
                           [ArgF32]>;
/// div.approx{.ftz}.f32 d, a, b;
def DivApproxFtzF32 : PtxInstr<"div.approx.ftz.f32", [ArgF32, ArgF32],
                               [ArgF32]>;
/// abs{.ftz}.f32 d, a;
def AbsFtzF32 : PtxInstr<"abs.ftz.f32", [ArgF32], [ArgF32]>;
/// neg{.ftz}.f32 d, a;
def NegFtzF32 : PtxInstr<"neg.ftz.f32", [ArgF32], [ArgF32]>;
/// min{.ftz}{.NaN}.f32 d, a, b;
def MinFtzF32 : PtxInstr<"min.ftz.f32", [ArgF32, ArgF32], [ArgF32]>;
/// max{.ftz}{.NaN}.f32 d, a, b;
def MaxFtzF32 : PtxInstr<"max.ftz.f32", [ArgF32, ArgF32], [ArgF32]>;
/// rcp.approx{.ftz}.f32 d, a;
def RcpApproxFtzF32 : PtxInstr<"rcp.approx.ftz.f32", [ArgF32], [ArgF32]>;
/// sqrt.approx{.ftz}.f32 d, a;
def SqrtApproxFtzF32 : PtxInstr<"sqrt.approx.ftz.f32", [ArgF32], [ArgF32]>;
/// rsqrt.approx{.ftz}.f32 d, a;
def RsqrtApproxFtzF32 : PtxInstr<"rsqrt.approx.ftz.f32", [ArgF32], [ArgF32]>;
/// sin.approx{.ftz}.f32 d, a;
def SinApproxFtzF32 : PtxInstr<"sin.approx.ftz.f32", [ArgF32], [ArgF32]>;
/// cos.approx{.ftz}.f32 d, a;
def CosApproxFtzF32 : PtxInstr<"cos.approx.ftz.f32", [ArgF32], [ArgF32]>;
/// lg2.approx{.ftz}.f32 d, a;
def Lg2ApproxFtzF32 : PtxInstr<"lg2.approx.ftz.f32", [ArgF32], [ArgF32]>;
/// ex2.approx{.ftz}.f32 d, a;
def Ex2ApproxFtzF32 : PtxInstr<"ex2.approx.ftz.f32", [ArgF32], [ArgF32]>;
/// tanh.approx.f32 d, a;
def TanhApproxF32 : PtxInstr<"tanh.approx.f32", [ArgF32], [ArgF32]> {
  let MinSm = 75;
}
/// setp.CmpOp{.ftz}.f32 p, a, b;
def SetpLtFtzF32 : PtxInstr<"setp.lt.ftz.f32", [ArgF32, ArgF32], [ArgPRED]>;
/// setp.CmpOp.u32 p, a, b;
def SetpEqU32 : PtxInstr<"setp.eq.u32", [ArgU32, ArgU32], [ArgPRED]>;
/// setp.CmpOp.u32 p, a, b;
def SetpNeU32 : PtxInstr<"setp.ne.u32", [ArgU32, ArgU32], [ArgPRED]>;
/// selp.f32 d, a, b, c;   // d = c ? a : b
def SelpF32 : PtxInstr<"selp.f32", [ArgF32, ArgF32, ArgPRED], [ArgF32]>;
/// cvt.rna.tf32.f32 d, a;
def CvtRnaTf32F32 : PtxInstr<"cvt.rna.tf32.f32", [ArgF32], [ArgTF32]> {
  let MinSm = 80;
}
/// cvt.rn.f32.u32 d, a;
def CvtRnF32U32 : PtxInstr<"cvt.rn.f32.u32", [ArgU32], [ArgF32]>;
/// mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 d, a, b, c;
def MmaM16N8K4Tf32 : PtxInstr<"mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32",
                              [ArgV2TF32, ArgV1TF32, ArgV4F32], [ArgV4F32]> {
  let MinSm = 80;
}
/// mov.b32 {d0, d1}, a;   // unpack an f16x2 into two f16
def UnpackF16X2 : PtxInstr<"mov.b32", [ArgF16X2], [ArgV2F16]> {
  let Name = "unpack.f16x2";
}
/// cvt.f32.f16 d, a;
def CvtF32F16 : PtxInstr<"cvt.f32.f16", [ArgF16], [ArgF32]>;
/// mov.b32 {d0, d1, d2, d3}, a;   // unpack a u32 into four u8
def UnpackU32V4U8 : PtxInstr<"mov.b32", [ArgU32], [ArgV4U8]> {
  let Name = "unpack.u32.v4u8";
}
/// cvt.u32.u8 d, a;
def CvtU32U8 : PtxInstr<"cvt.u32.u8", [ArgU8], [ArgU32]>;
/// add.u32 d, a, b;   // on Philox state words
def PhiloxAdd : PtxInstr<"add.u32", [ArgPHILOX, ArgPHILOX], [ArgPHILOX]> {
  let Name = "philox.add.u32";
}
/// xor.b32 d, a, b;   // on Philox state words
def PhiloxXor : PtxInstr<"xor.b32", [ArgPHILOX, ArgPHILOX], [ArgPHILOX]> {
  let Name = "philox.xor.b32";
}
/// mov.b32 d, a;   // Philox state word to U32
def PhiloxToU32 : PtxInstr<"mov.b32", [ArgPHILOX], [ArgU32]> {
  let Name = "philox.to.u32";
}
/// mul.lo.u32 d, a, b;   // on Philox state words
def PhiloxMulLo : PtxInstr<"mul.lo.u32", [ArgPHILOX, ArgPHILOX], [ArgPHILOX]> {
  let Name = "philox.mul.lo.u32";
}
/// mul.hi.u32 d, a, b;   // on Philox state words
def PhiloxMulHi : PtxInstr<"mul.hi.u32", [ArgPHILOX, ArgPHILOX], [ArgPHILOX]> {
  let Name = "philox.mul.hi.u32";
}

//===----------------------------------------------------------------------===//
// f32, IEEE-rounded and approximate
//===----------------------------------------------------------------------===//

/// add{.rnd}{.ftz}{.sat}.f32 d, a, b;
def AddF32 : PtxInstr<"add.f32", [ArgF32, ArgF32], [ArgF32]>;
/// sub{.rnd}{.ftz}{.sat}.f32 d, a, b;
def SubF32 : PtxInstr<"sub.f32", [ArgF32, ArgF32], [ArgF32]>;
/// mul{.rnd}{.ftz}{.sat}.f32 d, a, b;
def MulF32 : PtxInstr<"mul.f32", [ArgF32, ArgF32], [ArgF32]>;
/// fma.rnd{.ftz}{.sat}.f32 d, a, b, c;
def FmaRnF32 : PtxInstr<"fma.rn.f32", [ArgF32, ArgF32, ArgF32], [ArgF32]>;
/// div.rnd{.ftz}.f32 d, a, b;
def DivRnF32 : PtxInstr<"div.rn.f32", [ArgF32, ArgF32], [ArgF32]>;
/// div.approx{.ftz}.f32 d, a, b;
def DivApproxF32 : PtxInstr<"div.approx.f32", [ArgF32, ArgF32], [ArgF32]>;
/// abs{.ftz}.f32 d, a;
def AbsF32 : PtxInstr<"abs.f32", [ArgF32], [ArgF32]>;
/// neg{.ftz}.f32 d, a;
def NegF32 : PtxInstr<"neg.f32", [ArgF32], [ArgF32]>;
/// min{.ftz}{.NaN}.f32 d, a, b;
def MinF32 : PtxInstr<"min.f32", [ArgF32, ArgF32], [ArgF32]>;
/// max{.ftz}{.NaN}.f32 d, a, b;
def MaxF32 : PtxInstr<"max.f32", [ArgF32, ArgF32], [ArgF32]>;
/// rcp.rnd{.ftz}.f32 d, a;
def RcpRnF32 : PtxInstr<"rcp.rn.f32", [ArgF32], [ArgF32]>;
/// sqrt.rnd{.ftz}.f32 d, a;
def SqrtRnF32 : PtxInstr<"sqrt.rn.f32", [ArgF32], [ArgF32]>;
/// rcp.approx{.ftz}.f32 d, a;
def RcpApproxF32 : PtxInstr<"rcp.approx.f32", [ArgF32], [ArgF32]>;
/// sqrt.approx{.ftz}.f32 d, a;
def SqrtApproxF32 : PtxInstr<"sqrt.approx.f32", [ArgF32], [ArgF32]>;
/// rsqrt.approx{.ftz}.f32 d, a;
def RsqrtApproxF32 : PtxInstr<"rsqrt.approx.f32", [ArgF32], [ArgF32]>;
/// sin.approx{.ftz}.f32 d, a;
def SinApproxF32 : PtxInstr<"sin.approx.f32", [ArgF32], [ArgF32]>;
/// cos.approx{.ftz}.f32 d, a;
def CosApproxF32 : PtxInstr<"cos.approx.f32", [ArgF32], [ArgF32]>;
/// lg2.approx{.ftz}.f32 d, a;
def Lg2ApproxF32 : PtxInstr<"lg2.approx.f32", [ArgF32], [ArgF32]>;
/// ex2.approx{.ftz}.f32 d, a;
def Ex2ApproxF32 : PtxInstr<"ex2.approx.f32", [ArgF32], [ArgF32]>;
/// setp.CmpOp{.ftz}.f32 p, a, b;
def SetpEqF32 : PtxInstr<"setp.eq.f32", [ArgF32, ArgF32], [ArgPRED]>;
/// setp.CmpOp{.ftz}.f32 p, a, b;
def SetpNeF32 : PtxInstr<"setp.ne.f32", [ArgF32, ArgF32], [ArgPRED]>;
/// setp.CmpOp{.ftz}.f32 p, a, b;
def SetpLtF32 : PtxInstr<"setp.lt.f32", [ArgF32, ArgF32], [ArgPRED]>;
/// setp.CmpOp{.ftz}.f32 p, a, b;
def SetpLeF32 : PtxInstr<"setp.le.f32", [ArgF32, ArgF32], [ArgPRED]>;
/// setp.CmpOp{.ftz}.f32 p, a, b;
def SetpGtF32 : PtxInstr<"setp.gt.f32", [ArgF32, ArgF32], [ArgPRED]>;
/// setp.CmpOp{.ftz}.f32 p, a, b;
def SetpGeF32 : PtxInstr<"setp.ge.f32", [ArgF32, ArgF32], [ArgPRED]>;
/// setp.CmpOp.BoolOp.f32 p|q, a, b, c;   // p = (a < b) & c, q = !(a < b) & c
def SetpLtAndF32 : PtxInstr<"setp.lt.and.f32", [ArgF32, ArgF32, ArgPRED],
                            [ArgPRED, ArgPRED]>;

//===----------------------------------------------------------------------===//
// f64
//===----------------------------------------------------------------------===//

/// add{.rnd}.f64 d, a, b;
def AddF64 : PtxInstr<"add.f64", [ArgF64, ArgF64], [ArgF64]>;
/// sub{.rnd}.f64 d, a, b;
def SubF64 : PtxInstr<"sub.f64", [ArgF64, ArgF64], [ArgF64]>;
/// mul{.rnd}.f64 d, a, b;
def MulF64 : PtxInstr<"mul.f64", [ArgF64, ArgF64], [ArgF64]>;
/// fma.rnd.f64 d, a, b, c;
def FmaRnF64 : PtxInstr<"fma.rn.f64", [ArgF64, ArgF64, ArgF64], [ArgF64]>;
/// div.rnd.f64 d, a, b;
def DivRnF64 : PtxInstr<"div.rn.f64", [ArgF64, ArgF64], [ArgF64]>;
/// abs.f64 d, a;
def AbsF64 : PtxInstr<"abs.f64", [ArgF64], [ArgF64]>;
/// neg.f64 d, a;
def NegF64 : PtxInstr<"neg.f64", [ArgF64], [ArgF64]>;
/// min.f64 d, a, b;
def MinF64 : PtxInstr<"min.f64", [ArgF64, ArgF64], [ArgF64]>;
/// max.f64 d, a, b;
def MaxF64 : PtxInstr<"max.f64", [ArgF64, ArgF64], [ArgF64]>;
/// sqrt.rnd.f64 d, a;
def SqrtRnF64 : PtxInstr<"sqrt.rn.f64", [ArgF64], [ArgF64]>;
/// rcp.rnd.f64 d, a;
def RcpRnF64 : PtxInstr<"rcp.rn.f64", [ArgF64], [ArgF64]>;
/// setp.CmpOp.f64 p, a, b;
def SetpLtF64 : PtxInstr<"setp.lt.f64", [ArgF64, ArgF64], [ArgPRED]>;
/// selp.f64 d, a, b, c;
def SelpF64 : PtxInstr<"selp.f64", [ArgF64, ArgF64, ArgPRED], [ArgF64]>;

//===----------------------------------------------------------------------===//
// u32 / s32 / b32 integers
//===----------------------------------------------------------------------===//

/// mul.hi.u32 d, a, b;
def MulHiU32 : PtxInstr<"mul.hi.u32", [ArgU32, ArgU32], [ArgU32]>;
/// div.u32 d, a, b;
def DivU32 : PtxInstr<"div.u32", [ArgU32, ArgU32], [ArgU32]>;
/// rem.u32 d, a, b;
def RemU32 : PtxInstr<"rem.u32", [ArgU32, ArgU32], [ArgU32]>;
/// min.u32 d, a, b;
def MinU32 : PtxInstr<"min.u32", [ArgU32, ArgU32], [ArgU32]>;
/// max.u32 d, a, b;
def MaxU32 : PtxInstr<"max.u32", [ArgU32, ArgU32], [ArgU32]>;
/// and.b32 d, a, b;
def AndU32 : PtxInstr<"and.b32", [ArgU32, ArgU32], [ArgU32]> {
  let Name = "and.u32";
}
/// or.b32 d, a, b;
def OrU32 : PtxInstr<"or.b32", [ArgU32, ArgU32], [ArgU32]> {
  let Name = "or.u32";
}
/// xor.b32 d, a, b;
def XorU32 : PtxInstr<"xor.b32", [ArgU32, ArgU32], [ArgU32]> {
  let Name = "xor.u32";
}
/// not.b32 d, a;
def NotU32 : PtxInstr<"not.b32", [ArgU32], [ArgU32]> {
  let Name = "not.u32";
}
/// shl.b32 d, a, b;
def ShlU32 : PtxInstr<"shl.b32", [ArgU32, ArgU32], [ArgU32]> {
  let Name = "shl.u32";
}
/// shr.u32 d, a, b;
def ShrU32 : PtxInstr<"shr.u32", [ArgU32, ArgU32], [ArgU32]>;
/// setp.CmpOp.u32 p, a, b;
def SetpLtU32 : PtxInstr<"setp.lt.u32", [ArgU32, ArgU32], [ArgPRED]>;
/// setp.CmpOp.u32 p, a, b;
def SetpLeU32 : PtxInstr<"setp.le.u32", [ArgU32, ArgU32], [ArgPRED]>;
/// setp.CmpOp.u32 p, a, b;
def SetpGtU32 : PtxInstr<"setp.gt.u32", [ArgU32, ArgU32], [ArgPRED]>;
/// setp.CmpOp.u32 p, a, b;
def SetpGeU32 : PtxInstr<"setp.ge.u32", [ArgU32, ArgU32], [ArgPRED]>;
/// selp.u32 d, a, b, c;
def SelpU32 : PtxInstr<"selp.u32", [ArgU32, ArgU32, ArgPRED], [ArgU32]>;

/// add.s32 d, a, b;
def AddS32 : PtxInstr<"add.s32", [ArgS32, ArgS32], [ArgS32]>;
/// sub.s32 d, a, b;
def SubS32 : PtxInstr<"sub.s32", [ArgS32, ArgS32], [ArgS32]>;
/// mul.lo.s32 d, a, b;
def MulLoS32 : PtxInstr<"mul.lo.s32", [ArgS32, ArgS32], [ArgS32]>;
/// mul.hi.s32 d, a, b;
def MulHiS32 : PtxInstr<"mul.hi.s32", [ArgS32, ArgS32], [ArgS32]>;
/// mad.lo.s32 d, a, b, c;
def MadLoS32 : PtxInstr<"mad.lo.s32", [ArgS32, ArgS32, ArgS32], [ArgS32]>;
/// div.s32 d, a, b;
def DivS32 : PtxInstr<"div.s32", [ArgS32, ArgS32], [ArgS32]>;
/// rem.s32 d, a, b;
def RemS32 : PtxInstr<"rem.s32", [ArgS32, ArgS32], [ArgS32]>;
/// min.s32 d, a, b;
def MinS32 : PtxInstr<"min.s32", [ArgS32, ArgS32], [ArgS32]>;
/// max.s32 d, a, b;
def MaxS32 : PtxInstr<"max.s32", [ArgS32, ArgS32], [ArgS32]>;
/// abs.s32 d, a;
def AbsS32 : PtxInstr<"abs.s32", [ArgS32], [ArgS32]>;
/// neg.s32 d, a;
def NegS32 : PtxInstr<"neg.s32", [ArgS32], [ArgS32]>;
/// shr.s32 d, a, b;   // arithmetic shift
def ShrS32 : PtxInstr<"shr.s32", [ArgS32, ArgU32], [ArgS32]>;
/// setp.CmpOp.s32 p, a, b;
def SetpEqS32 : PtxInstr<"setp.eq.s32", [ArgS32, ArgS32], [ArgPRED]>;
/// setp.CmpOp.s32 p, a, b;
def SetpNeS32 : PtxInstr<"setp.ne.s32", [ArgS32, ArgS32], [ArgPRED]>;
/// setp.CmpOp.s32 p, a, b;
def SetpLtS32 : PtxInstr<"setp.lt.s32", [ArgS32, ArgS32], [ArgPRED]>;
/// setp.CmpOp.s32 p, a, b;
def SetpLeS32 : PtxInstr<"setp.le.s32", [ArgS32, ArgS32], [ArgPRED]>;
/// setp.CmpOp.s32 p, a, b;
def SetpGtS32 : PtxInstr<"setp.gt.s32", [ArgS32, ArgS32], [ArgPRED]>;
/// setp.CmpOp.s32 p, a, b;
def SetpGeS32 : PtxInstr<"setp.ge.s32", [ArgS32, ArgS32], [ArgPRED]>;
/// selp.s32 d, a, b, c;
def SelpS32 : PtxInstr<"selp.s32", [ArgS32, ArgS32, ArgPRED], [ArgS32]>;

/// and.b32 d, a, b;
def AndB32 : PtxInstr<"and.b32", [ArgB32, ArgB32], [ArgB32]>;
/// or.b32 d, a, b;
def OrB32 : PtxInstr<"or.b32", [ArgB32, ArgB32], [ArgB32]>;
/// xor.b32 d, a, b;
def XorB32 : PtxInstr<"xor.b32", [ArgB32, ArgB32], [ArgB32]>;
/// not.b32 d, a;
def NotB32 : PtxInstr<"not.b32", [ArgB32], [ArgB32]>;
/// shl.b32 d, a, b;
def ShlB32 : PtxInstr<"shl.b32", [ArgB32, ArgU32], [ArgB32]>;
/// shr.b32 d, a, b;
def ShrB32 : PtxInstr<"shr.b32", [ArgB32, ArgU32], [ArgB32]>;

/// and.pred d, a, b;
def AndPred : PtxInstr<"and.pred", [ArgPRED, ArgPRED], [ArgPRED]>;
/// or.pred d, a, b;
def OrPred : PtxInstr<"or.pred", [ArgPRED, ArgPRED], [ArgPRED]>;
/// xor.pred d, a, b;
def XorPred : PtxInstr<"xor.pred", [ArgPRED, ArgPRED], [ArgPRED]>;
/// not.pred d, a;
def NotPred : PtxInstr<"not.pred", [ArgPRED], [ArgPRED]>;

//===----------------------------------------------------------------------===//
// Conversions between stacks
//===----------------------------------------------------------------------===//

/// cvt.rn.f32.s32 d, a;
def CvtRnF32S32 : PtxInstr<"cvt.rn.f32.s32", [ArgS32], [ArgF32]>;
/// cvt.rzi.s32.f32 d, a;
def CvtRziS32F32 : PtxInstr<"cvt.rzi.s32.f32", [ArgF32], [ArgS32]>;
/// cvt.rzi.u32.f32 d, a;
def CvtRziU32F32 : PtxInstr<"cvt.rzi.u32.f32", [ArgF32], [ArgU32]>;
/// cvt.rni.s32.f32 d, a;
def CvtRniS32F32 : PtxInstr<"cvt.rni.s32.f32", [ArgF32], [ArgS32]>;
/// cvt.f64.f32 d, a;
def CvtF64F32 : PtxInstr<"cvt.f64.f32", [ArgF32], [ArgF64]>;
/// cvt.rn.f32.f64 d, a;
def CvtRnF32F64 : PtxInstr<"cvt.rn.f32.f64", [ArgF64], [ArgF32]>;
/// cvt.rn.f64.s32 d, a;
def CvtRnF64S32 : PtxInstr<"cvt.rn.f64.s32", [ArgS32], [ArgF64]>;
/// cvt.u64.u32 d, a;
def CvtU64U32 : PtxInstr<"cvt.u64.u32", [ArgU32], [ArgU64]>;
/// cvt.u32.u64 d, a;
def CvtU32U64 : PtxInstr<"cvt.u32.u64", [ArgU64], [ArgU32]>;
/// mov.b32 d, a;   // reinterpret f32 bits as u32
def BitsF32ToU32 : PtxInstr<"mov.b32", [ArgF32], [ArgU32]> {
  let Name = "bits.f32.u32";
}
/// mov.b32 d, a;   // reinterpret u32 bits as f32
def BitsU32ToF32 : PtxInstr<"mov.b32", [ArgU32], [ArgF32]> {
  let Name = "bits.u32.f32";
}
/// mov.b32 d, a;   // reinterpret u32 as s32
def BitsU32ToS32 : PtxInstr<"mov.b32", [ArgU32], [ArgS32]> {
  let Name = "bits.u32.s32";
}
/// mov.b32 d, a;   // reinterpret s32 as u32
def BitsS32ToU32 : PtxInstr<"mov.b32", [ArgS32], [ArgU32]> {
  let Name = "bits.s32.u32";
}
/// mov.b32 d, a;   // u32 to untyped bits
def BitsU32ToB32 : PtxInstr<"mov.b32", [ArgU32], [ArgB32]> {
  let Name = "bits.u32.b32";
}
/// mov.b32 d, a;   // untyped bits to u32
def BitsB32ToU32 : PtxInstr<"mov.b32", [ArgB32], [ArgU32]> {
  let Name = "bits.b32.u32";
}
/// mov.b32 d, a;   // U32 to a Philox state word
def U32ToPhilox : PtxInstr<"mov.b32", [ArgU32], [ArgPHILOX]> {
  let Name = "u32.to.philox";
}

//===----------------------------------------------------------------------===//
// f16 / bf16 and their x2 forms
//===----------------------------------------------------------------------===//

/// add{.rnd}{.ftz}{.sat}.f16 d, a, b;
def AddF16 : PtxInstr<"add.f16", [ArgF16, ArgF16], [ArgF16]> {
  let MinSm = 53;
}
/// sub{.rnd}{.ftz}{.sat}.f16 d, a, b;
def SubF16 : PtxInstr<"sub.f16", [ArgF16, ArgF16], [ArgF16]> {
  let MinSm = 53;
}
/// mul{.rnd}{.ftz}{.sat}.f16 d, a, b;
def MulF16 : PtxInstr<"mul.f16", [ArgF16, ArgF16], [ArgF16]> {
  let MinSm = 53;
}
/// fma.rnd{.ftz}{.sat}.f16 d, a, b, c;
def FmaRnF16 : PtxInstr<"fma.rn.f16", [ArgF16, ArgF16, ArgF16], [ArgF16]> {
  let MinSm = 53;
}
/// neg{.ftz}.f16 d, a;
def NegF16 : PtxInstr<"neg.f16", [ArgF16], [ArgF16]> {
  let MinSm = 53;
}
/// cvt.rn.f16.f32 d, a;
def CvtRnF16F32 : PtxInstr<"cvt.rn.f16.f32", [ArgF32], [ArgF16]>;
/// add{.rnd}{.ftz}{.sat}.f16x2 d, a, b;
def AddF16X2 : PtxInstr<"add.f16x2", [ArgF16X2, ArgF16X2], [ArgF16X2]> {
  let MinSm = 53;
}
/// mul{.rnd}{.ftz}{.sat}.f16x2 d, a, b;
def MulF16X2 : PtxInstr<"mul.f16x2", [ArgF16X2, ArgF16X2], [ArgF16X2]> {
  let MinSm = 53;
}
/// fma.rnd{.ftz}{.sat}.f16x2 d, a, b, c;
def FmaRnF16X2 : PtxInstr<"fma.rn.f16x2", [ArgF16X2, ArgF16X2, ArgF16X2],
                          [ArgF16X2]> {
  let MinSm = 53;
}
/// mov.b32 d, {a0, a1};   // pack two f16 into an f16x2
def PackF16X2 : PtxInstr<"mov.b32", [ArgV2F16], [ArgF16X2]> {
  let Name = "pack.f16x2";
}
/// fma.rn{.relu}.bf16 d, a, b, c;
def FmaRnBF16 : PtxInstr<"fma.rn.bf16", [ArgBF16, ArgBF16, ArgBF16],
                         [ArgBF16]> {
  let MinSm = 80;
}
/// cvt.rn.bf16.f32 d, a;
def CvtRnBF16F32 : PtxInstr<"cvt.rn.bf16.f32", [ArgF32], [ArgBF16]> {
  let MinSm = 80;
}
/// fma.rn{.relu}.bf16x2 d, a, b, c;
def FmaRnBF16X2 : PtxInstr<"fma.rn.bf16x2", [ArgBF16X2, ArgBF16X2, ArgBF16X2],
                           [ArgBF16X2]> {
  let MinSm = 80;
}
/// mov.b32 d, {a0, a1};   // pack two bf16 into a bf16x2
def PackBF16X2 : PtxInstr<"mov.b32", [ArgV2BF16], [ArgBF16X2]> {
  let Name = "pack.bf16x2";
}

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

/// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 d, a, b, c;
def MmaM16N8K8Tf32 : PtxInstr<"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
                              [ArgV4TF32, ArgV2TF32, ArgV4F32], [ArgV4F32]> {
  let MinSm = 80;
}
/// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 d, a, b, c;
def MmaM16N8K16F16 : PtxInstr<"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                              [ArgV4F16X2, ArgV2F16X2, ArgV4F32], [ArgV4F32]> {
  let MinSm = 80;
}

//===----------------------------------------------------------------------===//
// Special registers
//===----------------------------------------------------------------------===//
//
// In the reference's order, which is the PTX ISA's: the vector register
// before its .x/.y/.z, %laneid/%warpid/%nwarpid between %ntid and %ctaid
// (reference word SPECIAL 9 is %warpid).

def SregTid      : SpecialReg<"tid", ArgV4U32>;
def SregTidX     : SpecialReg<"tid.x", ArgU32>;
def SregTidY     : SpecialReg<"tid.y", ArgU32>;
def SregTidZ     : SpecialReg<"tid.z", ArgU32>;
def SregNtid     : SpecialReg<"ntid", ArgV4U32>;
def SregNtidX    : SpecialReg<"ntid.x", ArgU32>;
def SregNtidY    : SpecialReg<"ntid.y", ArgU32>;
def SregNtidZ    : SpecialReg<"ntid.z", ArgU32>;
def SregLaneid   : SpecialReg<"laneid", ArgU32>;
def SregWarpid   : SpecialReg<"warpid", ArgU32>;
def SregNwarpid  : SpecialReg<"nwarpid", ArgU32>;
def SregCtaid    : SpecialReg<"ctaid", ArgV4U32>;
def SregCtaidX   : SpecialReg<"ctaid.x", ArgU32>;
def SregCtaidY   : SpecialReg<"ctaid.y", ArgU32>;
def SregCtaidZ   : SpecialReg<"ctaid.z", ArgU32>;
def SregNctaid   : SpecialReg<"nctaid", ArgV4U32>;
def SregNctaidX  : SpecialReg<"nctaid.x", ArgU32>;
def SregNctaidY  : SpecialReg<"nctaid.y", ArgU32>;
def SregNctaidZ  : SpecialReg<"nctaid.z", ArgU32>;
def SregSmid     : SpecialReg<"smid", ArgU32>;
def SregNsmid    : SpecialReg<"nsmid", ArgU32>;
def SregGridid   : SpecialReg<"gridid", ArgU64>;
def SregLanemaskEq : SpecialReg<"lanemask_eq", ArgU32>;
def SregLanemaskLe : SpecialReg<"lanemask_le", ArgU32>;
def SregLanemaskLt : SpecialReg<"lanemask_lt", ArgU32>;
def SregLanemaskGe : SpecialReg<"lanemask_ge", ArgU32>;
def SregLanemaskGt : SpecialReg<"lanemask_gt", ArgU32>;
def SregClock    : SpecialReg<"clock", ArgU32>;
def SregClockHi  : SpecialReg<"clock_hi", ArgU32>;
def SregTotalSmem : SpecialReg<"total_smem_size", ArgU32>;
def SregAggrSmem : SpecialReg<"aggr_smem_size", ArgU32> {
  let MinSm = 90;
}
def SregDynSmem  : SpecialReg<"dynamic_smem_size", ArgU32>;

#endif // MMPTX_STACKINSTRS_TD
