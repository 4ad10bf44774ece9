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

#include "mmptx-c/PtxInject.h"
#include "mmptx/Inject/InjectModule.h"

#include "llvm/ADT/SmallVector.h"
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
  }
  return MMPTX_ERROR_INTERNAL;
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
  setMessage(errorMessage, errorMessageSize, "");
  if (out)
    *out = nullptr;
  if (!out || (!ptx && ptxSize) || (!extraTypes && numExtraTypes)) {
    setMessage(errorMessage, errorMessageSize,
               !out   ? "out is NULL"
               : !ptx ? "ptx is NULL"
                      : "extra_types is NULL");
    return MMPTX_ERROR_INVALID_INPUT;
  }
  SmallVector<InjectType, 4> types;
  for (size_t i = 0; i != numExtraTypes; ++i) {
    const mmptx_inject_type_t &t = extraTypes[i];
    if (!t.token || !t.reg_type || !*t.token || !*t.reg_type) {
      setMessage(errorMessage, errorMessageSize,
                 "extra type has a NULL or empty token or reg_type");
      return MMPTX_ERROR_INVALID_INPUT;
    }
    InjectType it;
    it.token = t.token;
    it.regType = t.reg_type;
    it.movSuffix = t.mov_suffix && *t.mov_suffix ? t.mov_suffix : t.reg_type;
    types.push_back(it);
  }
  InjectOptions opts;
  opts.extraTypes = types;
  auto m = InjectModule::create(StringRef(ptx ? ptx : "", ptxSize),
                                bufferName ? bufferName : "<ptx>", opts);
  if (!m) {
    std::string msg;
    InjectErrc code = takeInjectError(m.takeError(), &msg);
    setMessage(errorMessage, errorMessageSize, msg);
    return toResult(code);
  }
  auto *h = new (std::nothrow) mmptx_inject();
  if (!h) {
    setMessage(errorMessage, errorMessageSize, "out of memory");
    return MMPTX_ERROR_OUT_OF_MEMORY;
  }
  h->module = std::move(*m);
  StringSaver saver(h->alloc);
  const InjectModule &im = *h->module;
  h->injectNames.reserve(im.getNumInjects());
  for (const Inject &inj : im.injects()) {
    h->injectNames.push_back(saver.save(inj.name).data());
    for (const InjectVariable &v : im.getVariables(inj))
      h->variables.push_back({saver.save(v.name).data(),
                              saver.save(v.stableRegister).data(),
                              saver.save(v.regType).data(),
                              saver.save(v.typeToken).data(),
                              static_cast<mmptx_arg_kind_t>(v.kind)});
  }
  *out = h;
  return MMPTX_SUCCESS;
}

mmptx_result_t mmptx_inject_destroy(mmptx_inject_t *handle) {
  delete handle;
  return MMPTX_SUCCESS;
}

mmptx_result_t mmptx_inject_num_injects(const mmptx_inject_t *handle,
                                        size_t *numInjects) {
  if (!handle || !numInjects)
    return MMPTX_ERROR_INVALID_INPUT;
  *numInjects = handle->module->getNumInjects();
  return MMPTX_SUCCESS;
}

template <typename T> static void set(T *p, T v) {
  if (p)
    *p = v;
}

mmptx_result_t mmptx_inject_inject_info_by_name(const mmptx_inject_t *handle,
                                                const char *name,
                                                size_t *injectIndex,
                                                size_t *numVariables,
                                                size_t *numSites) {
  if (!handle || !name)
    return MMPTX_ERROR_INVALID_INPUT;
  const Inject *inj = handle->module->lookupInject(name);
  if (!inj)
    return MMPTX_ERROR_INJECTION_NAME_NOT_FOUND;
  set(injectIndex, size_t(inj->index));
  set(numVariables, size_t(inj->numVariables));
  set(numSites, size_t(inj->numSites));
  return MMPTX_SUCCESS;
}

mmptx_result_t mmptx_inject_inject_info_by_index(const mmptx_inject_t *handle,
                                                 size_t injectIndex,
                                                 const char **name,
                                                 size_t *numVariables,
                                                 size_t *numSites) {
  if (!handle)
    return MMPTX_ERROR_INVALID_INPUT;
  if (injectIndex >= handle->module->getNumInjects())
    return MMPTX_ERROR_OUT_OF_BOUNDS_IDX;
  const Inject &inj = handle->module->getInject(injectIndex);
  set(name, handle->injectNames[injectIndex]);
  set(numVariables, size_t(inj.numVariables));
  set(numSites, size_t(inj.numSites));
  return MMPTX_SUCCESS;
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
    size_t *variableIndex, const char **stableRegister,
    mmptx_arg_kind_t *kind, const char **regType, const char **typeToken) {
  if (!handle || !variableName)
    return MMPTX_ERROR_INVALID_INPUT;
  if (injectIndex >= handle->module->getNumInjects())
    return MMPTX_ERROR_OUT_OF_BOUNDS_IDX;
  const Inject &inj = handle->module->getInject(injectIndex);
  const InjectVariable *v =
      handle->module->lookupVariable(inj, variableName);
  if (!v)
    return MMPTX_ERROR_INJECTION_ARG_NAME_NOT_FOUND;
  size_t i = v - handle->module->getVariables(inj).data();
  set(variableIndex, i);
  setVariable(handle->variables[inj.firstVariable + i], nullptr,
              stableRegister, kind, regType, typeToken);
  return MMPTX_SUCCESS;
}

mmptx_result_t mmptx_inject_variable_info_by_index(
    const mmptx_inject_t *handle, size_t injectIndex, size_t variableIndex,
    const char **variableName, const char **stableRegister,
    mmptx_arg_kind_t *kind, const char **regType, const char **typeToken) {
  if (!handle)
    return MMPTX_ERROR_INVALID_INPUT;
  if (injectIndex >= handle->module->getNumInjects())
    return MMPTX_ERROR_OUT_OF_BOUNDS_IDX;
  const Inject &inj = handle->module->getInject(injectIndex);
  if (variableIndex >= inj.numVariables)
    return MMPTX_ERROR_OUT_OF_BOUNDS_IDX;
  setVariable(handle->variables[inj.firstVariable + variableIndex],
              variableName, stableRegister, kind, regType, typeToken);
  return MMPTX_SUCCESS;
}

mmptx_result_t mmptx_inject_render(const mmptx_inject_t *handle,
                                   const char *const *stubs, size_t numStubs,
                                   char *buffer, size_t bufferSize,
                                   size_t *written) {
  if (!handle)
    return MMPTX_ERROR_INVALID_INPUT;
  const InjectModule &m = *handle->module;
  // The count first: a wrong count must not make us read the array.
  if (numStubs != m.getNumInjects())
    return MMPTX_ERROR_WRONG_NUM_STUBS;
  if (numStubs && !stubs)
    return MMPTX_ERROR_INVALID_INPUT;
  if (!buffer && !written)
    return MMPTX_ERROR_INVALID_INPUT;
  SmallVector<StringRef, 16> refs;
  refs.reserve(numStubs);
  for (size_t i = 0; i != numStubs; ++i) {
    if (!stubs[i])
      return MMPTX_ERROR_INVALID_INPUT;
    refs.push_back(stubs[i]);
  }
  Expected<size_t> size = m.renderedSize(refs);
  if (!size)
    return toResult(takeInjectError(size.takeError()));
  set(written, *size);
  if (!buffer)
    return MMPTX_SUCCESS;
  if (bufferSize <= *size)
    return MMPTX_ERROR_INSUFFICIENT_BUFFER;
  Expected<size_t> n = m.render(refs, buffer, bufferSize);
  if (!n)
    return toResult(takeInjectError(n.takeError()));
  buffer[*n] = '\0';
  return MMPTX_SUCCESS;
}
