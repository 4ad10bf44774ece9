// RUN: mmptx-tblgen -gen-stack-tables -I %S/../../td %S/../../td/StackInstrs.td | FileCheck %s
// RUN: mmptx-tblgen -gen-stack-c-header -I %S/../../td %S/../../td/StackInstrs.td | FileCheck %s --check-prefix=C

// The default set keeps the reference's stack numbering (examples of the
// spec use F32=0, U32=1, PHILOX=2, S32=3, PRED=4, TF32=5).
// CHECK: #ifdef GET_STACK_ENUMS
// CHECK: enum class StackType : uint16_t {
// CHECK-NEXT:   F32 = 0,
// CHECK-NEXT:   U32 = 1,
// CHECK-NEXT:   PHILOX = 2,
// CHECK-NEXT:   S32 = 3,
// CHECK-NEXT:   PRED = 4,
// CHECK-NEXT:   TF32 = 5,
// CHECK: enum class PtxInstr : uint32_t {
// CHECK-NEXT:   ADD_U32 = 0, // add.u32
// CHECK: MMA_SYNC_ALIGNED_M16N8K4_ROW_COL_F32_TF32_TF32_F32 = {{[0-9]+}}, // mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32
// CHECK: PHILOX_ADD_U32 = {{[0-9]+}}, // add.u32
// CHECK: constexpr uint32_t NumSpecialRegs = 32;
// CHECK: #ifdef GET_STACK_ENCODERS
// CHECK: constexpr uint64_t encodeConstantF32(float v) {
// CHECK: #ifdef GET_STACK_TABLES
// CHECK: static const ::mmptx::expr::PtxInstrDesc StackInstrDescs[] = {
// CHECK-NEXT:   {{[{][{]}}1, 1, 24, 24}, {1, 24}, 2, 1}, // add.u32
// Minimum targets: tanh.approx (21) sm_75, cvt.rna.tf32 (26) and the tf32
// mma (28) sm_80; %aggr_smem_size (30) sm_90.
// CHECK:      static const uint16_t StackInstrMinSm[] = {
// CHECK-NEXT:   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
// CHECK-NEXT:   0, 0, 0, 0, 0, 75, 0, 0, 0, 0, 80, 0, 80, 0, 0, 0,
// CHECK:      static const uint16_t StackSpecialMinSm[] = {
// CHECK-NEXT:   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
// CHECK-NEXT:   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 90, 0
// CHECK-NEXT: };
// CHECK: static const ::mmptx::expr::InstrSet stackInfo = {

// C: #ifndef MMPTX_STACK_TABLES_H
// C: #include "mmptx-c/StackPtx.h"
// C: MMPTX_STACK_TYPE_F32 = 0,
// C: MMPTX_PTX_INSTR_ADD_FTZ_F32 = {{[0-9]+}},
// C: static inline uint64_t mmptx_stack_encode_ptx_add_ftz_f32(void) { return mmptx_stack_encode_ptx(MMPTX_PTX_INSTR_ADD_FTZ_F32); }
// C: static inline uint64_t mmptx_stack_encode_constant_f32(float v) {
// C: static const uint16_t mmptx_stack_special_min_sm[] = {
// C: static const mmptx_stack_tables_t mmptx_stack_tables = {
// C: mmptx_stack_inline_literals, mmptx_stack_instr_min_sm, mmptx_stack_special_min_sm
