//===- PtxInject.cpp - C API of PTX Inject --------------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements mmptx-c/PtxInject.h over mmptx::InjectModule. The handle adds
/// NUL-terminated copies of every name the queries return (the module's
/// strings point into its PTX copy and are not terminated).
///
//===----------------------------------------------------------------------===//

#include "InjectHandle.h"
#include "LastError.h"

#include "mmptx-c/PtxInject.h"
#include "mmptx/Inject/InjectModule.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/StringSaver.h"

#include <cstring>
#include <new>

using namespace llvm;
using namespace mmptx;

static mmptx_result_t toResult(InjectErrc Code) {
  switch (Code) {
  case InjectErrc::Success:
    return MMPTX_SUCCESS;
  case InjectErrc::Formatting:
    return MMPTX_ERROR_FORMATTING;
  case InjectErrc::InsufficientBuffer:
    return MMPTX_ERROR_INSUFFICIENT_BUFFER;
  case InjectErrc::Internal:
    return MMPTX_ERROR_INTERNAL;
  case InjectErrc::InvalidInput:
    return MMPTX_ERROR_INVALID_INPUT;
  case InjectErrc::WrongNumStubs:
    return MMPTX_ERROR_WRONG_NUM_STUBS;
  case InjectErrc::OutOfBoundsIndex:
    return MMPTX_ERROR_OUT_OF_BOUNDS_IDX;
  case InjectErrc::InconsistentInjection:
    return MMPTX_ERROR_INCONSISTENT_INJECTION;
  case InjectErrc::InjectNotFound:
  case InjectErrc::MissingStub:
    return MMPTX_ERROR_INJECTION_NAME_NOT_FOUND;
  case InjectErrc::VariableNotFound:
    return MMPTX_ERROR_INJECTION_ARG_NAME_NOT_FOUND;
  case InjectErrc::OutOfMemory:
    return MMPTX_ERROR_OUT_OF_MEMORY;
  case InjectErrc::UnknownType:
    return MMPTX_ERROR_UNKNOWN_TYPE;
  case InjectErrc::InvalidPTX:
    return MMPTX_ERROR_INVALID_PTX;
  case InjectErrc::InvalidSite:
    return MMPTX_ERROR_INVALID_SITE;
  case InjectErrc::InvalidStub:
    return MMPTX_ERROR_INVALID_STUB;
  }
  return MMPTX_ERROR_INTERNAL;
}

using capi::fail;

static mmptx_result_t succeed() { return capi::succeed(MMPTX_SUCCESS); }

/// Records \p Err as the last error; \returns its result code.
static mmptx_result_t fail(Error Err) {
  std::string Msg;
  mmptx_result_t Result = toResult(takeInjectError(std::move(Err), &Msg));
  return fail(Result, Msg);
}

const char *mmptx_inject_last_error(void) { return mmptx_last_error(); }

/// The C numbering of argument kinds is the C API's own.
static mmptx_arg_kind_t toArgKind(InjectArgKind Kind) {
  switch (Kind) {
  case InjectArgKind::Out:
    return MMPTX_ARG_OUT;
  case InjectArgKind::Mod:
    return MMPTX_ARG_MOD;
  case InjectArgKind::In:
    return MMPTX_ARG_IN;
  }
  return MMPTX_ARG_IN;
}

static void setMessage(char *Buf, size_t Size, StringRef Msg) {
  if (!Buf || !Size)
    return;
  size_t N = std::min(Size - 1, Msg.size());
  memcpy(Buf, Msg.data(), N);
  Buf[N] = '\0';
}

const char *mmptx_result_to_string(mmptx_result_t Result) {
  switch (Result) {
#define CASE(X)                                                                \
  case X:                                                                      \
    return #X;
    CASE(MMPTX_SUCCESS)
    CASE(MMPTX_ERROR_FORMATTING)
    CASE(MMPTX_ERROR_INSUFFICIENT_BUFFER)
    CASE(MMPTX_ERROR_INTERNAL)
    CASE(MMPTX_ERROR_INVALID_INPUT)
    CASE(MMPTX_ERROR_RESERVED_5)
    CASE(MMPTX_ERROR_WRONG_NUM_STUBS)
    CASE(MMPTX_ERROR_OUT_OF_BOUNDS_IDX)
    CASE(MMPTX_ERROR_INCONSISTENT_INJECTION)
    CASE(MMPTX_ERROR_INJECTION_NAME_NOT_FOUND)
    CASE(MMPTX_ERROR_INJECTION_ARG_NAME_NOT_FOUND)
    CASE(MMPTX_ERROR_OUT_OF_MEMORY)
    CASE(MMPTX_ERROR_UNKNOWN_TYPE)
    CASE(MMPTX_ERROR_INVALID_PTX)
    CASE(MMPTX_ERROR_INVALID_SITE)
    CASE(MMPTX_ERROR_INVALID_STUB)
    CASE(MMPTX_ERROR_INVALID_PROGRAM)
#undef CASE
  case MMPTX_RESULT_NUM_CODES:
    break;
  }
  return "MMPTX_ERROR_INVALID_RESULT";
}

mmptx_result_t mmptx_inject_create(mmptx_inject_t **Out, const char *Ptx,
                                   size_t PtxSize, const char *BufferName,
                                   const mmptx_inject_type_t *ExtraTypes,
                                   size_t NumExtraTypes, char *ErrorMessage,
                                   size_t ErrorMessageSize) {
  mmptx_inject_options_t Options = {};
  Options.buffer_name = BufferName;
  Options.extra_types = ExtraTypes;
  Options.num_extra_types = NumExtraTypes;
  return mmptx_inject_create_with_options(Out, Ptx, PtxSize, &Options,
                                          ErrorMessage, ErrorMessageSize);
}

mmptx_result_t
mmptx_inject_create_with_options(mmptx_inject_t **Out, const char *Ptx,
                                 size_t PtxSize,
                                 const mmptx_inject_options_t *Options,
                                 char *ErrorMessage, size_t ErrorMessageSize) {
  setMessage(ErrorMessage, ErrorMessageSize, "");
  auto FailWith = [&](mmptx_result_t Result, StringRef Msg) {
    setMessage(ErrorMessage, ErrorMessageSize, Msg);
    return fail(Result, Msg);
  };
  if (Out)
    *Out = nullptr;
  mmptx_inject_options_t Defaults = {};
  const mmptx_inject_options_t &O = Options ? *Options : Defaults;
  if (!Out || (!Ptx && PtxSize) || (!O.extra_types && O.num_extra_types))
    return FailWith(MMPTX_ERROR_INVALID_INPUT, !Out   ? "out is NULL"
                                               : !Ptx ? "ptx is NULL"
                                                      : "extra_types is NULL");
  SmallVector<InjectType, 4> Types;
  for (size_t I = 0; I != O.num_extra_types; ++I) {
    const mmptx_inject_type_t &T = O.extra_types[I];
    if (!T.token || !T.reg_type || !*T.token || !*T.reg_type)
      return FailWith(MMPTX_ERROR_INVALID_INPUT,
                      "extra type has a NULL or empty token or reg_type");
    InjectType It;
    It.TheToken = T.token;
    It.RegType = T.reg_type;
    It.MovSuffix = T.mov_suffix && *T.mov_suffix ? T.mov_suffix : T.reg_type;
    Types.push_back(It);
  }
  InjectOptions Opts;
  Opts.ExtraTypes = Types;
  Opts.AllowUnknownTypes = O.allow_unknown_types != 0;
  Opts.Trusted = O.trusted != 0;
  auto M = InjectModule::create(StringRef(Ptx ? Ptx : "", PtxSize),
                                O.buffer_name ? O.buffer_name : "<ptx>", Opts);
  if (!M) {
    mmptx_result_t Result = fail(M.takeError());
    setMessage(ErrorMessage, ErrorMessageSize, capi::getLastError());
    return Result;
  }
  auto *H = new (std::nothrow) mmptx_inject();
  if (!H)
    return FailWith(MMPTX_ERROR_OUT_OF_MEMORY, "out of memory");
  H->TheModule = std::move(*M);
  StringSaver Saver(H->Alloc);
  const InjectModule &Im = *H->TheModule;
  H->InjectNames.reserve(Im.getNumInjects());
  for (const Inject &Inj : Im.injects()) {
    H->InjectNames.push_back(Saver.save(Inj.Name).data());
    for (const InjectVariable &V : Im.getVariables(Inj))
      H->Variables.push_back(
          {Saver.save(V.Name).data(), Saver.save(V.StableRegister).data(),
           Saver.save(V.RegType).data(), Saver.save(V.TypeToken).data(),
           toArgKind(V.Kind)});
  }
  *Out = H;
  return succeed();
}

mmptx_result_t mmptx_inject_destroy(mmptx_inject_t *Handle) {
  delete Handle;
  return succeed();
}

mmptx_result_t mmptx_inject_num_injects(const mmptx_inject_t *Handle,
                                        size_t *NumInjects) {
  if (!Handle || !NumInjects)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle or num_injects is NULL");
  *NumInjects = Handle->TheModule->getNumInjects();
  return succeed();
}

template <typename T> static void set(T *P, T V) {
  if (P)
    *P = V;
}

/// \returns OUT_OF_BOUNDS_IDX (recorded) unless \p Index names an inject.
static mmptx_result_t checkInjectIndex(const mmptx_inject_t *Handle,
                                       size_t Index) {
  size_t N = Handle->TheModule->getNumInjects();
  if (Index < N)
    return MMPTX_SUCCESS;
  return fail(MMPTX_ERROR_OUT_OF_BOUNDS_IDX, "inject index " + Twine(Index) +
                                                 " is out of range (" +
                                                 Twine(N) + " injects)");
}

mmptx_result_t mmptx_inject_inject_info_by_name(const mmptx_inject_t *Handle,
                                                const char *Name,
                                                size_t *InjectIndex,
                                                size_t *NumVariables,
                                                size_t *NumSites) {
  if (!Handle || !Name)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle or name is NULL");
  const Inject *Inj = Handle->TheModule->lookupInject(Name);
  if (!Inj)
    return fail(MMPTX_ERROR_INJECTION_NAME_NOT_FOUND,
                "no inject named '" + Twine(Name) + "'");
  set(InjectIndex, size_t(Inj->Index));
  set(NumVariables, size_t(Inj->NumVariables));
  set(NumSites, size_t(Inj->NumSites));
  return succeed();
}

mmptx_result_t mmptx_inject_inject_info_by_index(const mmptx_inject_t *Handle,
                                                 size_t InjectIndex,
                                                 const char **Name,
                                                 size_t *NumVariables,
                                                 size_t *NumSites) {
  if (!Handle)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle is NULL");
  if (mmptx_result_t R = checkInjectIndex(Handle, InjectIndex))
    return R;
  const Inject &Inj = Handle->TheModule->getInject(InjectIndex);
  set(Name, Handle->InjectNames[InjectIndex]);
  set(NumVariables, size_t(Inj.NumVariables));
  set(NumSites, size_t(Inj.NumSites));
  return succeed();
}

static void setVariable(const mmptx_inject::Variable &V, const char **Name,
                        const char **StableRegister, mmptx_arg_kind_t *Kind,
                        const char **RegType, const char **TypeToken) {
  set(Name, V.Name);
  set(StableRegister, V.StableRegister);
  set(Kind, V.Kind);
  set(RegType, V.RegType);
  set(TypeToken, V.TypeToken);
}

mmptx_result_t mmptx_inject_variable_info_by_name(
    const mmptx_inject_t *Handle, size_t InjectIndex, const char *VariableName,
    size_t *VariableIndex, const char **StableRegister, mmptx_arg_kind_t *Kind,
    const char **RegType, const char **TypeToken) {
  if (!Handle || !VariableName)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle or variable_name is NULL");
  if (mmptx_result_t R = checkInjectIndex(Handle, InjectIndex))
    return R;
  const Inject &Inj = Handle->TheModule->getInject(InjectIndex);
  const InjectVariable *V =
      Handle->TheModule->lookupVariable(Inj, VariableName);
  if (!V)
    return fail(MMPTX_ERROR_INJECTION_ARG_NAME_NOT_FOUND,
                "inject '" + Inj.Name + "' has no variable named '" +
                    VariableName + "'");
  size_t I = V - Handle->TheModule->getVariables(Inj).data();
  set(VariableIndex, I);
  setVariable(Handle->Variables[Inj.FirstVariable + I], nullptr, StableRegister,
              Kind, RegType, TypeToken);
  return succeed();
}

mmptx_result_t mmptx_inject_variable_info_by_index(
    const mmptx_inject_t *Handle, size_t InjectIndex, size_t VariableIndex,
    const char **VariableName, const char **StableRegister,
    mmptx_arg_kind_t *Kind, const char **RegType, const char **TypeToken) {
  if (!Handle)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle is NULL");
  if (mmptx_result_t R = checkInjectIndex(Handle, InjectIndex))
    return R;
  const Inject &Inj = Handle->TheModule->getInject(InjectIndex);
  if (VariableIndex >= Inj.NumVariables)
    return fail(MMPTX_ERROR_OUT_OF_BOUNDS_IDX,
                "variable index " + Twine(VariableIndex) +
                    " is out of range (inject '" + Inj.Name + "' has " +
                    Twine(Inj.NumVariables) + ")");
  setVariable(Handle->Variables[Inj.FirstVariable + VariableIndex],
              VariableName, StableRegister, Kind, RegType, TypeToken);
  return succeed();
}

static mmptx_result_t render(const mmptx_inject_t *Handle,
                             const char *const *Stubs, size_t NumStubs,
                             char *Buffer, size_t BufferSize, size_t *Written,
                             bool Check) {
  if (!Handle)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle is NULL");
  const InjectModule &M = *Handle->TheModule;
  // The count first: a wrong count must not make us read the array.
  if (NumStubs != M.getNumInjects())
    return fail(MMPTX_ERROR_WRONG_NUM_STUBS,
                "expected " + Twine(M.getNumInjects()) +
                    (M.getNumInjects() == 1 ? " stub" : " stubs") +
                    " (one per inject), got " + Twine(NumStubs));
  if (NumStubs && !Stubs)
    return fail(MMPTX_ERROR_INVALID_INPUT, "stubs is NULL");
  if (!Buffer && !Written)
    return fail(MMPTX_ERROR_INVALID_INPUT, "buffer and written are NULL");
  SmallVector<StringRef, 16> Refs;
  Refs.reserve(NumStubs);
  for (size_t I = 0; I != NumStubs; ++I) {
    if (!Stubs[I])
      return fail(MMPTX_ERROR_INVALID_INPUT, "stub " + Twine(I) + " is NULL");
    Refs.push_back(Stubs[I]);
  }
  if (Check)
    if (Error E = M.checkStubs(Refs))
      return fail(std::move(E));
  Expected<size_t> Size = M.renderedSize(Refs);
  if (!Size)
    return fail(Size.takeError());
  set(Written, *Size);
  if (!Buffer)
    return succeed();
  if (BufferSize <= *Size)
    return fail(
        MMPTX_ERROR_INSUFFICIENT_BUFFER,
        capi::insufficientBuffer(BufferSize, *Size, "the rendered PTX"));
  RenderOptions Unchecked;
  Unchecked.CheckStubs = false;
  Expected<size_t> N = M.render(Refs, Buffer, BufferSize, Unchecked);
  if (!N)
    return fail(N.takeError());
  Buffer[*N] = '\0';
  return succeed();
}

mmptx_result_t mmptx_inject_render(const mmptx_inject_t *Handle,
                                   const char *const *Stubs, size_t NumStubs,
                                   char *Buffer, size_t BufferSize,
                                   size_t *Written) {
  return render(Handle, Stubs, NumStubs, Buffer, BufferSize, Written,
                /*check=*/true);
}

mmptx_result_t mmptx_inject_render_unchecked(const mmptx_inject_t *Handle,
                                             const char *const *Stubs,
                                             size_t NumStubs, char *Buffer,
                                             size_t BufferSize,
                                             size_t *Written) {
  return render(Handle, Stubs, NumStubs, Buffer, BufferSize, Written,
                /*check=*/false);
}
