#!/usr/bin/env python3
"""A compile farm on Ray: packed Stack PTX programs compiled on two nodes.

Starts a two-node Ray cluster on this machine (mmptx.distributed.LocalCluster:
`ray start --head` and `ray start --address=...` as separate processes), or
uses --address's cluster; compiles --programs random programs in packed
modules of --pack programs through mmptx.distributed.Farm; checks the cubins
against a local mmptx.compile_batch byte for byte; kills a worker halfway
through a second run and checks that nothing was lost; prints programs/s.

    compile_farm.py [--programs 1024] [--pack 64] [--address HOST:PORT]
"""

import argparse
import contextlib
import time

import numpy as np

from mmptx import distributed as D
from mmptx import stack as S


def random_programs(n, seed, words=12):
    iset = S.default_instruction_set()
    genes = [S.input_(0), S.input_(1), iset.constant("F32", 0.5)] + [
        iset.ptx(o) for o in ("add.ftz.f32", "mul.ftz.f32",
                              "sin.approx.ftz.f32")]
    rng = np.random.default_rng(seed)
    return [np.array(rng.choice(genes, size=words), dtype=np.uint64)
            for _ in range(n)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=1024)
    ap.add_argument("--pack", type=int, default=64)
    ap.add_argument("--address", help="an existing Ray cluster")
    args = ap.parse_args()
    if args.programs < 1 or args.pack < 1:
        ap.error("--programs and --pack must be at least 1")

    progs = random_programs(args.programs, seed=1)
    packs = [progs[i:i + args.pack] for i in range(0, len(progs), args.pack)]
    job = D.Job.packed(num_inputs=2, sites_per_kernel=args.pack)

    t = time.perf_counter()
    want = job.compile_local(packs)
    local = time.perf_counter() - t

    with contextlib.ExitStack() as stack:
        address = args.address
        if address is None:
            print("starting a two-node Ray cluster on this machine ...")
            address = stack.enter_context(D.LocalCluster(nodes=2)).address
        farm = stack.enter_context(D.Farm(job, address=address, memo=0))
        nodes = {node for _, node in farm.where()}
        print(f"{farm.workers} workers on {len(nodes)} node(s)")
        t = time.perf_counter()
        got = farm.compile(packs, progress=True)
        secs = time.perf_counter() - t
        same = [a.cubin == b.cubin for a, b in zip(got, want)]
        print(f"{len(progs)} programs in {len(packs)} packs: {secs:.2f} s on "
              f"the farm ({len(progs) / secs:.0f} programs/s), {local:.2f} s "
              f"locally; {sum(same)}/{len(same)} cubins identical; "
              f"{farm.stats['bytes_sent'] / len(progs):.0f} bytes a program "
              "sent")
        # A worker killed mid-batch: its tasks are submitted again.
        seen, victim = [], None
        for i, r in farm.as_completed(packs):
            seen.append(i)
            if victim is None and farm.workers > 1 and \
                    len(seen) >= len(packs) // 4:
                victim = farm.kill_worker(farm.workers - 1)
        ok = sorted(seen) == list(range(len(packs)))
        print(f"killed worker pid {victim}: {len(seen)} results, "
              f"{'each pack once' if ok else 'LOST OR DUPLICATED'}; "
              f"{farm.stats['resubmitted']} task(s) resubmitted, "
              f"{farm.stats['replaced_workers']} worker(s) replaced")
    return 0 if all(same) and ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
