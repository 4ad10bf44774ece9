// RUN: mmptx-tblgen -gen-inject-types -I %S/../../td %s | FileCheck %s

// A user's own inject types, described with the same vocabulary.
include "InjectBase.td"

def DOG : InjectType<"DOG", "f32", "f32", "f", BindValue>;
def Half : InjectType<"HALF_BITS", "b16", "b16", "h", BindU16>;

// CHECK: MMPTX_INJECT_TYPE(DOG, "DOG", "f32", "f32", 'f', Value, 32)
// CHECK-NEXT: MMPTX_INJECT_TYPE(HALF_BITS, "HALF_BITS", "b16", "b16", 'h', U16, 16)
