/*===- Wire.h - C API of mmptx's wire format -----------------------*- C
-*-===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * Build, serialise and read mmptx wire messages (mmptx/Serialize/Wire.h):
 * a job set up once, programs sent many times, results sent back. Every
 * byte buffer a deserialiser is given is checked (magic, version, lengths,
 * checksum); a malformed one gives MMPTX_WIRE_MALFORMED and a message
 * naming the byte offset (mmptx_last_error()).
 *
 *   mmptx_wire_job_t *job;
 *   mmptx_wire_job_create(&job);
 *   mmptx_wire_job_set_source(job, MMPTX_WIRE_SOURCE_INJECT, "k.ptx", ptx,
 *                             strlen(ptx));
 *   mmptx_wire_job_add_register(job, "x", 0, MMPTX_WIRE_REG_IN);
 *   size_t n;
 *   mmptx_wire_job_serialize(job, NULL, 0, &n);           measure
 *   void *buf = malloc(n);
 *   mmptx_wire_job_serialize(job, buf, n, &n);            fill
 *
 * Strings returned by getters live in the handle until it is destroyed or
 * changed.
 */

#ifndef MMPTX_C_WIRE_H
#define MMPTX_C_WIRE_H

#include "mmptx-c/Error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MMPTX_WIRE_SUCCESS = 0,
  MMPTX_WIRE_INVALID_ARGUMENT = 1, /* NULL pointer, index out of range */
  MMPTX_WIRE_MALFORMED = 2,        /* the bytes are not a valid message */
  MMPTX_WIRE_INSUFFICIENT_BUFFER = 3
} mmptx_wire_result_t;

typedef enum {
  MMPTX_WIRE_SOURCE_NONE = 0,
  MMPTX_WIRE_SOURCE_PTX = 1,
  MMPTX_WIRE_SOURCE_INJECT = 2
} mmptx_wire_source_kind_t;

/* The kinds of mmptx-c/PtxInject.h's variables. */
typedef enum {
  MMPTX_WIRE_REG_OUT = 0,
  MMPTX_WIRE_REG_MOD = 1,
  MMPTX_WIRE_REG_IN = 2
} mmptx_wire_reg_kind_t;

typedef enum {
  MMPTX_WIRE_PROGRAM_STACK = 1,
  MMPTX_WIRE_PROGRAM_AST = 2,
  MMPTX_WIRE_PROGRAM_STUB = 3,
  MMPTX_WIRE_PROGRAM_PTX = 4
} mmptx_wire_program_kind_t;

/* Stack PTX options of a job (mmptx::stack::StackPtxOptions). */
typedef struct {
  int strict;
  int zero_unsatisfied;
  uint32_t stack_size;
  uint32_t max_nodes;
  uint32_t max_frame_depth;
  uint32_t store_size;
  uint64_t execution_limit;
  uint32_t target_sm;
} mmptx_wire_stack_options_t;

typedef struct mmptx_wire_job mmptx_wire_job_t;
typedef struct mmptx_wire_programs mmptx_wire_programs_t;
typedef struct mmptx_wire_results mmptx_wire_results_t;

/*===-- Jobs --------------------------------------------------------------===*/

/* An empty job: no source, the default instruction set, default options. */
mmptx_wire_result_t mmptx_wire_job_create(mmptx_wire_job_t **job);
void mmptx_wire_job_destroy(mmptx_wire_job_t *job);
mmptx_wire_result_t mmptx_wire_job_set_source(mmptx_wire_job_t *job,
                                              mmptx_wire_source_kind_t kind,
                                              const char *name,
                                              const char *text, size_t size);
mmptx_wire_result_t
mmptx_wire_job_set_stack_options(mmptx_wire_job_t *job,
                                 const mmptx_wire_stack_options_t *options);
mmptx_wire_result_t mmptx_wire_job_add_register(mmptx_wire_job_t *job,
                                                const char *name,
                                                uint16_t stack,
                                                mmptx_wire_reg_kind_t kind);
/* Appends one request list (register indices), for the next inject. */
mmptx_wire_result_t mmptx_wire_job_add_requests(mmptx_wire_job_t *job,
                                                const uint32_t *indices,
                                                size_t count);
mmptx_wire_result_t mmptx_wire_job_set_target(mmptx_wire_job_t *job,
                                              const char *target);
mmptx_wire_result_t mmptx_wire_job_set_backend(mmptx_wire_job_t *job,
                                               const char *backend,
                                               const char *const *options,
                                               size_t num_options);
/* Sets metadata key to value (size bytes); a key set again takes the new
 * value in its old place. */
mmptx_wire_result_t mmptx_wire_job_set_metadata(mmptx_wire_job_t *job,
                                                const char *key,
                                                const char *value, size_t size);

/* buffer NULL: *written is the message's size. Else the message is written
 * if it fits in size bytes (else INSUFFICIENT_BUFFER). */
mmptx_wire_result_t mmptx_wire_job_serialize(const mmptx_wire_job_t *job,
                                             void *buffer, size_t size,
                                             size_t *written);
mmptx_wire_result_t mmptx_wire_job_deserialize(const void *bytes, size_t size,
                                               mmptx_wire_job_t **job);

mmptx_wire_result_t mmptx_wire_job_source(const mmptx_wire_job_t *job,
                                          mmptx_wire_source_kind_t *kind,
                                          const char **name, const char **text,
                                          size_t *size);
mmptx_wire_result_t
mmptx_wire_job_stack_options(const mmptx_wire_job_t *job,
                             mmptx_wire_stack_options_t *options);
/* 1 if the job uses the reader's default instruction set. */
int mmptx_wire_job_has_default_instruction_set(const mmptx_wire_job_t *job);
size_t mmptx_wire_job_num_registers(const mmptx_wire_job_t *job);
mmptx_wire_result_t mmptx_wire_job_register(const mmptx_wire_job_t *job,
                                            size_t index, const char **name,
                                            uint16_t *stack,
                                            mmptx_wire_reg_kind_t *kind);
size_t mmptx_wire_job_num_request_lists(const mmptx_wire_job_t *job);
mmptx_wire_result_t mmptx_wire_job_requests(const mmptx_wire_job_t *job,
                                            size_t index,
                                            const uint32_t **indices,
                                            size_t *count);
/* "" if unset. */
const char *mmptx_wire_job_target(const mmptx_wire_job_t *job);
const char *mmptx_wire_job_backend(const mmptx_wire_job_t *job);
size_t mmptx_wire_job_num_metadata(const mmptx_wire_job_t *job);
/* The index-th metadata entry, in the order it was set or read. */
mmptx_wire_result_t mmptx_wire_job_metadata(const mmptx_wire_job_t *job,
                                            size_t index, const char **key,
                                            const char **value, size_t *size);

/*===-- Programs ----------------------------------------------------------===*/

mmptx_wire_result_t mmptx_wire_programs_create(mmptx_wire_programs_t **batch);
void mmptx_wire_programs_destroy(mmptx_wire_programs_t *batch);
/* Starts a variant; programs added next belong to it. */
mmptx_wire_result_t mmptx_wire_programs_add_variant(mmptx_wire_programs_t *b,
                                                    uint64_t id);
/* Adds a program of words (STACK or AST) for inject `inject` to the last
 * variant. */
mmptx_wire_result_t
mmptx_wire_programs_add_words(mmptx_wire_programs_t *b,
                              mmptx_wire_program_kind_t kind, uint32_t inject,
                              const uint64_t *words, size_t num_words);
/* Adds a routine to the last program. */
mmptx_wire_result_t mmptx_wire_programs_add_routine(mmptx_wire_programs_t *b,
                                                    const uint64_t *words,
                                                    size_t num_words);
/* Adds a STUB or PTX program to the last variant. */
mmptx_wire_result_t mmptx_wire_programs_add_text(mmptx_wire_programs_t *b,
                                                 mmptx_wire_program_kind_t kind,
                                                 uint32_t inject,
                                                 const char *text, size_t size);
mmptx_wire_result_t
mmptx_wire_programs_serialize(const mmptx_wire_programs_t *b, void *buffer,
                              size_t size, size_t *written);
mmptx_wire_result_t mmptx_wire_programs_deserialize(const void *bytes,
                                                    size_t size,
                                                    mmptx_wire_programs_t **b);
size_t mmptx_wire_programs_num_variants(const mmptx_wire_programs_t *b);
mmptx_wire_result_t mmptx_wire_programs_variant(const mmptx_wire_programs_t *b,
                                                size_t variant, uint64_t *id,
                                                size_t *num_programs);
/* Program `program` of a variant: its words, or its text (size 0 if none);
 * num_routines may be NULL. */
mmptx_wire_result_t
mmptx_wire_programs_program(const mmptx_wire_programs_t *b, size_t variant,
                            size_t program, mmptx_wire_program_kind_t *kind,
                            uint32_t *inject, const uint64_t **words,
                            size_t *num_words, const char **text,
                            size_t *text_size, size_t *num_routines);

/*===-- Results -----------------------------------------------------------===*/

mmptx_wire_result_t mmptx_wire_results_create(mmptx_wire_results_t **r);
void mmptx_wire_results_destroy(mmptx_wire_results_t *r);
/* Appends a result; cubin may be NULL when size is 0. */
mmptx_wire_result_t mmptx_wire_results_add(mmptx_wire_results_t *r, uint64_t id,
                                           int ok, const void *cubin,
                                           size_t size, const char *backend,
                                           const char *backend_version);
/* Appends a located error (file may be NULL) to the last result. */
mmptx_wire_result_t
mmptx_wire_results_add_error(mmptx_wire_results_t *r, const char *message,
                             const char *file, uint32_t line, uint32_t column);
/* Appends a stub (one per inject) to the last result. */
mmptx_wire_result_t mmptx_wire_results_add_stub(mmptx_wire_results_t *r,
                                                const char *stub);
mmptx_wire_result_t mmptx_wire_results_serialize(const mmptx_wire_results_t *r,
                                                 void *buffer, size_t size,
                                                 size_t *written);
mmptx_wire_result_t mmptx_wire_results_deserialize(const void *bytes,
                                                   size_t size,
                                                   mmptx_wire_results_t **r);
size_t mmptx_wire_results_count(const mmptx_wire_results_t *r);
mmptx_wire_result_t mmptx_wire_results_get(
    const mmptx_wire_results_t *r, size_t index, uint64_t *id, int *ok,
    const void **cubin, size_t *cubin_size, const char **backend,
    const char **backend_version, size_t *num_errors, size_t *num_stubs);
mmptx_wire_result_t mmptx_wire_results_error(const mmptx_wire_results_t *r,
                                             size_t index, size_t error,
                                             const char **message,
                                             const char **file, uint32_t *line,
                                             uint32_t *column);
mmptx_wire_result_t mmptx_wire_results_stub(const mmptx_wire_results_t *r,
                                            size_t index, size_t stub,
                                            const char **text);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MMPTX_C_WIRE_H */
