//===- LastError.h - The last-error mechanism of the C APIs -----*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one implementation of the convention of mmptx-c/Error.h, used by
/// every C API: a call ends with succeed() or fail(), which record the
/// calling thread's message (and, for APIs with per-context accessors, the
/// context's copy).
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_LIB_CAPI_LASTERROR_H
#define MMPTX_LIB_CAPI_LASTERROR_H

#include "llvm/ADT/Twine.h"

#include <string>

namespace mmptx {
namespace capi {

/// Records \p Msg as the calling thread's last error; \p ContextMessage,
/// when not null, receives a copy.
void setLastError(const llvm::Twine &Msg,
                  std::string *ContextMessage = nullptr);
/// \returns the calling thread's last error.
const std::string &getLastError();

/// \returns the message of a too-small output buffer: \p BufferSize bytes
/// for \p Size bytes of \p What and its NUL.
std::string insufficientBuffer(size_t BufferSize, size_t Size,
                               llvm::StringRef What);

/// Records \p Msg; \returns \p Code.
template <typename ResultT>
ResultT fail(ResultT Code, const llvm::Twine &Msg,
             std::string *ContextMessage = nullptr) {
  setLastError(Msg, ContextMessage);
  return Code;
}

/// Clears the calling thread's last error; \returns \p Code (success).
template <typename ResultT> ResultT succeed(ResultT Code) {
  setLastError("");
  return Code;
}

} // namespace capi
} // namespace mmptx

#endif // MMPTX_LIB_CAPI_LASTERROR_H
