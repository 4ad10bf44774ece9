#!/usr/bin/env python3
"""Measures the bytes a compile farm's messages take, without Ray.

    python python/bench/farm_bytes.py [--pack 64] [--words 12]

For a packed task (--pack random programs of --words Stack PTX words, one
packed module) and for one variant of the corpus GEMM template
(bench/corpus/anchor_gemm_kernel.ptx, 104 KB, 256 `mma` sites) as an
inject job: the job message a farm puts once, the programs message a task
sends and the results message it gets back (what
mmptx.distributed.Job.compile_message, a worker's code, returns), per
program; and the same as Ray pickles a task's arguments (the message and
its names, None for the default ones). Needs a PTX backend for the cubins.
"""

import argparse
import os
import pickle
import sys

import mmptx
from mmptx import wire as W

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distributed as bench  # noqa: E402  (this directory's helpers)


def measure(label, job, items):
    job_message = job.to_wire()
    task = [(i, job.encode(x)) for i, x in enumerate(items)]
    programs = W.dumps_programs(task)
    results = job.compile_message(programs)
    ok = all(r["ok"] for r in W.loads_results(results))
    n = sum(len(x) if job.spec["kind"] == "packed" else 1 for x in items)
    pickled = len(pickle.dumps((programs, None), protocol=5))
    print(f"{label}: job message {len(job_message)} bytes; "
          f"{n} program(s) in {len(items)} item(s): out "
          f"{len(programs) / n:.1f} bytes a program ({len(programs)} in the "
          f"programs message, {pickled} pickled with its names), back "
          f"{len(results) / n:.1f} bytes a program ({len(results)} in the "
          f"results message); all ok: {ok}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pack", type=int, default=64)
    ap.add_argument("--words", type=int, default=12)
    args = ap.parse_args()
    backend = next((b for b in mmptx.backends() if b.available), None)
    if backend is None:
        sys.exit("farm_bytes: no PTX backend available")
    print(f"backend {backend.name} {backend.version}")
    job = bench.D.Job.packed(num_inputs=2, sites_per_kernel=args.pack)
    measure(f"packed, {args.pack} programs of {args.words} words", job,
            [bench.programs(args.pack, 1, words=args.words)])
    gjob, variants = bench.gemm_job_and_variants(1, 2)
    measure(f"inject, one variant of the GEMM template "
            f"({len(variants[0])} words)", gjob, variants)


if __name__ == "__main__":
    main()
