#!/usr/bin/env python3
"""Per-call overhead of the mmptx Python package.

Prints, per stub: a single compile() call, compile_batch() from a list of
arrays and from one packed array, and the C++ work of the same batch
(measure_batch: the compiles without building Python strings). The
difference of the last two is the Python overhead per stub of a batch.
Also a render() call of mmptx.inject. Usage: overhead.py [N]
"""

import os
import sys
import time

# OpenBLAS's idle threads would count in this process's CPU time.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import mmptx  # noqa: E402
from mmptx import stack as S  # noqa: E402


def best(fn, repeat=5):
    """The least CPU time of this process over ``repeat`` runs: on a busy
    machine, wall-clock time also counts the waits for a core."""
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        times.append(time.process_time() - t0)
        del result
    return min(times)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    cc = S.Compiler()
    iset = cc.instruction_set
    regs = iset.registers([("x", "F32"), ("y", "F32"), ("z", "F32", "out")])
    rng = np.random.default_rng(1)
    ops = [iset.ptx(o) for o in ("add.ftz.f32", "mul.ftz.f32",
                                 "sub.ftz.f32", "max.ftz.f32")]
    leaves = [S.input_(0), S.input_(1), iset.constant("F32", 0.5)]
    progs = []
    for _ in range(n):
        words = [leaves[rng.integers(3)]]
        for _ in range(7):
            words += [leaves[rng.integers(3)], ops[rng.integers(4)]]
        progs.append(np.array(words, dtype=np.uint64))
    packed = np.concatenate(progs)
    offsets = np.concatenate([[0], np.cumsum([len(p) for p in progs])])
    offsets = offsets.astype(np.uint64).tolist()

    def singles():
        for p in progs:
            cc.compile(p, regs, [2])
        return None

    t_single = best(singles, 3) / n
    t_list = best(lambda: cc.compile_batch(progs, regs, [2])) / n
    t_packed = best(lambda: cc.compile_batch(packed, regs, [2],
                                             offsets=offsets)) / n
    t_cxx = best(lambda: cc.measure_batch(packed, regs, [2],
                                          offsets=offsets)) / n
    print(f"stack: {n} programs of 15 words")
    print(f"  compile() per call          {t_single * 1e9:8.0f} ns")
    print(f"  compile_batch(list) / stub  {t_list * 1e9:8.0f} ns")
    print(f"  compile_batch(packed) / stub{t_packed * 1e9:8.0f} ns")
    print(f"  C++ compile (measure_batch) {t_cxx * 1e9:8.0f} ns")
    print(f"  Python overhead per stub: packed "
          f"{(t_packed - t_cxx) * 1e9:.0f} ns, list "
          f"{(t_list - t_cxx) * 1e9:.0f} ns")

    ptx = (".version 8.0\n.target sm_80\n.address_size 64\n"
           ".visible .entry k()\n{\n.reg .f32 %_x<2>;\nmov.f32 %_x0, 0f3F800000;\n"
           "// PTX_INJECT_START f\n// _x0 i f32 F32 x\n"
           "// _x1 o f32 F32 y\n// PTX_INJECT_END\nmov.f32 %_x0, %_x1;\n"
           "ret;\n}\n")
    m = mmptx.inject.Module(ptx)
    stub = cc.compile(progs[0], regs, [2])
    k = 20000
    t_render = best(lambda: [m.render([stub]) for _ in range(k)], 3) / k
    t_render_name = best(lambda: [m.render({"f": stub}) for _ in range(k)],
                         3) / k
    print(f"inject: render([stub]) {t_render * 1e9:.0f} ns, "
          f"render({{name: stub}}) {t_render_name * 1e9:.0f} ns per call")


if __name__ == "__main__":
    main()
