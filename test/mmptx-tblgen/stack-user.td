// RUN: mmptx-tblgen -gen-stack-tables -I %S/../../td %s | FileCheck %s
// RUN: mmptx-tblgen -gen-stack-c-header -I %S/../../td %s | FileCheck %s --check-prefix=C

// A user's own Stack PTX instruction set, described with the same
// vocabulary: two stacks, an anonymous vector arg type, a two-return
// instruction, a renamed duplicate opcode and minimum targets.
include "StackBase.td"

def Real : StackType<"REAL", "f32">;
def Flag : StackType<"FLAG", "pred">;
def RealArg : ArgType<Real, 0>;
def FlagArg : ArgType<Flag, 0>;

/// add.f32 d, a, b;
def Add : PtxInstr<"add.f32", [RealArg, RealArg], [RealArg]>;
/// setp.lt.f32 p|q, a, b;
def Less : PtxInstr<"setp.lt.f32", [RealArg, RealArg], [FlagArg, FlagArg]>;
/// mov.b64 {d0, d1}, a;  (a user's unpack)
def Pair : PtxInstr<"add.f32", [ArgType<Real, 2>], [RealArg]> {
  let Name = "pair.add";
}
def Lane : SpecialReg<"laneid", RealArg>;
def Aggr : SpecialReg<"aggr_smem_size", RealArg> {
  let MinSm = 90;
}
/// tanh.approx.f32 d, a;
def Tanh : PtxInstr<"tanh.approx.f32", [RealArg], [RealArg]> {
  let MinSm = 75;
}

// CHECK: enum class StackType : uint16_t {
// CHECK-NEXT:   REAL = 0,
// CHECK-NEXT:   FLAG = 1,
// CHECK: enum class ArgType : uint16_t {
// CHECK-NEXT:   REAL = 0,
// CHECK-NEXT:   FLAG = 1,
// CHECK-NEXT:   V2_REAL = 2,
// CHECK-NEXT:   NONE = 3,
// CHECK: enum class PtxInstr : uint32_t {
// CHECK-NEXT:   ADD_F32 = 0, // add.f32
// CHECK-NEXT:   SETP_LT_F32 = 1, // setp.lt.f32
// CHECK-NEXT:   PAIR_ADD = 2, // add.f32
// CHECK: constexpr uint64_t encodeConstantREAL(float v) {
// CHECK: constexpr uint64_t encodeConstantFLAG(uint32_t v) {
// CHECK: {{[{][{]}}0, 0, 3, 3}, {1, 1}, 2, 2}, // setp.lt.f32
// CHECK: {{[{][{]}}2, 3, 3, 3}, {0, 3}, 1, 1}, // pair.add
// CHECK: static const char *const StackSpecialPtx[] = {
// CHECK-NEXT:   "laneid",
// CHECK:      static const uint16_t StackInstrMinSm[] = {
// CHECK-NEXT:   0, 0, 0, 75
// CHECK-NEXT: };
// CHECK-NEXT: static const uint16_t StackSpecialMinSm[] = {
// CHECK-NEXT:   0, 90
// CHECK-NEXT: };
// One writer of the tables, two spellings: the same arrays and struct in
// C++ and in C.
// CHECK:      static const ::mmptx::expr::InstrSet stackInfo = {
// CHECK-NEXT:     2, StackTypeNames, StackLiteralPrefixes,
// CHECK-NEXT:     3, StackArgTypes, StackArgTypeNames,
// CHECK-NEXT:     4, StackInstrDescs, StackInstrPtx, StackInstrNames,
// CHECK-NEXT:     2, StackSpecialDescs, StackSpecialPtx, StackSpecialNames,
// CHECK-NEXT:     StackInlineLiterals, StackInstrMinSm, StackSpecialMinSm
// CHECK-NEXT: };

// C: MMPTX_STACK_TYPE_REAL = 0,
// C: MMPTX_PTX_INSTR_PAIR_ADD = 2,
// C: mmptx_stack_encode_special_laneid(void)
// C: {{[{][{]}}0, 0, 3, 3}, {1, 1}, 2, 2}, /* setp.lt.f32 */
// C: {{[{][{]}}2, 3, 3, 3}, {0, 3}, 1, 1}, /* pair.add */
// C:      static const uint16_t mmptx_stack_instr_min_sm[] = {
// C-NEXT:   0, 0, 0, 75
// C-NEXT: };
// C-NEXT: static const uint16_t mmptx_stack_special_min_sm[] = {
// C-NEXT:   0, 90
// C-NEXT: };
// C:      static const mmptx_stack_tables_t mmptx_stack_tables = {
// C-NEXT:   2, mmptx_stack_type_names, mmptx_stack_literal_prefixes,
// C-NEXT:   3, mmptx_stack_arg_types, mmptx_stack_arg_type_names,
// C-NEXT:   4, mmptx_stack_instr_descs, mmptx_stack_instr_ptx, mmptx_stack_instr_names,
// C-NEXT:   2, mmptx_stack_special_descs, mmptx_stack_special_ptx, mmptx_stack_special_names,
// C-NEXT:   mmptx_stack_inline_literals, mmptx_stack_instr_min_sm, mmptx_stack_special_min_sm
// C-NEXT: };
