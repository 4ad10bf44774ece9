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
/// blockIdx.x selects the site through a jump table (`brx.idx`); the output
/// index is computed in 64 bits.
/// A stub reads the registers `%x0`... and writes `%y` (all .f32): compile
/// Stack PTX programs with registers `x<j>` (in) and `y` (out) and request
/// `y`. Stubs are checked as a render checks them, and a stub may not write
/// the kernel's own registers (`%pk`, `%rk<6>`, `%rdk<8>`).
///
/// What makes a pack cheap to compile: sites of one kernel with identical
/// stubs share one code block (the jump table points each of them at it;
/// each still stores into its own slot), and IEEE `div.rn`, `sqrt.rn` and
/// `rcp.rn` (f32, f64) and the f32 approximations without `.ftz` used at
/// several sites are calls of one `.func` per operation instead of a long
/// inline sequence each (the same instruction: the same bits).
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
  /// Sites of one kernel with byte-identical stubs share one code block.
  bool Deduplicate = true;
  /// IEEE div/sqrt/rcp and non-ftz f32 approximations used at several
  /// sites call one `.func` per operation.
  bool ShareSlowOps = true;
  /// Check every stub (once per distinct text) before packing.
  bool CheckStubs = true;
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
