//===- Module.cpp - The mmptx._mmptx extension module ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Creates mmptx._mmptx with one submodule per binding file and turns
/// Failure exceptions into the package's Python exceptions.
///
//===----------------------------------------------------------------------===//

#include "Bindings.h"

namespace nb = nanobind;
using namespace mmptx::python;

static void translate(const std::exception_ptr &P, void *) {
  try {
    std::rethrow_exception(P);
  } catch (const Failure &F) {
    nb::object Errors = nb::module_::import_("mmptx.errors");
    nb::object Cls = Errors.attr(F.Kind);
    nb::object Exc = Cls(nb::str(F.Message.data(), F.Message.size()), F.Code);
    PyErr_SetObject(Cls.ptr(), Exc.ptr());
  }
}

NB_MODULE(_mmptx, m) {
  m.doc() = "mmptx: PTX Inject and Stack PTX (native part of the mmptx "
            "package; use mmptx.inject and mmptx.stack)";
  nb::register_exception_translator(translate);
  nb::module_ InjectMod = m.def_submodule("inject", "PTX Inject");
  bindInject(InjectMod);
  nb::module_ Stack = m.def_submodule("stack", "Stack PTX");
  bindStack(Stack);
  nb::module_ Backend = m.def_submodule("backend", "PTX -> cubin");
  bindBackend(Backend);
  nb::module_ Ast = m.def_submodule("ast", "AST PTX");
  bindAst(Ast);
  nb::module_ Runtime = m.def_submodule("runtime", "cubins on a GPU");
  bindRuntime(Runtime);
  nb::module_ Wire = m.def_submodule("wire", "the wire format");
  bindWire(Wire);
  nb::module_ Frontend = m.def_submodule(
      "frontend", "annotate, CUDA -> PTX (NVRTC), the CUDA libraries' search");
  bindFrontend(Frontend);
}
