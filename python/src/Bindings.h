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
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

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

using WordArray = nanobind::ndarray<const uint64_t, nanobind::ndim<1>,
                                    nanobind::c_contig, nanobind::device::cpu>;

/// A buffer view held by Words, released (with the GIL held) when the Words
/// are destroyed.
struct BufferRelease {
  void operator()(Py_buffer *view) const {
    PyBuffer_Release(view);
    delete view;
  }
};

/// Program words (Stack PTX, AST PTX) borrowed from a uint64 buffer or copied
/// from a sequence of ints.
struct Words {
  std::unique_ptr<Py_buffer, BufferRelease> view;
  WordArray array;
  std::vector<uint64_t> copy;
  llvm::ArrayRef<uint64_t> ref;

  explicit Words(nanobind::handle h) {
    // A NumPy array's own fields first, then the buffer protocol: both are
    // several times cheaper than a DLPack import (no capsule, no keyword
    // call), and the fields skip NumPy's format-string work.
    if (borrowNumPy(h) || borrowBuffer(h))
      return;
    if (nanobind::try_cast(h, array, /*convert=*/false)) {
      ref = llvm::ArrayRef<uint64_t>(array.data(), array.shape(0));
      return;
    }
    if (nanobind::try_cast(h, copy)) {
      ref = copy;
      return;
    }
    throw nanobind::type_error(
        "words must be a 1-D uint64 array or a sequence of "
        "ints in [0, 2**64)");
  }

private:
  /// The leading fields of NumPy's PyArrayObject_fields and PyArray_Descr,
  /// public and unchanged since NumPy 1.7 (2.x included).
  struct NumPyDescrHead {
    PyObject_HEAD PyTypeObject *typeobj;
    char kind, type, byteorder, formerFlags;
    int typeNum;
  };
  struct NumPyArrayHead {
    PyObject_HEAD char *data;
    int nd;
    Py_ssize_t *dimensions, *strides;
    PyObject *base;
    NumPyDescrHead *descr;
    int flags;
  };

  /// Borrows \p h's memory if it is exactly a numpy.ndarray, 1-D,
  /// C-contiguous, of unsigned 64-bit integers in native byte order.
  bool borrowNumPy(nanobind::handle h) {
    if (std::strcmp(Py_TYPE(h.ptr())->tp_name, "numpy.ndarray") != 0)
      return false;
    const auto *a = reinterpret_cast<const NumPyArrayHead *>(h.ptr());
    const NumPyDescrHead *d = a->descr;
    const int CContiguous = 0x1; // NPY_ARRAY_C_CONTIGUOUS
    bool isU64 = d->kind == 'u' &&
                 (d->type == 'Q' || (d->type == 'L' && sizeof(long) == 8));
    bool native = d->byteorder == '=' || d->byteorder == '|' ||
                  d->byteorder == (llvm::sys::IsLittleEndianHost ? '<' : '>');
    if (a->nd != 1 || !(a->flags & CContiguous) || !isU64 || !native)
      return false;
    ref = llvm::ArrayRef<uint64_t>(reinterpret_cast<const uint64_t *>(a->data),
                                   size_t(a->dimensions[0]));
    return true;
  }

  /// Borrows \p h's memory if it is a C-contiguous 1-D buffer of unsigned
  /// 64-bit integers in native byte order.
  bool borrowBuffer(nanobind::handle h) {
    if (!PyObject_CheckBuffer(h.ptr()))
      return false;
    auto *v = new Py_buffer;
    if (PyObject_GetBuffer(h.ptr(), v, PyBUF_ND | PyBUF_FORMAT) != 0) {
      PyErr_Clear();
      delete v;
      return false;
    }
    std::unique_ptr<Py_buffer, BufferRelease> held(v);
    const char *f = v->format ? v->format : "B";
    if (*f == '@' || *f == '=' || *f == '<')
      ++f;
    bool isU64 = v->itemsize == 8 && (f[0] == 'Q' || f[0] == 'L') && !f[1];
    if (v->ndim != 1 || !isU64)
      return false;
    ref = llvm::ArrayRef<uint64_t>(static_cast<const uint64_t *>(v->buf),
                                   size_t(v->shape[0]));
    view = std::move(held);
    return true;
  }
};

/// Special-register values for the interpreters, given as (special index,
/// element bit patterns) pairs; registers and elements not given read 0.
class SpecialValues {
public:
  using List = std::vector<std::pair<uint32_t, std::vector<uint64_t>>>;

  explicit SpecialValues(const List &given) {
    for (const auto &[idx, bits] : given) {
      if (idx >= values.size())
        values.resize(size_t(idx) + 1);
      values[idx] = bits;
    }
  }

  uint64_t get(uint32_t special, unsigned elem) const {
    if (special >= values.size() || elem >= values[special].size())
      return 0;
    return values[special][elem];
  }

private:
  std::vector<std::vector<uint64_t>> values;
};

/// A program's routines, borrowed or copied like Words.
struct Routines {
  std::vector<Words> words;
  std::vector<llvm::ArrayRef<uint64_t>> refs;

  explicit Routines(nanobind::handle seq) {
    if (seq.is_none())
      return;
    for (nanobind::handle h : nanobind::iter(seq))
      words.emplace_back(h);
    for (const Words &w : words)
      refs.push_back(w.ref);
  }
};

void bindInject(nanobind::module_ &m);
void bindStack(nanobind::module_ &m);
void bindBackend(nanobind::module_ &m);
void bindAst(nanobind::module_ &m);
void bindRuntime(nanobind::module_ &m);

} // namespace python
} // namespace mmptx

#endif // MMPTX_PYTHON_BINDINGS_H
