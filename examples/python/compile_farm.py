#!/usr/bin/env python3
"""A compile farm on Ray: packed Stack PTX programs and CuTe GEMM variants
compiled on two nodes.

Starts a two-node Ray cluster on this machine (mmptx.distributed.LocalCluster:
`ray start --head` and `ray start --address=...` as separate processes), or
uses --address's cluster; compiles --programs random programs in packed
modules of --pack programs through mmptx.distributed.Farm; checks the cubins
against a local mmptx.compile_batch byte for byte; kills a worker halfway
through a second run and checks that nothing was lost; prints programs/s.
Then --cute variants of the CuTe GEMM of examples/cute-gemm (NVRTC, pruned,
the L1 semiring's `mma` program mutated) go through the same farm, checked
the same way (skipped, with the reason, without NVRTC or the CuTe headers).

    compile_farm.py [--programs 1024] [--pack 64] [--cute 64]
                    [--address HOST:PORT]
"""

import argparse
import contextlib
import os
import subprocess
import time

import numpy as np

import mmptx
from mmptx import distributed as D
from mmptx import inject as I
from mmptx import stack as S

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SEMIRINGS = os.path.join(ROOT, "examples", "semiring-gemm")


def random_programs(n, seed, words=12):
    iset = S.default_instruction_set()
    genes = [S.input_(0), S.input_(1), iset.constant("F32", 0.5)] + [
        iset.ptx(o) for o in ("add.ftz.f32", "mul.ftz.f32",
                              "sin.approx.ftz.f32")]
    rng = np.random.default_rng(seed)
    return [np.array(rng.choice(genes, size=words), dtype=np.uint64)
            for _ in range(n)]


def cute_job(arch="sm_80"):
    """The CuTe GEMM's template (NVRTC, pruned once) as an inject job on its
    `mma` site, with the identity epilogue, and the L1 semiring's words;
    or (None, why) where it cannot be built here."""
    found = subprocess.run(["bash", os.path.join(ROOT, "utils",
                                                 "find-cutlass.sh")],
                           capture_output=True, text=True)
    if found.returncode != 0:
        return None, "no CuTe headers (utils/find-cutlass.sh)"
    if not mmptx.cuda_libraries()["nvrtc"]["found"]:
        return None, "NVRTC not found"
    src_path = os.path.join(ROOT, "examples", "cute-gemm", "cute_gemm.cu")
    with open(src_path) as f:
        src = f.read()
    ptx = mmptx.nvrtc.compile(
        src, arch=arch, name="cute_gemm.cu",
        options=["-std=c++17", "-default-device"],
        include_dirs=[os.path.join(found.stdout.strip(), "include")],
        cache_dir="").ptx
    template = I.prune(ptx)
    module = I.Module(template, name="cute_gemm.ptx")
    with open(os.path.join(SEMIRINGS, "epilogue-identity.stack")) as f:
        epilogue = module["epilogue"].stub(f.read())
    with open(os.path.join(SEMIRINGS, "l1.stack")) as f:
        l1 = S.parse(f.read())
    mma = module["mma"]
    registers = [(mma[n].register, stack, kind)
                 for n, stack, kind in l1.registers]
    job = D.Job.inject(template, site="mma", registers=registers,
                       requests=list(l1.requests), arch=arch,
                       other_stubs={"epilogue": epilogue})
    return (job, np.array(l1.main, dtype=np.uint64)), ""


def mutations(words, n, seed):
    """``n`` variants of ``words``: 1-3 words replaced, inserted or deleted
    (any word sequence compiles, so each is a valid program)."""
    iset = S.default_instruction_set()
    vocab = [S.input_(0), S.input_(1), S.input_(2),
             iset.constant("F32", 1.0)] + [
        iset.ptx(o) for o in ("add.f32", "sub.f32", "mul.f32", "abs.f32",
                              "max.f32", "min.f32")]
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        w = list(words)
        for _ in range(rng.integers(1, 4)):
            at = int(rng.integers(0, len(w) + 1))
            op = rng.integers(0, 3)
            if op == 0 and at < len(w):
                w[at] = rng.choice(vocab)
            elif op == 1:
                w.insert(at, rng.choice(vocab))
            elif len(w) > 1 and at < len(w):
                del w[at]
        out.append(np.array(w, dtype=np.uint64))
    return out


def run_cute(address, n):
    """Compiles ``n`` CuTe variants on the farm and locally; True if the
    cubins agree (or the step is skipped)."""
    t = time.perf_counter()
    made, why = cute_job()
    if made is None:
        print(f"CuTe variants: skipped: {why}")
        return True
    job, words = made
    variants = mutations(words, n, seed=7)
    print(f"CuTe template: NVRTC + prune in {time.perf_counter() - t:.2f} s")
    t = time.perf_counter()
    want = job.compile_local(variants)
    local = time.perf_counter() - t
    with D.Farm(job, address=address, memo=0) as farm:
        t = time.perf_counter()
        got = farm.compile(variants)
        secs = time.perf_counter() - t
    same = [a.ok and a.cubin == b.cubin for a, b in zip(got, want)]
    print(f"{n} CuTe variants: {secs:.2f} s on the farm ({n / secs:.1f} "
          f"variants/s), {local:.2f} s locally ({n / local:.1f} variants/s); "
          f"{sum(same)}/{n} cubins identical")
    return all(same)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=1024)
    ap.add_argument("--pack", type=int, default=64)
    ap.add_argument("--cute", type=int, default=64,
                    help="CuTe GEMM variants (0: none)")
    ap.add_argument("--address", help="an existing Ray cluster")
    args = ap.parse_args()
    if args.programs < 1 or args.pack < 1 or args.cute < 0:
        ap.error("--programs and --pack must be at least 1, --cute at "
                 "least 0")

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
        farm.close()
        cute_ok = run_cute(address, args.cute) if args.cute else True
    return 0 if all(same) and ok and cute_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
