//===- StackBase.td - Vocabulary of Stack PTX tables ---*- tablegen -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The classes a Stack PTX instruction set is described with. The Stack PTX
// compiler knows nothing about PTX semantics: these records tell it which
// stacks exist, how literals on them print, what each instruction pops and
// pushes and which special registers may be read. mmptx-tblgen turns them
// into C++ (-gen-stack-tables) and C99 (-gen-stack-c-header) tables and
// word encoders. Users describe their own sets with these classes in their
// own .td file (see test/mmptx-tblgen/stack-user.td).
//
// Order matters: stacks, arg types, instructions and special registers are
// numbered in definition order, and the numbers are what program words hold.
//
// MinSm (instructions and special registers) is the lowest `.target sm_XX`
// that accepts the record, from the PTX ISA's target notes; 0 means any
// target. A compiler given a target (StackPtxOptions::targetSm) treats a
// word whose record needs a newer one like an out-of-range index, so random
// and mutated programs stay valid PTX for that target.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_STACKBASE_TD
#define MMPTX_STACKBASE_TD

// A typed value stack.
//   name:          identifier used in enums, encoders and the text format
//   literalPrefix: PTX type used for `.reg` declarations, `mov.` suffixes
//                  and literal formatting (`f32` -> 0f3F800000, `u32` ->
//                  0x00000002U, `f64` -> 0d..., anything else 0x00000002)
//   InlineLiterals: 0 if instructions on this stack take no immediate
//                   operands (f16, bf16, packed x2, tf32): constants are
//                   then moved into a register before their first use
class StackType<string name, string literalPrefix> {
  string Name = name;
  string LiteralPrefix = literalPrefix;
  bit InlineLiterals = 1;
}

// An operand shape: one value of `stack` (numVecElems = 0) or a PTX vector
// operand `{a, b, ...}` of numVecElems values (1 is a braced one-element
// vector).
class ArgType<StackType stack, int numVecElems> {
  StackType Stack = stack;
  int NumVecElems = numVecElems;
  string Name = !if(!eq(numVecElems, 0), stack.Name,
                    "V" # numVecElems # "_" # stack.Name);
}

// A PTX instruction: `ptx` is the opcode text; it pops `args` (the top of
// stack is the first PTX operand) and pushes `rets` (return 0 ends on top).
// At most 4 args and 1 or 2 rets. `Name` is the unique name used in the text
// format and in generated identifiers; it defaults to the opcode and must be
// set when two instructions share an opcode.
class PtxInstr<string ptx, list<ArgType> args, list<ArgType> rets> {
  string Ptx = ptx;
  list<ArgType> Args = args;
  list<ArgType> Rets = rets;
  string Name = ptx;
  int MinSm = 0;
}

// A special register (`%tid`, `%laneid`, ...) read with `mov`. A vector arg
// type pushes one value per element, x first (.w ends on top).
class SpecialReg<string ptx, ArgType argType> {
  string Ptx = ptx;
  ArgType Type = argType;
  string Name = ptx;
  int MinSm = 0;
}

#endif // MMPTX_STACKBASE_TD
