//===- ByteScan.h - Stepping over a run of bytes of one class ---*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The inner loop the byte scanners of checked creates and renders share.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_LIB_INJECT_BYTESCAN_H
#define MMPTX_LIB_INJECT_BYTESCAN_H

namespace mmptx {
namespace inject {

/// \returns \p P moved past the bytes for which \p InClass holds, four a
/// step: a byte is read only after one of the class, so the first byte
/// outside it (the text's terminator) bounds every read.
template <typename ClassFn>
inline const char *skipByteRun(const char *P, ClassFn InClass) {
  while (InClass(P[0])) {
    if (!InClass(P[1]))
      return P + 1;
    if (!InClass(P[2]))
      return P + 2;
    if (!InClass(P[3]))
      return P + 3;
    P += 4;
  }
  return P;
}

} // namespace inject
} // namespace mmptx

#endif // MMPTX_LIB_INJECT_BYTESCAN_H
