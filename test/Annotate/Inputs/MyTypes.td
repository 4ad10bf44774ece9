//===- MyTypes.td - Example user inject types ---------------*- tablegen -*-===//
//
// A user's own inject types, written with mmptx's vocabulary. Generate the
// device-header macros with
//   mmptx-tblgen -gen-inject-device-types -I <mmptx>/td MyTypes.td -o MyTypes.h
// then `#include "MyTypes.h"` before using DOG in PTX_INJECT, or pass
// `--types MyTypes.h` to mmptx-annotate for the comment form.
//
//===----------------------------------------------------------------------===//

include "InjectBase.td"

// DOG: an alias of f32 under another name.
def DOG : InjectType<"DOG", "f32", "f32", "f", BindValue>;
// HALF_BITS: 16-bit storage (e.g. __half) moved as raw bits.
def HalfBits : InjectType<"HALF_BITS", "b16", "b16", "h", BindU16>;
