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

#include "CompilerOptions.h"
#include "LastError.h"
#include "StackTables.h"

#include "mmptx-c/StackPtx.h"

#include "mmptx/Expr/Vocabulary.h"
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
  StackInfo Info;
  std::unique_ptr<StackPtxContext> Ctx;
  /// The registers of the last call that checked them; their names refer
  /// to RegNames, so a call that passes equal registers (the common case:
  /// one site, many programs) skips the checks.
  std::vector<Register> Regs;
  std::vector<std::string> RegNames;
  llvm::DenseSet<llvm::StringRef> Names;
  std::vector<llvm::ArrayRef<uint64_t>> Routines;
  std::string LastError;
  bool HaveOutput = false;
  llvm::StringRef LastOutput;
};

/// Records \p Msg for the thread and for the context \p C; \returns \p R.
static mmptx_stack_result_t fail(mmptx_stack_context *C, mmptx_stack_result_t R,
                                 const llvm::Twine &Msg) {
  return capi::fail(R, Msg, &C->LastError);
}

static mmptx_stack_result_t fail(mmptx_stack_result_t R,
                                 const llvm::Twine &Msg) {
  return capi::fail(R, Msg);
}

static mmptx_stack_result_t succeed() {
  return capi::succeed(MMPTX_STACK_SUCCESS);
}

/// \returns whether \p Registers are those C->Regs holds, checked by an
/// earlier call.
static bool sameRegisters(const mmptx_stack_context &C,
                          const mmptx_stack_register_t *Registers,
                          size_t NumRegisters) {
  if (NumRegisters != C.Regs.size())
    return false;
  static const RegKind Kinds[] = {RegKind::In, RegKind::Out, RegKind::Mod};
  for (size_t I = 0; I != NumRegisters; ++I) {
    const mmptx_stack_register_t &R = Registers[I];
    const Register &Known = C.Regs[I];
    if (!R.name || R.stack_idx != Known.StackIdx ||
        R.kind > MMPTX_STACK_REG_MOD || Kinds[R.kind] != Known.Kind ||
        std::strcmp(R.name, C.RegNames[I].c_str()) != 0)
      return false;
  }
  return true;
}

/// Checks \p Registers and keeps copies in C.Regs / C.RegNames; \returns
/// MMPTX_STACK_SUCCESS or the error recorded.
static mmptx_stack_result_t
checkRegisters(mmptx_stack_context &C, const mmptx_stack_register_t *Registers,
               size_t NumRegisters) {
  C.Regs.clear();
  C.RegNames.clear();
  for (size_t I = 0; I != NumRegisters; ++I) {
    const mmptx_stack_register_t &R = Registers[I];
    if (!R.name || !isRegisterName(R.name))
      return fail(&C, MMPTX_STACK_ERROR_INVALID_REGISTER,
                  "register " + llvm::Twine(I) +
                      " has no name or a name that is not a PTX identifier");
    if (isReservedRegisterName(R.name))
      return fail(&C, MMPTX_STACK_ERROR_INVALID_REGISTER,
                  "register name '" + llvm::Twine(R.name) +
                      "' is reserved for the compiler's temporaries");
    if (R.stack_idx >= C.Info.NumStacks || R.kind > MMPTX_STACK_REG_MOD)
      return fail(&C, MMPTX_STACK_ERROR_INVALID_REGISTER,
                  "register '" + llvm::Twine(R.name) +
                      "' has a bad stack index or kind");
  }
  for (size_t I = 0; I != NumRegisters; ++I)
    C.RegNames.push_back(Registers[I].name);
  static const RegKind Kinds[] = {RegKind::In, RegKind::Out, RegKind::Mod};
  for (size_t I = 0; I != NumRegisters; ++I)
    C.Regs.push_back(
        {C.RegNames[I], Registers[I].stack_idx, Kinds[Registers[I].kind]});
  // Two registers of one name would be one PTX register written twice.
  C.Names.clear();
  for (const Register &R : C.Regs) {
    if (C.Names.insert(R.Name).second)
      continue;
    mmptx_stack_result_t Result =
        fail(&C, MMPTX_STACK_ERROR_INVALID_REGISTER,
             "register name '" + R.Name + "' is used twice");
    C.Regs.clear();
    C.RegNames.clear();
    return Result;
  }
  return MMPTX_STACK_SUCCESS;
}

extern "C" {

void mmptx_stack_options_init(mmptx_stack_options_t *O) {
  if (!O)
    return;
  StackPtxOptions D;
  O->strict = D.Strict;
  O->zero_unsatisfied = D.ZeroUnsatisfied;
  O->stack_size = D.StackSize;
  O->max_nodes = D.MaxNodes;
  O->max_frame_depth = D.MaxFrameDepth;
  O->store_size = D.StoreSize;
  O->execution_limit = D.ExecutionLimit;
  O->target_sm = D.TargetSm;
}

const mmptx_stack_tables_t *mmptx_stack_default_tables(void) {
  static const mmptx_stack_tables_t T = capi::toCTables(getDefaultStackInfo());
  return &T;
}

mmptx_stack_result_t mmptx_stack_vocabulary(const mmptx_stack_tables_t *Tables,
                                            const char *Name, uint32_t *Indices,
                                            size_t Capacity, size_t *Count) {
  if (!Name || !Count || (Capacity && !Indices))
    return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                "name, count or indices is NULL");
  llvm::Expected<expr::Vocabulary> V = expr::parseVocabularyName(Name);
  if (!V)
    return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                llvm::toString(V.takeError()));
  StackInfo Info = getDefaultStackInfo();
  if (Tables) {
    Info = capi::toStackInfo(*Tables);
    if (llvm::Error E = Info.verify())
      return fail(MMPTX_STACK_ERROR_INVALID_TABLES,
                  "invalid tables: " + llvm::toString(std::move(E)));
  }
  std::vector<uint32_t> In = expr::getVocabularyInstrs(Info, *V);
  *Count = In.size();
  for (size_t I = 0; I < In.size() && I < Capacity; ++I)
    Indices[I] = In[I];
  return succeed();
}

mmptx_stack_result_t
mmptx_stack_context_create(const mmptx_stack_tables_t *Tables,
                           const mmptx_stack_options_t *Options,
                           mmptx_stack_context_t **Context) {
  if (!Context)
    return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT, "context is NULL");
  *Context = nullptr;
  StackPtxOptions Opts;
  if (Options) {
    Opts = capi::toStackPtxOptions(*Options);
    // Oversize limits are refused here, before anything is sized by them.
    // Named as the C struct spells them: StackSize -> options.stack_size.
    std::string Spelled;
    auto CName = [&](llvm::StringRef Field) {
      return capi::spellCField("options.", Field, Spelled);
    };
    if (llvm::Error E = checkStackPtxOptions(Opts, CName))
      return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                  llvm::toString(std::move(E)));
  }
  StackInfo Info;
  if (!Tables) {
    Info = getDefaultStackInfo();
  } else {
    Info = capi::toStackInfo(*Tables);
    if (llvm::Error E = Info.verify())
      return fail(MMPTX_STACK_ERROR_INVALID_TABLES,
                  "invalid tables: " + llvm::toString(std::move(E)));
  }
  auto *C = new (std::nothrow) mmptx_stack_context();
  if (!C)
    return fail(MMPTX_STACK_ERROR_OUT_OF_MEMORY, "out of memory");
  C->Info = Info;
  C->Ctx = std::make_unique<StackPtxContext>(C->Info, Opts);
  *Context = C;
  return succeed();
}

void mmptx_stack_context_destroy(mmptx_stack_context_t *Context) {
  delete Context;
}

mmptx_stack_result_t
mmptx_stack_compile(mmptx_stack_context_t *C, const uint64_t *Words,
                    size_t NumWords, const mmptx_stack_routine_t *Routines,
                    size_t NumRoutines, const mmptx_stack_register_t *Registers,
                    size_t NumRegisters, const uint32_t *Requests,
                    size_t NumRequests, char *Buffer, size_t BufferSize,
                    size_t *Written) {
  if (!C)
    return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT, "context is NULL");
  C->HaveOutput = false;
  C->LastError.clear();
  if (!Written)
    return fail(C, MMPTX_STACK_ERROR_INVALID_ARGUMENT, "written is NULL");
  *Written = 0;
  if ((!Words && NumWords) || (!Routines && NumRoutines) ||
      (!Registers && NumRegisters) || (!Requests && NumRequests))
    return fail(C, MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                "NULL array with a non-zero count");
  if (NumRegisters > UINT32_MAX || NumRoutines > UINT32_MAX)
    return fail(C, MMPTX_STACK_ERROR_INVALID_ARGUMENT, "too many entries");
  C->Routines.clear();
  for (size_t I = 0; I != NumRoutines; ++I) {
    if (!Routines[I].words && Routines[I].num_words)
      return fail(C, MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                  "routine " + llvm::Twine(I) + " has NULL words");
    C->Routines.push_back({Routines[I].words, Routines[I].num_words});
  }
  if (!sameRegisters(*C, Registers, NumRegisters))
    if (mmptx_stack_result_t R = checkRegisters(*C, Registers, NumRegisters))
      return R;
  for (size_t I = 0; I != NumRequests; ++I) {
    if (Requests[I] >= NumRegisters)
      return fail(C, MMPTX_STACK_ERROR_INVALID_REQUEST,
                  "request " + llvm::Twine(I) + " names register " +
                      llvm::Twine(Requests[I]) + " of " +
                      llvm::Twine(NumRegisters));
    if (C->Regs[Requests[I]].Kind == RegKind::In)
      return fail(C, MMPTX_STACK_ERROR_INVALID_REQUEST,
                  "request " + llvm::Twine(I) + " names '" +
                      C->Regs[Requests[I]].Name +
                      "', an in register, which the stub may not write");
  }
  llvm::Expected<llvm::StringRef> Text =
      C->Ctx->compile({llvm::ArrayRef<uint64_t>(Words, NumWords), C->Routines},
                      C->Regs, llvm::ArrayRef<uint32_t>(Requests, NumRequests));
  if (!Text)
    return fail(C, MMPTX_STACK_ERROR_INVALID_WORD,
                llvm::toString(Text.takeError()));
  C->HaveOutput = true;
  C->LastOutput = *Text;
  *Written = Text->size();
  if (!Buffer || BufferSize <= Text->size())
    return fail(C, MMPTX_STACK_ERROR_INSUFFICIENT_BUFFER,
                capi::insufficientBuffer(BufferSize, Text->size(), "the stub"));
  std::memcpy(Buffer, Text->data(), Text->size());
  Buffer[Text->size()] = '\0';
  return succeed();
}

mmptx_stack_result_t mmptx_stack_last_output(mmptx_stack_context_t *C,
                                             const char **Text,
                                             size_t *Length) {
  if (!C || !Text || !Length)
    return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                "context, text or length is NULL");
  if (!C->HaveOutput)
    return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT,
                "the last compile made no output");
  // The context's buffer is a std::string: NUL-terminated.
  *Text = C->LastOutput.data();
  *Length = C->LastOutput.size();
  return succeed();
}

const char *mmptx_stack_last_error(mmptx_stack_context_t *C) {
  return C ? C->LastError.c_str() : "";
}

mmptx_stack_result_t mmptx_stack_get_stats(mmptx_stack_context_t *C,
                                           mmptx_stack_stats_t *Out) {
  if (!C || !Out)
    return fail(MMPTX_STACK_ERROR_INVALID_ARGUMENT, "context or stats is NULL");
  const StackPtxStats &S = C->Ctx->getStats();
  Out->executed_words = S.ExecutedWords;
  Out->num_nodes = S.NumNodes;
  Out->emitted_instrs = S.EmittedInstrs;
  Out->ignored_words = S.IgnoredWords;
  Out->no_op_words = S.NoOpWords;
  Out->dropped_pushes = S.DroppedPushes;
  Out->refused_calls = S.RefusedCalls;
  Out->unsatisfied_requests = S.UnsatisfiedRequests;
  Out->zeroed_requests = S.ZeroedRequests;
  Out->hit_execution_limit = S.HitExecutionLimit;
  Out->hit_node_limit = S.HitNodeLimit;
  return succeed();
}

const char *mmptx_stack_result_to_string(mmptx_stack_result_t R) {
  switch (R) {
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
