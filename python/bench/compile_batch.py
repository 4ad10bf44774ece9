#!/usr/bin/env python3
"""Batch PTX -> cubin from Python against the C++ mmptx-compile.

Makes COPIES variants of each bench/corpus/*.ptx (a comment line differs,
so each is its own module for deduplication), then times
mmptx.compile_batch and `mmptx-compile --no-cache` on the same files, with
the same backend and jobs, and prints the ratio.
Usage: compile_batch.py [--copies N] [--jobs J] [--backend B] [--tool PATH]
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

import mmptx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--backend", default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "bin",
                                                   "mmptx-compile"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for src in sorted(glob.glob(os.path.join(ROOT, "bench", "corpus",
                                                 "*.ptx"))):
            text = open(src).read()
            stem = os.path.splitext(os.path.basename(src))[0]
            for i in range(a.copies):
                p = os.path.join(tmp, "%s_%d.ptx" % (stem, i))
                with open(p, "w") as f:
                    f.write("// variant %d\n%s" % (i, text))
                paths.append(p)
        texts = [open(p).read() for p in paths]

        def py():
            rs = mmptx.compile_batch(texts, backend=a.backend, jobs=a.jobs,
                                     names=paths)
            bad = [r.error for r in rs if not r.ok]
            if bad:
                sys.exit(bad[0])

        cmd = [a.tool, "--no-cache", "-o", os.path.join(tmp, "out")]
        if a.backend:
            cmd.append("--backend=" + a.backend)
        if a.jobs:
            cmd.append("-j%d" % a.jobs)

        def cxx():
            subprocess.run(cmd + paths, check=True, stdout=subprocess.DEVNULL)

        def best(fn):
            times = []
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                fn()
                times.append(time.perf_counter() - t0)
            return min(times)

        # Alternate so that load on the machine hits both alike.
        tp = best(py)
        tc = best(cxx)
        tp = min(tp, best(py))
        tc = min(tc, best(cxx))
        print("%d modules: python %.3f s, mmptx-compile %.3f s, "
              "ratio %.3f" % (len(paths), tp, tc, tp / tc))


if __name__ == "__main__":
    main()
