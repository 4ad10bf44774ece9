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
  Failure(const char *Kind, int Code, std::string Message)
      : Kind(Kind), Code(Code), Message(std::move(Message)) {}
  const char *what() const noexcept override { return Message.c_str(); }

  const char *Kind; ///< class name in mmptx.errors
  int Code;
  std::string Message;
};

/// Consumes \p Err and throws it as a Failure of \p Kind with \p Code.
[[noreturn]] inline void throwError(const char *Kind, int Code,
                                    llvm::Error Err) {
  throw Failure(Kind, Code, llvm::toString(std::move(Err)));
}

using WordArray = nanobind::ndarray<const uint64_t, nanobind::ndim<1>,
                                    nanobind::c_contig, nanobind::device::cpu>;

/// A buffer view held by Words, released (with the GIL held) when the Words
/// are destroyed.
struct BufferRelease {
  void operator()(Py_buffer *View) const {
    PyBuffer_Release(View);
    delete View;
  }
};

/// Program words (Stack PTX, AST PTX) borrowed from a uint64 buffer or copied
/// from a sequence of ints.
struct Words {
  std::unique_ptr<Py_buffer, BufferRelease> View;
  WordArray Array;
  std::vector<uint64_t> Copy;
  llvm::ArrayRef<uint64_t> Ref;

  explicit Words(nanobind::handle H) {
    // A NumPy array's own fields first, then the buffer protocol: both are
    // several times cheaper than a DLPack import (no capsule, no keyword
    // call), and the fields skip NumPy's format-string work.
    if (borrowNumPy(H) || borrowBuffer(H))
      return;
    if (nanobind::try_cast(H, Array, /*convert=*/false)) {
      Ref = llvm::ArrayRef<uint64_t>(Array.data(), Array.shape(0));
      return;
    }
    if (nanobind::try_cast(H, Copy)) {
      Ref = Copy;
      return;
    }
    throw nanobind::type_error(
        "words must be a 1-D uint64 array or a sequence of "
        "ints in [0, 2**64)");
  }

private:
  /// numpy.ndarray once NumPy is imported (an object that is exactly an
  /// ndarray cannot exist before), else null. Through the stable ABI: a
  /// type's fields are not visible there. Called with the GIL held.
  static PyObject *numpyArrayType() {
    static PyObject *Type = nullptr;
    if (!Type)
      if (PyObject *NumPy =
              PyDict_GetItemString(PyImport_GetModuleDict(), "numpy")) {
        Type = PyObject_GetAttrString(NumPy, "ndarray"); // kept for good
        if (!Type)
          PyErr_Clear();
      }
    return Type;
  }

  /// The leading fields of NumPy's PyArrayObject_fields and PyArray_Descr,
  /// public and unchanged since NumPy 1.7 (2.x included).
  struct NumPyDescrHead {
    PyObject_HEAD PyTypeObject *Typeobj;
    char Kind, Type, Byteorder, FormerFlags;
    int TypeNum;
  };
  struct NumPyArrayHead {
    PyObject_HEAD char *Data;
    int Nd;
    Py_ssize_t *Dimensions, *Strides;
    PyObject *Base;
    NumPyDescrHead *Descr;
    int Flags;
  };

  /// Borrows \p H's memory if it is exactly a numpy.ndarray, 1-D,
  /// C-contiguous, of unsigned 64-bit integers in native byte order.
  bool borrowNumPy(nanobind::handle H) {
    PyObject *NdArray = numpyArrayType();
    if (!NdArray || reinterpret_cast<PyObject *>(Py_TYPE(H.ptr())) != NdArray)
      return false;
    const auto *A = reinterpret_cast<const NumPyArrayHead *>(H.ptr());
    const NumPyDescrHead *D = A->Descr;
    const int CContiguous = 0x1; // NPY_ARRAY_C_CONTIGUOUS
    bool IsU64 = D->Kind == 'u' &&
                 (D->Type == 'Q' || (D->Type == 'L' && sizeof(long) == 8));
    bool Native = D->Byteorder == '=' || D->Byteorder == '|' ||
                  D->Byteorder == (llvm::sys::IsLittleEndianHost ? '<' : '>');
    if (A->Nd != 1 || !(A->Flags & CContiguous) || !IsU64 || !Native)
      return false;
    Ref = llvm::ArrayRef<uint64_t>(reinterpret_cast<const uint64_t *>(A->Data),
                                   size_t(A->Dimensions[0]));
    return true;
  }

  /// Borrows \p H's memory if it is a C-contiguous 1-D buffer of unsigned
  /// 64-bit integers in native byte order.
  bool borrowBuffer(nanobind::handle H) {
    if (!PyObject_CheckBuffer(H.ptr()))
      return false;
    auto *V = new Py_buffer;
    if (PyObject_GetBuffer(H.ptr(), V, PyBUF_ND | PyBUF_FORMAT) != 0) {
      PyErr_Clear();
      delete V;
      return false;
    }
    std::unique_ptr<Py_buffer, BufferRelease> Held(V);
    const char *F = V->format ? V->format : "B";
    if (*F == '@' || *F == '=' || *F == '<')
      ++F;
    bool IsU64 = V->itemsize == 8 && (F[0] == 'Q' || F[0] == 'L') && !F[1];
    if (V->ndim != 1 || !IsU64)
      return false;
    Ref = llvm::ArrayRef<uint64_t>(static_cast<const uint64_t *>(V->buf),
                                   size_t(V->shape[0]));
    View = std::move(Held);
    return true;
  }
};

/// Special-register values for the interpreters, given as (special index,
/// element bit patterns) pairs; registers and elements not given read 0.
class SpecialValues {
public:
  using List = std::vector<std::pair<uint32_t, std::vector<uint64_t>>>;

  explicit SpecialValues(const List &Given) {
    for (const auto &[idx, bits] : Given) {
      if (idx >= Values.size())
        Values.resize(size_t(idx) + 1);
      Values[idx] = bits;
    }
  }

  uint64_t get(uint32_t Special, unsigned Elem) const {
    if (Special >= Values.size() || Elem >= Values[Special].size())
      return 0;
    return Values[Special][Elem];
  }

private:
  std::vector<std::vector<uint64_t>> Values;
};

/// A program's routines, borrowed or copied like Words.
struct Routines {
  std::vector<Words> Held;
  std::vector<llvm::ArrayRef<uint64_t>> Refs;

  explicit Routines(nanobind::handle Seq) {
    if (Seq.is_none())
      return;
    for (nanobind::handle H : nanobind::iter(Seq))
      Held.emplace_back(H);
    for (const Words &W : Held)
      Refs.push_back(W.Ref);
  }
};

void bindInject(nanobind::module_ &M);
void bindStack(nanobind::module_ &M);
void bindBackend(nanobind::module_ &M);
void bindAst(nanobind::module_ &M);
void bindRuntime(nanobind::module_ &M);
void bindWire(nanobind::module_ &M);
void bindFrontend(nanobind::module_ &M);

} // namespace python
} // namespace mmptx

#endif // MMPTX_PYTHON_BINDINGS_H
