//===- StackTables.h - C and C++ views of the Stack PTX tables --*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// mmptx_stack_tables_t (mmptx-c/StackPtx.h) and stack::StackInfo have the
/// same layout, field by field, and so do their descriptor structs: the
/// assertions below check every field. A table therefore converts by
/// copying the struct whole, and the arrays it points to (the generated
/// ones, or the caller's) are shared, never copied. Used by the Stack PTX
/// and AST PTX C APIs.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_LIB_CAPI_STACKTABLES_H
#define MMPTX_LIB_CAPI_STACKTABLES_H

#include "mmptx-c/StackPtx.h"
#include "mmptx/Stack/StackInfo.h"

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace mmptx {
namespace capi {

/// True if field \p CF of \p C and field \p F of \p Cpp have the same offset
/// and size.
#define MMPTX_SAME_FIELD(C, CF, Cpp, F)                                        \
  (offsetof(C, CF) == offsetof(Cpp, F) &&                                      \
   sizeof(std::declval<C>().CF) == sizeof(std::declval<Cpp>().F))

static_assert(sizeof(mmptx_stack_arg_type_info_t) ==
                      sizeof(stack::ArgTypeInfo) &&
                  MMPTX_SAME_FIELD(mmptx_stack_arg_type_info_t, stack_idx,
                                   stack::ArgTypeInfo, StackIdx) &&
                  MMPTX_SAME_FIELD(mmptx_stack_arg_type_info_t, num_vec_elems,
                                   stack::ArgTypeInfo, NumVecElems),
              "arg type layout");
static_assert(sizeof(mmptx_stack_instr_desc_t) == sizeof(stack::PtxInstrDesc) &&
                  MMPTX_SAME_FIELD(mmptx_stack_instr_desc_t, args,
                                   stack::PtxInstrDesc, Args) &&
                  MMPTX_SAME_FIELD(mmptx_stack_instr_desc_t, rets,
                                   stack::PtxInstrDesc, Rets) &&
                  MMPTX_SAME_FIELD(mmptx_stack_instr_desc_t, num_args,
                                   stack::PtxInstrDesc, NumArgs) &&
                  MMPTX_SAME_FIELD(mmptx_stack_instr_desc_t, num_rets,
                                   stack::PtxInstrDesc, NumRets),
              "instruction layout");
static_assert(sizeof(mmptx_stack_special_desc_t) ==
                      sizeof(stack::SpecialRegDesc) &&
                  MMPTX_SAME_FIELD(mmptx_stack_special_desc_t, arg_type,
                                   stack::SpecialRegDesc, TheArgType),
              "special register layout");

#define MMPTX_SAME_TABLE_FIELD(CF, F)                                          \
  MMPTX_SAME_FIELD(mmptx_stack_tables_t, CF, stack::StackInfo, F)
static_assert(sizeof(mmptx_stack_tables_t) == sizeof(stack::StackInfo) &&
                  MMPTX_SAME_TABLE_FIELD(num_stacks, NumStacks) &&
                  MMPTX_SAME_TABLE_FIELD(stack_names, StackNames) &&
                  MMPTX_SAME_TABLE_FIELD(literal_prefixes, LiteralPrefixes) &&
                  MMPTX_SAME_TABLE_FIELD(num_arg_types, NumArgTypes) &&
                  MMPTX_SAME_TABLE_FIELD(arg_types, ArgTypes) &&
                  MMPTX_SAME_TABLE_FIELD(arg_type_names, ArgTypeNames) &&
                  MMPTX_SAME_TABLE_FIELD(num_instrs, NumInstrs) &&
                  MMPTX_SAME_TABLE_FIELD(instrs, Instrs) &&
                  MMPTX_SAME_TABLE_FIELD(instr_ptx, InstrPtx) &&
                  MMPTX_SAME_TABLE_FIELD(instr_names, InstrNames) &&
                  MMPTX_SAME_TABLE_FIELD(num_specials, NumSpecials) &&
                  MMPTX_SAME_TABLE_FIELD(specials, Specials) &&
                  MMPTX_SAME_TABLE_FIELD(special_ptx, SpecialPtx) &&
                  MMPTX_SAME_TABLE_FIELD(special_names, SpecialNames) &&
                  MMPTX_SAME_TABLE_FIELD(inline_literals, InlineLiterals) &&
                  MMPTX_SAME_TABLE_FIELD(instr_min_sm, InstrMinSm) &&
                  MMPTX_SAME_TABLE_FIELD(special_min_sm, SpecialMinSm),
              "tables layout");
#undef MMPTX_SAME_TABLE_FIELD
#undef MMPTX_SAME_FIELD

static_assert(std::is_trivially_copyable<stack::StackInfo>::value &&
                  std::is_trivially_copyable<mmptx_stack_tables_t>::value,
              "tables are copied as bytes");

/// \returns the C++ view of \p Tables; the arrays are shared.
inline stack::StackInfo toStackInfo(const mmptx_stack_tables_t &Tables) {
  stack::StackInfo Info;
  std::memcpy(static_cast<void *>(&Info), &Tables, sizeof(Info));
  return Info;
}

/// \returns the C view of \p Info; the arrays are shared.
inline mmptx_stack_tables_t toCTables(const stack::StackInfo &Info) {
  mmptx_stack_tables_t Tables;
  std::memcpy(&Tables, &Info, sizeof(Tables));
  return Tables;
}

} // namespace capi
} // namespace mmptx

#endif // MMPTX_LIB_CAPI_STACKTABLES_H
