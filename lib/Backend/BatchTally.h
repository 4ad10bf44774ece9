//===- BatchTally.h - What compileBatch() variants share --------*- C++ -*-===//
//-*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The last step that compileBatch() and compileRenderedBatch() share: each
/// duplicate takes its first module's outcome, and the summary counts every
/// module. Private to lib/Backend.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_LIB_BACKEND_BATCHTALLY_H
#define MMPTX_LIB_BACKEND_BATCHTALLY_H

#include "mmptx/Backend/Batch.h"

#include "llvm/ADT/STLExtras.h"

#include <chrono>
#include <string>

namespace mmptx {
namespace detail {

/// Seconds from \p Start to now, on the steady clock.
double secondsSince(std::chrono::steady_clock::time_point Start);

/// Gives the duplicate module \p I of \p Out its first module's outcome (an
/// error naming both, by \p NameOf, where that one failed) and counts module
/// \p I in the summary. A module that was not \p Rendered (it had no PTX)
/// only counts as failed.
void tallyModule(BatchResult &Out, size_t I,
                 llvm::function_ref<std::string(size_t)> NameOf,
                 bool Rendered = true);

} // namespace detail
} // namespace mmptx

#endif // MMPTX_LIB_BACKEND_BATCHTALLY_H
