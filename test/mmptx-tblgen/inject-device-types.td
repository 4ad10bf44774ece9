// RUN: mmptx-tblgen -gen-inject-device-types -I %S/../../td %s | FileCheck %s
// RUN: not mmptx-tblgen -gen-inject-device-types -I %S/../../td -DERR_DUP %s 2>&1 | FileCheck %s --check-prefix=DUP

// The default table plus a user type, as a user's own .td would write it.
include "InjectTypes.td"

def DOG : InjectType<"DOG", "f32", "f32", "f", BindValue>;

#ifdef ERR_DUP
// DUP: inject-device-types.td:[[@LINE+1]]:1: error: duplicate inject type token 'F32'
def MyF32 : InjectType<"F32", "f32", "f32", "f", BindValue>;
#endif

// CHECK: #pragma once
// CHECK: #define PTX_INJECT_TYPE_F16 1
// CHECK-NEXT: #define PTX_INJECT_TYPE_F16_REG "b16"
// CHECK-NEXT: #define PTX_INJECT_TYPE_F16_MOV "b16"
// CHECK-NEXT: #define PTX_INJECT_TYPE_F16_CONSTRAINT "h"
// CHECK-NEXT: #define PTX_INJECT_TYPE_F16_BIND PTX_INJECT_BIND_U16
// CHECK: #define PTX_INJECT_TYPE_F16X2_BIND PTX_INJECT_BIND_U32
// CHECK: #define PTX_INJECT_TYPE_U64_CONSTRAINT "l"
// CHECK: #define PTX_INJECT_TYPE_F32_BIND PTX_INJECT_BIND_VALUE
// CHECK: #define PTX_INJECT_TYPE_F64_CONSTRAINT "d"
// CHECK: #define PTX_INJECT_TYPE_PHILOX_REG "u32"
// CHECK: /* DOG: .reg .f32, constraint 'f', bound as value */
// CHECK-NEXT: #define PTX_INJECT_TYPE_DOG 1
// CHECK-NEXT: #define PTX_INJECT_TYPE_DOG_REG "f32"
// CHECK-NEXT: #define PTX_INJECT_TYPE_DOG_MOV "f32"
// CHECK-NEXT: #define PTX_INJECT_TYPE_DOG_CONSTRAINT "f"
// CHECK-NEXT: #define PTX_INJECT_TYPE_DOG_BIND PTX_INJECT_BIND_VALUE
