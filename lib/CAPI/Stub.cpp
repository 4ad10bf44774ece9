//===- Stub.cpp - C API of the stub of an inject --------------------------===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Implements mmptx-c/Stub.h over mmptx::stub::StubBuilder.
///
//===----------------------------------------------------------------------===//

#include "CompilerOptions.h"
#include "InjectHandle.h"
#include "LastError.h"

#include "mmptx-c/Stub.h"
#include "mmptx/Stub/StubBuilder.h"

#include <cstring>

using namespace llvm;
using namespace mmptx;

extern "C" {

mmptx_result_t mmptx_stub_build(const mmptx_inject_t *Handle,
                                const char *InjectName,
                                mmptx_program_kind_t Kind, const char *Program,
                                size_t ProgramSize, const char *ProgramName,
                                const mmptx_stub_options_t *Options,
                                char *Buffer, size_t BufferSize,
                                size_t *Written) {
  using capi::fail;
  if (!Handle)
    return fail(MMPTX_ERROR_INVALID_INPUT, "handle is NULL");
  if (!InjectName)
    return fail(MMPTX_ERROR_INVALID_INPUT, "inject_name is NULL");
  if (!Program && ProgramSize)
    return fail(MMPTX_ERROR_INVALID_INPUT,
                "program is NULL with a non-zero size");
  if (Kind != MMPTX_PROGRAM_STACK && Kind != MMPTX_PROGRAM_AST)
    return fail(MMPTX_ERROR_INVALID_INPUT,
                "kind " + Twine(int(Kind)) +
                    " is neither MMPTX_PROGRAM_STACK nor MMPTX_PROGRAM_AST");
  if (!Buffer && !Written)
    return fail(MMPTX_ERROR_INVALID_INPUT,
                "written is NULL in a size query (buffer is NULL)");

  stub::StubOptions Opts;
  if (Options) {
    if (Options->stack)
      Opts.Stack = capi::toStackPtxOptions(*Options->stack);
    if (Options->ast)
      Opts.Ast = capi::toAstPtxOptions(*Options->ast);
    if (!Options->include_dirs && Options->num_include_dirs)
      return fail(MMPTX_ERROR_INVALID_INPUT,
                  "options.include_dirs is NULL with a non-zero count");
    for (size_t I = 0; I != Options->num_include_dirs; ++I) {
      if (!Options->include_dirs[I])
        return fail(MMPTX_ERROR_INVALID_INPUT,
                    "options.include_dirs[" + Twine(I) + "] is NULL");
      Opts.IncludeDirs.push_back(Options->include_dirs[I]);
    }
    Opts.TargetSm = Options->target_sm;
  }
  stub::StubBuilder Builder(std::move(Opts));
  std::string Spelled;
  if (Error E = Builder.checkOptions([&](StringRef Field) {
        return capi::spellCField("options.stack->", Field, Spelled);
      }))
    return fail(MMPTX_ERROR_INVALID_INPUT, toString(std::move(E)));

  const InjectModule &M = *Handle->TheModule;
  const Inject *Inj = M.lookupInject(InjectName);
  if (!Inj)
    return fail(MMPTX_ERROR_INJECTION_NAME_NOT_FOUND,
                "no inject named '" + Twine(InjectName) + "'");
  stub::Program P;
  P.Kind = Kind == MMPTX_PROGRAM_AST ? stub::ProgramKind::Ast
                                     : stub::ProgramKind::Stack;
  P.Text = StringRef(Program ? Program : "", ProgramSize);
  if (ProgramName)
    P.Name = ProgramName;
  Expected<std::string> Stub = Builder.build(M, *Inj, P);
  if (!Stub)
    return fail(MMPTX_ERROR_INVALID_PROGRAM, toString(Stub.takeError()));
  if (Written)
    *Written = Stub->size();
  if (!Buffer)
    return capi::succeed(MMPTX_SUCCESS);
  if (BufferSize < Stub->size() + 1)
    return fail(MMPTX_ERROR_INSUFFICIENT_BUFFER,
                capi::insufficientBuffer(BufferSize, Stub->size(), "the stub"));
  std::memcpy(Buffer, Stub->data(), Stub->size());
  Buffer[Stub->size()] = '\0';
  return capi::succeed(MMPTX_SUCCESS);
}

} // extern "C"
