//===- KernelRun.h - Run one kernel on arguments given as text --*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Kernel arguments written as text (mmptx-run's `--arg`), and one launch of
/// a kernel over them:
///
///   TYPE:VALUE              a scalar parameter
///   in:TYPE:V1,V2,...       a device buffer holding these values
///   inout:TYPE:V1,V2,...    the same, read back after the launch
///   out:TYPE:N              N zeroed elements, read back after the launch
///
/// TYPE is f32, f64, u32, s32, u64 or s64. A value is a decimal or 0x
/// integer, a float (`1.5`, `-inf`, `nan`), or exact f32/f64 bits written
/// as PTX writes them (`0f3FC00000`, `0d3FF8000000000000`); `V*N` repeats V.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_RUNTIME_KERNELRUN_H
#define MMPTX_RUNTIME_KERNELRUN_H

#include "mmptx/Runtime/Context.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mmptx {
namespace runtime {

enum class ArgType { F32, F64, U32, S32, U64, S64 };

/// One kernel argument; Values are bit patterns (f32/u32/s32 in the low 32
/// bits).
struct KernelArg {
  enum KindTy { Scalar, In, InOut, Out } Kind = Scalar;
  ArgType Type = ArgType::U32;
  std::vector<uint64_t> Values;

  bool isBuffer() const { return Kind != Scalar; }
  bool isReadBack() const { return Kind == InOut || Kind == Out; }
};

unsigned getArgTypeSize(ArgType T);
llvm::StringRef getArgTypeName(ArgType T);

/// Parses one `--arg` (see the file comment). The error quotes \p Text.
llvm::Expected<KernelArg> parseKernelArg(llvm::StringRef Text);

/// Prints \p Bits as a value of \p T: integers in decimal (u32/u64 with their
/// hex), floats with 9 (f32) or 17 (f64) digits and their exact bits,
/// `1.5 (0f3FC00000)`, the form `mmptx-stack --interpret` prints.
void printArgValue(llvm::raw_ostream &OS, ArgType T, uint64_t Bits);

/// Where the time of runKernel went (host clock, seconds).
struct KernelRunTimes {
  double ModuleLoad = 0;
  /// The average of the launches, each followed by a synchronize.
  double Launch = 0;
};

/// Loads \p Image, looks up \p KernelName, copies the buffer arguments to
/// the device, launches \p Repeat times (synchronizing after each), and
/// reads the InOut/Out buffers back into their Values.
llvm::Error runKernel(Context &Ctx, llvm::ArrayRef<char> Image,
                      llvm::StringRef KernelName, const LaunchConfig &Config,
                      std::vector<KernelArg> &Args, unsigned Repeat = 1,
                      KernelRunTimes *Times = nullptr);

} // namespace runtime
} // namespace mmptx

#endif // MMPTX_RUNTIME_KERNELRUN_H
