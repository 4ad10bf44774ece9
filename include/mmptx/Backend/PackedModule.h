//===- PackedModule.h - Many stubs in one module ----------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Packed injects: one PTX module of K kernels x S sites, each site holding
/// one stub, so that one compile and one module load serve K*S programs (a
/// compile costs about 8x less per program packed than alone).
///
/// Kernel k is `<prefix>_<k>(.u64 in, .u64 out, .u32 n)`. Launched with
/// gridDim.x = S (fewer for the last kernel), block b runs the stub of site
/// b, that is program P = k*S + b, on elements e = blockIdx.y * blockDim.x +
/// threadIdx.x < n:
///   %x<j> = in[j*n + e]  (j < NumInputs, f32), then the stub, then
///   out[P*n + e] = %y.
/// blockIdx.x selects the site through a jump table (`brx.idx`).
/// A stub reads the registers `%x0`... and writes `%y` (all .f32): compile
/// Stack PTX programs with registers `x<j>` (in) and `y` (out) and request
/// `y`.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_BACKEND_PACKEDMODULE_H
#define MMPTX_BACKEND_PACKEDMODULE_H

#include "mmptx/Backend/PTXCompiler.h"
#include "llvm/ADT/ArrayRef.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mmptx {

/// The most f32 inputs (`%x0`...) a packed module reads per element.
constexpr unsigned MaxPackedInputs = 4096;

struct PackedModuleSpec {
  unsigned NumInputs = 2;
  unsigned SitesPerKernel = 128;
  /// sm_XX the module is for (its `.target`).
  std::string Arch = "sm_80";
  std::string KernelPrefix = "mmptx_packed";
};

/// Builds the module for \p Stubs (program i at kernel i / S, site i % S).
/// With \p Map, records the lines that each stub occupies, named after
/// \p StubNames (`stub <i>` where there are none), so that a compiler
/// message about a stub's line gets a note at that line of the stub.
llvm::Expected<std::string>
buildPackedModule(llvm::ArrayRef<llvm::StringRef> Stubs,
                  const PackedModuleSpec &Spec = {}, StubLineMap *Map = nullptr,
                  llvm::ArrayRef<std::string> StubNames = {});

} // namespace mmptx

#endif // MMPTX_BACKEND_PACKEDMODULE_H
