//===- AstPtx.cpp - C API of the AST PTX compiler -------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements include/mmptx-c/AstPtx.h over AstPtxContext: checks every
/// input, views the C tables as a StackInfo (StackTables.h), and keeps
/// the last output and error message in the context.
///
//===----------------------------------------------------------------------===//

#include "CompilerOptions.h"
#include "LastError.h"
#include "StackTables.h"

#include "mmptx-c/AstPtx.h"

#include "mmptx/Ast/AstInterpreter.h"
#include "mmptx/Ast/AstPtx.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstring>
#include <new>
#include <string>
#include <vector>

using namespace mmptx;
using namespace mmptx::ast;
using stack::StackInfo;

static_assert(int(MMPTX_AST_RESULT_NUM) == int(NumAstResults), "result codes");

struct mmptx_ast_context {
  StackInfo Info;
  std::vector<uint32_t> InstrMap;
  std::unique_ptr<AstPtxContext> Ctx;
  std::vector<AstVar> Inputs;
  std::vector<AstOutput> Outputs;
  std::vector<llvm::ArrayRef<uint64_t>> Routines;
  std::string LastError;
  std::string LastOutput;
  bool HaveOutput = false;
};

/// Records \p Msg for the thread and for the context \p C; \returns \p R.
static mmptx_ast_result_t fail(mmptx_ast_context_t *C, mmptx_ast_result_t R,
                               const llvm::Twine &Msg) {
  return capi::fail(R, Msg, &C->LastError);
}

static mmptx_ast_result_t fail(mmptx_ast_result_t R, const llvm::Twine &Msg) {
  return capi::fail(R, Msg);
}

static mmptx_ast_result_t succeed() { return capi::succeed(MMPTX_AST_SUCCESS); }

static bool isPtxIdentifier(const char *Name) {
  if (!Name || !*Name)
    return false;
  llvm::StringRef S(Name);
  if (!(llvm::isAlpha(S[0]) || S[0] == '_' || S[0] == '$'))
    return false;
  return llvm::all_of(
      S, [](char Ch) { return llvm::isAlnum(Ch) || Ch == '_' || Ch == '$'; });
}

/// Checks and converts the program arrays into the context's views.
static mmptx_ast_result_t
takeProgram(mmptx_ast_context_t *C, const mmptx_ast_variable_t *Inputs,
            size_t NumInputs, const mmptx_ast_output_t *Outputs,
            size_t NumOutputs, const mmptx_ast_routine_t *Routines,
            size_t NumRoutines) {
  if ((!Inputs && NumInputs) || (!Outputs && NumOutputs) ||
      (!Routines && NumRoutines))
    return fail(C, MMPTX_AST_ERROR_INVALID_VALUE,
                "NULL array with a non-zero count");
  if (NumInputs > UINT32_MAX || NumRoutines > UINT32_MAX ||
      NumOutputs > UINT32_MAX)
    return fail(C, MMPTX_AST_ERROR_INVALID_VALUE, "too many entries");
  auto CheckVar = [&](const mmptx_ast_variable_t &V, const char *What,
                      size_t I) -> mmptx_ast_result_t {
    if (!isPtxIdentifier(V.name))
      return fail(C, MMPTX_AST_ERROR_INVALID_VALUE,
                  llvm::Twine(What) + " " + llvm::Twine(I) +
                      " has no name or one that is not a PTX identifier");
    if (isReservedAstName(V.name))
      return fail(C, MMPTX_AST_ERROR_INVALID_VALUE,
                  llvm::Twine(What) + " name '" + V.name +
                      "' is reserved for the stub's temporaries");
    if (V.stack_idx >= C->Info.NumStacks)
      return fail(C, MMPTX_AST_ERROR_STACK_IDX_OUT_OF_BOUNDS,
                  llvm::Twine(What) + " '" + V.name + "' has stack index " +
                      llvm::Twine(V.stack_idx) + ", out of range");
    return MMPTX_AST_SUCCESS;
  };
  C->Inputs.clear();
  for (size_t I = 0; I != NumInputs; ++I) {
    if (mmptx_ast_result_t R = CheckVar(Inputs[I], "input", I))
      return R;
    C->Inputs.push_back({Inputs[I].name, Inputs[I].stack_idx});
  }
  C->Outputs.clear();
  for (size_t I = 0; I != NumOutputs; ++I) {
    const mmptx_ast_output_t &O = Outputs[I];
    if (mmptx_ast_result_t R = CheckVar(O.var, "output", I))
      return R;
    if (!O.words && O.num_words)
      return fail(C, MMPTX_AST_ERROR_INVALID_VALUE,
                  "output " + llvm::Twine(I) + " has NULL words");
    for (size_t J = 0; J != I; ++J)
      if (std::strcmp(Outputs[J].var.name, O.var.name) == 0)
        return fail(C, MMPTX_AST_ERROR_INVALID_VALUE,
                    "output '" + llvm::Twine(O.var.name) +
                        "' is written twice");
    C->Outputs.push_back({{O.var.name, O.var.stack_idx},
                          llvm::ArrayRef<uint64_t>(O.words, O.num_words)});
  }
  C->Routines.clear();
  for (size_t I = 0; I != NumRoutines; ++I) {
    if (!Routines[I].words && Routines[I].num_words)
      return fail(C, MMPTX_AST_ERROR_INVALID_VALUE,
                  "routine " + llvm::Twine(I) + " has NULL words");
    C->Routines.push_back({Routines[I].words, Routines[I].num_words});
  }
  return MMPTX_AST_SUCCESS;
}

/// \returns the code of a failed compile, keeping its message.
static mmptx_ast_result_t failWith(mmptx_ast_context_t *C, llvm::Error E) {
  std::string Msg;
  AstResult R = takeAstResult(std::move(E), &Msg);
  return fail(C, mmptx_ast_result_t(R), Msg);
}

extern "C" {

mmptx_ast_options_t mmptx_ast_default_options(void) {
  AstPtxOptions D;
  mmptx_ast_options_t O;
  O.max_stack_depth = D.MaxStackDepth;
  O.max_routine_depth = D.MaxRoutineDepth;
  O.max_words = D.MaxWords;
  O.max_args = D.MaxArgs;
  O.max_executed_words = D.MaxExecutedWords;
  O.share_subexpressions = D.ShareSubexpressions;
  O.target_sm = D.TargetSm;
  O.instr_map = nullptr;
  O.num_instr_map = 0;
  return O;
}

const uint32_t *mmptx_ast_reference_instr_map(size_t *Count) {
  static const std::vector<uint32_t> Map =
      getReferenceAstInstrMap(stack::getDefaultStackInfo());
  if (Count)
    *Count = Map.size();
  return Map.data();
}

mmptx_ast_result_t mmptx_ast_context_create(const mmptx_stack_tables_t *Tables,
                                            const mmptx_ast_options_t *Options,
                                            mmptx_ast_context_t **Context) {
  if (!Context)
    return fail(MMPTX_AST_ERROR_INVALID_VALUE, "context is NULL");
  *Context = nullptr;
  StackInfo Info;
  if (!Tables) {
    Info = stack::getDefaultStackInfo();
  } else {
    Info = capi::toStackInfo(*Tables);
    if (llvm::Error E = Info.verify())
      return fail(MMPTX_AST_ERROR_INVALID_VALUE,
                  "invalid tables: " + llvm::toString(std::move(E)));
  }
  mmptx_ast_options_t O = Options ? *Options : mmptx_ast_default_options();
  if (!O.instr_map && O.num_instr_map)
    return fail(MMPTX_AST_ERROR_INVALID_VALUE,
                "instr_map is NULL with a non-zero count");
  for (size_t I = 0; I != O.num_instr_map; ++I)
    if (O.instr_map[I] >= Info.NumInstrs)
      return fail(MMPTX_AST_ERROR_PTX_INSTRUCTION_IDX_OUT_OF_BOUNDS,
                  "instr_map[" + llvm::Twine(I) + "] is " +
                      llvm::Twine(O.instr_map[I]) + ", out of range (" +
                      llvm::Twine(Info.NumInstrs) + " instructions)");
  auto *C = new (std::nothrow) mmptx_ast_context();
  if (!C)
    return fail(MMPTX_AST_ERROR_INTERNAL, "out of memory");
  C->Info = Info;
  C->InstrMap.assign(O.instr_map, O.instr_map + O.num_instr_map);
  AstPtxOptions Opts = capi::toAstPtxOptions(O);
  Opts.InstrMap = C->InstrMap;
  C->Ctx = std::make_unique<AstPtxContext>(C->Info, Opts);
  *Context = C;
  return succeed();
}

void mmptx_ast_context_destroy(mmptx_ast_context_t *Context) { delete Context; }

mmptx_ast_result_t
mmptx_ast_compile(mmptx_ast_context_t *C, const mmptx_ast_variable_t *Inputs,
                  size_t NumInputs, const mmptx_ast_output_t *Outputs,
                  size_t NumOutputs, const mmptx_ast_routine_t *Routines,
                  size_t NumRoutines, char *Buffer, size_t BufferSize,
                  size_t *Written) {
  if (!C)
    return fail(MMPTX_AST_ERROR_INVALID_VALUE, "context is NULL");
  C->HaveOutput = false;
  C->LastError.clear();
  if (!Written)
    return fail(C, MMPTX_AST_ERROR_INVALID_VALUE, "written is NULL");
  *Written = 0;
  if (mmptx_ast_result_t R = takeProgram(C, Inputs, NumInputs, Outputs,
                                         NumOutputs, Routines, NumRoutines))
    return R;
  llvm::Expected<llvm::StringRef> Text =
      C->Ctx->compile({C->Outputs, C->Routines}, C->Inputs);
  if (!Text)
    return failWith(C, Text.takeError());
  C->HaveOutput = true;
  C->LastOutput = Text->str();
  *Written = Text->size();
  if (!Buffer || BufferSize <= Text->size())
    return fail(C, MMPTX_AST_ERROR_INSUFFICIENT_BUFFER,
                capi::insufficientBuffer(BufferSize, Text->size(), "the stub"));
  std::memcpy(Buffer, Text->data(), Text->size());
  Buffer[Text->size()] = '\0';
  return succeed();
}

mmptx_ast_result_t mmptx_ast_last_output(mmptx_ast_context_t *C,
                                         const char **Text, size_t *Length) {
  if (!C || !Text || !Length)
    return fail(MMPTX_AST_ERROR_INVALID_VALUE,
                "context, text or length is NULL");
  if (!C->HaveOutput)
    return fail(MMPTX_AST_ERROR_INVALID_VALUE,
                "the last compile made no output");
  *Text = C->LastOutput.c_str();
  *Length = C->LastOutput.size();
  return succeed();
}

mmptx_ast_result_t mmptx_ast_interpret(mmptx_ast_context_t *C,
                                       const mmptx_ast_variable_t *Inputs,
                                       size_t NumInputs, const uint64_t *Values,
                                       const mmptx_ast_output_t *Outputs,
                                       size_t NumOutputs,
                                       const mmptx_ast_routine_t *Routines,
                                       size_t NumRoutines, uint64_t *Results) {
  if (!C)
    return fail(MMPTX_AST_ERROR_INVALID_VALUE, "context is NULL");
  C->LastError.clear();
  if ((!Values && NumInputs) || (!Results && NumOutputs))
    return fail(C, MMPTX_AST_ERROR_INVALID_VALUE,
                "NULL values or results with a non-zero count");
  if (mmptx_ast_result_t R = takeProgram(C, Inputs, NumInputs, Outputs,
                                         NumOutputs, Routines, NumRoutines))
    return R;
  llvm::Expected<std::vector<uint64_t>> Vals =
      interpretAstPtx(*C->Ctx, {C->Outputs, C->Routines}, C->Inputs,
                      llvm::ArrayRef<uint64_t>(Values, NumInputs));
  if (!Vals)
    return failWith(C, Vals.takeError());
  std::copy(Vals->begin(), Vals->end(), Results);
  return succeed();
}

const char *mmptx_ast_last_error(mmptx_ast_context_t *C) {
  return C ? C->LastError.c_str() : "";
}

const char *mmptx_ast_result_to_string(mmptx_ast_result_t R) {
  // The C++ names with the C API's prefix: AST_PTX_ERROR_X -> MMPTX_AST_...
  static const std::vector<std::string> Names = [] {
    std::vector<std::string> N;
    for (uint32_t I = 0; I != NumAstResults; ++I)
      N.push_back("MMPTX_AST_" +
                  llvm::StringRef(getAstResultName(I)).drop_front(8).str());
    return N;
  }();
  if (uint32_t(R) < NumAstResults)
    return Names[uint32_t(R)].c_str();
  return "MMPTX_AST_ERROR_INVALID_RESULT_ENUM";
}

} // extern "C"
