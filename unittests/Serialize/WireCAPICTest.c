/*===- WireCAPICTest.c - The wire-format C API, used from C99 ------------===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* Compiled as C99; run from WireCAPITest.cpp. Returns 0 on success, else
 * the number of the failed check with a message in msg. */

#include "mmptx-c/Wire.h"

#include <stdlib.h>

#define CHECK_CLEANUP() (void)0
#define CHECK_DETAIL() mmptx_last_error()
#include "../CAPI/CAPICheck.h"

int mmptxWireCApiTest(char *msg, size_t msg_size) {
  static const char ptx[] = "// PTX_INJECT_START f\n// PTX_INJECT_END\n";
  static const uint32_t reqs[2] = {1, 0};
  static const uint64_t words[3] = {3, 0x0000000100000003ull, 10};
  static const char *const opts[2] = {"-O3", "--fmad=false"};
  mmptx_wire_job_t *job = NULL, *back = NULL;
  mmptx_wire_programs_t *progs = NULL, *progs2 = NULL;
  mmptx_wire_results_t *res = NULL, *res2 = NULL;
  mmptx_wire_stack_options_t so;
  mmptx_wire_source_kind_t kind;
  const char *name, *text;
  size_t n = 0, size = 0;
  char small[4];
  void *buf;
  uint16_t stack;
  mmptx_wire_reg_kind_t rk;
  const uint32_t *idx;
  uint64_t id;
  const uint64_t *w;
  mmptx_wire_program_kind_t pk;
  uint32_t inject, line, col;
  int ok;
  const void *cubin;
  size_t cubin_size, nerr, nstub;
  const char *backend, *version, *file;

  CHECK(1, mmptx_wire_job_create(&job) == MMPTX_WIRE_SUCCESS);
  CHECK(2, mmptx_wire_job_set_source(job, MMPTX_WIRE_SOURCE_INJECT, "k.ptx",
                                     ptx, strlen(ptx)) == MMPTX_WIRE_SUCCESS);
  CHECK(3, mmptx_wire_job_add_register(job, "x", 0, MMPTX_WIRE_REG_IN) ==
               MMPTX_WIRE_SUCCESS);
  CHECK(4, mmptx_wire_job_add_register(job, "y", 8, MMPTX_WIRE_REG_MOD) ==
               MMPTX_WIRE_SUCCESS);
  CHECK(5, mmptx_wire_job_add_requests(job, reqs, 2) == MMPTX_WIRE_SUCCESS);
  CHECK(6, mmptx_wire_job_set_target(job, "sm_80") == MMPTX_WIRE_SUCCESS);
  CHECK(7, mmptx_wire_job_set_backend(job, "ptxas", opts, 2) ==
               MMPTX_WIRE_SUCCESS);
  CHECK(8, mmptx_wire_job_stack_options(job, &so) == MMPTX_WIRE_SUCCESS);
  so.stack_size = 64;
  so.target_sm = 80;
  CHECK(9, mmptx_wire_job_set_stack_options(job, &so) == MMPTX_WIRE_SUCCESS);
  so.stack_size = 0;
  CHECK(10, mmptx_wire_job_set_stack_options(job, &so) ==
                MMPTX_WIRE_INVALID_ARGUMENT);
  CHECK(11, strstr(mmptx_last_error(), "stackSize") != NULL);
  CHECK(28, mmptx_wire_job_set_metadata(job, "prefix", "p", 1) ==
                    MMPTX_WIRE_SUCCESS &&
                mmptx_wire_job_set_metadata(job, "sites", "a\0b", 3) ==
                    MMPTX_WIRE_SUCCESS &&
                mmptx_wire_job_set_metadata(job, "prefix", "kern", 4) ==
                    MMPTX_WIRE_SUCCESS);
  CHECK(29, mmptx_wire_job_set_metadata(job, NULL, "x", 1) ==
                MMPTX_WIRE_INVALID_ARGUMENT);

  CHECK(12, mmptx_wire_job_serialize(job, NULL, 0, &n) == MMPTX_WIRE_SUCCESS);
  CHECK(13, n > 24);
  CHECK(14, mmptx_wire_job_serialize(job, small, sizeof small, &size) ==
                MMPTX_WIRE_INSUFFICIENT_BUFFER);
  buf = malloc(n);
  CHECK(15,
        mmptx_wire_job_serialize(job, buf, n, &size) == MMPTX_WIRE_SUCCESS &&
            size == n);
  CHECK(16, mmptx_wire_job_deserialize(buf, n, &back) == MMPTX_WIRE_SUCCESS);
  CHECK(17, mmptx_wire_job_source(back, &kind, &name, &text, &size) ==
                    MMPTX_WIRE_SUCCESS &&
                kind == MMPTX_WIRE_SOURCE_INJECT && !strcmp(name, "k.ptx") &&
                size == strlen(ptx) && !memcmp(text, ptx, size));
  CHECK(18, mmptx_wire_job_num_registers(back) == 2);
  CHECK(19, mmptx_wire_job_register(back, 1, &name, &stack, &rk) ==
                    MMPTX_WIRE_SUCCESS &&
                !strcmp(name, "y") && stack == 8 && rk == MMPTX_WIRE_REG_MOD);
  CHECK(20, mmptx_wire_job_register(back, 2, &name, &stack, &rk) ==
                MMPTX_WIRE_INVALID_ARGUMENT);
  CHECK(21, mmptx_wire_job_num_request_lists(back) == 1 &&
                mmptx_wire_job_requests(back, 0, &idx, &size) ==
                    MMPTX_WIRE_SUCCESS &&
                size == 2 && idx[0] == 1 && idx[1] == 0);
  CHECK(22, !strcmp(mmptx_wire_job_target(back), "sm_80") &&
                !strcmp(mmptx_wire_job_backend(back), "ptxas") &&
                mmptx_wire_job_has_default_instruction_set(back));
  CHECK(23, mmptx_wire_job_stack_options(back, &so) == MMPTX_WIRE_SUCCESS &&
                so.stack_size == 64 && so.target_sm == 80);
  /* Set again, a key keeps its place and takes the new value. */
  CHECK(60, mmptx_wire_job_num_metadata(back) == 2 &&
                mmptx_wire_job_metadata(back, 0, &name, &text, &size) ==
                    MMPTX_WIRE_SUCCESS &&
                !strcmp(name, "prefix") && size == 4 &&
                !memcmp(text, "kern", 4));
  CHECK(61, mmptx_wire_job_metadata(back, 1, &name, &text, &size) ==
                    MMPTX_WIRE_SUCCESS &&
                !strcmp(name, "sites") && size == 3 &&
                !memcmp(text, "a\0b", 3));
  CHECK(62, mmptx_wire_job_metadata(back, 2, &name, &text, &size) ==
                MMPTX_WIRE_INVALID_ARGUMENT);
  mmptx_wire_job_destroy(back);
  /* A corrupted byte is a clean error naming its offset. */
  ((char *)buf)[30] ^= 1;
  CHECK(24, mmptx_wire_job_deserialize(buf, n, &back) == MMPTX_WIRE_MALFORMED);
  CHECK(25, strstr(mmptx_last_error(), "checksum mismatch") != NULL);
  CHECK(26, mmptx_wire_job_deserialize(buf, 10, &back) == MMPTX_WIRE_MALFORMED);
  CHECK(27, strstr(mmptx_last_error(), "byte ") != NULL);
  free(buf);
  mmptx_wire_job_destroy(job);

  CHECK(30, mmptx_wire_programs_create(&progs) == MMPTX_WIRE_SUCCESS);
  CHECK(31,
        mmptx_wire_programs_add_words(progs, MMPTX_WIRE_PROGRAM_STACK, 0, words,
                                      3) == MMPTX_WIRE_INVALID_ARGUMENT);
  CHECK(32, mmptx_wire_programs_add_variant(progs, 42) == MMPTX_WIRE_SUCCESS);
  CHECK(33, mmptx_wire_programs_add_words(progs, MMPTX_WIRE_PROGRAM_STACK, 0,
                                          words, 3) == MMPTX_WIRE_SUCCESS);
  CHECK(34,
        mmptx_wire_programs_add_routine(progs, words, 1) == MMPTX_WIRE_SUCCESS);
  CHECK(35, mmptx_wire_programs_add_text(progs, MMPTX_WIRE_PROGRAM_STUB, 1,
                                         "\tret;", 5) == MMPTX_WIRE_SUCCESS);
  CHECK(36, mmptx_wire_programs_serialize(progs, NULL, 0, &n) ==
                MMPTX_WIRE_SUCCESS);
  buf = malloc(n);
  CHECK(37, mmptx_wire_programs_serialize(progs, buf, n, &size) ==
                MMPTX_WIRE_SUCCESS);
  CHECK(38,
        mmptx_wire_programs_deserialize(buf, n, &progs2) == MMPTX_WIRE_SUCCESS);
  free(buf);
  CHECK(39, mmptx_wire_programs_num_variants(progs2) == 1 &&
                mmptx_wire_programs_variant(progs2, 0, &id, &size) ==
                    MMPTX_WIRE_SUCCESS &&
                id == 42 && size == 2);
  CHECK(40,
        mmptx_wire_programs_program(progs2, 0, 0, &pk, &inject, &w, &n, &text,
                                    &size, &nstub) == MMPTX_WIRE_SUCCESS &&
            pk == MMPTX_WIRE_PROGRAM_STACK && n == 3 && w[1] == words[1] &&
            nstub == 1);
  CHECK(41,
        mmptx_wire_programs_program(progs2, 0, 1, &pk, &inject, NULL, NULL,
                                    &text, &size, NULL) == MMPTX_WIRE_SUCCESS &&
            pk == MMPTX_WIRE_PROGRAM_STUB && inject == 1 &&
            !strcmp(text, "\tret;"));
  mmptx_wire_programs_destroy(progs);
  mmptx_wire_programs_destroy(progs2);

  CHECK(50, mmptx_wire_results_create(&res) == MMPTX_WIRE_SUCCESS);
  CHECK(51, mmptx_wire_results_add(res, 7, 1,
                                   "\x7f"
                                   "ELF",
                                   4, "ptxas", "13.0") == MMPTX_WIRE_SUCCESS);
  CHECK(52, mmptx_wire_results_add_stub(res, "\t{\n\t}") == MMPTX_WIRE_SUCCESS);
  CHECK(53, mmptx_wire_results_add(res, 8, 0, NULL, 0, "ptxas", "13.0") ==
                MMPTX_WIRE_SUCCESS);
  CHECK(54, mmptx_wire_results_add_error(res, "bad", "k.ptx", 3, 9) ==
                MMPTX_WIRE_SUCCESS);
  CHECK(55,
        mmptx_wire_results_serialize(res, NULL, 0, &n) == MMPTX_WIRE_SUCCESS);
  buf = malloc(n);
  CHECK(56,
        mmptx_wire_results_serialize(res, buf, n, &size) == MMPTX_WIRE_SUCCESS);
  CHECK(57,
        mmptx_wire_results_deserialize(buf, n, &res2) == MMPTX_WIRE_SUCCESS);
  /* A programs message is not a results message. */
  CHECK(58, mmptx_wire_programs_deserialize(buf, n, &progs) ==
                MMPTX_WIRE_MALFORMED);
  free(buf);
  CHECK(59, mmptx_wire_results_count(res2) == 2);
  CHECK(60,
        mmptx_wire_results_get(res2, 0, &id, &ok, &cubin, &cubin_size, &backend,
                               &version, &nerr, &nstub) == MMPTX_WIRE_SUCCESS &&
            id == 7 && ok && cubin_size == 4 &&
            !memcmp(cubin,
                    "\x7f"
                    "ELF",
                    4) &&
            !strcmp(version, "13.0") && nerr == 0 && nstub == 1);
  CHECK(61, mmptx_wire_results_stub(res2, 0, 0, &text) == MMPTX_WIRE_SUCCESS &&
                !strcmp(text, "\t{\n\t}"));
  CHECK(62, mmptx_wire_results_error(res2, 1, 0, &text, &file, &line, &col) ==
                    MMPTX_WIRE_SUCCESS &&
                !strcmp(text, "bad") && !strcmp(file, "k.ptx") && line == 3 &&
                col == 9);
  CHECK(63, mmptx_wire_results_error(res2, 0, 0, &text, &file, &line, &col) ==
                MMPTX_WIRE_INVALID_ARGUMENT);
  mmptx_wire_results_destroy(res);
  mmptx_wire_results_destroy(res2);
  (void)backend;
  return 0;
}
