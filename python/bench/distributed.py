#!/usr/bin/env python3
"""Measures mmptx.distributed on local Ray clusters of 1 and 2 nodes.

    python python/bench/distributed.py [--programs 1024] [--pack 64]
                                       [--tiny 64] [--cpus-per-node 1]

For each cluster (started with mmptx.distributed.LocalCluster, one CPU a
node unless told): packed programs per second through a Farm (random
12-word f32 programs, --pack per module), against a local compile_batch of
the same packs with 1 and with 2 threads; the overhead per task (tiny PTX
modules, farm seconds per task times workers minus the local seconds per
module); the bytes that travel per program (its share of a task's wire
programs message) and back (of the results message, mostly the cubin);
and that the cubins equal the local batch's. python/bench/farm_bytes.py
measures the messages without Ray. Timings are wall-clock and
depend on the machine's load: say which machine and load with them.
"""

import argparse
import os
import sys
import time

import numpy as np

import mmptx
from mmptx import distributed as D
from mmptx import stack as S


def programs(n, seed, words=12):
    iset = S.default_instruction_set()
    genes = [S.input_(0), S.input_(1)] + [
        iset.ptx(o) for o in ("add.ftz.f32", "sub.ftz.f32", "mul.ftz.f32",
                              "sin.approx.ftz.f32", "ex2.approx.ftz.f32")] + [
        iset.constant("F32", c) for c in (0.5, 2.0, 3.0)]
    rng = np.random.default_rng(seed)
    return [np.array(rng.choice(genes, size=words), dtype=np.uint64)
            for _ in range(n)]


def tiny_modules(n):
    return [(".version 8.0\n.target sm_80\n.address_size 64\n"
             ".visible .entry k%d(.param .u64 p)\n{\n\t.reg .b64 %%rd<2>;\n"
             "\tld.param.u64 %%rd1, [p];\n\tret;\n}\n") % i for i in range(n)]


GEMM = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "corpus",
                    "anchor_gemm_kernel.ptx")


def gemm_job_and_variants(n, seed):
    """The corpus GEMM (256 `mma` sites) as an inject job, and ``n``
    variants of its `mma` program (c += a * b, then 1-3 random words)."""
    cc = S.Compiler()
    iset = cc.instruction_set
    epi = cc.compile([S.input_(1)], iset.registers(
        [("_x0", "F32", "out"), ("_x1", "F32", "in"), ("_x2", "F32", "in")]),
        [0])
    with open(GEMM) as f:
        job = D.Job.inject(f.read(), "mma", other_stubs={
            "load_a": "", "load_b": "", "epilogue": epi})
    base = [S.input_(0), S.input_(2), S.input_(1), iset.ptx("fma.rn.f32")]
    extra = [S.input_(1), S.input_(2), iset.ptx("add.f32"),
             iset.ptx("mul.f32"), iset.ptx("max.f32"), iset.ptx("abs.f32")]
    rng = np.random.default_rng(seed)
    return job, [np.array(base + list(rng.choice(extra, size=k)),
                          dtype=np.uint64)
                 for k in rng.integers(1, 4, size=n)]


def timed(fn, repeat=3):
    """The result and the best wall time of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        r = fn()
        best = min(best, time.perf_counter() - t)
    return r, best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=1024)
    ap.add_argument("--pack", type=int, default=64)
    ap.add_argument("--tiny", type=int, default=64)
    ap.add_argument("--cpus-per-node", type=int, default=1)
    ap.add_argument("--nodes", default="1,2")
    ap.add_argument("--variants", type=int, default=16,
                    help="GEMM variants (bench/corpus, 256 sites) per run")
    args = ap.parse_args()
    import ray

    progs = programs(args.programs, 1)
    packs = [progs[i:i + args.pack] for i in range(0, len(progs), args.pack)]
    job = D.Job.packed(num_inputs=2, sites_per_kernel=args.pack)
    tiny = tiny_modules(args.tiny)
    tjob = D.Job.ptx()
    backend = next(b for b in mmptx.backends() if b.available)
    print(f"backend {backend.name} {backend.version}; {len(progs)} programs "
          f"in {len(packs)} packs of {args.pack}; {os.cpu_count()} CPUs here")

    gjob, variants = gemm_job_and_variants(args.variants, 2)
    gwant, gsecs = timed(lambda: gjob.compile_local(variants, jobs=2),
                         repeat=1)
    print(f"local GEMM variants, 2 threads: {gsecs:.2f} s, "
          f"{len(variants) / gsecs:.1f} variants/s")
    local = {}
    for jobs in (1, 2):
        want, secs = timed(lambda: job.compile_local(packs, jobs=jobs))
        local[jobs] = secs
        print(f"local compile_batch, {jobs} thread(s): {secs:.2f} s, "
              f"{len(progs) / secs:.0f} programs/s")
    _, tiny_local = timed(lambda: tjob.compile_local(tiny, jobs=1))
    _, tiny_1 = timed(lambda: tjob.compile_local(tiny[:1], jobs=1))
    print(f"local tiny modules, 1 thread: {1e3 * tiny_local / len(tiny):.2f} "
          f"ms a module in a batch, {1e3 * tiny_1:.2f} ms alone")

    for nodes in (int(n) for n in args.nodes.split(",")):
        with D.LocalCluster(nodes=nodes,
                            cpus_per_node=args.cpus_per_node) as c:
            ray.init(address=c.address, log_to_driver=False)
            try:
                with D.Farm(job, memo=0) as farm:
                    farm.where()  # the workers are up
                    workers = farm.workers
                    got, secs = timed(lambda: farm.compile(packs))
                    st = dict(farm.stats)
                    runs = st["tasks"] // len(packs)
                same = all(a.cubin == b.cubin for a, b in zip(got, want))
                print(f"{nodes} node(s), {workers} workers: {secs:.2f} s, "
                      f"{len(progs) / secs:.0f} programs/s; "
                      f"{st['bytes_sent'] / runs / len(progs):.0f} bytes a "
                      f"program out, {st['bytes_back'] / runs / len(progs):.0f}"
                      " back; "
                      f"cubins {'identical' if same else 'DIFFER'}")
                with D.Farm(gjob, memo=0) as farm:
                    farm.where()
                    ggot, secs = timed(lambda: farm.compile(variants),
                                       repeat=1)
                    sent = farm.stats["bytes_sent"] / len(variants)
                same = all(a.cubin == b.cubin for a, b in zip(ggot, gwant))
                print(f"{nodes} node(s): GEMM variants {secs:.2f} s, "
                      f"{len(variants) / secs:.1f} variants/s, {sent:.0f} "
                      f"bytes a variant out; cubins "
                      f"{'identical' if same else 'DIFFER'}")
                with D.Farm(tjob, memo=0) as farm:
                    farm.where()
                    # The round trip of an empty actor call: Ray's part of
                    # the overhead of a task.
                    actor = farm._actors[-1]
                    _, rtt = timed(lambda: [ray.get(actor.where.remote())
                                            for _ in range(50)])
                    print(f"{nodes} node(s): an empty call's round trip "
                          f"{1e3 * rtt / 50:.2f} ms")
                    _, secs = timed(lambda: farm.compile(tiny))
                    per_task = secs * farm.workers / len(tiny)
                print(f"{nodes} node(s), tiny modules: {1e3 * per_task:.2f} "
                      f"ms a task per worker, overhead "
                      f"{1e3 * (per_task - tiny_local / len(tiny)):.2f} ms "
                      "a task")
            finally:
                ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
