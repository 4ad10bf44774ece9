//===- CompilerOptions.h - C compiler options to C++ ------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The C options structs of Stack PTX and AST PTX as the C++ compilers take
/// them: one conversion each, for every C API that takes them.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_LIB_CAPI_COMPILEROPTIONS_H
#define MMPTX_LIB_CAPI_COMPILEROPTIONS_H

#include "mmptx-c/AstPtx.h"
#include "mmptx-c/StackPtx.h"
#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Stack/StackCompiler.h"

namespace mmptx {
namespace capi {

inline stack::StackPtxOptions
toStackPtxOptions(const mmptx_stack_options_t &O) {
  stack::StackPtxOptions Opts;
  Opts.Strict = O.strict != 0;
  Opts.ZeroUnsatisfied = O.zero_unsatisfied != 0;
  Opts.StackSize = O.stack_size;
  Opts.MaxNodes = O.max_nodes;
  Opts.MaxFrameDepth = O.max_frame_depth;
  Opts.StoreSize = O.store_size;
  Opts.ExecutionLimit = O.execution_limit;
  Opts.TargetSm = O.target_sm;
  return Opts;
}

/// Without the instruction map, which refers to the caller's array.
inline ast::AstPtxOptions toAstPtxOptions(const mmptx_ast_options_t &O) {
  ast::AstPtxOptions Opts;
  Opts.MaxStackDepth = O.max_stack_depth;
  Opts.MaxRoutineDepth = O.max_routine_depth;
  Opts.MaxWords = O.max_words;
  Opts.MaxArgs = O.max_args;
  Opts.MaxExecutedWords = O.max_executed_words;
  Opts.ShareSubexpressions = O.share_subexpressions != 0;
  Opts.TargetSm = O.target_sm;
  return Opts;
}

/// \returns the C spelling of StackPtxOptions field \p Field in \p Storage,
/// prefixed by \p Prefix: `StackSize` gives `options.stack_size`.
inline llvm::StringRef spellCField(llvm::StringRef Prefix,
                                   llvm::StringRef Field,
                                   std::string &Storage) {
  Storage = Prefix.str();
  for (char Ch : Field)
    Storage += (Ch >= 'A' && Ch <= 'Z') ? std::string{'_', char(Ch - 'A' + 'a')}
                                        : std::string(1, Ch);
  return Storage;
}

} // namespace capi
} // namespace mmptx

#endif // MMPTX_LIB_CAPI_COMPILEROPTIONS_H
