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
#include "mmptx/Stub/StubBuilder.h"
#include "mmptx/Transforms/PruneUnusedGlobals.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <memory>

namespace nb = nanobind;
using namespace mmptx;
using namespace mmptx::python;

namespace {

[[noreturn]] void throwInjectError(llvm::Error Err) {
  std::string Msg;
  InjectErrc Code = takeInjectError(std::move(Err), &Msg);
  throw Failure("InjectError", int(Code), std::move(Msg));
}

/// Borrows the UTF-8 text of a str or the bytes of a bytes object; the
/// view lives as long as \p O.
llvm::StringRef textOf(nb::handle O, const char *What) {
  if (PyUnicode_Check(O.ptr())) {
    Py_ssize_t N;
    const char *S = PyUnicode_AsUTF8AndSize(O.ptr(), &N);
    if (!S)
      throw nb::python_error();
    return llvm::StringRef(S, size_t(N));
  }
  if (PyBytes_Check(O.ptr()))
    return llvm::StringRef(PyBytes_AsString(O.ptr()),
                           size_t(PyBytes_Size(O.ptr())));
  throw nb::type_error((std::string(What) + " must be str or bytes").c_str());
}

nb::str toStr(const std::string &S) {
  return nb::steal<nb::str>(
      PyUnicode_DecodeUTF8(S.data(), Py_ssize_t(S.size()), "surrogateescape"));
}

/// The Python-visible module: a shared handle so that a render running
/// without the GIL keeps it alive whatever other threads do.
class PyInjectModule {
public:
  explicit PyInjectModule(std::shared_ptr<const InjectModule> M)
      : Mod(std::move(M)) {}

  static PyInjectModule
  create(nb::handle Ptx, const std::string &Name,
         const std::vector<std::tuple<std::string, std::string, std::string>>
             &ExtraTypes,
         bool AllowUnknownTypes, bool Trusted) {
    llvm::StringRef Text = textOf(Ptx, "ptx");
    std::vector<InjectType> Types;
    for (const auto &T : ExtraTypes) {
      InjectType Ty;
      Ty.TheToken = std::get<0>(T);
      Ty.RegType = std::get<1>(T);
      Ty.MovSuffix = std::get<2>(T);
      Types.push_back(Ty);
    }
    InjectOptions Opts;
    Opts.ExtraTypes = Types;
    Opts.AllowUnknownTypes = AllowUnknownTypes;
    Opts.Trusted = Trusted;
    llvm::Expected<std::unique_ptr<InjectModule>> M = [&] {
      nb::gil_scoped_release Release;
      return InjectModule::create(Text, Name, Opts);
    }();
    if (!M)
      throwInjectError(M.takeError());
    return PyInjectModule(std::shared_ptr<const InjectModule>(std::move(*M)));
  }

  /// Every inject as (name, num_sites, [(name, kind, reg_type, type_token,
  /// stable_register)]), in index order.
  nb::list describe() const {
    nb::list Out;
    for (const Inject &Inj : Mod->injects()) {
      nb::list Vars;
      for (const InjectVariable &V : Mod->getVariables(Inj))
        Vars.append(nb::make_tuple(
            std::string(V.Name), std::string(getInjectArgKindName(V.Kind)),
            std::string(V.RegType), std::string(V.TypeToken),
            std::string(V.StableRegister)));
      Out.append(nb::make_tuple(std::string(Inj.Name), Inj.NumSites, Vars));
    }
    return Out;
  }

  /// Renders with stubs[i] at every site of inject i.
  nb::str render(nb::sequence Stubs) const {
    size_t N = nb::len(Stubs);
    std::vector<llvm::StringRef> Refs;
    Refs.reserve(N);
    // The borrowed views stay valid: `stubs` holds its items.
    for (size_t I = 0; I != N; ++I)
      Refs.push_back(textOf(Stubs[I], "a stub"));
    return renderRefs(Refs);
  }

  /// Renders with stubs given by inject name.
  nb::str renderByName(nb::dict Stubs) const {
    return renderRefs(orderByName(Stubs));
  }

  /// render() into \p Out, a bytearray the caller reuses: it is resized to
  /// the rendered size (a bytearray keeps its memory when it shrinks or
  /// regrows within it), so a loop over variants writes into the same
  /// pages. \returns the number of bytes written.
  size_t renderInto(nb::sequence Stubs, nb::handle Out) const {
    size_t N = nb::len(Stubs);
    std::vector<llvm::StringRef> Refs;
    Refs.reserve(N);
    for (size_t I = 0; I != N; ++I)
      Refs.push_back(textOf(Stubs[I], "a stub"));
    return renderRefsInto(Refs, Out);
  }

  size_t renderByNameInto(nb::dict Stubs, nb::handle Out) const {
    return renderRefsInto(orderByName(Stubs), Out);
  }

  /// The stub of inject \p InjectName built from program \p Text (AST PTX
  /// if \p Ast, else Stack PTX): mmptx/Stub/StubBuilder.h. \p Options maps
  /// StubOptions fields by their Python names (stack_size, strict, ...,
  /// target_sm, include_dirs) to values; fields not given keep the
  /// compilers' defaults.
  nb::str stub(const std::string &InjectName, bool Ast, nb::handle Text,
               const std::string &Name, nb::dict Options) const {
    stub::StubOptions O;
    for (auto [K, V] : Options) {
      std::string Key = nb::cast<std::string>(K);
      if (Key == "include_dirs") {
        for (nb::handle D : nb::iter(V))
          O.IncludeDirs.push_back(nb::cast<std::string>(nb::str(D)));
        continue;
      }
      if (Key == "strict" || Key == "share_subexpressions") {
        bool B = nb::cast<bool>(V);
        (Key == "strict" ? O.Stack.Strict : O.Ast.ShareSubexpressions) = B;
        continue;
      }
      uint64_t N = nb::cast<uint64_t>(V);
      auto Narrow = [&](uint32_t &F) {
        if (N > UINT32_MAX)
          throw nb::value_error((Key + " is out of range").c_str());
        F = uint32_t(N);
      };
      if (Key == "execution_limit")
        O.Stack.ExecutionLimit = N;
      else if (Key == "max_executed_words")
        O.Ast.MaxExecutedWords = N;
      else if (uint32_t *F =
                   llvm::StringSwitch<uint32_t *>(Key)
                       .Case("stack_size", &O.Stack.StackSize)
                       .Case("max_nodes", &O.Stack.MaxNodes)
                       .Case("max_frame_depth", &O.Stack.MaxFrameDepth)
                       .Case("store_size", &O.Stack.StoreSize)
                       .Case("max_stack_depth", &O.Ast.MaxStackDepth)
                       .Case("max_routine_depth", &O.Ast.MaxRoutineDepth)
                       .Case("max_words", &O.Ast.MaxWords)
                       .Case("max_args", &O.Ast.MaxArgs)
                       .Case("target_sm", &O.TargetSm)
                       .Default(nullptr))
        Narrow(*F);
      else
        throw nb::type_error(("unknown stub option '" + Key + "'").c_str());
    }
    const Inject *Inj = Mod->lookupInject(InjectName);
    if (!Inj)
      throw nb::key_error(("no inject named '" + InjectName + "'").c_str());
    stub::Program P{Ast ? stub::ProgramKind::Ast : stub::ProgramKind::Stack,
                    textOf(Text, "program"), Name};
    stub::StubBuilder Builder(std::move(O));
    if (llvm::Error E = Builder.checkOptions())
      throwError("StackError", /*INVALID_ARGUMENT=*/1, std::move(E));
    llvm::Expected<std::string> Stub = [&] {
      nb::gil_scoped_release Release;
      return Builder.build(*Mod, *Inj, P);
    }();
    // The text form's category: the message locates the error.
    if (!Stub)
      throwError(Ast ? "AstError" : "StackError", Ast ? 18 : 8,
                 Stub.takeError());
    return toStr(*Stub);
  }

  std::string json() const {
    std::string S;
    llvm::raw_string_ostream Os(S);
    printInjects(*Mod, Os, /*json=*/true);
    return Os.str();
  }

  const InjectModule &get() const { return *Mod; }

private:
  std::vector<llvm::StringRef> orderByName(nb::dict Stubs) const {
    llvm::StringMap<llvm::StringRef> ByName;
    for (auto [k, v] : Stubs)
      ByName[textOf(k, "an inject name")] = textOf(v, "a stub");
    llvm::Expected<std::vector<llvm::StringRef>> Ordered =
        Mod->orderStubs(ByName);
    if (!Ordered)
      throwInjectError(Ordered.takeError());
    return std::move(*Ordered);
  }

  size_t renderRefsInto(llvm::ArrayRef<llvm::StringRef> Refs,
                        nb::handle Out) const {
    if (!PyByteArray_Check(Out.ptr()))
      throw nb::type_error("out must be a bytearray");
    llvm::Expected<size_t> Size = Mod->renderedSize(Refs);
    if (!Size)
      throwInjectError(Size.takeError());
    if (PyByteArray_Resize(Out.ptr(), Py_ssize_t(*Size)) != 0)
      throw nb::python_error();
    // Exported while the GIL is released: another thread's resize of the
    // bytearray fails (BufferError) instead of freeing what is written.
    Py_buffer View;
    if (PyObject_GetBuffer(Out.ptr(), &View, PyBUF_WRITABLE) != 0)
      throw nb::python_error();
    std::shared_ptr<const InjectModule> Keep = Mod;
    llvm::Expected<size_t> Written = size_t(0);
    {
      nb::gil_scoped_release Release;
      Written =
          Keep->render(Refs, static_cast<char *>(View.buf), size_t(View.len));
    }
    PyBuffer_Release(&View);
    if (!Written)
      throwInjectError(Written.takeError());
    return *Written;
  }

  nb::str renderRefs(llvm::ArrayRef<llvm::StringRef> Refs) const {
    std::shared_ptr<const InjectModule> Keep = Mod;
    std::string Out;
    llvm::Error Err = llvm::Error::success();
    {
      nb::gil_scoped_release Release;
      Err = Keep->render(Refs, Out);
    }
    if (Err)
      throwInjectError(std::move(Err));
    return toStr(Out);
  }

  std::shared_ptr<const InjectModule> Mod;
};

} // namespace

/// prunePTX over Python text: (pruned PTX, variables, functions, bytes).
static nb::tuple prunePy(nb::handle Ptx, const std::string &Name,
                         bool EntriesOnly,
                         const std::vector<std::string> &Keep) {
  llvm::StringRef Text = textOf(Ptx, "ptx");
  PruneOptions Opts;
  Opts.EntriesOnly = EntriesOnly;
  Opts.Keep = Keep;
  PruneStats Stats;
  llvm::Expected<std::string> Out = [&] {
    nb::gil_scoped_release Release;
    return prunePTX(Text, Opts, &Stats, Name);
  }();
  if (!Out)
    throwInjectError(Out.takeError());
  return nb::make_tuple(toStr(*Out), Stats.Variables, Stats.Functions,
                        Stats.Bytes);
}

void mmptx::python::bindInject(nb::module_ &M) {
  M.def("prune", &prunePy, nb::arg("ptx"), nb::arg("name"),
        nb::arg("entries_only"), nb::arg("keep"));
  nb::class_<PyInjectModule>(M, "Module",
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
      .def("render_into", &PyInjectModule::renderInto, nb::arg("stubs"),
           nb::arg("out"))
      .def("render_by_name_into", &PyInjectModule::renderByNameInto,
           nb::arg("stubs"), nb::arg("out"))
      .def("stub", &PyInjectModule::stub, nb::arg("inject"), nb::arg("ast"),
           nb::arg("text"), nb::arg("name"), nb::arg("options"))
      .def("json", &PyInjectModule::json)
      .def_prop_ro(
          "num_injects",
          [](const PyInjectModule &M) { return M.get().getNumInjects(); })
      .def_prop_ro("memory_usage", [](const PyInjectModule &M) {
        return M.get().getMemoryUsage();
      });

  nb::list Types;
  for (const InjectType &T : getBuiltinInjectTypes())
    Types.append(nb::make_tuple(std::string(T.TheToken), std::string(T.RegType),
                                std::string(T.MovSuffix),
                                std::string(1, T.Constraint), T.Bits));
  M.attr("builtin_types") = Types;
}
