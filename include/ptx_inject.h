/*===- ptx_inject.h - The mm-ptx include name --------------------*- C -*-===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * For sources written against mm-ptx, which include `ptx_inject.h` for both
 * of its sides: compiled by nvcc or NVRTC (__CUDACC__), the device header
 * with the PTX_INJECT(...) macros, mmptx/cuda/ptx_inject.h; compiled for the
 * host, mmptx's C API of PTX Inject, mmptx-c/PtxInject.h (its functions are
 * named mmptx_inject_*). The directory holding this file (the installed
 * include directory, or mmptx.get_include() in Python) is the one to pass
 * as -I.
 */
#ifndef MMPTX_COMPAT_PTX_INJECT_H
#define MMPTX_COMPAT_PTX_INJECT_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#include "mmptx/cuda/ptx_inject.h"
#else
#include "mmptx-c/PtxInject.h"
#endif

#endif /* MMPTX_COMPAT_PTX_INJECT_H */
