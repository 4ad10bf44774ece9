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

struct mmptx_inject {
  struct Variable {
    const char *name, *stableRegister, *regType, *typeToken;
    mmptx_arg_kind_t kind;
  };
  std::unique_ptr<InjectModule> module;
  BumpPtrAllocator alloc;
  std::vector<const char *> injectNames;
  std::vector<Variable> variables; // all injects, in InjectModule order
};

static mmptx_result_t toResult(InjectErrc code) {
  switch (code) {
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

/// Records \p err as the last error; \returns its result code.
static mmptx_result_t fail(Error err) {
  std::string msg;
  mmptx_result_t result = toResult(takeInjectError(std::move(err), &msg));
  return fail(result, msg);
}

const char *mmptx_inject_last_error(void) { return mmptx_last_error(); }

/// The C numbering of argument kinds is the C API's own.
static mmptx_arg_kind_t toArgKind(InjectArgKind kind) {
  switch (kind) {
  case InjectArgKind::Out:
    return MMPTX_ARG_OUT;
  case InjectArgKind::Mod:
    return MMPTX_ARG_MOD;
  case InjectArgKind::In:
    return MMPTX_ARG_IN;
  }
  return MMPTX_ARG_IN;
}

static void setMessage(char *buf, size_t size, StringRef msg) {
  if (!buf || !size)
    return;
  size_t n = std::min(size - 1, msg.size());
  memcpy(buf, msg.data(), n);
  buf[n] = '\0';
}

const char *mmptx_result_to_string(mmptx_result_t result) {
  switch (result) {
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
#undef CASE
  case MMPTX_RESULT_NUM_CODES:
    break;
  }
  return "MMPTX_ERROR_INVALID_RESULT";
}

mmptx_result_t mmptx_inject_create(mmptx_inject_t **out, const char *ptx,
                                   size_t ptxSize, const char *bufferName,
                                   const mmptx_inject_type_t *extraTypes,
                                   size_t numExtraTypes, char *errorMessage,
                                   size_t errorMessageSize) {
  mmptx_inject_options_t options = {};
  options.buffer_name = bufferName;
  options.extra_types = extraTypes;
  options.num_extra_types = numExtraTypes;
  return mmptx_inject_create_with_options(out, ptx, ptxSize, &options,
                                          errorMessage, errorMessageSize);
}

mmptx_result_t
mmptx_inject_create_with_options(mmptx_inject_t **out, const char *ptx,
                                 size_t ptxSize,
                                 const mmptx_inject_options_t *options,
                                 char *errorMessage, size_t errorMessageSize) {
  setMessage(errorMessage, errorMessageSize, "");
  auto failWith = [&](mmptx_result_t result, StringRef msg) {
    setMessage(errorMessage, errorMessageSize, msg);
    return fail(result, msg);
  };
  if (out)
    *out = nullptr;
  mmptx_inject_options_t defaults = {};
  const mmptx_inject_options_t &o = options ? *options : defaults;
  if (!out || (!ptx && ptxSize) || (!o.extra_types && o.num_extra_types))
    return failWith(MMPTX_ERROR_INVALID_INPUT, !out   ? "out is NULL"
                                               : !ptx ? "ptx is NULL"
                                                      : "extra_types is NULL");
  SmallVector<InjectType, 4> types;
  for (size_t i = 0; i != o.num_extra_types; ++i) {
    const mmptx_inject_type_t &t = o.extra_types[i];
    if (!t.token || !t.reg_type || !*t.token || !*t.reg_type)
      return failWith(MMPTX_ERROR_INVALID_INPUT,
                      "extra type has a NULL or empty token or reg_type");
    InjectType it;
    it.token = t.token;
    it.regType = t.reg_type;
    it.movSuffix = t.mov_suffix && *t.mov_suffix ? t.mov_suffix : t.reg_type;
    types.push_back(it);
  }
  InjectOptions opts;
  opts.extraTypes = types;
  opts.allowUnknownTypes = o.allow_unknown_types != 0;
  opts.trusted = o.trusted != 0;
  auto m = InjectModule::create(StringRef(ptx ? ptx : "", ptxSize),
                                o.buffer_name ? o.buffer_name : "<ptx>", opts);
  if (!m) {
    mmptx_result_t result = fail(m.takeError());
    setMessage(errorMessage, errorMessageSize, capi::getLastError());
    return result;
  }
  auto *h = new (std::nothrow) mmptx_inject();
  if (!h)
    return failWith(MMPTX_ERROR_OUT_OF_MEMORY, "out of memory");
  h->module = std::move(*m);
  StringSaver saver(h->alloc);
  const InjectModule &im = *h->module;
  h->injectNames.reserve(im.getNumInjects());
  for (const Inject &inj : im.injects()) {
    h->injectNames.push_back(saver.save(inj.name).data());
    for (const InjectVariable &v : im.getVariables(inj))
      h->variables.push_back(
          {saver.save(v.name).data(), saver.save(v.stableRegister).data(),
           saver.save(v.regType).data(), saver.save(v.typeToken).data(),
           toArgKind(v.kind)});
  }
  *out = h;
  return succeed();
}

mmptx_result_t mmptx_inject_destroy(mmptx_inject_t *handle) {
  delete handle;
  return succeed();
}

mmptx_result_t mmptx_inject_num_injects(const mmptx_inject_t *handle,
                                        size_t *numInjects) {
  if (!handle || !numInjects)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle or num_injects is NULL");
  *numInjects = handle->module->getNumInjects();
  return succeed();
}

template <typename T> static void set(T *p, T v) {
  if (p)
    *p = v;
}

/// \returns OUT_OF_BOUNDS_IDX (recorded) unless \p Index names an inject.
static mmptx_result_t checkInjectIndex(const mmptx_inject_t *Handle,
                                       size_t Index) {
  size_t N = Handle->module->getNumInjects();
  if (Index < N)
    return MMPTX_SUCCESS;
  return fail(MMPTX_ERROR_OUT_OF_BOUNDS_IDX, "inject index " + Twine(Index) +
                                                 " is out of range (" +
                                                 Twine(N) + " injects)");
}

mmptx_result_t mmptx_inject_inject_info_by_name(const mmptx_inject_t *handle,
                                                const char *name,
                                                size_t *injectIndex,
                                                size_t *numVariables,
                                                size_t *numSites) {
  if (!handle || !name)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle or name is NULL");
  const Inject *inj = handle->module->lookupInject(name);
  if (!inj)
    return fail(MMPTX_ERROR_INJECTION_NAME_NOT_FOUND,
                "no inject named '" + Twine(name) + "'");
  set(injectIndex, size_t(inj->index));
  set(numVariables, size_t(inj->numVariables));
  set(numSites, size_t(inj->numSites));
  return succeed();
}

mmptx_result_t mmptx_inject_inject_info_by_index(const mmptx_inject_t *handle,
                                                 size_t injectIndex,
                                                 const char **name,
                                                 size_t *numVariables,
                                                 size_t *numSites) {
  if (!handle)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle is NULL");
  if (mmptx_result_t r = checkInjectIndex(handle, injectIndex))
    return r;
  const Inject &inj = handle->module->getInject(injectIndex);
  set(name, handle->injectNames[injectIndex]);
  set(numVariables, size_t(inj.numVariables));
  set(numSites, size_t(inj.numSites));
  return succeed();
}

static void setVariable(const mmptx_inject::Variable &v, const char **name,
                        const char **stableRegister, mmptx_arg_kind_t *kind,
                        const char **regType, const char **typeToken) {
  set(name, v.name);
  set(stableRegister, v.stableRegister);
  set(kind, v.kind);
  set(regType, v.regType);
  set(typeToken, v.typeToken);
}

mmptx_result_t mmptx_inject_variable_info_by_name(
    const mmptx_inject_t *handle, size_t injectIndex, const char *variableName,
    size_t *variableIndex, const char **stableRegister, mmptx_arg_kind_t *kind,
    const char **regType, const char **typeToken) {
  if (!handle || !variableName)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle or variable_name is NULL");
  if (mmptx_result_t r = checkInjectIndex(handle, injectIndex))
    return r;
  const Inject &inj = handle->module->getInject(injectIndex);
  const InjectVariable *v = handle->module->lookupVariable(inj, variableName);
  if (!v)
    return fail(MMPTX_ERROR_INJECTION_ARG_NAME_NOT_FOUND,
                "inject '" + inj.name + "' has no variable named '" +
                    variableName + "'");
  size_t i = v - handle->module->getVariables(inj).data();
  set(variableIndex, i);
  setVariable(handle->variables[inj.firstVariable + i], nullptr, stableRegister,
              kind, regType, typeToken);
  return succeed();
}

mmptx_result_t mmptx_inject_variable_info_by_index(
    const mmptx_inject_t *handle, size_t injectIndex, size_t variableIndex,
    const char **variableName, const char **stableRegister,
    mmptx_arg_kind_t *kind, const char **regType, const char **typeToken) {
  if (!handle)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle is NULL");
  if (mmptx_result_t r = checkInjectIndex(handle, injectIndex))
    return r;
  const Inject &inj = handle->module->getInject(injectIndex);
  if (variableIndex >= inj.numVariables)
    return fail(MMPTX_ERROR_OUT_OF_BOUNDS_IDX,
                "variable index " + Twine(variableIndex) +
                    " is out of range (inject '" + inj.name + "' has " +
                    Twine(inj.numVariables) + ")");
  setVariable(handle->variables[inj.firstVariable + variableIndex],
              variableName, stableRegister, kind, regType, typeToken);
  return succeed();
}

static mmptx_result_t render(const mmptx_inject_t *handle,
                             const char *const *stubs, size_t numStubs,
                             char *buffer, size_t bufferSize, size_t *written,
                             bool check) {
  if (!handle)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle is NULL");
  const InjectModule &m = *handle->module;
  // The count first: a wrong count must not make us read the array.
  if (numStubs != m.getNumInjects())
    return fail(MMPTX_ERROR_WRONG_NUM_STUBS,
                "expected " + Twine(m.getNumInjects()) +
                    (m.getNumInjects() == 1 ? " stub" : " stubs") +
                    " (one per inject), got " + Twine(numStubs));
  if (numStubs && !stubs)
    return fail(MMPTX_ERROR_INVALID_INPUT, "stubs is NULL");
  if (!buffer && !written)
    return fail(MMPTX_ERROR_INVALID_INPUT, "buffer and written are NULL");
  SmallVector<StringRef, 16> refs;
  refs.reserve(numStubs);
  for (size_t i = 0; i != numStubs; ++i) {
    if (!stubs[i])
      return fail(MMPTX_ERROR_INVALID_INPUT, "stub " + Twine(i) + " is NULL");
    refs.push_back(stubs[i]);
  }
  if (check)
    if (Error e = m.checkStubs(refs))
      return fail(std::move(e));
  Expected<size_t> size = m.renderedSize(refs);
  if (!size)
    return fail(size.takeError());
  set(written, *size);
  if (!buffer)
    return succeed();
  if (bufferSize <= *size)
    return fail(
        MMPTX_ERROR_INSUFFICIENT_BUFFER,
        capi::insufficientBuffer(bufferSize, *size, "the rendered PTX"));
  RenderOptions unchecked;
  unchecked.checkStubs = false;
  Expected<size_t> n = m.render(refs, buffer, bufferSize, unchecked);
  if (!n)
    return fail(n.takeError());
  buffer[*n] = '\0';
  return succeed();
}

mmptx_result_t mmptx_inject_render(const mmptx_inject_t *handle,
                                   const char *const *stubs, size_t numStubs,
                                   char *buffer, size_t bufferSize,
                                   size_t *written) {
  return render(handle, stubs, numStubs, buffer, bufferSize, written,
                /*check=*/true);
}

mmptx_result_t mmptx_inject_render_unchecked(const mmptx_inject_t *handle,
                                             const char *const *stubs,
                                             size_t numStubs, char *buffer,
                                             size_t bufferSize,
                                             size_t *written) {
  return render(handle, stubs, numStubs, buffer, bufferSize, written,
                /*check=*/false);
}
