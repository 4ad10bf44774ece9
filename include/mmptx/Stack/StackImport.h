//===- StackImport.h - Import JSON instruction-set descriptions -*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Converts an instruction-set description in the reference system's JSON
/// format into a `.td` file of StackBase.td records, so that a user's own
/// description keeps its numbering (and so the meaning of its 8-byte words)
/// under mmptx-tblgen:
/// \code
///   { "abi_version": 1,
///     "stack_types": [ { "name": "F32", "literal_prefix": "f32",
///                        "constant_type": "f32" }, ... ],
///     "arg_types":   [ { "name": "V4_F32", "stack_type": "F32",
///                        "num_vec_elems": 4 }, ... ],
///     "instructions":[ { "ptx": "mov.b32", "args": ["U32"],
///                        "rets": ["V4_U8"], "display": "u32_to_v4_u8" }, ...],
///     "special_registers": [ { "ptx": "tid", "arg_type": "V4_U32" }, ... ] }
/// \endcode
/// Stacks, arg types, instructions and special registers become records in
/// the order the description lists them. An instruction's name is its
/// `name`, else its `display`, else its `ptx`; a special register's its
/// `display`, else its `ptx`. The description is checked as the reference's
/// generator checks it, and for what mmptx's tables need on top (one or two
/// returns, at most 64 vector elements, unique names); every error names
/// the entry, as a JSON path.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_STACK_STACKIMPORT_H
#define MMPTX_STACK_STACKIMPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mmptx {
namespace stack {

/// Writes the `.td` form of the JSON description \p Json to \p Os.
/// \p BufferName names the input in errors (`desc.json: instructions[3]:
/// ...`) and in the file's header comment.
llvm::Error importStackDescription(llvm::StringRef Json,
                                   llvm::StringRef BufferName,
                                   llvm::raw_ostream &Os);

} // namespace stack
} // namespace mmptx

#endif // MMPTX_STACK_STACKIMPORT_H
