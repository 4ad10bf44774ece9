//===- Inject.cpp - Python binding of mmptx::InjectModule -----------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A thin façade over InjectModule (mmptx/Inject/InjectModule.h). The
/// handle is read-only after creation, so render releases the GIL: any
/// number of Python threads may render from one module at once. The Python
/// side (mmptx/inject.py) adds the plain objects and mapping sugar.
///
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "mmptx/Inject/InjectModule.h"

#include "llvm/Support/raw_ostream.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <memory>

namespace nb = nanobind;
using namespace mmptx;
using namespace mmptx::python;

namespace {

[[noreturn]] void throwInjectError(llvm::Error err) {
  std::string msg;
  InjectErrc code = takeInjectError(std::move(err), &msg);
  throw Failure("InjectError", int(code), std::move(msg));
}

/// Borrows the UTF-8 text of a str or the bytes of a bytes object; the
/// view lives as long as \p o.
llvm::StringRef textOf(nb::handle o, const char *what) {
  if (PyUnicode_Check(o.ptr())) {
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(o.ptr(), &n);
    if (!s)
      throw nb::python_error();
    return llvm::StringRef(s, size_t(n));
  }
  if (PyBytes_Check(o.ptr()))
    return llvm::StringRef(PyBytes_AS_STRING(o.ptr()),
                           size_t(PyBytes_GET_SIZE(o.ptr())));
  throw nb::type_error((std::string(what) + " must be str or bytes").c_str());
}

nb::str toStr(const std::string &s) {
  return nb::steal<nb::str>(
      PyUnicode_DecodeUTF8(s.data(), Py_ssize_t(s.size()), "surrogateescape"));
}

/// The Python-visible module: a shared handle so that a render running
/// without the GIL keeps it alive whatever other threads do.
class PyInjectModule {
public:
  explicit PyInjectModule(std::shared_ptr<const InjectModule> m)
      : mod(std::move(m)) {}

  static PyInjectModule
  create(nb::handle ptx, const std::string &name,
         const std::vector<std::tuple<std::string, std::string, std::string>>
             &extraTypes,
         bool allowUnknownTypes, bool trusted) {
    llvm::StringRef text = textOf(ptx, "ptx");
    std::vector<InjectType> types;
    for (const auto &t : extraTypes) {
      InjectType ty;
      ty.token = std::get<0>(t);
      ty.regType = std::get<1>(t);
      ty.movSuffix = std::get<2>(t);
      types.push_back(ty);
    }
    InjectOptions opts;
    opts.extraTypes = types;
    opts.allowUnknownTypes = allowUnknownTypes;
    opts.trusted = trusted;
    llvm::Expected<std::unique_ptr<InjectModule>> m = [&] {
      nb::gil_scoped_release release;
      return InjectModule::create(text, name, opts);
    }();
    if (!m)
      throwInjectError(m.takeError());
    return PyInjectModule(std::shared_ptr<const InjectModule>(std::move(*m)));
  }

  /// Every inject as (name, num_sites, [(name, kind, reg_type, type_token,
  /// stable_register)]), in index order.
  nb::list describe() const {
    nb::list out;
    for (const Inject &inj : mod->injects()) {
      nb::list vars;
      for (const InjectVariable &v : mod->getVariables(inj))
        vars.append(nb::make_tuple(
            std::string(v.name), std::string(getInjectArgKindName(v.kind)),
            std::string(v.regType), std::string(v.typeToken),
            std::string(v.stableRegister)));
      out.append(nb::make_tuple(std::string(inj.name), inj.numSites, vars));
    }
    return out;
  }

  /// Renders with stubs[i] at every site of inject i.
  nb::str render(nb::sequence stubs) const {
    size_t n = nb::len(stubs);
    std::vector<llvm::StringRef> refs;
    refs.reserve(n);
    // The borrowed views stay valid: `stubs` holds its items.
    for (size_t i = 0; i != n; ++i)
      refs.push_back(textOf(stubs[i], "a stub"));
    return renderRefs(refs);
  }

  /// Renders with stubs given by inject name.
  nb::str renderByName(nb::dict stubs) const {
    llvm::StringMap<llvm::StringRef> byName;
    for (auto [k, v] : stubs)
      byName[textOf(k, "an inject name")] = textOf(v, "a stub");
    llvm::Expected<std::vector<llvm::StringRef>> ordered =
        mod->orderStubs(byName);
    if (!ordered)
      throwInjectError(ordered.takeError());
    return renderRefs(*ordered);
  }

  std::string json() const {
    std::string s;
    llvm::raw_string_ostream os(s);
    printInjects(*mod, os, /*json=*/true);
    return os.str();
  }

  const InjectModule &get() const { return *mod; }

private:
  nb::str renderRefs(llvm::ArrayRef<llvm::StringRef> refs) const {
    std::shared_ptr<const InjectModule> keep = mod;
    std::string out;
    llvm::Error err = llvm::Error::success();
    {
      nb::gil_scoped_release release;
      err = keep->render(refs, out);
    }
    if (err)
      throwInjectError(std::move(err));
    return toStr(out);
  }

  std::shared_ptr<const InjectModule> mod;
};

} // namespace

void mmptx::python::bindInject(nb::module_ &m) {
  nb::class_<PyInjectModule>(m, "Module",
                             "The inject sites of one PTX text (native "
                             "handle; see mmptx.inject.Module)")
      .def_static(
          "create", &PyInjectModule::create, nb::arg("ptx"),
          nb::arg("name") = "<ptx>",
          nb::arg("extra_types") =
              std::vector<std::tuple<std::string, std::string, std::string>>(),
          nb::arg("allow_unknown_types") = false, nb::arg("trusted") = false)
      .def("describe", &PyInjectModule::describe)
      .def("render", &PyInjectModule::render, nb::arg("stubs"))
      .def("render_by_name", &PyInjectModule::renderByName, nb::arg("stubs"))
      .def("json", &PyInjectModule::json)
      .def_prop_ro(
          "num_injects",
          [](const PyInjectModule &m) { return m.get().getNumInjects(); })
      .def_prop_ro("memory_usage", [](const PyInjectModule &m) {
        return m.get().getMemoryUsage();
      });

  nb::list types;
  for (const InjectType &t : getBuiltinInjectTypes())
    types.append(nb::make_tuple(std::string(t.token), std::string(t.regType),
                                std::string(t.movSuffix),
                                std::string(1, t.constraint), t.bits));
  m.attr("builtin_types") = types;
}
