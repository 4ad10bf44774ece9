//===- Wire.cpp - C API of mmptx's wire format ----------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "mmptx-c/Wire.h"

#include "LastError.h"

#include "mmptx/Serialize/Wire.h"

#include <cstring>

using namespace mmptx;
using namespace mmptx::capi;
using namespace mmptx::wire;

struct mmptx_wire_job {
  Job J;
};
struct mmptx_wire_programs {
  ProgramBatch B;
};
struct mmptx_wire_results {
  ResultBatch B;
};

namespace {

mmptx_wire_result_t ok() { return succeed(MMPTX_WIRE_SUCCESS); }

mmptx_wire_result_t bad(const llvm::Twine &Msg) {
  return fail(MMPTX_WIRE_INVALID_ARGUMENT, Msg);
}

mmptx_wire_result_t copyOut(const std::string &Bytes, void *Buffer, size_t Size,
                            size_t *Written, const char *What) {
  if (!Written)
    return bad(llvm::Twine(What) + ": written is NULL");
  *Written = Bytes.size();
  if (!Buffer)
    return ok();
  if (Size < Bytes.size())
    return fail(MMPTX_WIRE_INSUFFICIENT_BUFFER,
                llvm::Twine(What) + ": the message needs " +
                    llvm::Twine(Bytes.size()) + " bytes, the buffer has " +
                    llvm::Twine(Size));
  std::memcpy(Buffer, Bytes.data(), Bytes.size());
  return ok();
}

/// The body of mmptx_wire_*_serialize: \p Value's message into the
/// caller's buffer. \p Fn and \p What name the call and the handle.
template <typename T>
mmptx_wire_result_t serializeTo(const T *Value, void *Buffer, size_t Size,
                                size_t *Written, const char *Fn,
                                const char *What) {
  if (!Value)
    return bad(llvm::Twine(Fn) + ": " + What + " is NULL");
  return copyOut(serialize(*Value), Buffer, Size, Written, Fn);
}

/// The body of mmptx_wire_*_deserialize: a new handle in \p Out for what
/// \p Read reads from the message in \p Bytes.
template <typename T, typename H>
mmptx_wire_result_t deserializeFrom(const void *Bytes, size_t Size, H **Out,
                                    llvm::Expected<T> (*Read)(llvm::StringRef),
                                    const char *Fn, const char *What) {
  if ((!Bytes && Size) || !Out)
    return bad(llvm::Twine(Fn) + ": bytes or " + What + " is NULL");
  llvm::Expected<T> V =
      Read(llvm::StringRef(static_cast<const char *>(Bytes), Size));
  if (!V)
    return fail(MMPTX_WIRE_MALFORMED,
                llvm::Twine(Fn) + ": " + llvm::toString(V.takeError()));
  *Out = new H{std::move(*V)};
  return ok();
}

/// Stores \p Value where the caller asked for it (\p Out is not NULL).
template <typename T, typename V> void setOut(T *Out, const V &Value) {
  if (Out)
    *Out = Value;
}

std::string str(const char *S) { return S ? S : ""; }

} // namespace

//===-- Jobs --------------------------------------------------------------===//

mmptx_wire_result_t mmptx_wire_job_create(mmptx_wire_job_t **Job) {
  if (!Job)
    return bad("mmptx_wire_job_create: job is NULL");
  *Job = new mmptx_wire_job();
  return ok();
}

void mmptx_wire_job_destroy(mmptx_wire_job_t *Job) { delete Job; }

mmptx_wire_result_t mmptx_wire_job_set_source(mmptx_wire_job_t *Job,
                                              mmptx_wire_source_kind_t Kind,
                                              const char *Name,
                                              const char *Text, size_t Size) {
  if (!Job || (!Text && Size))
    return bad("mmptx_wire_job_set_source: job or text is NULL");
  if (Kind < MMPTX_WIRE_SOURCE_NONE || Kind > MMPTX_WIRE_SOURCE_INJECT)
    return bad("mmptx_wire_job_set_source: unknown source kind " +
               llvm::Twine(int(Kind)));
  Job->J.Kind = SourceKind(Kind);
  Job->J.SourceName = str(Name);
  Job->J.Source.assign(Text ? Text : "", Size);
  return ok();
}

mmptx_wire_result_t
mmptx_wire_job_set_stack_options(mmptx_wire_job_t *Job,
                                 const mmptx_wire_stack_options_t *O) {
  if (!Job || !O)
    return bad("mmptx_wire_job_set_stack_options: job or options is NULL");
  stack::StackPtxOptions S;
  S.Strict = O->strict != 0;
  S.ZeroUnsatisfied = O->zero_unsatisfied != 0;
  S.StackSize = O->stack_size;
  S.MaxNodes = O->max_nodes;
  S.MaxFrameDepth = O->max_frame_depth;
  S.StoreSize = O->store_size;
  S.ExecutionLimit = O->execution_limit;
  S.TargetSm = O->target_sm;
  if (llvm::Error E = stack::checkStackPtxOptions(S))
    return bad("mmptx_wire_job_set_stack_options: " +
               llvm::toString(std::move(E)));
  Job->J.StackOptions = S;
  return ok();
}

mmptx_wire_result_t mmptx_wire_job_add_register(mmptx_wire_job_t *Job,
                                                const char *Name,
                                                uint16_t Stack,
                                                mmptx_wire_reg_kind_t Kind) {
  if (!Job || !Name)
    return bad("mmptx_wire_job_add_register: job or name is NULL");
  if (Kind < MMPTX_WIRE_REG_OUT || Kind > MMPTX_WIRE_REG_IN)
    return bad("mmptx_wire_job_add_register: unknown kind " +
               llvm::Twine(int(Kind)));
  Job->J.Registers.push_back({Name, Stack, stack::RegKind(Kind)});
  return ok();
}

mmptx_wire_result_t mmptx_wire_job_add_requests(mmptx_wire_job_t *Job,
                                                const uint32_t *Indices,
                                                size_t Count) {
  if (!Job || (!Indices && Count))
    return bad("mmptx_wire_job_add_requests: job or indices is NULL");
  Job->J.Requests.emplace_back(Indices, Indices + Count);
  return ok();
}

mmptx_wire_result_t mmptx_wire_job_set_target(mmptx_wire_job_t *Job,
                                              const char *Target) {
  if (!Job)
    return bad("mmptx_wire_job_set_target: job is NULL");
  Job->J.Target = str(Target);
  return ok();
}

mmptx_wire_result_t mmptx_wire_job_set_backend(mmptx_wire_job_t *Job,
                                               const char *Backend,
                                               const char *const *Options,
                                               size_t NumOptions) {
  if (!Job || (!Options && NumOptions))
    return bad("mmptx_wire_job_set_backend: job or options is NULL");
  Job->J.Backend = str(Backend);
  Job->J.BackendOptions.clear();
  for (size_t I = 0; I != NumOptions; ++I) {
    if (!Options[I])
      return bad("mmptx_wire_job_set_backend: option " + llvm::Twine(I) +
                 " is NULL");
    Job->J.BackendOptions.push_back(Options[I]);
  }
  return ok();
}

mmptx_wire_result_t mmptx_wire_job_set_metadata(mmptx_wire_job_t *Job,
                                                const char *Key,
                                                const char *Value,
                                                size_t Size) {
  if (!Job || !Key || (!Value && Size))
    return bad("mmptx_wire_job_set_metadata: job, key or value is NULL");
  std::string V = Value ? std::string(Value, Size) : std::string();
  for (MetadataEntry &E : Job->J.Metadata)
    if (E.Key == Key) {
      E.Value = std::move(V);
      return ok();
    }
  Job->J.Metadata.push_back({Key, std::move(V)});
  return ok();
}

mmptx_wire_result_t mmptx_wire_job_serialize(const mmptx_wire_job_t *Job,
                                             void *Buffer, size_t Size,
                                             size_t *Written) {
  return serializeTo(Job ? &Job->J : nullptr, Buffer, Size, Written,
                     "mmptx_wire_job_serialize", "job");
}

mmptx_wire_result_t mmptx_wire_job_deserialize(const void *Bytes, size_t Size,
                                               mmptx_wire_job_t **Job) {
  return deserializeFrom(Bytes, Size, Job, deserializeJob,
                         "mmptx_wire_job_deserialize", "job");
}

mmptx_wire_result_t mmptx_wire_job_source(const mmptx_wire_job_t *Job,
                                          mmptx_wire_source_kind_t *Kind,
                                          const char **Name, const char **Text,
                                          size_t *Size) {
  if (!Job)
    return bad("mmptx_wire_job_source: job is NULL");
  setOut(Kind, mmptx_wire_source_kind_t(Job->J.Kind));
  setOut(Name, Job->J.SourceName.c_str());
  setOut(Text, Job->J.Source.c_str());
  setOut(Size, Job->J.Source.size());
  return ok();
}

mmptx_wire_result_t
mmptx_wire_job_stack_options(const mmptx_wire_job_t *Job,
                             mmptx_wire_stack_options_t *O) {
  if (!Job || !O)
    return bad("mmptx_wire_job_stack_options: job or options is NULL");
  const stack::StackPtxOptions &S = Job->J.StackOptions;
  O->strict = S.Strict;
  O->zero_unsatisfied = S.ZeroUnsatisfied;
  O->stack_size = S.StackSize;
  O->max_nodes = S.MaxNodes;
  O->max_frame_depth = S.MaxFrameDepth;
  O->store_size = S.StoreSize;
  O->execution_limit = S.ExecutionLimit;
  O->target_sm = S.TargetSm;
  return ok();
}

int mmptx_wire_job_has_default_instruction_set(const mmptx_wire_job_t *Job) {
  return Job && Job->J.DefaultInstructionSet;
}

size_t mmptx_wire_job_num_registers(const mmptx_wire_job_t *Job) {
  return Job ? Job->J.Registers.size() : 0;
}

mmptx_wire_result_t mmptx_wire_job_register(const mmptx_wire_job_t *Job,
                                            size_t Index, const char **Name,
                                            uint16_t *Stack,
                                            mmptx_wire_reg_kind_t *Kind) {
  if (!Job || Index >= Job->J.Registers.size())
    return bad("mmptx_wire_job_register: no register " + llvm::Twine(Index));
  const RegisterDecl &R = Job->J.Registers[Index];
  setOut(Name, R.Name.c_str());
  setOut(Stack, R.StackIdx);
  setOut(Kind, mmptx_wire_reg_kind_t(R.Kind));
  return ok();
}

size_t mmptx_wire_job_num_request_lists(const mmptx_wire_job_t *Job) {
  return Job ? Job->J.Requests.size() : 0;
}

mmptx_wire_result_t mmptx_wire_job_requests(const mmptx_wire_job_t *Job,
                                            size_t Index,
                                            const uint32_t **Indices,
                                            size_t *Count) {
  if (!Job || Index >= Job->J.Requests.size() || !Indices || !Count)
    return bad("mmptx_wire_job_requests: no request list " +
               llvm::Twine(Index));
  *Indices = Job->J.Requests[Index].data();
  *Count = Job->J.Requests[Index].size();
  return ok();
}

const char *mmptx_wire_job_target(const mmptx_wire_job_t *Job) {
  return Job ? Job->J.Target.c_str() : "";
}

const char *mmptx_wire_job_backend(const mmptx_wire_job_t *Job) {
  return Job ? Job->J.Backend.c_str() : "";
}

size_t mmptx_wire_job_num_metadata(const mmptx_wire_job_t *Job) {
  return Job ? Job->J.Metadata.size() : 0;
}

mmptx_wire_result_t mmptx_wire_job_metadata(const mmptx_wire_job_t *Job,
                                            size_t Index, const char **Key,
                                            const char **Value, size_t *Size) {
  if (!Job || Index >= Job->J.Metadata.size())
    return bad("mmptx_wire_job_metadata: no metadata entry " +
               llvm::Twine(Index));
  const MetadataEntry &E = Job->J.Metadata[Index];
  setOut(Key, E.Key.c_str());
  setOut(Value, E.Value.c_str());
  setOut(Size, E.Value.size());
  return ok();
}

//===-- Programs ----------------------------------------------------------===//

mmptx_wire_result_t mmptx_wire_programs_create(mmptx_wire_programs_t **B) {
  if (!B)
    return bad("mmptx_wire_programs_create: batch is NULL");
  *B = new mmptx_wire_programs();
  return ok();
}

void mmptx_wire_programs_destroy(mmptx_wire_programs_t *B) { delete B; }

mmptx_wire_result_t mmptx_wire_programs_add_variant(mmptx_wire_programs_t *B,
                                                    uint64_t Id) {
  if (!B)
    return bad("mmptx_wire_programs_add_variant: batch is NULL");
  B->B.Variants.push_back(Variant{Id, {}});
  return ok();
}

mmptx_wire_result_t
mmptx_wire_programs_add_words(mmptx_wire_programs_t *B,
                              mmptx_wire_program_kind_t Kind, uint32_t Inject,
                              const uint64_t *Words, size_t NumWords) {
  if (!B || (!Words && NumWords))
    return bad("mmptx_wire_programs_add_words: batch or words is NULL");
  if (B->B.Variants.empty())
    return bad("mmptx_wire_programs_add_words: add a variant first");
  if (Kind != MMPTX_WIRE_PROGRAM_STACK && Kind != MMPTX_WIRE_PROGRAM_AST)
    return bad("mmptx_wire_programs_add_words: kind " + llvm::Twine(Kind) +
               " is not STACK or AST");
  WireProgram P;
  P.Kind = ProgramKind(Kind);
  P.Inject = Inject;
  P.Words.assign(Words, Words + NumWords);
  B->B.Variants.back().Programs.push_back(std::move(P));
  return ok();
}

mmptx_wire_result_t mmptx_wire_programs_add_routine(mmptx_wire_programs_t *B,
                                                    const uint64_t *Words,
                                                    size_t NumWords) {
  if (!B || (!Words && NumWords))
    return bad("mmptx_wire_programs_add_routine: batch or words is NULL");
  if (B->B.Variants.empty() || B->B.Variants.back().Programs.empty())
    return bad("mmptx_wire_programs_add_routine: add a program first");
  B->B.Variants.back().Programs.back().Routines.emplace_back(Words,
                                                             Words + NumWords);
  return ok();
}

mmptx_wire_result_t mmptx_wire_programs_add_text(mmptx_wire_programs_t *B,
                                                 mmptx_wire_program_kind_t Kind,
                                                 uint32_t Inject,
                                                 const char *Text,
                                                 size_t Size) {
  if (!B || (!Text && Size))
    return bad("mmptx_wire_programs_add_text: batch or text is NULL");
  if (B->B.Variants.empty())
    return bad("mmptx_wire_programs_add_text: add a variant first");
  if (Kind != MMPTX_WIRE_PROGRAM_STUB && Kind != MMPTX_WIRE_PROGRAM_PTX)
    return bad("mmptx_wire_programs_add_text: kind " + llvm::Twine(Kind) +
               " is not STUB or PTX");
  WireProgram P;
  P.Kind = ProgramKind(Kind);
  P.Inject = Inject;
  P.Text.assign(Text ? Text : "", Size);
  B->B.Variants.back().Programs.push_back(std::move(P));
  return ok();
}

mmptx_wire_result_t
mmptx_wire_programs_serialize(const mmptx_wire_programs_t *B, void *Buffer,
                              size_t Size, size_t *Written) {
  return serializeTo(B ? &B->B : nullptr, Buffer, Size, Written,
                     "mmptx_wire_programs_serialize", "batch");
}

mmptx_wire_result_t mmptx_wire_programs_deserialize(const void *Bytes,
                                                    size_t Size,
                                                    mmptx_wire_programs_t **B) {
  return deserializeFrom(Bytes, Size, B, deserializePrograms,
                         "mmptx_wire_programs_deserialize", "batch");
}

size_t mmptx_wire_programs_num_variants(const mmptx_wire_programs_t *B) {
  return B ? B->B.Variants.size() : 0;
}

mmptx_wire_result_t mmptx_wire_programs_variant(const mmptx_wire_programs_t *B,
                                                size_t V, uint64_t *Id,
                                                size_t *NumPrograms) {
  if (!B || V >= B->B.Variants.size())
    return bad("mmptx_wire_programs_variant: no variant " + llvm::Twine(V));
  setOut(Id, B->B.Variants[V].Id);
  setOut(NumPrograms, B->B.Variants[V].Programs.size());
  return ok();
}

mmptx_wire_result_t
mmptx_wire_programs_program(const mmptx_wire_programs_t *B, size_t V, size_t I,
                            mmptx_wire_program_kind_t *Kind, uint32_t *Inject,
                            const uint64_t **Words, size_t *NumWords,
                            const char **Text, size_t *TextSize,
                            size_t *NumRoutines) {
  if (!B || V >= B->B.Variants.size() || I >= B->B.Variants[V].Programs.size())
    return bad("mmptx_wire_programs_program: no program " + llvm::Twine(I) +
               " in variant " + llvm::Twine(V));
  const WireProgram &P = B->B.Variants[V].Programs[I];
  setOut(Kind, mmptx_wire_program_kind_t(P.Kind));
  setOut(Inject, P.Inject);
  setOut(Words, P.Words.data());
  setOut(NumWords, P.Words.size());
  setOut(Text, P.Text.c_str());
  setOut(TextSize, P.Text.size());
  setOut(NumRoutines, P.Routines.size());
  return ok();
}

//===-- Results -----------------------------------------------------------===//

mmptx_wire_result_t mmptx_wire_results_create(mmptx_wire_results_t **R) {
  if (!R)
    return bad("mmptx_wire_results_create: results is NULL");
  *R = new mmptx_wire_results();
  return ok();
}

void mmptx_wire_results_destroy(mmptx_wire_results_t *R) { delete R; }

mmptx_wire_result_t mmptx_wire_results_add(mmptx_wire_results_t *R, uint64_t Id,
                                           int Ok, const void *Cubin,
                                           size_t Size, const char *Backend,
                                           const char *BackendVersion) {
  if (!R || (!Cubin && Size))
    return bad("mmptx_wire_results_add: results or cubin is NULL");
  Result Res;
  Res.Id = Id;
  Res.Ok = Ok != 0;
  if (Size)
    Res.Cubin.assign(static_cast<const char *>(Cubin), Size);
  Res.Backend = str(Backend);
  Res.BackendVersion = str(BackendVersion);
  R->B.Results.push_back(std::move(Res));
  return ok();
}

mmptx_wire_result_t
mmptx_wire_results_add_error(mmptx_wire_results_t *R, const char *Message,
                             const char *File, uint32_t Line, uint32_t Column) {
  if (!R || !Message)
    return bad("mmptx_wire_results_add_error: results or message is NULL");
  if (R->B.Results.empty())
    return bad("mmptx_wire_results_add_error: add a result first");
  R->B.Results.back().Errors.push_back({Message, str(File), Line, Column});
  return ok();
}

mmptx_wire_result_t mmptx_wire_results_add_stub(mmptx_wire_results_t *R,
                                                const char *Stub) {
  if (!R || !Stub)
    return bad("mmptx_wire_results_add_stub: results or stub is NULL");
  if (R->B.Results.empty())
    return bad("mmptx_wire_results_add_stub: add a result first");
  R->B.Results.back().Stubs.push_back(Stub);
  return ok();
}

mmptx_wire_result_t mmptx_wire_results_serialize(const mmptx_wire_results_t *R,
                                                 void *Buffer, size_t Size,
                                                 size_t *Written) {
  return serializeTo(R ? &R->B : nullptr, Buffer, Size, Written,
                     "mmptx_wire_results_serialize", "results");
}

mmptx_wire_result_t mmptx_wire_results_deserialize(const void *Bytes,
                                                   size_t Size,
                                                   mmptx_wire_results_t **R) {
  return deserializeFrom(Bytes, Size, R, deserializeResults,
                         "mmptx_wire_results_deserialize", "results");
}

size_t mmptx_wire_results_count(const mmptx_wire_results_t *R) {
  return R ? R->B.Results.size() : 0;
}

mmptx_wire_result_t mmptx_wire_results_get(
    const mmptx_wire_results_t *R, size_t Index, uint64_t *Id, int *Ok,
    const void **Cubin, size_t *CubinSize, const char **Backend,
    const char **BackendVersion, size_t *NumErrors, size_t *NumStubs) {
  if (!R || Index >= R->B.Results.size())
    return bad("mmptx_wire_results_get: no result " + llvm::Twine(Index));
  const Result &Res = R->B.Results[Index];
  setOut(Id, Res.Id);
  setOut(Ok, Res.Ok);
  setOut(Cubin, Res.Cubin.data());
  setOut(CubinSize, Res.Cubin.size());
  setOut(Backend, Res.Backend.c_str());
  setOut(BackendVersion, Res.BackendVersion.c_str());
  setOut(NumErrors, Res.Errors.size());
  setOut(NumStubs, Res.Stubs.size());
  return ok();
}

mmptx_wire_result_t mmptx_wire_results_error(const mmptx_wire_results_t *R,
                                             size_t Index, size_t E,
                                             const char **Message,
                                             const char **File, uint32_t *Line,
                                             uint32_t *Column) {
  if (!R || Index >= R->B.Results.size() ||
      E >= R->B.Results[Index].Errors.size())
    return bad("mmptx_wire_results_error: no error " + llvm::Twine(E) +
               " in result " + llvm::Twine(Index));
  const WireDiagnostic &D = R->B.Results[Index].Errors[E];
  setOut(Message, D.Message.c_str());
  setOut(File, D.File.c_str());
  setOut(Line, D.Line);
  setOut(Column, D.Column);
  return ok();
}

mmptx_wire_result_t mmptx_wire_results_stub(const mmptx_wire_results_t *R,
                                            size_t Index, size_t S,
                                            const char **Text) {
  if (!R || Index >= R->B.Results.size() ||
      S >= R->B.Results[Index].Stubs.size() || !Text)
    return bad("mmptx_wire_results_stub: no stub " + llvm::Twine(S) +
               " in result " + llvm::Twine(Index));
  *Text = R->B.Results[Index].Stubs[S].c_str();
  return ok();
}
