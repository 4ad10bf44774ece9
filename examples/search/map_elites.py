#!/usr/bin/env python3
"""MAP-Elites over Stack PTX programs: symbolic regression with pyribs.

Quality-diversity search (pyribs' GridArchive, IsoLineEmitters or
GaussianEmitters, and Scheduler) for a Stack PTX program y = f(x0, x1)
that fits a target (default x0 * x1 + sin(x0); mse <= 1e-3 counts as found) on
sample points. A solution is a vector of genes in [0, 1); gene g picks word
floor(g * len(ALPHABET)) (inputs, constants, arithmetic, transcendentals, or
nothing), and since every word sequence compiles, every mutation is a valid
program. The behaviour descriptors are the compiled stub's instruction
count and the fraction of its instructions that are transcendental.

Each generation:
  1. the genes become word arrays (one uint64 array and offsets, no Python
     loop per program) and one Stack PTX batch compile makes their stubs;
  2. duplicates (equal stubs) are dropped;
  3. the unique stubs are built into packed modules (mmptx.build_packed_module,
     --pack-size programs each) and compiled to cubins with
     mmptx.compile_batch, or on a Ray cluster (--ray-address) with
     mmptx.distributed;
  4. with a GPU (mmptx.runtime), each pack is loaded once and launched once
     over the sample points, and the interpreter checks --check programs
     against the GPU's outputs; without one (or with --cpu), the CPU
     interpreter evaluates every program (the cubins are still built, so
     their cost is real);
  5. fitness 1 / (1 + mse) and the descriptors go to the scheduler.

It prints per generation the programs, unique programs, the compile / load
/ run / interpret seconds, programs/s end to end, QD score and coverage and
the best expression; writes OUT/heatmap.png (ribs' grid_archive_heatmap),
OUT/log.json and OUT/checkpoint.pkl (--resume continues from it).

    map_elites.py [--generations N] [--batch N] [--emitters N] [--genes N]
                  [--pack-size N] [--cpu] [--ray-address ADDR] [--out DIR]
                  [--resume] [--seed N]
"""

import argparse
import json
import os
import pickle
import sys
import time

import numpy as np

import mmptx
from mmptx import stack as S

NUM_INPUTS = 2
TARGETS = {"x0 * x1 + sin(x0)": lambda x0, x1: x0 * x1 + np.sin(x0),
           "x0 * sin(x1) + x0": lambda x0, x1: x0 * np.sin(x1) + x0,
           "sin(x0) + x1 * x1": lambda x0, x1: np.sin(x0) + x1 * x1,
           "x0 * x1 + x0": lambda x0, x1: x0 * x1 + x0}
# The search succeeds when the best program's mse is below this.
TARGET_MSE = 1e-3


CONSTANTS = (0.5, 1.0, 2.0, 3.0)
BINARY = {"add.ftz.f32": "+", "sub.ftz.f32": "-", "mul.ftz.f32": "*"}
UNARY = {"sin.approx.ftz.f32": "sin", "cos.approx.ftz.f32": "cos",
         "ex2.approx.ftz.f32": "exp2", "neg.f32": "-"}
TRANSCENDENTAL = ("sin.", "cos.", "ex2.", "lg2.", "rsqrt.", "sqrt.", "rcp.",
                  "tanh.")
SKIP = 0


class Alphabet:
    """The words genes pick from, and how to print a program."""

    def __init__(self, iset):
        self.words = [0]  # SKIP: no word
        self.text = [None]
        for j in range(NUM_INPUTS):
            self.words += [S.input_(j)] * 2
            self.text += [("x", f"x{j}")] * 2
        for c in CONSTANTS:
            self.words.append(iset.constant("F32", c))
            self.text.append(("x", repr(c)))
        for name, sym in BINARY.items():
            self.words += [iset.ptx(name)] * 2
            self.text += [("2", sym)] * 2
        for name, sym in UNARY.items():
            self.words.append(iset.ptx(name))
            self.text.append(("1", sym))
        self.words += [0, 0]  # more room for shorter programs
        self.text += [None, None]
        self.table = np.array(self.words, dtype=np.uint64)
        self.by_word = {w: t for w, t in zip(self.words, self.text) if t}

    def __len__(self):
        return len(self.words)

    def programs(self, genes):
        """Genes (N x L in [0, 1)) as one word array and N + 1 offsets."""
        idx = np.clip((genes * len(self)).astype(np.int64), 0, len(self) - 1)
        keep = self.table[idx] != 0
        flat = np.ascontiguousarray(self.table[idx][keep])
        offsets = np.concatenate([[0], np.cumsum(keep.sum(axis=1))])
        return flat, offsets.astype(np.int64)

    def expression(self, words):
        """Infix text of what the program leaves on top of the stack (an
        instruction pops its first operand from the top and is skipped when
        the stack holds too few)."""
        st = []
        for w in (int(w) for w in words):
            kind, sym = self.by_word[w]
            if kind == "x":
                st.append(sym)
            elif kind == "1" and st:
                st.append(f"{sym}({st.pop()})" if sym != "-"
                          else f"(-{st.pop()})")
            elif kind == "2" and len(st) >= 2:
                a, b = st.pop(), st.pop()
                st.append(f"({a} {sym} {b})")
        return st[-1] if st else "0"


def describe(stub):
    """(instruction count, transcendental fraction) of a stub."""
    n = t = 0
    for line in stub.splitlines():
        line = line.strip()
        if not line.endswith(";") or line.startswith((".reg", "//", "{", "}")):
            continue
        n += 1
        op = line.split()[0]
        t += op.startswith(TRANSCENDENTAL)
    return n, (t / n if n else 0.0)


class Evaluator:
    """Compiles packs of stubs to cubins and evaluates the programs."""

    def __init__(self, args, cc, regs, xs, ys):
        self.args, self.cc, self.regs, self.xs, self.ys = args, cc, regs, xs, ys
        self.n = xs.shape[1]
        # Interpreter rows: registers x0, x1, y as f32 bits per point.
        rows = np.zeros((self.n, NUM_INPUTS + 1), dtype=np.float32)
        rows[:, :NUM_INPUTS] = xs.T
        self.rows = np.ascontiguousarray(rows).view(np.uint32).astype(
            np.uint64)
        self.farm = None
        if args.ray_address:
            from mmptx import distributed as D

            job = D.Job.packed(num_inputs=NUM_INPUTS,
                               sites_per_kernel=args.pack_size,
                               arch=args.arch)
            self.farm = D.Farm(job, address=args.ray_address)
        self.dev = None
        if not args.cpu:
            try:
                from mmptx import runtime

                if runtime.device_count() > 0:
                    self.dev = runtime.Device()
                    self.inp = self.dev.from_numpy(
                        np.ascontiguousarray(xs, dtype=np.float32).ravel())
            except mmptx.MmptxError as e:
                print(f"no GPU ({e}); evaluating on the CPU interpreter")
        self.backend = next((b.name for b in mmptx.backends() if b.available),
                            None)

    @property
    def where(self):
        return (f"GPU ({self.dev.info[1]})" if self.dev
                else "CPU interpreter") + \
            (f", compiles on Ray ({self.farm.workers} workers)"
             if self.farm else "")

    def compile(self, stubs, words):
        """Cubins of the packs; returns (cubins, compile CPU seconds)."""
        p = self.args.pack_size
        if self.farm:
            packs = [words[i:i + p] for i in range(0, len(words), p)]
            res = self.farm.compile(packs)
        elif self.backend:
            ptx = [mmptx.build_packed_module(stubs[i:i + p], NUM_INPUTS, p,
                                             self.args.arch)
                   for i in range(0, len(stubs), p)]
            res = mmptx.compile_batch(ptx, arch=self.args.arch,
                                      backend=self.backend)
        else:
            return [], 0.0
        for r in res:
            if not r.ok:
                raise SystemExit(f"packed compile failed: {r.error}")
        return [r.cubin for r in res], sum(r.seconds for r in res)

    def interpret(self, words):
        """Outputs (programs x points, f32) on the CPU interpreter."""
        out = np.empty((len(words), self.n), dtype=np.float32)
        for i, w in enumerate(words):
            res = self.cc.interpret_rows(w, self.regs, [NUM_INPUTS], self.rows)
            out[i] = res[:, 0].astype(np.uint32).view(np.float32)
        return out

    def run(self, cubins, count):
        """Outputs on the GPU: one module load and one launch per pack."""
        p, n = self.args.pack_size, self.n
        out = np.empty((count, n), dtype=np.float32)
        t_load = t_run = 0.0
        block = min(128, n)
        for k, cubin in enumerate(cubins):
            sites = min(p, count - k * p)
            t0 = time.perf_counter()
            mod = self.dev.load(cubin)
            kern = mod.kernel("mmptx_packed_0")
            t1 = time.perf_counter()
            buf = self.dev.zeros(sites * n, np.float32)
            kern.launch(grid=(sites, (n + block - 1) // block), block=block,
                        args=[self.inp, buf, np.uint32(n)])
            out[k * p:k * p + sites] = buf.to_numpy().reshape(sites, n)
            t_load += t1 - t0
            t_run += time.perf_counter() - t1
        return out, t_load, t_run


def mse_of(outputs, ys):
    with np.errstate(all="ignore"):
        err = np.mean((outputs.astype(np.float64) - ys) ** 2, axis=1)
    return np.where(np.isfinite(err), err, np.inf)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generations", type=int, default=20)
    ap.add_argument("--batch", type=int, default=128,
                    help="programs per emitter per generation")
    ap.add_argument("--emitters", type=int, default=4)
    ap.add_argument("--genes", type=int, default=12,
                    help="genes per program (at most that many words)")
    ap.add_argument("--points", type=int, default=64)
    ap.add_argument("--emitter", choices=("gaussian", "iso-line"),
                    default="iso-line", help="pyribs emitter: "
                    "GaussianEmitter or IsoLineEmitter (Iso+LineDD)")
    ap.add_argument("--target", choices=sorted(TARGETS),
                    default="x0 * x1 + sin(x0)",
                    help="the function to fit (default x0 * x1 + sin(x0))")
    ap.add_argument("--sigma", type=float, default=0.01,
                    help="the Gaussian emitters' mutation strength (genes "
                    "are in [0, 1))")
    ap.add_argument("--pack-size", type=int, default=128,
                    help="programs per packed module (one kernel)")
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--cpu", action="store_true",
                    help="evaluate on the CPU interpreter even with a GPU")
    ap.add_argument("--check", type=int, default=8,
                    help="programs per generation the interpreter checks "
                    "against the GPU")
    ap.add_argument("--ray-address", help="compile on this Ray cluster "
                    "(mmptx.distributed; 'local' starts one here)")
    ap.add_argument("--out", default="map-elites-out")
    ap.add_argument("--resume", action="store_true",
                    help="continue from OUT/checkpoint.pkl")
    ap.add_argument("--seed", type=int, default=2)
    args = ap.parse_args(argv)
    if args.generations < 1 or args.batch < 1 or args.emitters < 1 or \
            args.genes < 1 or args.points < 1 or args.pack_size < 1:
        ap.error("counts must be at least 1")
    if args.ray_address == "local":
        args.ray_address = None
        args.ray_local = True
    else:
        args.ray_local = False

    from ribs.archives import GridArchive
    from ribs.emitters import GaussianEmitter, IsoLineEmitter
    from ribs.schedulers import Scheduler

    os.makedirs(args.out, exist_ok=True)
    ckpt = os.path.join(args.out, "checkpoint.pkl")
    cc = S.Compiler(target_sm=int(args.arch[3:]))
    alpha = Alphabet(cc.instruction_set)
    regs = cc.instruction_set.registers(
        [(f"x{j}", "F32", "in") for j in range(NUM_INPUTS)] +
        [("y", "F32", "out")])

    rng = np.random.default_rng(args.seed)
    xs = rng.uniform(-2.0, 2.0, size=(NUM_INPUTS, args.points)).astype(
        np.float32)
    ys = TARGETS[args.target](*xs.astype(np.float64))

    if args.resume and os.path.exists(ckpt):
        with open(ckpt, "rb") as f:
            state = pickle.load(f)
        scheduler, log, start = state["scheduler"], state["log"], state["gen"]
        archive = scheduler.archive
        print(f"resumed from {ckpt} at generation {start}")
    else:
        archive = GridArchive(solution_dim=args.genes, dims=[24, 10],
                              ranges=[(0, 2 * args.genes + 2), (0.0, 1.0001)],
                              seed=args.seed)
        init = np.random.default_rng(args.seed + 7)
        bounds = [(0.0, 0.9999)] * args.genes
        emitters = []
        for i in range(args.emitters):
            start = init.uniform(0.0, 0.9999, (args.batch, args.genes))
            if args.emitter == "gaussian":
                emitters.append(GaussianEmitter(
                    archive, sigma=args.sigma, initial_solutions=start,
                    bounds=bounds, batch_size=args.batch,
                    seed=args.seed + 1 + i))
            else:
                emitters.append(IsoLineEmitter(
                    archive, iso_sigma=args.sigma, line_sigma=args.sigma * 4,
                    initial_solutions=start, bounds=bounds,
                    batch_size=args.batch, seed=args.seed + 1 + i))
        scheduler = Scheduler(archive, emitters)
        log, start = [], 0
    if args.ray_local:
        args.ray_address = "local"
        import ray

        ray.init(include_dashboard=False, log_to_driver=False)
    ev = Evaluator(args, cc, regs, xs, ys)
    print(f"target y = {args.target} on {args.points} points; "
          f"evaluating on the {ev.where}; compiling with "
          f"{ev.backend or 'no PTX backend (stubs only)'}")

    total_prog = total_secs = total_cpu = total_unique = 0.0
    for gen in range(start, args.generations):
        t_start = time.perf_counter()
        genes = scheduler.ask()
        flat, offsets = alpha.programs(genes)
        t0 = time.perf_counter()
        stubs = cc.compile_batch(flat, regs, [NUM_INPUTS], offsets=offsets)
        # Deduplicate: equal stubs are the same program.
        first = {}
        which = np.empty(len(stubs), dtype=np.int64)
        for i, s in enumerate(stubs):
            which[i] = first.setdefault(s, len(first))
        uniq = np.empty(len(first), dtype=np.int64)
        uniq[which[::-1]] = np.arange(len(stubs))[::-1]
        ustubs = [stubs[i] for i in uniq]
        uwords = [flat[offsets[i]:offsets[i + 1]] for i in uniq]
        cubins, cpu_secs = ev.compile(ustubs, uwords)
        t_compile = time.perf_counter() - t0
        t_load = t_run = t_interp = 0.0
        checked = mismatched = 0
        if ev.dev and cubins:
            outs, t_load, t_run = ev.run(cubins, len(uwords))
            t1 = time.perf_counter()
            sample = rng.choice(len(uwords), size=min(args.check, len(uwords)),
                                replace=False)
            ref = ev.interpret([uwords[i] for i in sample])
            got = outs[sample]
            close = np.isclose(ref, got, rtol=1e-3, atol=1e-3) | \
                (~np.isfinite(ref) & ~np.isfinite(got))
            checked, mismatched = len(sample), int((~close.all(axis=1)).sum())
            t_interp = time.perf_counter() - t1
        else:
            t1 = time.perf_counter()
            outs = ev.interpret(uwords)
            t_interp = time.perf_counter() - t1
        umse = mse_of(outs, ys)
        mse = umse[which]
        objective = 1.0 / (1.0 + mse)
        desc = np.array([describe(s) for s in ustubs], dtype=np.float64)[which]
        scheduler.tell(objective, desc)
        secs = time.perf_counter() - t_start

        stats = archive.stats
        best = archive.best_elite
        bflat, boff = alpha.programs(best["solution"][None, :])
        bwords = bflat[boff[0]:boff[1]]
        best_mse = 1.0 / float(best["objective"]) - 1.0
        expr = alpha.expression(bwords)
        rec = dict(generation=gen, programs=len(stubs), unique=len(ustubs),
                   packs=len(cubins), compile_s=t_compile, load_s=t_load,
                   run_s=t_run, interpret_s=t_interp, seconds=secs,
                   programs_per_s=len(stubs) / secs,
                   compile_cpu_s=cpu_secs,
                   qd_score=float(stats.qd_score), coverage=float(stats.coverage),
                   best_objective=float(best["objective"]), best_mse=best_mse,
                   best_expression=expr,
                   best_words=["%016x" % int(w) for w in bwords],
                   checked=checked, mismatched=mismatched)
        log.append(rec)
        total_prog += len(stubs)
        total_unique += len(ustubs)
        total_secs += secs
        total_cpu += cpu_secs
        print(f"gen {gen:3d}: {len(stubs)} programs, {len(ustubs)} unique, "
              f"{len(cubins)} packs; compile {t_compile:.3f}s load "
              f"{t_load:.3f}s run {t_run:.3f}s interpret {t_interp:.3f}s; "
              f"{len(stubs) / secs:.0f} programs/s; "
              f"QD {stats.qd_score:.2f} coverage {stats.coverage:.3f}; "
              f"best mse {best_mse:.3g}: y = {expr}"
              + (f"; checked {checked}, {mismatched} differ"
                 if checked else ""))
        with open(ckpt + ".tmp", "wb") as f:
            pickle.dump(dict(scheduler=scheduler, log=log, gen=gen + 1), f)
        os.replace(ckpt + ".tmp", ckpt)

    with open(os.path.join(args.out, "log.json"), "w") as f:
        json.dump(dict(target=args.target, target_mse=TARGET_MSE,
                       points=args.points, seed=args.seed,
                       inputs=xs.tolist(),
                       evaluated_on=ev.where, backend=ev.backend,
                       generations=log), f, indent=1)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from ribs.visualize import grid_archive_heatmap

    fig, ax = plt.subplots(figsize=(7, 4.5))
    grid_archive_heatmap(archive, ax=ax, vmin=0.0, vmax=1.0)
    ax.set_xlabel("stub instructions")
    ax.set_ylabel("transcendental fraction")
    ax.set_title(f"fitness 1/(1+mse), y = {args.target}")
    fig.savefig(os.path.join(args.out, "heatmap.png"), dpi=100)
    if total_secs:
        print(f"{int(total_prog)} programs ({int(total_unique)} unique) in "
              f"{total_secs:.2f} s: {total_prog / total_secs:.0f} programs/s "
              f"end to end"
              + (f"; packed compile {total_unique / total_cpu:.0f} "
                 "programs per CPU-second" if total_cpu else ""))
    if log:
        last = log[-1]
        ok = last["best_mse"] <= TARGET_MSE
        print(f"best: y = {last['best_expression']}  (mse "
              f"{last['best_mse']:.3g}; "
              f"{'within' if ok else 'not within'} {TARGET_MSE:g} of the "
              "target)")
    print(f"wrote {os.path.join(args.out, 'heatmap.png')} and log.json")
    if ev.farm:
        ev.farm.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
