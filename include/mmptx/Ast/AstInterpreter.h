//===- AstInterpreter.h - CPU reference for AST PTX -------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs an AST PTX program on concrete inputs on the CPU. The program is
/// built by the compiler's own build step (so checks and errors are the
/// compiler's), then each node the outputs reach is evaluated with the
/// instruction semantics of the Stack PTX interpreter
/// (mmptx/Stack/StackInterpreter.h: IEEE f32/f64, `.ftz` flushing, libm for
/// `.approx`, wrapping integers, ...). Unlike the reference's interpreter,
/// which uses libm for every op whatever its modifiers, results follow the
/// modifiers, for every stack type.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_AST_ASTINTERPRETER_H
#define MMPTX_AST_ASTINTERPRETER_H

#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Expr/Evaluate.h"

#include <vector>

namespace mmptx {
namespace ast {

/// Interprets \p Prog with \p Values (one bit pattern per input; missing
/// ones read as 0). \returns one value per output.
llvm::Expected<std::vector<uint64_t>>
interpretAstPtx(AstPtxContext &Ctx, const AstProgram &Prog,
                llvm::ArrayRef<AstVar> Inputs, llvm::ArrayRef<uint64_t> Values,
                expr::SpecialValueFn Specials = nullptr);

} // namespace ast
} // namespace mmptx

#endif // MMPTX_AST_ASTINTERPRETER_H
