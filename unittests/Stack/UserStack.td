//===- UserStack.td - A user's own Stack PTX instruction set -*- tablegen -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The custom table of the spec's example J: F32 is stack 0, PRED stack 1,
// and setp.lt.f32 returns two predicates. StackCompilerTest compiles with
// the tables mmptx-tblgen -gen-stack-tables makes of this file.
//
//===----------------------------------------------------------------------===//

include "StackBase.td"

def UserF32 : StackType<"F32", "f32">;
def UserPred : StackType<"PRED", "pred">;
def UserF32Arg : ArgType<UserF32, 0>;
def UserPredArg : ArgType<UserPred, 0>;

/// setp.lt.f32 p|q, a, b;
def UserSetpLt : PtxInstr<"setp.lt.f32", [UserF32Arg, UserF32Arg],
                          [UserPredArg, UserPredArg]>;
/// selp.f32 d, a, b, c;
def UserSelp : PtxInstr<"selp.f32", [UserF32Arg, UserF32Arg, UserPredArg],
                        [UserF32Arg]>;
