// RUN: mmptx-tblgen -gen-inject-types -I %S/../../td %S/../../td/InjectTypes.td | FileCheck %s

// The default table, in definition order, with constraint letters and bind
// kinds.
// CHECK: #ifdef GET_INJECT_TYPE_LIST
// CHECK: MMPTX_INJECT_TYPE(F16, "F16", "b16", "b16", 'h', U16, 16)
// CHECK-NEXT: MMPTX_INJECT_TYPE(F16X2, "F16X2", "b32", "b32", 'r', U32, 32)
// CHECK-NEXT: MMPTX_INJECT_TYPE(BF16, "BF16", "b16", "b16", 'h', U16, 16)
// CHECK-NEXT: MMPTX_INJECT_TYPE(BF16X2, "BF16X2", "b32", "b32", 'r', U32, 32)
// CHECK-NEXT: MMPTX_INJECT_TYPE(S32, "S32", "s32", "s32", 'r', Value, 32)
// CHECK-NEXT: MMPTX_INJECT_TYPE(U32, "U32", "u32", "u32", 'r', Value, 32)
// CHECK-NEXT: MMPTX_INJECT_TYPE(S64, "S64", "s64", "s64", 'l', Value, 64)
// CHECK-NEXT: MMPTX_INJECT_TYPE(U64, "U64", "u64", "u64", 'l', Value, 64)
// CHECK-NEXT: MMPTX_INJECT_TYPE(F32, "F32", "f32", "f32", 'f', Value, 32)
// CHECK-NEXT: MMPTX_INJECT_TYPE(F64, "F64", "f64", "f64", 'd', Value, 64)
// CHECK-NEXT: MMPTX_INJECT_TYPE(B32, "B32", "b32", "b32", 'r', Value, 32)
// CHECK-NEXT: MMPTX_INJECT_TYPE(B64, "B64", "b64", "b64", 'l', Value, 64)
// CHECK-NEXT: MMPTX_INJECT_TYPE(PHILOX, "PHILOX", "u32", "u32", 'r', Value, 32)
// CHECK-NEXT: #undef MMPTX_INJECT_TYPE
