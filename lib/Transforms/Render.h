//===- Render.h - The render step of the passes -----------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one render step of the passes that splice stubs (`--inject`,
/// `--stub-gen`); private to lib/Transforms. Handles render through
/// InjectModule::render instead.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_LIB_TRANSFORMS_RENDER_H
#define MMPTX_LIB_TRANSFORMS_RENDER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

namespace mmptx {
class InjectModule;
namespace ptx {
class Module;
} // namespace ptx

/// Replaces every site of inject i of \p IM, found in \p M, with \p Stubs[i]
/// where given; a legacy comment-form site gets the normalised scaffold
/// around it. The stubs must be checked already (or be valid by
/// construction).
void spliceStubs(ptx::Module &M, const InjectModule &IM,
                 llvm::ArrayRef<llvm::Optional<llvm::StringRef>> Stubs);

} // namespace mmptx

#endif // MMPTX_LIB_TRANSFORMS_RENDER_H
