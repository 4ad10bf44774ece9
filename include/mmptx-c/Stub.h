/*===- Stub.h - C API of the stub of an inject --------------------*- C -*-===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Builds the stub of one inject of an mmptx_inject_t from a Stack PTX or     *|
|* AST PTX program in text form, typed against the inject's variables (user   *|
|* inject types included): what `mmptx-opt --stub-gen` does for each inject.  *|
|* The stub goes to mmptx_inject_render_unchecked: it is valid by             *|
|* construction. Conventions as in mmptx-c/PtxInject.h.                       *|
|*                                                                            *|
|*   mmptx_stub_build(h, "f", MMPTX_PROGRAM_STACK, text, len, "f.stack",      *|
|*                    NULL, NULL, 0, &size);             size query           *|
|*   mmptx_stub_build(..., NULL, buf, size + 1, &size);  the stub             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MMPTX_C_STUB_H
#define MMPTX_C_STUB_H

#include "mmptx-c/AstPtx.h"
#include "mmptx-c/PtxInject.h"
#include "mmptx-c/StackPtx.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The language of a program. */
typedef enum mmptx_program_kind {
  MMPTX_PROGRAM_STACK = 0, /**< Stack PTX text */
  MMPTX_PROGRAM_AST = 1    /**< AST PTX text */
} mmptx_program_kind_t;

/** Options of mmptx_stub_build; zero-initialise, then set what you need. */
typedef struct mmptx_stub_options {
  /** Stack PTX options (mmptx_stack_options_init); NULL: the defaults.
   *  Its target_sm is ignored (see target_sm below). */
  const mmptx_stack_options_t *stack;
  /** AST PTX options (mmptx_ast_default_options); NULL: the defaults. Its
   *  target_sm and instr_map are ignored. */
  const mmptx_ast_options_t *ast;
  /** Directories searched for a Stack PTX program's .include files. */
  const char *const *include_dirs;
  size_t num_include_dirs;
  /** Build for sm_N (80 = sm_80); 0: the target of the module's PTX. */
  uint32_t target_sm;
} mmptx_stub_options_t;

/** Builds the stub of inject \p inject_name of \p handle from \p program
 *  (\p program_size bytes, need not be NUL-terminated) of kind \p kind.
 *  \p program_name names it in error messages (optional: "<program>").
 *  \p options is optional (NULL: the defaults).
 *  Size query: with \p buffer NULL, stores the stub's size in bytes, NOT
 *  counting a terminating NUL, in \p *written (then required). Fill: writes
 *  the stub and a terminating NUL into \p buffer, which must hold size + 1
 *  bytes (else INSUFFICIENT_BUFFER, and \p *written still gets the size).
 *  Errors: INVALID_INPUT (NULL arguments, an unknown kind, options out of
 *  range), INJECTION_NAME_NOT_FOUND, INVALID_PROGRAM (located in the
 *  program: "name:line:col: error: ..."). */
mmptx_result_t mmptx_stub_build(const mmptx_inject_t *handle,
                                const char *inject_name,
                                mmptx_program_kind_t kind, const char *program,
                                size_t program_size, const char *program_name,
                                const mmptx_stub_options_t *options,
                                char *buffer, size_t buffer_size,
                                size_t *written);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MMPTX_C_STUB_H */
