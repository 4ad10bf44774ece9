/*===- CAPICheck.h - The CHECK macro of the C99 C API tests -------*- C -*-===*\
|*                                                                            *|
|* Part of the mmptx project, under the Apache License v2.0 with LLVM         *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* The C99 tests are functions that return 0 on success, else the number of
 * the failed check with a message in msg (msg_size bytes). Each defines
 * CHECK_DETAIL(), the text added to a failure's message, and
 * CHECK_CLEANUP(), what a failure releases before it returns. It has no
 * include guard: a test includes it once, after those two. */

#include <stdio.h>
#include <string.h>

#define CHECK(n, cond)                                                         \
  do {                                                                         \
    if (!(cond)) {                                                             \
      snprintf(msg, msg_size, "check %d failed: %s (%s)", n, #cond,            \
               CHECK_DETAIL());                                                \
      CHECK_CLEANUP();                                                         \
      return n;                                                                \
    }                                                                          \
  } while (0)
