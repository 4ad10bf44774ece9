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

static void translate(const std::exception_ptr &p, void *) {
  try {
    std::rethrow_exception(p);
  } catch (const Failure &f) {
    nb::object errors = nb::module_::import_("mmptx.errors");
    nb::object cls = errors.attr(f.kind);
    nb::object exc = cls(nb::str(f.message.data(), f.message.size()), f.code);
    PyErr_SetObject(cls.ptr(), exc.ptr());
  }
}

NB_MODULE(_mmptx, m) {
  m.doc() = "mmptx: PTX Inject and Stack PTX (native part of the mmptx "
            "package; use mmptx.inject and mmptx.stack)";
  nb::register_exception_translator(translate);
  nb::module_ inject = m.def_submodule("inject", "PTX Inject");
  bindInject(inject);
  nb::module_ stack = m.def_submodule("stack", "Stack PTX");
  bindStack(stack);
  nb::module_ backend = m.def_submodule("backend", "PTX -> cubin");
  bindBackend(backend);
  nb::module_ ast = m.def_submodule("ast", "AST PTX");
  bindAst(ast);
  nb::module_ runtime = m.def_submodule("runtime", "cubins on a GPU");
  bindRuntime(runtime);
}
