// RUN: not mmptx-tblgen -gen-stack-tables -I %S/../../td -DERR_PREFIX %s 2>&1 | FileCheck %s --check-prefix=PREFIX
// RUN: not mmptx-tblgen -gen-stack-tables -I %S/../../td -DERR_DUPSTACK %s 2>&1 | FileCheck %s --check-prefix=DUPSTACK
// RUN: not mmptx-tblgen -gen-stack-tables -I %S/../../td -DERR_DUPNAME %s 2>&1 | FileCheck %s --check-prefix=DUPNAME
// RUN: not mmptx-tblgen -gen-stack-tables -I %S/../../td -DERR_ARGS %s 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not mmptx-tblgen -gen-stack-c-header -I %S/../../td -DERR_RETS %s 2>&1 | FileCheck %s --check-prefix=RETS
// RUN: not mmptx-tblgen -gen-stack-tables -I %S/../../td -DERR_VEC %s 2>&1 | FileCheck %s --check-prefix=VEC
// RUN: not mmptx-tblgen -gen-stack-tables -I %S/../../td -DERR_OPCODE %s 2>&1 | FileCheck %s --check-prefix=OPCODE
// RUN: not mmptx-tblgen -gen-stack-tables -I %S/../../td -DERR_MINSM %s 2>&1 | FileCheck %s --check-prefix=MINSM
// RUN: not mmptx-tblgen -gen-stack-c-header -I %S/../../td -DERR_SPECIAL_MINSM %s 2>&1 | FileCheck %s --check-prefix=SPECIAL-MINSM
// RUN: not mmptx-tblgen -gen-stack-tables -I %S/../../td -DERR_SYNTAX %s 2>&1 | FileCheck %s --check-prefix=SYNTAX

include "StackBase.td"

def S : StackType<"F", "f32">;
def A : ArgType<S, 0>;

#ifdef ERR_PREFIX
// PREFIX: stack-invalid.td:[[@LINE+1]]:1: error: literal prefix 'f33' of stack 'G' is not a PTX register type
def T : StackType<"G", "f33">;
#endif

#ifdef ERR_DUPSTACK
// DUPSTACK: stack-invalid.td:[[@LINE+1]]:1: error: duplicate stack name 'F'
def T : StackType<"F", "u32">;
#endif

#ifdef ERR_DUPNAME
def I1 : PtxInstr<"add.f32", [A, A], [A]>;
// DUPNAME: stack-invalid.td:[[@LINE+1]]:1: error: duplicate instruction name 'add.f32'; set a unique Name with `let Name = ...`
def I2 : PtxInstr<"add.f32", [A], [A]>;
#endif

#ifdef ERR_ARGS
// ARGS: stack-invalid.td:[[@LINE+1]]:1: error: instruction 'f' has 5 args; the limit is 4
def I : PtxInstr<"f", [A, A, A, A, A], [A]>;
#endif

#ifdef ERR_RETS
// RETS: stack-invalid.td:[[@LINE+1]]:1: error: instruction 'g' has 0 rets; it must have 1 or 2
def I : PtxInstr<"g", [A], []>;
#endif

#ifdef ERR_VEC
// VEC: stack-invalid.td:[[@LINE+1]]:1: error: arg type 'V65_F' has 65 vector elements; the limit is 64
def V : ArgType<S, 65>;
#endif

#ifdef ERR_OPCODE
// OPCODE: stack-invalid.td:[[@LINE+1]]:1: error: bad PTX opcode 'add f32'
def I : PtxInstr<"add f32", [A], [A]>;
#endif

#ifdef ERR_MINSM
// MINSM: stack-invalid.td:[[@LINE+1]]:1: error: MinSm 65536 is not in 0..65535
def I : PtxInstr<"add.f32", [A, A], [A]> {
  let MinSm = 65536;
}
#endif

#ifdef ERR_SPECIAL_MINSM
// SPECIAL-MINSM: stack-invalid.td:[[@LINE+1]]:1: error: MinSm -1 is not in 0..65535
def R : SpecialReg<"laneid", A> {
  let MinSm = -1;
}
#endif

#ifdef ERR_SYNTAX
// SYNTAX: stack-invalid.td:[[@LINE+1]]:27: error: Variable not defined: 'Nope'
def I : PtxInstr<"h", [A, Nope], [A]>;
#endif
