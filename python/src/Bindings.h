//===- Bindings.h - Shared pieces of the Python bindings --------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the binding files share: the C++ exception that becomes one of the
/// package's Python exceptions (mmptx.errors), and the per-module entry
/// points Module.cpp calls.
///
//===----------------------------------------------------------------------===//

#ifndef MMPTX_PYTHON_BINDINGS_H
#define MMPTX_PYTHON_BINDINGS_H

#include <nanobind/nanobind.h>

#include "llvm/Support/Error.h"

#include <exception>
#include <string>

namespace mmptx {
namespace python {

/// Thrown by the bindings; translated into `mmptx.errors.<kind>(message,
/// code)`, so Python sees the located message and the numeric code.
class Failure : public std::exception {
public:
  Failure(const char *kind, int code, std::string message)
      : kind(kind), code(code), message(std::move(message)) {}
  const char *what() const noexcept override { return message.c_str(); }

  const char *kind; ///< class name in mmptx.errors
  int code;
  std::string message;
};

/// Consumes \p err and throws it as a Failure of \p kind with \p code.
[[noreturn]] inline void throwError(const char *kind, int code,
                                    llvm::Error err) {
  throw Failure(kind, code, llvm::toString(std::move(err)));
}

void bindInject(nanobind::module_ &m);
void bindStack(nanobind::module_ &m);

} // namespace python
} // namespace mmptx

#endif // MMPTX_PYTHON_BINDINGS_H
