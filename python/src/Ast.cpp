//===- Ast.cpp - mmptx._mmptx.ast: AST PTX --------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Binds AST PTX (mmptx/Ast): programs parsed from the S-expression text
/// (or its word listing), whose errors are located in that text, and
/// programs given as word arrays, read in place from uint64 buffers. Values
/// cross as bit patterns; python/mmptx/ast.py converts them.
///
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "mmptx/Ast/AstInterpreter.h"
#include "mmptx/Ast/AstPtx.h"
#include "mmptx/Ast/AstText.h"
#include "mmptx/Stack/StackCompiler.h"
#include "mmptx/Stack/StackInfo.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <mutex>

namespace nb = nanobind;
using namespace mmptx;
using namespace mmptx::ast;
using namespace mmptx::python;

namespace {

/// mmptx.errors.AstErrorCode: the AstResult values, then Parse.
constexpr int ParseCode = int(NumAstResults);

const stack::StackInfo &info() { return stack::getDefaultStackInfo(); }

/// Throws \p e as an AstError: the result code of an ast::AstError, the
/// message located in \p sm when a text program is given.
[[noreturn]] void throwAst(llvm::Error e, const llvm::SourceMgr *sm = nullptr,
                           const AstModule *m = nullptr, int code = ParseCode) {
  e = llvm::handleErrors(std::move(e),
                         [&](std::unique_ptr<ast::AstError> ae) -> llvm::Error {
                           code = int(ae->getResult());
                           return llvm::Error(std::move(ae));
                         });
  if (sm)
    e = locateAstError(std::move(e), *sm, *m);
  throwError("AstError", code, std::move(e));
}

/// (max_stack_depth, max_routine_depth, max_words, max_args,
/// max_executed_words, share_subexpressions, target_sm, reference_instrs).
using OptionsTuple = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t,
                                uint64_t, bool, uint32_t, bool>;

/// A context with \p t applied; owns the instruction map it points to.
struct OwnedContext {
  std::vector<uint32_t> instrMap;
  std::unique_ptr<AstPtxContext> ctx;

  explicit OwnedContext(const OptionsTuple &t) {
    AstPtxOptions o;
    std::tie(o.maxStackDepth, o.maxRoutineDepth, o.maxWords, o.maxArgs,
             o.maxExecutedWords, o.shareSubexpressions, o.targetSm,
             std::ignore) = t;
    if (std::get<7>(t)) {
      instrMap = getReferenceAstInstrMap(info());
      o.instrMap = instrMap;
    }
    ctx = std::make_unique<AstPtxContext>(info(), o);
  }
};

/// A program parsed from text, with the source its errors point into.
class PyAstProgram {
public:
  PyAstProgram(const std::string &text, const std::string &name, bool words) {
    unsigned id = sm.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, name), llvm::SMLoc());
    llvm::Expected<AstModule> m =
        words ? parseAstWords(sm, id, info()) : parseAstModule(sm, id, info());
    if (!m)
      throwAst(m.takeError());
    mod = std::move(*m);
  }

  /// (name, stack, literal prefix, kind) per variable, Input order.
  std::vector<std::tuple<std::string, std::string, std::string, std::string>>
  vars() const {
    std::vector<std::tuple<std::string, std::string, std::string, std::string>>
        out;
    for (const AstVarDecl &d : mod.vars)
      out.emplace_back(d.name, info().stackNames[d.stackIdx],
                       info().literalPrefixes[d.stackIdx],
                       getInjectArgKindName(d.kind).str());
    return out;
  }

  std::vector<uint32_t> outputs() const {
    std::vector<uint32_t> out;
    for (const AstOutputDecl &o : mod.outputs)
      out.push_back(o.var);
    return out;
  }

  std::string compile(const OptionsTuple &opts) {
    OwnedContext c(opts);
    llvm::Expected<llvm::StringRef> stub = [&] {
      nb::gil_scoped_release release;
      // getProgram() refreshes views inside mod: one caller at a time.
      std::lock_guard<std::mutex> lock(mutex);
      return c.ctx->compile(mod.getProgram(), mod.getInputs());
    }();
    if (!stub)
      throwAst(stub.takeError(), &sm, &mod);
    return stub->str();
  }

  std::vector<uint64_t> interpret(const std::vector<uint64_t> &values,
                                  const OptionsTuple &opts,
                                  const SpecialValues::List &specials) {
    std::vector<AstVar> inputs = mod.getInputs();
    if (values.size() != inputs.size())
      throw nb::value_error("interpret: one value per variable is needed");
    OwnedContext c(opts);
    SpecialValues sv(specials);
    std::lock_guard<std::mutex> lock(mutex);
    llvm::Expected<std::vector<uint64_t>> out =
        interpretAstPtx(*c.ctx, mod.getProgram(), inputs, values,
                        [&](uint32_t s, unsigned e) { return sv.get(s, e); });
    if (!out)
      throwAst(out.takeError(), &sm, &mod);
    return std::move(*out);
  }

  std::string text() const {
    std::string s;
    llvm::raw_string_ostream os(s);
    if (llvm::Error e = printAstModule(os, mod, info()))
      throwAst(std::move(e), nullptr, nullptr, int(AstResult::InvalidValue));
    return os.str();
  }

  std::string wordsText() const {
    std::string s;
    llvm::raw_string_ostream os(s);
    printAstWords(os, mod, info());
    return os.str();
  }

private:
  llvm::SourceMgr sm;
  AstModule mod;
  std::mutex mutex;
};

/// A program of word arrays: inputs (name, stack), outputs (name, stack,
/// words), routines (words); the words are borrowed, not copied.
struct WordProgram {
  std::vector<std::string> names;
  std::vector<AstVar> inputs;
  std::vector<Words> exprs;
  std::vector<AstOutput> outputs;
  Routines routines;

  static uint16_t stackOf(const std::string &s) {
    int i = info().findStack(s);
    if (i < 0)
      throw Failure("AstError", int(AstResult::InvalidValue),
                    "unknown stack '" + s + "'");
    return uint16_t(i);
  }

  WordProgram(
      const std::vector<std::tuple<std::string, std::string>> &ins,
      const std::vector<std::tuple<std::string, std::string, nb::object>> &outs,
      nb::handle rs)
      : routines(rs) {
    // Names first: the AstVars point into them.
    for (const auto &i : ins)
      names.push_back(std::get<0>(i));
    for (const auto &o : outs)
      names.push_back(std::get<0>(o));
    for (size_t i = 0; i < ins.size(); ++i)
      inputs.push_back(AstVar{names[i], stackOf(std::get<1>(ins[i]))});
    for (const auto &o : outs)
      exprs.emplace_back(std::get<2>(o));
    for (size_t i = 0; i < outs.size(); ++i)
      outputs.push_back(AstOutput{
          AstVar{names[ins.size() + i], stackOf(std::get<1>(outs[i]))},
          exprs[i].ref});
  }

  AstProgram program() const { return AstProgram{outputs, routines.refs}; }
};

using InputList = std::vector<std::tuple<std::string, std::string>>;
using OutputList =
    std::vector<std::tuple<std::string, std::string, nb::object>>;

std::string compileWords(const InputList &ins, const OutputList &outs,
                         nb::handle routines, const OptionsTuple &opts) {
  WordProgram p(ins, outs, routines);
  OwnedContext c(opts);
  llvm::Expected<llvm::StringRef> stub = [&] {
    nb::gil_scoped_release release;
    return c.ctx->compile(p.program(), p.inputs);
  }();
  if (!stub)
    throwAst(stub.takeError());
  return stub->str();
}

std::vector<uint64_t>
interpretWords(const InputList &ins, const OutputList &outs,
               nb::handle routines, const std::vector<uint64_t> &values,
               const OptionsTuple &opts, const SpecialValues::List &specials) {
  WordProgram p(ins, outs, routines);
  if (values.size() != p.inputs.size())
    throw nb::value_error("interpret: one value per input is needed");
  OwnedContext c(opts);
  SpecialValues sv(specials);
  llvm::Expected<std::vector<uint64_t>> out =
      interpretAstPtx(*c.ctx, p.program(), p.inputs, values,
                      [&](uint32_t s, unsigned e) { return sv.get(s, e); });
  if (!out)
    throwAst(out.takeError());
  return std::move(*out);
}

} // namespace

void mmptx::python::bindAst(nb::module_ &m) {
  nb::class_<PyAstProgram>(m, "Program")
      .def(nb::init<const std::string &, const std::string &, bool>(),
           nb::arg("text"), nb::arg("name"), nb::arg("words"))
      .def("vars", &PyAstProgram::vars)
      .def("outputs", &PyAstProgram::outputs)
      .def("compile", &PyAstProgram::compile, nb::arg("options"))
      .def("interpret", &PyAstProgram::interpret, nb::arg("values"),
           nb::arg("options"), nb::arg("specials") = SpecialValues::List())
      .def("text", &PyAstProgram::text)
      .def("words_text", &PyAstProgram::wordsText);
  m.def("compile_words", &compileWords, nb::arg("inputs"), nb::arg("outputs"),
        nb::arg("routines").none(), nb::arg("options"));
  m.def("interpret_words", &interpretWords, nb::arg("inputs"),
        nb::arg("outputs"), nb::arg("routines").none(), nb::arg("values"),
        nb::arg("options"), nb::arg("specials") = SpecialValues::List());
  m.def("stacks", [] {
    std::vector<std::tuple<std::string, std::string>> out;
    for (uint32_t i = 0; i < info().numStacks; ++i)
      out.emplace_back(info().stackNames[i], info().literalPrefixes[i]);
    return out;
  });
  m.def("instruction_index",
        [](const std::string &name) { return info().findInstr(name); });
  m.def("instruction_arity", [](uint32_t i) -> int {
    return i < info().numInstrs ? info().instrs[i].numArgs : -1;
  });
}
