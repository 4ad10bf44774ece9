/*===- PtxInject.h - C API of PTX Inject --------------------------*- C -*-===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* C99 interface to mmptx::InjectModule: find the inject sites of compiled    *|
|* PTX, query their variables, and render the PTX with one stub per inject.   *|
|*                                                                            *|
|* Conventions:                                                               *|
|*  - Every function returns an mmptx_result_t and checks all its inputs:     *|
|*    NULL pointers, counts and indices. Out-parameters marked "optional"     *|
|*    may be NULL.                                                            *|
|*  - Strings returned by queries live inside the handle and stay valid until *|
|*    mmptx_inject_destroy.                                                   *|
|*  - A handle is read-only after creation: any number of threads may query   *|
|*    and render from one handle at once.                                     *|
|*  - Sizes never include a terminating NUL.                                  *|
|*  - Errors follow mmptx-c/Error.h: every call records its message for the *|
|*    calling thread (mmptx_last_error(), "" on success).                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MMPTX_C_PTXINJECT_H
#define MMPTX_C_PTXINJECT_H

#include "mmptx-c/Error.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Result codes; the values of the first twelve match mm-ptx's. */
typedef enum mmptx_result {
  MMPTX_SUCCESS = 0,
  /** Malformed inject markers (create). */
  MMPTX_ERROR_FORMATTING = 1,
  /** The output buffer is smaller than the rendered size. */
  MMPTX_ERROR_INSUFFICIENT_BUFFER = 2,
  MMPTX_ERROR_INTERNAL = 3,
  /** A NULL pointer or an otherwise invalid argument. */
  MMPTX_ERROR_INVALID_INPUT = 4,
  /** Code 5 (the reference's unique-inject limit) is never returned. */
  MMPTX_ERROR_RESERVED_5 = 5,
  /** The stub count differs from the number of injects. */
  MMPTX_ERROR_WRONG_NUM_STUBS = 6,
  /** An inject or variable index is out of range. */
  MMPTX_ERROR_OUT_OF_BOUNDS_IDX = 7,
  /** Two sites of one inject disagree (create). */
  MMPTX_ERROR_INCONSISTENT_INJECTION = 8,
  MMPTX_ERROR_INJECTION_NAME_NOT_FOUND = 9,
  MMPTX_ERROR_INJECTION_ARG_NAME_NOT_FOUND = 10,
  MMPTX_ERROR_OUT_OF_MEMORY = 11,
  /** A marker names a type that is neither built in nor given (create). */
  MMPTX_ERROR_UNKNOWN_TYPE = 12,
  /** The text is not well-formed PTX (create). */
  MMPTX_ERROR_INVALID_PTX = 13,
  /** A site is outside any function, its scaffold does not declare, set or
   *  read back its registers, or a legacy site's compiler registers are
   *  undeclared, of the wrong type or shared by written variables
   *  (create). */
  MMPTX_ERROR_INVALID_SITE = 14,
  /** A stub is not PTX that can stand inside a function body (render). */
  MMPTX_ERROR_INVALID_STUB = 15,
  /** A program does not compile into a stub of its inject: a syntax error,
   *  a register that is no variable of the inject or of the wrong type or
   *  kind (mmptx_stub_build). */
  MMPTX_ERROR_INVALID_PROGRAM = 16,
  MMPTX_RESULT_NUM_CODES = 17
} mmptx_result_t;

/** How a stub uses a variable; values as mm-ptx's mutation kinds. */
typedef enum mmptx_arg_kind {
  MMPTX_ARG_OUT = 0,
  MMPTX_ARG_MOD = 1,
  MMPTX_ARG_IN = 2
} mmptx_arg_kind_t;

/** Opaque handle. */
typedef struct mmptx_inject mmptx_inject_t;

/** A user inject type, accepted in addition to the built-in ones. */
typedef struct mmptx_inject_type {
  const char *token;      /**< name in markers, e.g. "DOG" */
  const char *reg_type;   /**< PTX type of the stable register, e.g. "f32" */
  const char *mov_suffix; /**< suffix of the normalising mov, e.g. "f32" */
} mmptx_inject_type_t;

/** Options of mmptx_inject_create_with_options; zero-initialise, then set
 *  what you need. */
typedef struct mmptx_inject_options {
  /** Names the input in error messages; NULL means "<ptx>". */
  const char *buffer_name;
  /** User types, accepted in addition to the built-in ones. */
  const mmptx_inject_type_t *extra_types;
  size_t num_extra_types;
  /** Non-zero: accept any type token in mmptx and mm-ptx markers, trusting
   *  the marker's register type. */
  int allow_unknown_types;
  /** Non-zero: skip the structural parse and the site checks and only scan
   *  for markers. Only for PTX that mmptx produced or already checked. */
  int trusted;
} mmptx_inject_options_t;

/** \returns mmptx_last_error(): the message of this thread's last mmptx
 *  call ("" when it succeeded). */
const char *mmptx_inject_last_error(void);

/** \returns the name of \p result ("MMPTX_SUCCESS", ...), or
 *  "MMPTX_ERROR_INVALID_RESULT" for a value that is no result code. */
const char *mmptx_result_to_string(mmptx_result_t result);

/** Parses \p ptx (\p ptx_size bytes; need not be NUL-terminated) and creates
 *  a handle in \p *out. The PTX is checked as mmptx-opt checks it: the
 *  structural parse (INVALID_PTX), the markers (FORMATTING, UNKNOWN_TYPE,
 *  INCONSISTENT_INJECTION) and every site (INVALID_SITE).
 *  \p buffer_name names the input in error messages (optional).
 *  \p extra_types / \p num_extra_types: user types (optional when 0).
 *  \p error_message: optional buffer of \p error_message_size bytes that
 *  receives a NUL-terminated, possibly truncated, located message
 *  ("name:line:col: error: ...") when creation fails, or "" on success.
 *  On failure \p *out is set to NULL (when \p out is not NULL). */
mmptx_result_t mmptx_inject_create(mmptx_inject_t **out, const char *ptx,
                                   size_t ptx_size, const char *buffer_name,
                                   const mmptx_inject_type_t *extra_types,
                                   size_t num_extra_types, char *error_message,
                                   size_t error_message_size);

/** As mmptx_inject_create, with \p options (NULL: the defaults). */
mmptx_result_t mmptx_inject_create_with_options(
    mmptx_inject_t **out, const char *ptx, size_t ptx_size,
    const mmptx_inject_options_t *options, char *error_message,
    size_t error_message_size);

/** Frees \p handle; NULL is allowed. */
mmptx_result_t mmptx_inject_destroy(mmptx_inject_t *handle);

/** Stores the number of injects (distinct site names) in \p *num_injects. */
mmptx_result_t mmptx_inject_num_injects(const mmptx_inject_t *handle,
                                        size_t *num_injects);

/** Looks up inject \p name. Outputs (all optional): its index, number of
 *  variables and number of sites. */
mmptx_result_t mmptx_inject_inject_info_by_name(const mmptx_inject_t *handle,
                                                const char *name,
                                                size_t *inject_index,
                                                size_t *num_variables,
                                                size_t *num_sites);

/** Inject \p inject_index (< num_injects, else OUT_OF_BOUNDS_IDX). Outputs
 *  (all optional): name, number of variables and number of sites. */
mmptx_result_t mmptx_inject_inject_info_by_index(const mmptx_inject_t *handle,
                                                 size_t inject_index,
                                                 const char **name,
                                                 size_t *num_variables,
                                                 size_t *num_sites);

/** Looks up variable \p variable_name of inject \p inject_index. Outputs
 *  (all optional): its index, stable register without '%' ("_x0"), kind,
 *  PTX register type ("f32") and type token ("F32"). */
mmptx_result_t mmptx_inject_variable_info_by_name(
    const mmptx_inject_t *handle, size_t inject_index,
    const char *variable_name, size_t *variable_index,
    const char **stable_register, mmptx_arg_kind_t *kind, const char **reg_type,
    const char **type_token);

/** Variable \p variable_index of inject \p inject_index; both indices are
 *  checked (OUT_OF_BOUNDS_IDX). Outputs (all optional): name, stable
 *  register, kind, register type and type token. */
mmptx_result_t mmptx_inject_variable_info_by_index(
    const mmptx_inject_t *handle, size_t inject_index, size_t variable_index,
    const char **variable_name, const char **stable_register,
    mmptx_arg_kind_t *kind, const char **reg_type, const char **type_token);

/** Renders the PTX with stub \p stubs[i] (NUL-terminated) at every site of
 *  inject i. Each stub is checked first (INVALID_STUB, message located in
 *  "<stub of inject 'NAME'>"): it may hold only instructions, `.reg` and
 *  `.local` declarations, labels, comments and balanced scopes, in ASCII,
 *  and no inject markers. \p num_stubs is checked against the number of injects
 * before \p stubs is read (WRONG_NUM_STUBS), so a short array is never overrun;
 *  \p stubs may be NULL when there are no injects.
 *  Size query: with \p buffer NULL, stores the exact rendered size in bytes,
 *  NOT counting a terminating NUL, in \p *written (then required).
 *  Fill: writes the PTX and a terminating NUL into \p buffer, which must
 *  hold size + 1 bytes (else INSUFFICIENT_BUFFER, and \p *written still
 *  gets the size); \p *written (optional) receives the size without NUL. */
mmptx_result_t mmptx_inject_render(const mmptx_inject_t *handle,
                                   const char *const *stubs, size_t num_stubs,
                                   char *buffer, size_t buffer_size,
                                   size_t *written);

/** As mmptx_inject_render, without checking the stubs: only for stubs that
 *  are valid by construction (the Stack PTX compiler's). */
mmptx_result_t mmptx_inject_render_unchecked(const mmptx_inject_t *handle,
                                             const char *const *stubs,
                                             size_t num_stubs, char *buffer,
                                             size_t buffer_size,
                                             size_t *written);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MMPTX_C_PTXINJECT_H */
