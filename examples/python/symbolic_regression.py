#!/usr/bin/env python3
"""Symbolic regression: evolving Stack PTX programs to fit a function.

A small genetic-programming loop. Each individual is a Stack PTX program (a
NumPy uint64 word array) over one input register x and one output y; since
every word sequence compiles (an instruction short of operands is a no-op),
mutation and crossover are plain edits of the word arrays. Fitness is the
mean squared error against the target y = x*x + 0.5*x on sample points,
evaluated on the CPU interpreter; each generation's programs are compiled to
stubs in one batch, and with --cubin (when a PTX backend is available) they
are rendered into a small kernel's inject site and compiled to cubins with
mmptx.compile_batch.

    symbolic_regression.py [--generations N] [--population N] [--seed N]
                           [--cubin]
"""

import argparse
import random
import time
from pathlib import Path

import numpy as np

import mmptx
from mmptx import stack as S

# A kernel that evaluates the model at each thread: y[tid] = f(x[tid]).
KERNEL_PTX = (Path(__file__).parent / "fit.ptx").read_text()

OPS = {"add.ftz.f32": "+", "sub.ftz.f32": "-", "mul.ftz.f32": "*"}
CONSTANTS = (0.5, 1.0, 2.0, 3.0)
MAX_LEN = 24


def target(x):
    return x * x + 0.5 * x


class Genes:
    """The words programs are made of, and how to print them."""

    def __init__(self, iset):
        self.x = S.input_(0)
        self.consts = {iset.constant("F32", c): c for c in CONSTANTS}
        self.ops = {iset.ptx(name): sym for name, sym in OPS.items()}
        self.words = [self.x] * 3 + list(self.consts) + list(self.ops) * 2

    def random_word(self, rng):
        return rng.choice(self.words)

    def expression(self, words):
        """The infix form of what the program leaves on top of the stack:
        an instruction pops its first operand from the top, and is skipped
        when the stack holds too few."""
        st = []
        for w in (int(w) for w in words):
            if w == self.x:
                st.append("x")
            elif w in self.consts:
                st.append(repr(self.consts[w]))
            elif w in self.ops and len(st) >= 2:
                a, b = st.pop(), st.pop()
                st.append(f"({a} {self.ops[w]} {b})")
        return st[-1] if st else "0"


def mutate(rng, genes, words):
    """A random edit: replace, insert or delete one word."""
    w = list(words)
    kind = rng.randrange(3)
    if kind == 0 and w:
        w[rng.randrange(len(w))] = genes.random_word(rng)
    elif kind == 1 and len(w) < MAX_LEN or not w:
        w.insert(rng.randrange(len(w) + 1), genes.random_word(rng))
    elif len(w) > 1:
        del w[rng.randrange(len(w))]
    return np.array(w, dtype=np.uint64)


def crossover(rng, a, b):
    """One-point crossover of two word arrays, cut to MAX_LEN."""
    i = rng.randrange(len(a) + 1)
    j = rng.randrange(len(b) + 1)
    return np.concatenate([a[:i], b[j:]])[:MAX_LEN]


def fitness(cc, regs, out, prog, rows, ys):
    """Mean squared error on the sample points (inf when not finite)."""
    res = cc.interpret_rows(prog, regs, [out], rows)
    got = res[:, 0].astype(np.uint32).view(np.float32).astype(np.float64)
    err = float(np.mean((got - ys) ** 2))
    return err if np.isfinite(err) else float("inf")


def pick(rng, pop, errs, k=3):
    """Tournament selection of size k."""
    best = min(rng.sample(range(len(pop)), k), key=lambda i: errs[i])
    return pop[best]


def cubin_backend():
    avail = [b for b in mmptx.backends() if b.available]
    return avail[0].name if avail else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generations", type=int, default=30)
    ap.add_argument("--population", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cubin", action="store_true",
                    help="compile each generation to cubins (needs a backend)")
    args = ap.parse_args()
    if args.population < 4 or args.generations < 1:
        ap.error("need --population >= 4 and --generations >= 1")

    rng = random.Random(args.seed)
    module = mmptx.inject.Module(KERNEL_PTX, name="fit.ptx")
    site = module["model"]
    cc = S.Compiler(target_sm=80)
    regs = cc.instruction_set.registers(
        [(v.register, v.type, v.kind) for v in site])
    out = site["y"].index
    genes = Genes(cc.instruction_set)

    backend = cubin_backend() if args.cubin else None
    if args.cubin and backend is None:
        print("--cubin: no PTX backend available; compiling stubs only")

    xs = np.linspace(-2.0, 2.0, 21, dtype=np.float32)
    ys = target(xs.astype(np.float64))
    rows = np.stack([xs, np.zeros_like(xs)], axis=1)
    rows = np.ascontiguousarray(rows).view(np.uint32).astype(np.uint64)

    pop = [np.array([genes.random_word(rng) for _ in range(rng.randint(1, 8))],
                    dtype=np.uint64) for _ in range(args.population)]
    best_err, best = float("inf"), pop[0]
    stub_bytes = cubins = 0
    start = time.perf_counter()
    for gen in range(args.generations):
        stubs = cc.compile_batch(pop, regs, [out])
        stub_bytes += sum(len(s) for s in stubs)
        if backend:
            ptx = [module.render({"model": s}) for s in stubs]
            results = mmptx.compile_batch(ptx, backend=backend, check=True)
            cubins += len(results)
        errs = [fitness(cc, regs, out, p, rows, ys) for p in pop]
        i = min(range(len(pop)), key=lambda k: (errs[k], len(pop[k])))
        if errs[i] < best_err:
            best_err, best = errs[i], pop[i]
        print(f"generation {gen}: best mse {best_err:.6g} "
              f"({len(best)} words)")
        # Elitism: the best so far survives unchanged.
        nxt = [best]
        while len(nxt) < len(pop):
            child = pick(rng, pop, errs)
            if rng.random() < 0.5:
                child = crossover(rng, child, pick(rng, pop, errs))
            nxt.append(mutate(rng, genes, child))
        pop = nxt
    secs = time.perf_counter() - start

    print(f"{args.generations} generations x {args.population} programs in "
          f"{secs:.3f} s: {args.generations / secs:.1f} generations/s, "
          f"{stub_bytes} bytes of stubs"
          + (f", {cubins} cubins ({backend})" if backend else ""))
    print(f"best: y = {genes.expression(best)}  (mse {best_err:.6g})")
    print("stub:")
    print(cc.compile(best, regs, [out]).rstrip("\n"))


if __name__ == "__main__":
    main()
