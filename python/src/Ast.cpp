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

/// Throws \p E as an AstError: the result code of an ast::AstError (else
/// \p Code), the message located in \p Sm (a text program \p M) when given.
[[noreturn]] void throwAst(llvm::Error E, const llvm::SourceMgr *Sm = nullptr,
                           const AstModule *M = nullptr, int Code = ParseCode) {
  E = llvm::handleErrors(std::move(E),
                         [&](std::unique_ptr<ast::AstError> Ae) -> llvm::Error {
                           Code = int(Ae->getResult());
                           return llvm::Error(std::move(Ae));
                         });
  if (Sm)
    E = locateAstError(std::move(E), *Sm, *M);
  throwError("AstError", Code, std::move(E));
}

/// (max_stack_depth, max_routine_depth, max_words, max_args,
/// max_executed_words, share_subexpressions, target_sm, reference_instrs).
using OptionsTuple = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t,
                                uint64_t, bool, uint32_t, bool>;

/// A context and the instruction map it points to.
struct OwnedContext {
  std::vector<uint32_t> InstrMap;
  std::unique_ptr<AstPtxContext> Ctx;

  /// Makes the context with options \p T applied.
  explicit OwnedContext(const OptionsTuple &T) {
    AstPtxOptions O;
    std::tie(O.MaxStackDepth, O.MaxRoutineDepth, O.MaxWords, O.MaxArgs,
             O.MaxExecutedWords, O.ShareSubexpressions, O.TargetSm,
             std::ignore) = T;
    if (std::get<7>(T)) {
      InstrMap = getReferenceAstInstrMap(info());
      O.InstrMap = InstrMap;
    }
    Ctx = std::make_unique<AstPtxContext>(info(), O);
  }
};

/// A program parsed from text, with the source its errors point into.
class PyAstProgram {
public:
  PyAstProgram(const std::string &Text, const std::string &Name,
               bool FromWords) {
    unsigned Id = Sm.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(Text, Name), llvm::SMLoc());
    llvm::Expected<AstModule> M = FromWords ? parseAstWords(Sm, Id, info())
                                            : parseAstModule(Sm, Id, info());
    if (!M)
      throwAst(M.takeError());
    Mod = std::move(*M);
  }

  /// (name, stack, literal prefix, kind) per variable, Input order.
  std::vector<std::tuple<std::string, std::string, std::string, std::string>>
  vars() const {
    std::vector<std::tuple<std::string, std::string, std::string, std::string>>
        Out;
    for (const AstVarDecl &D : Mod.Vars)
      Out.emplace_back(D.Name, info().StackNames[D.StackIdx],
                       info().LiteralPrefixes[D.StackIdx],
                       getInjectArgKindName(D.Kind).str());
    return Out;
  }

  std::vector<uint32_t> outputs() const {
    std::vector<uint32_t> Out;
    for (const AstOutputDecl &O : Mod.Outputs)
      Out.push_back(O.Var);
    return Out;
  }

  std::string compile(const OptionsTuple &Opts) {
    OwnedContext C(Opts);
    llvm::Expected<llvm::StringRef> Stub = [&] {
      nb::gil_scoped_release Release;
      // getProgram() refreshes views inside mod: one caller at a time.
      std::lock_guard<std::mutex> Lock(Mutex);
      return C.Ctx->compile(Mod.getProgram(), Mod.getInputs());
    }();
    if (!Stub)
      throwAst(Stub.takeError(), &Sm, &Mod);
    return Stub->str();
  }

  std::vector<uint64_t> interpret(const std::vector<uint64_t> &Values,
                                  const OptionsTuple &Opts,
                                  const SpecialValues::List &Specials) {
    std::vector<AstVar> Inputs = Mod.getInputs();
    if (Values.size() != Inputs.size())
      throw nb::value_error("interpret: one value per variable is needed");
    OwnedContext C(Opts);
    SpecialValues Sv(Specials);
    std::lock_guard<std::mutex> Lock(Mutex);
    llvm::Expected<std::vector<uint64_t>> Out =
        interpretAstPtx(*C.Ctx, Mod.getProgram(), Inputs, Values,
                        [&](uint32_t S, unsigned E) { return Sv.get(S, E); });
    if (!Out)
      throwAst(Out.takeError(), &Sm, &Mod);
    return std::move(*Out);
  }

  std::string text() const {
    std::string S;
    llvm::raw_string_ostream Os(S);
    if (llvm::Error E = printAstModule(Os, Mod, info()))
      throwAst(std::move(E), nullptr, nullptr, int(AstResult::InvalidValue));
    return Os.str();
  }

  std::string wordsText() const {
    std::string S;
    llvm::raw_string_ostream Os(S);
    printAstWords(Os, Mod, info());
    return Os.str();
  }

private:
  llvm::SourceMgr Sm;
  AstModule Mod;
  std::mutex Mutex;
};

/// A program of word arrays: inputs (name, stack), outputs (name, stack,
/// words), routines (words); the words are borrowed, not copied.
struct WordProgram {
  std::vector<std::string> Names;
  std::vector<AstVar> Inputs;
  std::vector<Words> Exprs;
  std::vector<AstOutput> Outputs;
  Routines RoutineWords;

  static uint16_t stackOf(const std::string &S) {
    int I = info().findStack(S);
    if (I < 0)
      throw Failure("AstError", int(AstResult::InvalidValue),
                    "unknown stack '" + S + "'");
    return uint16_t(I);
  }

  WordProgram(
      const std::vector<std::tuple<std::string, std::string>> &Ins,
      const std::vector<std::tuple<std::string, std::string, nb::object>> &Outs,
      nb::handle Rs)
      : RoutineWords(Rs) {
    // Names first: the AstVars point into them.
    for (const auto &I : Ins)
      Names.push_back(std::get<0>(I));
    for (const auto &O : Outs)
      Names.push_back(std::get<0>(O));
    for (size_t I = 0; I < Ins.size(); ++I)
      Inputs.push_back(AstVar{Names[I], stackOf(std::get<1>(Ins[I]))});
    for (const auto &O : Outs)
      Exprs.emplace_back(std::get<2>(O));
    for (size_t I = 0; I < Outs.size(); ++I)
      Outputs.push_back(AstOutput{
          AstVar{Names[Ins.size() + I], stackOf(std::get<1>(Outs[I]))},
          Exprs[I].Ref});
  }

  AstProgram program() const { return AstProgram{Outputs, RoutineWords.Refs}; }
};

using InputList = std::vector<std::tuple<std::string, std::string>>;
using OutputList =
    std::vector<std::tuple<std::string, std::string, nb::object>>;

std::string compileWords(const InputList &Ins, const OutputList &Outs,
                         nb::handle RoutineSeq, const OptionsTuple &Opts) {
  WordProgram P(Ins, Outs, RoutineSeq);
  OwnedContext C(Opts);
  llvm::Expected<llvm::StringRef> Stub = [&] {
    nb::gil_scoped_release Release;
    return C.Ctx->compile(P.program(), P.Inputs);
  }();
  if (!Stub)
    throwAst(Stub.takeError());
  return Stub->str();
}

std::vector<uint64_t>
interpretWords(const InputList &Ins, const OutputList &Outs,
               nb::handle RoutineSeq, const std::vector<uint64_t> &Values,
               const OptionsTuple &Opts, const SpecialValues::List &Specials) {
  WordProgram P(Ins, Outs, RoutineSeq);
  if (Values.size() != P.Inputs.size())
    throw nb::value_error("interpret: one value per input is needed");
  OwnedContext C(Opts);
  SpecialValues Sv(Specials);
  llvm::Expected<std::vector<uint64_t>> Out =
      interpretAstPtx(*C.Ctx, P.program(), P.Inputs, Values,
                      [&](uint32_t S, unsigned E) { return Sv.get(S, E); });
  if (!Out)
    throwAst(Out.takeError());
  return std::move(*Out);
}

} // namespace

void mmptx::python::bindAst(nb::module_ &M) {
  nb::class_<PyAstProgram>(M, "Program",
                           "A program parsed from the S-expression text or "
                           "its word listing; errors are located in it.")
      .def(nb::init<const std::string &, const std::string &, bool>(),
           nb::arg("text"), nb::arg("name"), nb::arg("words"))
      .def("vars", &PyAstProgram::vars,
           "(name, stack, literal prefix, kind) per variable, in Input "
           "order.")
      .def("outputs", &PyAstProgram::outputs,
           "The variable index of each output.")
      .def("compile", &PyAstProgram::compile, nb::arg("options"),
           "The PTX stub.")
      .def("interpret", &PyAstProgram::interpret, nb::arg("values"),
           nb::arg("options"), nb::arg("specials") = SpecialValues::List(),
           "Runs the program on the CPU: one bit pattern per output.")
      .def("text", &PyAstProgram::text,
           "The program printed back as S-expressions.")
      .def("words_text", &PyAstProgram::wordsText,
           "The word listing (what mmptx-ast --emit=words prints).");
  M.def("compile_words", &compileWords, nb::arg("inputs"), nb::arg("outputs"),
        nb::arg("routines").none(), nb::arg("options"),
        "The PTX stub of a program of word arrays.");
  M.def("interpret_words", &interpretWords, nb::arg("inputs"),
        nb::arg("outputs"), nb::arg("routines").none(), nb::arg("values"),
        nb::arg("options"), nb::arg("specials") = SpecialValues::List(),
        "Runs a program of word arrays on the CPU.");
  M.def(
      "default_options",
      [] {
        AstPtxOptions O;
        nb::dict D;
        D["max_stack_depth"] = O.MaxStackDepth;
        D["max_routine_depth"] = O.MaxRoutineDepth;
        D["max_words"] = O.MaxWords;
        D["max_args"] = O.MaxArgs;
        D["max_executed_words"] = O.MaxExecutedWords;
        D["share_subexpressions"] = O.ShareSubexpressions;
        D["target_sm"] = O.TargetSm;
        return D;
      },
      "The compiler's default options (AstPtxOptions), by keyword.");
  M.def(
      "stacks",
      [] {
        std::vector<std::tuple<std::string, std::string>> Out;
        for (uint32_t I = 0; I < info().NumStacks; ++I)
          Out.emplace_back(info().StackNames[I], info().LiteralPrefixes[I]);
        return Out;
      },
      "(name, literal prefix) of each stack of the default tables.");
  M.def(
      "instruction_index",
      [](const std::string &Name) { return info().findInstr(Name); },
      nb::arg("name"), "The index of instruction `name`, or -1.");
  M.def(
      "instruction_arity",
      [](uint32_t I) -> int {
        return I < info().NumInstrs ? info().Instrs[I].NumArgs : -1;
      },
      nb::arg("index"), "The operand count of instruction `index`, or -1.");
}
