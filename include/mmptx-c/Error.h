/*===- Error.h - The error convention of the mmptx C APIs ---------*- C -*-===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * One convention for every mmptx C API (PtxInject.h, StackPtx.h, AstPtx.h,
 * Backend.h):
 *
 *  - A function that can fail returns its API's result code; 0 is success
 *    in every API (MMPTX_SUCCESS, MMPTX_STACK_SUCCESS, ...).
 *  - Every call that returns a result code records a message for the
 *    calling thread: why it failed, or "" when it succeeded.
 *    mmptx_last_error() returns that message; it stays valid until the
 *    thread's next mmptx call. Threads never see each other's messages, so
 *    threads that each use their own handles need no locking to report
 *    errors.
 *  - The per-API names (mmptx_inject_last_error, mmptx_backend_last_error)
 *    return the same message; the per-context ones (mmptx_stack_last_error,
 *    mmptx_ast_last_error) return the message of the last failed call on
 *    that context, which later calls on other handles leave alone.
 *
 *   if (mmptx_stack_compile(ctx, ...) != MMPTX_STACK_SUCCESS)
 *     fprintf(stderr, "error: %s\n", mmptx_last_error());
 */

#ifndef MMPTX_C_ERROR_H
#define MMPTX_C_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* The message of the calling thread's last mmptx call ("" if it
 * succeeded); NUL-terminated, never NULL. */
const char *mmptx_last_error(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MMPTX_C_ERROR_H */
