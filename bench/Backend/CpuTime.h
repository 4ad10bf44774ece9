//===- CpuTime.h - CPU time of the benchmark process ------------*- C++ -*-===//
//
// Part of the mmptx project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MMPTX_BENCH_BACKEND_CPUTIME_H
#define MMPTX_BENCH_BACKEND_CPUTIME_H

#include <initializer_list>

#include <sys/resource.h>

/// User + system time of this process (every thread) and of the ptxas
/// processes it waited for, in seconds: on a shared machine, work per CPU
/// second is steadier than wall time.
inline double processCpuSeconds() {
  double Sum = 0;
  for (int Who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    struct rusage U;
    getrusage(Who, &U);
    Sum += U.ru_utime.tv_sec + U.ru_stime.tv_sec +
           1e-6 * (U.ru_utime.tv_usec + U.ru_stime.tv_usec);
  }
  return Sum;
}

#endif // MMPTX_BENCH_BACKEND_CPUTIME_H
