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
  StackInfo info;
  std::vector<uint32_t> instrMap;
  std::unique_ptr<AstPtxContext> ctx;
  std::vector<AstVar> inputs;
  std::vector<AstOutput> outputs;
  std::vector<llvm::ArrayRef<uint64_t>> routines;
  std::string lastError;
  std::string lastOutput;
  bool haveOutput = false;
};

/// Records \p msg for the thread and for the context \p c; \returns \p r.
static mmptx_ast_result_t fail(mmptx_ast_context_t *c, mmptx_ast_result_t r,
                               const llvm::Twine &msg) {
  return capi::fail(r, msg, &c->lastError);
}

static mmptx_ast_result_t fail(mmptx_ast_result_t r, const llvm::Twine &msg) {
  return capi::fail(r, msg);
}

static mmptx_ast_result_t succeed() { return capi::succeed(MMPTX_AST_SUCCESS); }

static bool isPtxIdentifier(const char *name) {
  if (!name || !*name)
    return false;
  llvm::StringRef s(name);
  if (!(llvm::isAlpha(s[0]) || s[0] == '_' || s[0] == '$'))
    return false;
  return llvm::all_of(
      s, [](char ch) { return llvm::isAlnum(ch) || ch == '_' || ch == '$'; });
}

/// Checks and converts the program arrays into the context's views.
static mmptx_ast_result_t
takeProgram(mmptx_ast_context_t *c, const mmptx_ast_variable_t *inputs,
            size_t numInputs, const mmptx_ast_output_t *outputs,
            size_t numOutputs, const mmptx_ast_routine_t *routines,
            size_t numRoutines) {
  if ((!inputs && numInputs) || (!outputs && numOutputs) ||
      (!routines && numRoutines))
    return fail(c, MMPTX_AST_ERROR_INVALID_VALUE,
                "NULL array with a non-zero count");
  if (numInputs > UINT32_MAX || numRoutines > UINT32_MAX ||
      numOutputs > UINT32_MAX)
    return fail(c, MMPTX_AST_ERROR_INVALID_VALUE, "too many entries");
  auto checkVar = [&](const mmptx_ast_variable_t &v, const char *what,
                      size_t i) -> mmptx_ast_result_t {
    if (!isPtxIdentifier(v.name))
      return fail(c, MMPTX_AST_ERROR_INVALID_VALUE,
                  llvm::Twine(what) + " " + llvm::Twine(i) +
                      " has no name or one that is not a PTX identifier");
    if (isReservedAstName(v.name))
      return fail(c, MMPTX_AST_ERROR_INVALID_VALUE,
                  llvm::Twine(what) + " name '" + v.name +
                      "' is reserved for the stub's temporaries");
    if (v.stack_idx >= c->info.numStacks)
      return fail(c, MMPTX_AST_ERROR_STACK_IDX_OUT_OF_BOUNDS,
                  llvm::Twine(what) + " '" + v.name + "' has stack index " +
                      llvm::Twine(v.stack_idx) + ", out of range");
    return MMPTX_AST_SUCCESS;
  };
  c->inputs.clear();
  for (size_t i = 0; i != numInputs; ++i) {
    if (mmptx_ast_result_t r = checkVar(inputs[i], "input", i))
      return r;
    c->inputs.push_back({inputs[i].name, inputs[i].stack_idx});
  }
  c->outputs.clear();
  for (size_t i = 0; i != numOutputs; ++i) {
    const mmptx_ast_output_t &o = outputs[i];
    if (mmptx_ast_result_t r = checkVar(o.var, "output", i))
      return r;
    if (!o.words && o.num_words)
      return fail(c, MMPTX_AST_ERROR_INVALID_VALUE,
                  "output " + llvm::Twine(i) + " has NULL words");
    for (size_t j = 0; j != i; ++j)
      if (std::strcmp(outputs[j].var.name, o.var.name) == 0)
        return fail(c, MMPTX_AST_ERROR_INVALID_VALUE,
                    "output '" + llvm::Twine(o.var.name) +
                        "' is written twice");
    c->outputs.push_back({{o.var.name, o.var.stack_idx},
                          llvm::ArrayRef<uint64_t>(o.words, o.num_words)});
  }
  c->routines.clear();
  for (size_t i = 0; i != numRoutines; ++i) {
    if (!routines[i].words && routines[i].num_words)
      return fail(c, MMPTX_AST_ERROR_INVALID_VALUE,
                  "routine " + llvm::Twine(i) + " has NULL words");
    c->routines.push_back({routines[i].words, routines[i].num_words});
  }
  return MMPTX_AST_SUCCESS;
}

/// \returns the code of a failed compile, keeping its message.
static mmptx_ast_result_t failWith(mmptx_ast_context_t *c, llvm::Error e) {
  std::string msg;
  AstResult r = takeAstResult(std::move(e), &msg);
  return fail(c, mmptx_ast_result_t(r), msg);
}

extern "C" {

mmptx_ast_options_t mmptx_ast_default_options(void) {
  AstPtxOptions d;
  mmptx_ast_options_t o;
  o.max_stack_depth = d.maxStackDepth;
  o.max_routine_depth = d.maxRoutineDepth;
  o.max_words = d.maxWords;
  o.max_args = d.maxArgs;
  o.max_executed_words = d.maxExecutedWords;
  o.share_subexpressions = d.shareSubexpressions;
  o.target_sm = d.targetSm;
  o.instr_map = nullptr;
  o.num_instr_map = 0;
  return o;
}

const uint32_t *mmptx_ast_reference_instr_map(size_t *count) {
  static const std::vector<uint32_t> map =
      getReferenceAstInstrMap(stack::getDefaultStackInfo());
  if (count)
    *count = map.size();
  return map.data();
}

mmptx_ast_result_t mmptx_ast_context_create(const mmptx_stack_tables_t *tables,
                                            const mmptx_ast_options_t *options,
                                            mmptx_ast_context_t **context) {
  if (!context)
    return fail(MMPTX_AST_ERROR_INVALID_VALUE, "context is NULL");
  *context = nullptr;
  StackInfo info;
  if (!tables) {
    info = stack::getDefaultStackInfo();
  } else {
    info = capi::toStackInfo(*tables);
    if (llvm::Error e = info.verify())
      return fail(MMPTX_AST_ERROR_INVALID_VALUE,
                  "invalid tables: " + llvm::toString(std::move(e)));
  }
  mmptx_ast_options_t o = options ? *options : mmptx_ast_default_options();
  if (!o.instr_map && o.num_instr_map)
    return fail(MMPTX_AST_ERROR_INVALID_VALUE,
                "instr_map is NULL with a non-zero count");
  for (size_t i = 0; i != o.num_instr_map; ++i)
    if (o.instr_map[i] >= info.numInstrs)
      return fail(MMPTX_AST_ERROR_PTX_INSTRUCTION_IDX_OUT_OF_BOUNDS,
                  "instr_map[" + llvm::Twine(i) + "] is " +
                      llvm::Twine(o.instr_map[i]) + ", out of range (" +
                      llvm::Twine(info.numInstrs) + " instructions)");
  auto *c = new (std::nothrow) mmptx_ast_context();
  if (!c)
    return fail(MMPTX_AST_ERROR_INTERNAL, "out of memory");
  c->info = info;
  c->instrMap.assign(o.instr_map, o.instr_map + o.num_instr_map);
  AstPtxOptions opts;
  opts.maxStackDepth = o.max_stack_depth;
  opts.maxRoutineDepth = o.max_routine_depth;
  opts.maxWords = o.max_words;
  opts.maxArgs = o.max_args;
  opts.maxExecutedWords = o.max_executed_words;
  opts.shareSubexpressions = o.share_subexpressions != 0;
  opts.targetSm = o.target_sm;
  opts.instrMap = c->instrMap;
  c->ctx = std::make_unique<AstPtxContext>(c->info, opts);
  *context = c;
  return succeed();
}

void mmptx_ast_context_destroy(mmptx_ast_context_t *context) { delete context; }

mmptx_ast_result_t
mmptx_ast_compile(mmptx_ast_context_t *c, const mmptx_ast_variable_t *inputs,
                  size_t num_inputs, const mmptx_ast_output_t *outputs,
                  size_t num_outputs, const mmptx_ast_routine_t *routines,
                  size_t num_routines, char *buffer, size_t buffer_size,
                  size_t *written) {
  if (!c)
    return fail(MMPTX_AST_ERROR_INVALID_VALUE, "context is NULL");
  c->haveOutput = false;
  c->lastError.clear();
  if (!written)
    return fail(c, MMPTX_AST_ERROR_INVALID_VALUE, "written is NULL");
  *written = 0;
  if (mmptx_ast_result_t r = takeProgram(c, inputs, num_inputs, outputs,
                                         num_outputs, routines, num_routines))
    return r;
  llvm::Expected<llvm::StringRef> text =
      c->ctx->compile({c->outputs, c->routines}, c->inputs);
  if (!text)
    return failWith(c, text.takeError());
  c->haveOutput = true;
  c->lastOutput = text->str();
  *written = text->size();
  if (!buffer || buffer_size <= text->size())
    return fail(
        c, MMPTX_AST_ERROR_INSUFFICIENT_BUFFER,
        capi::insufficientBuffer(buffer_size, text->size(), "the stub"));
  std::memcpy(buffer, text->data(), text->size());
  buffer[text->size()] = '\0';
  return succeed();
}

mmptx_ast_result_t mmptx_ast_last_output(mmptx_ast_context_t *c,
                                         const char **text, size_t *length) {
  if (!c || !text || !length)
    return fail(MMPTX_AST_ERROR_INVALID_VALUE,
                "context, text or length is NULL");
  if (!c->haveOutput)
    return fail(MMPTX_AST_ERROR_INVALID_VALUE,
                "the last compile made no output");
  *text = c->lastOutput.c_str();
  *length = c->lastOutput.size();
  return succeed();
}

mmptx_ast_result_t
mmptx_ast_interpret(mmptx_ast_context_t *c, const mmptx_ast_variable_t *inputs,
                    size_t num_inputs, const uint64_t *values,
                    const mmptx_ast_output_t *outputs, size_t num_outputs,
                    const mmptx_ast_routine_t *routines, size_t num_routines,
                    uint64_t *results) {
  if (!c)
    return fail(MMPTX_AST_ERROR_INVALID_VALUE, "context is NULL");
  c->lastError.clear();
  if ((!values && num_inputs) || (!results && num_outputs))
    return fail(c, MMPTX_AST_ERROR_INVALID_VALUE,
                "NULL values or results with a non-zero count");
  if (mmptx_ast_result_t r = takeProgram(c, inputs, num_inputs, outputs,
                                         num_outputs, routines, num_routines))
    return r;
  llvm::Expected<std::vector<uint64_t>> vals =
      interpretAstPtx(*c->ctx, {c->outputs, c->routines}, c->inputs,
                      llvm::ArrayRef<uint64_t>(values, num_inputs));
  if (!vals)
    return failWith(c, vals.takeError());
  std::copy(vals->begin(), vals->end(), results);
  return succeed();
}

const char *mmptx_ast_last_error(mmptx_ast_context_t *c) {
  return c ? c->lastError.c_str() : "";
}

const char *mmptx_ast_result_to_string(mmptx_ast_result_t r) {
  // The C++ names with the C API's prefix: AST_PTX_ERROR_X -> MMPTX_AST_...
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (uint32_t i = 0; i != NumAstResults; ++i)
      n.push_back("MMPTX_AST_" +
                  llvm::StringRef(getAstResultName(i)).drop_front(8).str());
    return n;
  }();
  if (uint32_t(r) < NumAstResults)
    return names[uint32_t(r)].c_str();
  return "MMPTX_AST_ERROR_INVALID_RESULT_ENUM";
}

} // extern "C"
