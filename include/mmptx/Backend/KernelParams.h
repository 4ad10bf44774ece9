//===- KernelParams.h - A kernel's parameters, read from its image -*- C++ -*-//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA driver launches a kernel with an array of pointers to its
/// arguments and copies as many bytes from each as the kernel declares: too
/// few arguments, or a 4-byte value for an 8-byte parameter, reads past
/// what the caller gave (a crash, or garbage on the GPU). The image that is
/// loaded says what the kernel declares, so a launcher can check first:
///
/// - a cubin (ELF): the `.nv.info.<kernel>` section's EIATTR_KPARAM_INFO
///   records, one per parameter (ordinal, offset, size);
/// - PTX text: the `.param` list of `.entry <kernel>`.
///
/// A fatbin, a compressed image or a kernel that is not found gives None:
/// the launch goes on unchecked.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_BACKEND_KERNELPARAMS_H
#define MMPTX_BACKEND_KERNELPARAMS_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mmptx {

/// The size in bytes of each parameter of kernel \p Kernel, in order, as
/// \p Image (a cubin or PTX text) declares them; None where it does not
/// say.
llvm::Optional<std::vector<unsigned>>
getKernelParamSizes(llvm::StringRef Image, llvm::StringRef Kernel);

/// Why \p Image, an ELF file (a cubin), cannot be given to the driver: a
/// header, a header table, a section or a segment that lies past its end,
/// or another class than 64-bit little-endian. "" for an image whose
/// extents all lie inside, and for an image that is not ELF (PTX, a
/// fatbin: the driver reads those itself). The driver is given no size, so
/// it would read past the end.
std::string checkElfImage(llvm::StringRef Image);

} // namespace mmptx

#endif // MMPTX_BACKEND_KERNELPARAMS_H
