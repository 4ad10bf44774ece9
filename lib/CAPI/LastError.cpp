//===- LastError.cpp - The last-error mechanism of the C APIs -------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "LastError.h"

#include "mmptx-c/Error.h"

using namespace mmptx;

/// One message per thread, shared by every C API.
static thread_local std::string LastError;

void capi::setLastError(const llvm::Twine &Msg, std::string *ContextMessage) {
  // Success, on every call of the hot paths: nothing to render.
  if (Msg.isTriviallyEmpty()) {
    LastError.clear();
    if (ContextMessage)
      ContextMessage->clear();
    return;
  }
  // Msg may refer to a context's copy: render it before assigning.
  std::string Text = Msg.str();
  if (ContextMessage)
    *ContextMessage = Text;
  LastError = std::move(Text);
}

const std::string &capi::getLastError() { return LastError; }

std::string capi::insufficientBuffer(size_t BufferSize, size_t Size,
                                     llvm::StringRef What) {
  return ("output buffer of " + llvm::Twine(BufferSize) +
          " bytes is too small: " + What + " and its NUL need " +
          llvm::Twine(Size + 1))
      .str();
}

const char *mmptx_last_error(void) { return LastError.c_str(); }
