/*===- AstPtx.h - C API of the AST PTX compiler -------------------*- C -*-===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * C99 interface to the AST PTX compiler (mmptx/Ast/AstPtx.h). Link with
 * MMPTXAstCAPI.
 *
 *   mmptx_ast_context_t *ctx;
 *   mmptx_ast_context_create(NULL, NULL, &ctx);     default tables/options
 *   mmptx_ast_variable_t in[] = {{"x", 0}, {"y", 0}};
 *   mmptx_ast_output_t out[] = {{{"z", 0}, words, nwords}};
 *   size_t n;
 *   mmptx_ast_result_t r = mmptx_ast_compile(ctx, in, 2, out, 1, NULL, 0,
 *                                            buf, sizeof buf, &n);
 *   if (r == MMPTX_AST_ERROR_INSUFFICIENT_BUFFER)   n is the exact size
 *     ... mmptx_ast_last_output(ctx, &text, &n) has the text already.
 *   else if (r != MMPTX_AST_SUCCESS)
 *     puts(mmptx_ast_last_error(ctx));             names the word
 *   mmptx_ast_context_destroy(ctx);
 *
 * Word layout: a uint64_t = type | aux << 16 | payload << 32 (in memory,
 * little-endian: {u16 type, u16 aux, u32 payload}), the reference's AST
 * PTX 0.1 word; see the encoders below. PTX word payloads are instruction
 * indices of the tables ("mmptx-c/StackTables.h" for the default set), or
 * indices into options.instr_map when one is given (the reference's
 * 18-instruction catalogue: mmptx_ast_reference_instr_map()).
 *
 * Result codes 0-13 are the reference's AST PTX codes. Every input is
 * checked: NULL pointers with non-zero counts, names that are not PTX
 * identifiers, stack indices, options and tables give an error code, never
 * undefined behaviour. A context is not thread-safe; use one per thread.
 * Errors follow mmptx-c/Error.h: every call records its message for the
 * calling thread (mmptx_last_error()).
 */

#ifndef MMPTX_C_ASTPTX_H
#define MMPTX_C_ASTPTX_H

#include "mmptx-c/StackPtx.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mmptx_ast_result {
  MMPTX_AST_SUCCESS = 0,
  MMPTX_AST_ERROR_INTERNAL = 1,
  MMPTX_AST_ERROR_INSUFFICIENT_BUFFER = 2,
  MMPTX_AST_ERROR_INVALID_VALUE = 3, /* NULL pointer, bad option/name/count,
                                        arity, values left at RETURN */
  MMPTX_AST_ERROR_BAD_INSTRUCTION_MAYBE_FORGOT_RETURN = 4,
  MMPTX_AST_ERROR_INPUT_IDX_OUT_OF_BOUNDS = 5,
  MMPTX_AST_ERROR_PTX_INSTRUCTION_IDX_OUT_OF_BOUNDS = 6,
  MMPTX_AST_ERROR_STACK_OVERFLOW = 7,
  MMPTX_AST_ERROR_STACK_UNDERFLOW = 8,
  MMPTX_AST_ERROR_TOO_MANY_ARGS = 9,
  MMPTX_AST_ERROR_UNSUPPORTED_INSTRUCTION = 10,
  MMPTX_AST_ERROR_ROUTINE_IDX_OUT_OF_BOUNDS = 11,
  MMPTX_AST_ERROR_ROUTINE_ARG_IDX_OUT_OF_BOUNDS = 12,
  MMPTX_AST_ERROR_ROUTINE_DEPTH_EXCEEDED = 13,
  MMPTX_AST_ERROR_TYPE_MISMATCH = 14,
  MMPTX_AST_ERROR_SPECIAL_REGISTER_IDX_OUT_OF_BOUNDS = 15,
  MMPTX_AST_ERROR_STACK_IDX_OUT_OF_BOUNDS = 16,
  MMPTX_AST_ERROR_LIMIT_EXCEEDED = 17,
  MMPTX_AST_RESULT_NUM = 18
} mmptx_ast_result_t;

/* Word types (bits 0..15 of a word). */
enum {
  MMPTX_AST_WORD_NONE = 0,
  MMPTX_AST_WORD_INPUT = 1,
  MMPTX_AST_WORD_CONSTANT = 2,
  MMPTX_AST_WORD_PTX = 3,
  MMPTX_AST_WORD_ROUTINE = 4,
  MMPTX_AST_WORD_RETURN = 5,
  MMPTX_AST_WORD_ROUTINE_ARG = 6,
  MMPTX_AST_WORD_SPECIAL = 8
};

static inline uint64_t mmptx_ast_make_word(uint16_t type, uint16_t aux,
                                           uint32_t payload) {
  return (uint64_t)type | ((uint64_t)aux << 16) | ((uint64_t)payload << 32);
}
static inline uint64_t mmptx_ast_encode_input(uint32_t idx) {
  return mmptx_ast_make_word(MMPTX_AST_WORD_INPUT, 0, idx);
}
/* A constant on stack `stack` (0 = F32 in the default set); `bits` is the
 * 32-bit payload (an f32 on f32/f64 stacks). */
static inline uint64_t mmptx_ast_encode_constant_bits(uint16_t stack,
                                                      uint32_t bits) {
  return mmptx_ast_make_word(MMPTX_AST_WORD_CONSTANT, stack, bits);
}
static inline uint64_t mmptx_ast_encode_constant_f32(float f) {
  union {
    float f;
    uint32_t u;
  } b;
  b.f = f;
  return mmptx_ast_encode_constant_bits(0, b.u);
}
static inline uint64_t mmptx_ast_encode_ptx(uint32_t instr, uint16_t num_args) {
  return mmptx_ast_make_word(MMPTX_AST_WORD_PTX, num_args, instr);
}
static inline uint64_t mmptx_ast_encode_routine(uint32_t routine,
                                                uint16_t num_args) {
  return mmptx_ast_make_word(MMPTX_AST_WORD_ROUTINE, num_args, routine);
}
static inline uint64_t mmptx_ast_encode_routine_arg(uint32_t idx) {
  return mmptx_ast_make_word(MMPTX_AST_WORD_ROUTINE_ARG, 0, idx);
}
static inline uint64_t mmptx_ast_encode_special(uint32_t special,
                                                uint16_t elem) {
  return mmptx_ast_make_word(MMPTX_AST_WORD_SPECIAL, elem, special);
}
static inline uint64_t mmptx_ast_encode_return(void) {
  return mmptx_ast_make_word(MMPTX_AST_WORD_RETURN, 0, 0);
}

typedef struct mmptx_ast_context mmptx_ast_context_t;

/* Limits (defaults: the reference's); any value may be given, memory grows
 * only with the program. */
typedef struct mmptx_ast_options {
  uint32_t max_stack_depth;    /* values on the stack (256) */
  uint32_t max_routine_depth;  /* nested routine calls (8) */
  uint32_t max_words;          /* words before RETURN (65536) */
  uint32_t max_args;           /* operands / routine arguments (4) */
  uint64_t max_executed_words; /* words run, calls included (2^24) */
  int share_subexpressions;    /* compute equal sub-expressions once (1) */
  uint32_t target_sm;          /* sm_XX of the stub, 0 = any */
  const uint32_t *instr_map;   /* PTX word payload -> instruction, or NULL */
  size_t num_instr_map;
} mmptx_ast_options_t;

typedef struct mmptx_ast_variable {
  const char *name;   /* bare PTX identifier, printed as %name */
  uint16_t stack_idx; /* the stack of its value */
} mmptx_ast_variable_t;

typedef struct mmptx_ast_output {
  mmptx_ast_variable_t var; /* the variable written */
  const uint64_t *words;    /* its expression, ending at RETURN */
  size_t num_words;
} mmptx_ast_output_t;

typedef struct mmptx_ast_routine {
  const uint64_t *words; /* ending at RETURN */
  size_t num_words;
} mmptx_ast_routine_t;

/* The defaults. */
mmptx_ast_options_t mmptx_ast_default_options(void);

/* The reference's AST catalogue (0 copysign.f32 ... 17 tanh.approx.f32) as
 * an instr_map for the default tables; *count receives 18. */
const uint32_t *mmptx_ast_reference_instr_map(size_t *count);

/* tables == NULL: the default instruction set (the tables must outlive the
 * context; instr_map is copied). options == NULL: the defaults. */
mmptx_ast_result_t mmptx_ast_context_create(const mmptx_stack_tables_t *tables,
                                            const mmptx_ast_options_t *options,
                                            mmptx_ast_context_t **context);

void mmptx_ast_context_destroy(mmptx_ast_context_t *context);

/* Compiles one expression per output; INPUT i reads inputs[i]. On success
 * the stub and a NUL are in buffer and *written is the stub's length. If
 * the buffer is NULL or too small, returns INSUFFICIENT_BUFFER with
 * *written set to the length (keep the text with mmptx_ast_last_output). */
mmptx_ast_result_t
mmptx_ast_compile(mmptx_ast_context_t *context,
                  const mmptx_ast_variable_t *inputs, size_t num_inputs,
                  const mmptx_ast_output_t *outputs, size_t num_outputs,
                  const mmptx_ast_routine_t *routines, size_t num_routines,
                  char *buffer, size_t buffer_size, size_t *written);

/* The stub of the last successful compile (NUL-terminated). */
mmptx_ast_result_t mmptx_ast_last_output(mmptx_ast_context_t *context,
                                         const char **text, size_t *length);

/* Runs the program on the CPU: values[i] is input i's bit pattern (f32 in
 * the low 32 bits, ...); results receives one value per output. */
mmptx_ast_result_t
mmptx_ast_interpret(mmptx_ast_context_t *context,
                    const mmptx_ast_variable_t *inputs, size_t num_inputs,
                    const uint64_t *values, const mmptx_ast_output_t *outputs,
                    size_t num_outputs, const mmptx_ast_routine_t *routines,
                    size_t num_routines, uint64_t *results);

/* The message of the last compile or interpret on this context ("" if it
 * succeeded, or none ran): which word and why. */
const char *mmptx_ast_last_error(mmptx_ast_context_t *context);

/* "MMPTX_AST_SUCCESS", ..., or "MMPTX_AST_ERROR_INVALID_RESULT_ENUM". */
const char *mmptx_ast_result_to_string(mmptx_ast_result_t result);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MMPTX_C_ASTPTX_H */
