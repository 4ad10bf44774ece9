/*===- StackPtx.h - C API of the Stack PTX compiler ---------------*- C -*-===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * C99 interface to the Stack PTX compiler (mmptx/Stack/StackCompiler.h) for
 * embedding in other compilers and languages. Link with MMPTXStackCAPI.
 *
 *   mmptx_stack_context_t *ctx;
 *   mmptx_stack_context_create(NULL, NULL, &ctx);      default tables/options
 *   size_t n;
 *   mmptx_stack_result_t r = mmptx_stack_compile(ctx, words, nwords, NULL, 0,
 *                                            regs, nregs, reqs, nreqs,
 *                                            buf, sizeof buf, &n);
 *   if (r == MMPTX_STACK_ERROR_INSUFFICIENT_BUFFER)     n is the exact size
 *     ... mmptx_stack_last_output(ctx, &text, &n) has the text already:
 *         there is no second compile.
 *   mmptx_stack_context_destroy(ctx);
 *
 * Word layout: a uint64_t = type | aux << 16 | payload << 32 (in memory,
 * little-endian: {u16 type, u16 aux, u32 payload}). Tables for the default
 * instruction set and per-instruction encoders are in the generated header
 * "mmptx-c/StackTables.h" (mmptx-tblgen -gen-stack-c-header); a user's .td
 * file gives the same header for their own set.
 *
 * Every input is checked: NULL pointers with non-zero counts, register
 * names that are not PTX identifiers, stack indices, request indices and
 * tables give an error code, never undefined behaviour. Invalid words are
 * no-ops unless options.strict is set; with options.target_sm, so are words
 * that need a newer target. A context is not thread-safe; use one per
 * thread. Errors follow mmptx-c/Error.h: every call records its message for
 * the calling thread (mmptx_last_error()).
 */

#ifndef MMPTX_C_STACKPTX_H
#define MMPTX_C_STACKPTX_H

#include "mmptx-c/Error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mmptx_stack_result {
  MMPTX_STACK_SUCCESS = 0,
  MMPTX_STACK_ERROR_INVALID_ARGUMENT = 1, /* NULL pointer, bad count/option */
  MMPTX_STACK_ERROR_INVALID_TABLES = 2,   /* the tables fail verification */
  MMPTX_STACK_ERROR_INVALID_REGISTER = 3, /* bad/repeated name, stack, kind */
  MMPTX_STACK_ERROR_INVALID_REQUEST = 4,  /* out of range, or an IN register */
  MMPTX_STACK_ERROR_INVALID_WORD = 5,     /* strict mode only */
  MMPTX_STACK_ERROR_INSUFFICIENT_BUFFER = 6,
  MMPTX_STACK_ERROR_OUT_OF_MEMORY = 7,
  MMPTX_STACK_RESULT_NUM = 8
} mmptx_stack_result_t;

/* Word types (bits 0..15 of a word). */
enum {
  MMPTX_STACK_WORD_NONE = 0,
  MMPTX_STACK_WORD_PTX = 1,
  MMPTX_STACK_WORD_CONSTANT = 2,
  MMPTX_STACK_WORD_INPUT = 3,
  MMPTX_STACK_WORD_SPECIAL = 4,
  MMPTX_STACK_WORD_META = 5,
  MMPTX_STACK_WORD_META_CONSTANT = 6,
  MMPTX_STACK_WORD_ROUTINE = 7,
  MMPTX_STACK_WORD_RETURN = 10,
  MMPTX_STACK_WORD_STORE = 11,
  MMPTX_STACK_WORD_LOAD = 12
};

/* Meta opcodes (payload of a META word). */
typedef enum mmptx_stack_meta_op {
  MMPTX_STACK_META_DUP = 0,
  MMPTX_STACK_META_YANK_DUP = 1,
  MMPTX_STACK_META_SWAP = 2,
  MMPTX_STACK_META_SWAP_WITH = 3,
  MMPTX_STACK_META_REPLACE = 4,
  MMPTX_STACK_META_DROP = 5,
  MMPTX_STACK_META_CLEAR = 6,
  MMPTX_STACK_META_ROTATE = 7,
  MMPTX_STACK_META_REVERSE = 8
} mmptx_stack_meta_op_t;

static inline uint64_t mmptx_stack_make_word(uint16_t type, uint16_t aux,
                                             uint32_t payload) {
  return (uint64_t)type | ((uint64_t)aux << 16) | ((uint64_t)payload << 32);
}
static inline uint64_t mmptx_stack_encode_ptx(uint32_t instr) {
  return mmptx_stack_make_word(MMPTX_STACK_WORD_PTX, 0, instr);
}
static inline uint64_t mmptx_stack_encode_special(uint32_t special) {
  return mmptx_stack_make_word(MMPTX_STACK_WORD_SPECIAL, 0, special);
}
static inline uint64_t mmptx_stack_encode_constant(uint16_t stack,
                                                   uint32_t bits) {
  return mmptx_stack_make_word(MMPTX_STACK_WORD_CONSTANT, stack, bits);
}
static inline uint64_t mmptx_stack_encode_input(uint32_t reg) {
  return mmptx_stack_make_word(MMPTX_STACK_WORD_INPUT, 0, reg);
}
static inline uint64_t mmptx_stack_encode_meta(uint16_t stack,
                                               mmptx_stack_meta_op_t op) {
  return mmptx_stack_make_word(MMPTX_STACK_WORD_META, stack, (uint32_t)op);
}
static inline uint64_t mmptx_stack_encode_meta_constant(uint32_t value) {
  return mmptx_stack_make_word(MMPTX_STACK_WORD_META_CONSTANT, 0, value);
}
static inline uint64_t mmptx_stack_encode_routine(uint32_t routine) {
  return mmptx_stack_make_word(MMPTX_STACK_WORD_ROUTINE, 0, routine);
}
static inline uint64_t mmptx_stack_encode_store(uint16_t stack, uint32_t slot) {
  return mmptx_stack_make_word(MMPTX_STACK_WORD_STORE, stack, slot);
}
static inline uint64_t mmptx_stack_encode_load(uint32_t slot) {
  return mmptx_stack_make_word(MMPTX_STACK_WORD_LOAD, 0, slot);
}
static inline uint64_t mmptx_stack_encode_return(void) {
  return mmptx_stack_make_word(MMPTX_STACK_WORD_RETURN, 0, 0);
}

/* Tables (layouts match mmptx::stack::StackInfo). */
typedef struct mmptx_stack_arg_type_info {
  uint16_t stack_idx;
  uint16_t num_vec_elems; /* 0 = scalar */
} mmptx_stack_arg_type_info_t;

typedef struct mmptx_stack_instr_desc {
  uint16_t args[4];
  uint16_t rets[2];
  uint16_t num_args;
  uint16_t num_rets;
} mmptx_stack_instr_desc_t;

typedef struct mmptx_stack_special_desc {
  uint16_t arg_type;
} mmptx_stack_special_desc_t;

typedef struct mmptx_stack_tables {
  uint32_t num_stacks;
  const char *const *stack_names;
  const char *const *literal_prefixes;
  uint32_t num_arg_types;
  const mmptx_stack_arg_type_info_t *arg_types;
  const char *const *arg_type_names;
  uint32_t num_instrs;
  const mmptx_stack_instr_desc_t *instrs;
  const char *const *instr_ptx;
  const char *const *instr_names;
  uint32_t num_specials;
  const mmptx_stack_special_desc_t *specials;
  const char *const *special_ptx;
  const char *const *special_names;
  const uint8_t *inline_literals; /* may be NULL */
  /* Lowest sm_XX target per instruction / special register, 0 = any; NULL
   * = all 0. Checked against mmptx_stack_options_t.target_sm. */
  const uint16_t *instr_min_sm;
  const uint16_t *special_min_sm;
} mmptx_stack_tables_t;

typedef enum mmptx_stack_reg_kind {
  MMPTX_STACK_REG_IN = 0,
  MMPTX_STACK_REG_OUT = 1, /* zero when its request cannot be satisfied */
  MMPTX_STACK_REG_MOD = 2  /* unchanged when its request cannot be met */
} mmptx_stack_reg_kind_t;

typedef struct mmptx_stack_register {
  const char *name; /* bare PTX identifier, printed as %name */
  uint16_t stack_idx;
  uint16_t kind; /* mmptx_stack_reg_kind_t */
} mmptx_stack_register_t;

typedef struct mmptx_stack_routine {
  const uint64_t *words;
  size_t num_words;
} mmptx_stack_routine_t;

/* The bounds of the size options (mmptx::stack::StackPtxBounds). */
#define MMPTX_STACK_MAX_STACK_SIZE (1u << 20)
#define MMPTX_STACK_MAX_NODES (1u << 24)
#define MMPTX_STACK_MAX_FRAME_DEPTH (1u << 20)
#define MMPTX_STACK_MAX_STORE_SIZE (1u << 20)
#define MMPTX_STACK_MAX_EXECUTION_LIMIT ((uint64_t)1 << 32)

typedef struct mmptx_stack_options {
  int strict;           /* invalid words are errors, not no-ops */
  int zero_unsatisfied; /* zero unsatisfied OUT requests (default 1) */
  /* Size limits; mmptx_stack_context_create refuses (INVALID_ARGUMENT) a
   * value above its bound (MMPTX_STACK_MAX_*), before allocating anything
   * for it. */
  uint32_t stack_size;      /* values per stack (default 128; 1 .. 2^20) */
  uint32_t max_nodes;       /* DAG nodes (default 65536; 1 .. 2^24) */
  uint32_t max_frame_depth; /* frames incl. main (default 8; 0 .. 2^20) */
  uint32_t store_size;      /* store slots (default 32; 0 .. 2^20) */
  uint64_t execution_limit; /* executed words (default 2^20; 0 .. 2^32) */
  /* The sm_XX the stub is for (80 = sm_80), 0 (default) = any: words
   * whose instruction or special register needs a newer target are invalid
   * (no-ops, or errors in strict mode). Last, so the other fields keep
   * their offsets. */
  uint32_t target_sm;
} mmptx_stack_options_t;

typedef struct mmptx_stack_stats {
  uint64_t executed_words;
  uint32_t num_nodes;
  uint32_t emitted_instrs;
  uint32_t ignored_words;
  uint32_t no_op_words;
  uint32_t dropped_pushes;
  uint32_t refused_calls;
  uint32_t unsatisfied_requests;
  uint32_t zeroed_requests;
  int hit_execution_limit;
  int hit_node_limit;
} mmptx_stack_stats_t;

typedef struct mmptx_stack_context mmptx_stack_context_t;

/* Fills *options with the defaults. */
void mmptx_stack_options_init(mmptx_stack_options_t *options);

/* The tables of the default instruction set (td/StackInstrs.td). */
const mmptx_stack_tables_t *mmptx_stack_default_tables(void);

/* The instructions of tables (NULL = default tables) in the vocabulary
 * called name: "all", or "fast-compile" (ftz forms, no IEEE-rounded
 * div/sqrt/rcp, no integer division: what assembles fastest). Writes up to
 * capacity indices (PTX word payloads) to indices (NULL if capacity is 0)
 * and the number of instructions in the vocabulary to *count; an unknown
 * name is INVALID_ARGUMENT (mmptx_last_error() lists the names). */
mmptx_stack_result_t mmptx_stack_vocabulary(const mmptx_stack_tables_t *tables,
                                            const char *name, uint32_t *indices,
                                            size_t capacity, size_t *count);

/* Creates a context. tables NULL = default tables (which must outlive the
 * context otherwise); options NULL = defaults. */
mmptx_stack_result_t
mmptx_stack_context_create(const mmptx_stack_tables_t *tables,
                           const mmptx_stack_options_t *options,
                           mmptx_stack_context_t **context);
void mmptx_stack_context_destroy(mmptx_stack_context_t *context);

/* Compiles once. On SUCCESS the NUL-terminated stub is in buffer and
 * *written is its length without the NUL. If buffer is NULL or
 * buffer_size <= *written, returns INSUFFICIENT_BUFFER with the exact
 * length in *written; the text stays available through
 * mmptx_stack_last_output until the next compile. */
mmptx_stack_result_t mmptx_stack_compile(
    mmptx_stack_context_t *context, const uint64_t *words, size_t num_words,
    const mmptx_stack_routine_t *routines, size_t num_routines,
    const mmptx_stack_register_t *registers, size_t num_registers,
    const uint32_t *requests, size_t num_requests, char *buffer,
    size_t buffer_size, size_t *written);

/* The text of the last successful compile (NUL-terminated). */
mmptx_stack_result_t mmptx_stack_last_output(mmptx_stack_context_t *context,
                                             const char **text, size_t *length);

/* The message of the last compile on this context ("" if it succeeded, or
 * none ran), or of a failed create, which has no context:
 * mmptx_last_error(). */
const char *mmptx_stack_last_error(mmptx_stack_context_t *context);

/* The statistics of the last compile. */
mmptx_stack_result_t mmptx_stack_get_stats(mmptx_stack_context_t *context,
                                           mmptx_stack_stats_t *stats);

/* "MMPTX_STACK_SUCCESS", ...; "MMPTX_STACK_ERROR_INVALID_RESULT_ENUM" for
 * values out of range. */
const char *mmptx_stack_result_to_string(mmptx_stack_result_t result);

#ifdef __cplusplus
}
#endif

#endif /* MMPTX_C_STACKPTX_H */
