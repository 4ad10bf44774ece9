//===- StackPtx.cpp - C API of the Stack PTX compiler ---------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements mmptx-c/StackPtx.h over StackPtxContext: checks every input,
/// views the C tables as a StackInfo (StackTables.h), and keeps the last
/// output in the context so a too-small buffer never needs a second
/// compile.
///
//===----------------------------------------------------------------------===//

#include "LastError.h"
#include "StackTables.h"

#include "mmptx-c/StackPtx.h"

#include "mmptx/Stack/StackCompiler.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>

using namespace mmptx;
using namespace mmptx::stack;

static_assert(MMPTX_STACK_MAX_STACK_SIZE == StackPtxBounds::MaxStackSize &&
                  MMPTX_STACK_MAX_NODES == StackPtxBounds::MaxNodes &&
                  MMPTX_STACK_MAX_FRAME_DEPTH ==
                      StackPtxBounds::MaxFrameDepth &&
                  MMPTX_STACK_MAX_STORE_SIZE == StackPtxBounds::MaxStoreSize &&
                  MMPTX_STACK_MAX_EXECUTION_LIMIT ==
                      StackPtxBounds::MaxExecutionLimit,
              "option bounds");

struct mmptx_stack_context {
  StackInfo info;
  std::unique_ptr<StackPtxContext> ctx;
  std::vector<Register> regs;
  llvm::DenseSet<llvm::StringRef> names;
  std::vector<llvm::ArrayRef<uint64_t>> routines;
  std::string lastError;
  bool haveOutput = false;
  llvm::StringRef lastOutput;
};

/// Records \p msg for the thread and for the context \p c; \returns \p r.
static mmptx_stack_result_t fail(mmptx_stack_context *c, mmptx_stack_result_t r,
                                 const llvm::Twine &msg) {
  return capi::fail(r, msg, &c->lastError);
}

static mmptx_stack_result_t fail(mmptx_stack_result_t r,
                                 const llvm::Twine &msg) {
  return capi::fail(r, msg);
}

static mmptx_stack_result_t succeed() {
  return capi::succeed(MMPTX_STACK_SUCCESS);
}

extern "C" {

void mmptx_stack_options_init(mmptx_stack_options_t *o) {
  if (!o)
    return;
  StackPtxOptions d;
  o->strict = d.strict;
  o->zero_unsatisfied = d.zeroUnsatisfied;
  o->stack_size = d.stackSize;
  o->max_nodes = d.maxNodes;
  o->max_frame_depth = d.maxFrameDepth;
  o->store_size = d.storeSize;
  o->execution_limit = d.executionLimit;
  o->target_sm = d.targetSm;
}

const mmptx_stack_tables_t *mmptx_stack_default_tables(void) {
  static const mmptx_stack_tables_t t = capi::toCTables(getDefaultStackInfo());
  return &t;
}

mmptx_stack_result_t
mmptx_stack_context_create(const mmptx_stack_tables_t *tables,
                           const mmptx_stack_options_t *options,
                           mmptx_stack_context_t **context) {
  if (!context)
    return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT, "context is NULL");
  *context = nullptr;
  StackPtxOptions opts;
  if (options) {
    opts.strict = options->strict != 0;
    opts.zeroUnsatisfied = options->zero_unsatisfied != 0;
    opts.stackSize = options->stack_size;
    opts.maxNodes = options->max_nodes;
    opts.maxFrameDepth = options->max_frame_depth;
    opts.storeSize = options->store_size;
    opts.executionLimit = options->execution_limit;
    opts.targetSm = options->target_sm;
    // Oversize limits are refused here, before anything is sized by them.
    // Named as the C struct spells them: stackSize -> options.stack_size.
    std::string Spelled;
    auto CName = [&](llvm::StringRef Field) -> llvm::StringRef {
      Spelled = "options.";
      for (char Ch : Field)
        Spelled += (Ch >= 'A' && Ch <= 'Z')
                       ? std::string{'_', llvm::toLower(Ch)}
                       : std::string(1, Ch);
      return Spelled;
    };
    if (llvm::Error e = checkStackPtxOptions(opts, CName))
      return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                  llvm::toString(std::move(e)));
  }
  StackInfo info;
  if (!tables) {
    info = getDefaultStackInfo();
  } else {
    info = capi::toStackInfo(*tables);
    if (llvm::Error e = info.verify())
      return fail(MMPTX_STACK_ERROR_INVALID_TABLES,
                  "invalid tables: " + llvm::toString(std::move(e)));
  }
  auto *c = new (std::nothrow) mmptx_stack_context();
  if (!c)
    return fail(MMPTX_STACK_ERROR_OUT_OF_MEMORY, "out of memory");
  c->info = info;
  c->ctx = std::make_unique<StackPtxContext>(c->info, opts);
  *context = c;
  return succeed();
}

void mmptx_stack_context_destroy(mmptx_stack_context_t *context) {
  delete context;
}

mmptx_stack_result_t mmptx_stack_compile(
    mmptx_stack_context_t *c, const uint64_t *words, size_t num_words,
    const mmptx_stack_routine_t *routines, size_t num_routines,
    const mmptx_stack_register_t *registers, size_t num_registers,
    const uint32_t *requests, size_t num_requests, char *buffer,
    size_t buffer_size, size_t *written) {
  if (!c)
    return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT, "context is NULL");
  c->haveOutput = false;
  c->lastError.clear();
  if (!written)
    return fail(c, MMPTX_STACK_ERROR_INVALID_ARGUMENT, "written is NULL");
  *written = 0;
  if ((!words && num_words) || (!routines && num_routines) ||
      (!registers && num_registers) || (!requests && num_requests))
    return fail(c, MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                "NULL array with a non-zero count");
  if (num_registers > UINT32_MAX || num_routines > UINT32_MAX)
    return fail(c, MMPTX_STACK_ERROR_INVALID_ARGUMENT, "too many entries");
  c->routines.clear();
  for (size_t i = 0; i != num_routines; ++i) {
    if (!routines[i].words && routines[i].num_words)
      return fail(c, MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                  "routine " + llvm::Twine(i) + " has NULL words");
    c->routines.push_back({routines[i].words, routines[i].num_words});
  }
  c->regs.clear();
  for (size_t i = 0; i != num_registers; ++i) {
    const mmptx_stack_register_t &r = registers[i];
    if (!r.name || !isRegisterName(r.name))
      return fail(c, MMPTX_STACK_ERROR_INVALID_REGISTER,
                  "register " + llvm::Twine(i) +
                      " has no name or a name that is not a PTX identifier");
    if (isReservedRegisterName(r.name))
      return fail(c, MMPTX_STACK_ERROR_INVALID_REGISTER,
                  "register name '" + llvm::Twine(r.name) +
                      "' is reserved for the compiler's temporaries");
    if (r.stack_idx >= c->info.numStacks || r.kind > MMPTX_STACK_REG_MOD)
      return fail(c, MMPTX_STACK_ERROR_INVALID_REGISTER,
                  "register '" + llvm::Twine(r.name) +
                      "' has a bad stack index or kind");
    static const RegKind kinds[] = {RegKind::In, RegKind::Out, RegKind::Mod};
    c->regs.push_back({r.name, r.stack_idx, kinds[r.kind]});
  }
  // Two registers of one name would be one PTX register written twice.
  c->names.clear();
  for (const Register &r : c->regs)
    if (!c->names.insert(r.name).second)
      return fail(c, MMPTX_STACK_ERROR_INVALID_REGISTER,
                  "register name '" + r.name + "' is used twice");
  for (size_t i = 0; i != num_requests; ++i) {
    if (requests[i] >= num_registers)
      return fail(c, MMPTX_STACK_ERROR_INVALID_REQUEST,
                  "request " + llvm::Twine(i) + " names register " +
                      llvm::Twine(requests[i]) + " of " +
                      llvm::Twine(num_registers));
    if (c->regs[requests[i]].kind == RegKind::In)
      return fail(c, MMPTX_STACK_ERROR_INVALID_REQUEST,
                  "request " + llvm::Twine(i) + " names '" +
                      c->regs[requests[i]].name +
                      "', an in register, which the stub may not write");
  }
  llvm::Expected<llvm::StringRef> text = c->ctx->compile(
      {llvm::ArrayRef<uint64_t>(words, num_words), c->routines}, c->regs,
      llvm::ArrayRef<uint32_t>(requests, num_requests));
  if (!text)
    return fail(c, MMPTX_STACK_ERROR_INVALID_WORD,
                llvm::toString(text.takeError()));
  c->haveOutput = true;
  c->lastOutput = *text;
  *written = text->size();
  if (!buffer || buffer_size <= text->size())
    return fail(
        c, MMPTX_STACK_ERROR_INSUFFICIENT_BUFFER,
        capi::insufficientBuffer(buffer_size, text->size(), "the stub"));
  std::memcpy(buffer, text->data(), text->size());
  buffer[text->size()] = '\0';
  return succeed();
}

mmptx_stack_result_t mmptx_stack_last_output(mmptx_stack_context_t *c,
                                             const char **text,
                                             size_t *length) {
  if (!c || !text || !length)
    return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                "context, text or length is NULL");
  if (!c->haveOutput)
    return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                "the last compile made no output");
  // The context's buffer is a std::string: NUL-terminated.
  *text = c->lastOutput.data();
  *length = c->lastOutput.size();
  return succeed();
}

const char *mmptx_stack_last_error(mmptx_stack_context_t *c) {
  return c ? c->lastError.c_str() : "";
}

mmptx_stack_result_t mmptx_stack_get_stats(mmptx_stack_context_t *c,
                                           mmptx_stack_stats_t *out) {
  if (!c || !out)
    return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT, "context or stats is NULL");
  const StackPtxStats &s = c->ctx->getStats();
  out->executed_words = s.executedWords;
  out->num_nodes = s.numNodes;
  out->emitted_instrs = s.emittedInstrs;
  out->ignored_words = s.ignoredWords;
  out->no_op_words = s.noOpWords;
  out->dropped_pushes = s.droppedPushes;
  out->refused_calls = s.refusedCalls;
  out->unsatisfied_requests = s.unsatisfiedRequests;
  out->zeroed_requests = s.zeroedRequests;
  out->hit_execution_limit = s.hitExecutionLimit;
  out->hit_node_limit = s.hitNodeLimit;
  return succeed();
}

const char *mmptx_stack_result_to_string(mmptx_stack_result_t r) {
  switch (r) {
  case MMPTX_STACK_SUCCESS:
    return "MMPTX_STACK_SUCCESS";
  case MMPTX_STACK_ERROR_INVALID_ARGUMENT:
    return "MMPTX_STACK_ERROR_INVALID_ARGUMENT";
  case MMPTX_STACK_ERROR_INVALID_TABLES:
    return "MMPTX_STACK_ERROR_INVALID_TABLES";
  case MMPTX_STACK_ERROR_INVALID_REGISTER:
    return "MMPTX_STACK_ERROR_INVALID_REGISTER";
  case MMPTX_STACK_ERROR_INVALID_REQUEST:
    return "MMPTX_STACK_ERROR_INVALID_REQUEST";
  case MMPTX_STACK_ERROR_INVALID_WORD:
    return "MMPTX_STACK_ERROR_INVALID_WORD";
  case MMPTX_STACK_ERROR_INSUFFICIENT_BUFFER:
    return "MMPTX_STACK_ERROR_INSUFFICIENT_BUFFER";
  case MMPTX_STACK_ERROR_OUT_OF_MEMORY:
    return "MMPTX_STACK_ERROR_OUT_OF_MEMORY";
  case MMPTX_STACK_RESULT_NUM:
    break;
  }
  return "MMPTX_STACK_ERROR_INVALID_RESULT_ENUM";
}

} // extern "C"
