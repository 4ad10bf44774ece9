//===- InjectBase.td - Vocabulary of inject types ------*- tablegen -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// An inject type says how a C++ value crosses an inline-asm boundary into a
// PTX register of an inject site. Users describe their own types with these
// classes in their own .td file.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_INJECTBASE_TD
#define MMPTX_INJECTBASE_TD

// How the C++ expression is bound to the asm operand.
class BindKind<string name> {
  string Name = name;
}
// Passed as it is: `"f"(x)`.
def BindValue : BindKind<"value">;
// Storage reinterpreted as unsigned short (e.g. __half, __nv_bfloat16).
def BindU16 : BindKind<"u16">;
// Storage reinterpreted as unsigned int (e.g. __half2, __nv_bfloat162).
def BindU32 : BindKind<"u32">;
// Storage reinterpreted as unsigned long long.
def BindU64 : BindKind<"u64">;

// An inject type.
//   token:      the name used in annotations and markers (`F32`)
//   regType:    PTX type of the site's stable register (`f32`)
//   movSuffix:  suffix of the normalising `mov` (`f32`)
//   constraint: inline-asm constraint letter: h (16-bit), r (32-bit),
//               l (64-bit), f (f32), d (f64)
//   bind:       how the C++ value is bound
class InjectType<string token, string regType, string movSuffix,
                 string constraint, BindKind bind> {
  string Token = token;
  string RegType = regType;
  string MovSuffix = movSuffix;
  string Constraint = constraint;
  BindKind Bind = bind;
  // Size of the register in bits, checked against the constraint.
  int Bits = !cond(!eq(constraint, "h") : 16, !eq(constraint, "r") : 32,
                   !eq(constraint, "f") : 32, !eq(constraint, "l") : 64,
                   !eq(constraint, "d") : 64, true : 0);
}

#endif // MMPTX_INJECTBASE_TD
