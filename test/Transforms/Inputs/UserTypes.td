//===- UserTypes.td - User inject types for the stub-gen tests -*- tablegen -*-===//
//
// DOG lives in f32 registers, which only the F32 stack holds; HALF_BITS in
// b16 registers, which F16 and BF16 both hold; WORD in b32 registers moved
// with mov.u32, a suffix that differs from its register type.
//
//===----------------------------------------------------------------------===//

include "InjectBase.td"

def DOG : InjectType<"DOG", "f32", "f32", "f", BindValue>;
def HalfBits : InjectType<"HALF_BITS", "b16", "b16", "h", BindU16>;
def WORD : InjectType<"WORD", "b32", "u32", "r", BindValue>;
