#!/usr/bin/env python3
"""Runs the semiring GEMM variants of examples/semiring-gemm on the GPU and
checks each against a CPU reference.

Every variant is a pair of Stack PTX programs spliced into the kernel's PTX
(`mmptx-opt --stub-gen`), assembled for the GPU at hand (ptxas) and run with
`mmptx-run`. The reference folds the same semiring operation over k in
double precision, starting, like the kernel, from acc = 0 (so max-plus is
max(0, max_k a + b)). Tolerance: 1e-5 of the sum of the terms' magnitudes
(plus 1e-6), which covers float32 rounding and fma contraction.

Prints, per variant, the GPU module load and launch times, then how many
variants were checked per second end to end (stub-gen, ptxas, load, run,
compare).
"""

import argparse
import math
import os
import random
import re
import struct
import subprocess
import sys
import time

TILE = 16
# name: (mma program, epilogue program, acc update, epilogue, |term|)
VARIANTS = {
    'gemm': ('gemm', 'epilogue-identity', lambda acc, a, b: acc + a * b,
             lambda acc: acc, lambda a, b: abs(a * b)),
    'l1': ('l1', 'epilogue-identity', lambda acc, a, b: acc + abs(a - b),
           lambda acc: acc, lambda a, b: abs(a - b)),
    'l2': ('l2', 'epilogue-sqrt', lambda acc, a, b: acc + (a - b) ** 2,
           math.sqrt, lambda a, b: (a - b) ** 2),
    'maxplus': ('maxplus', 'epilogue-identity',
                lambda acc, a, b: max(acc, a + b), lambda acc: acc,
                lambda a, b: abs(a + b)),
}


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if r.returncode != 0:
        sys.exit('error: %s failed:\n%s' % (' '.join(cmd[:2]), r.stderr))
    return r.stdout, r.stderr


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--ptx', required=True,
                   help='the annotated kernel compiled to PTX (nvcc -ptx)')
    p.add_argument('--examples', required=True,
                   help='examples/semiring-gemm (the .stack programs)')
    p.add_argument('--arch', required=True, help='ptxas -arch (sm_XY)')
    p.add_argument('--n', type=int, default=48, help='matrix size')
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--work', required=True, help='a scratch directory')
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    n = args.n
    rng = random.Random(args.seed)
    A = [f32(rng.uniform(-1, 1)) for _ in range(n * n)]
    B = [f32(rng.uniform(-1, 1)) for _ in range(n * n)]
    blocks = (n + TILE - 1) // TILE

    start = time.monotonic()
    failed = 0
    for name, (mma, epi, op, finish, term) in VARIANTS.items():
        stem = os.path.join(args.work, name)
        run(['mmptx-opt', args.ptx,
             '--stub-gen', 'mma=' + os.path.join(args.examples, mma + '.stack'),
             '--stub-gen',
             'epilogue=' + os.path.join(args.examples, epi + '.stack'),
             '-o', stem + '.ptx'])
        run(['ptxas', '-arch=' + args.arch, stem + '.ptx', '-o',
             stem + '.cubin'])
        out, err = run([
            'mmptx-run', stem + '.cubin', '--kernel=semiring_gemm',
            '--grid=%d,%d' % (blocks, blocks), '--block=%d,%d' % (TILE, TILE),
            '--time', '--arg=in:f32:' + ','.join('%.9g' % x for x in A),
            '--arg=in:f32:' + ','.join('%.9g' % x for x in B),
            '--arg=out:f32:%d' % (n * n), '--arg=s32:%d' % n])
        C = {}
        for line in out.splitlines():
            m = re.match(r'arg2\[(\d+)\] = (\S+)', line)
            if m:
                C[int(m.group(1))] = float(m.group(2))
        bad = 0
        for row in range(n):
            for col in range(n):
                acc, scale = 0.0, 0.0
                for k in range(n):
                    a, b = A[row * n + k], B[k * n + col]
                    acc = op(acc, a, b)
                    scale += term(a, b)
                want = finish(acc)
                got = C.get(row * n + col, float('nan'))
                if not abs(got - want) <= 1e-5 * scale + 1e-6:
                    if bad < 5:
                        print('MISMATCH %s C[%d][%d] = %.9g on the GPU, %.9g '
                              'on the CPU' % (name, row, col, got, want))
                    bad += 1
        times = re.findall(r'([0-9.]+) ms', err)
        print('%s: %d x %d, %s (module load %s ms, launch %s ms)' %
              (name, n, n, 'mismatches: %d' % bad if bad else 'matches',
               times[0], times[1]))
        failed += bool(bad)
    elapsed = time.monotonic() - start
    print('%d variants checked, %.1f per second end to end' %
          (len(VARIANTS), len(VARIANTS) / elapsed))
    print('FAILED' if failed else 'PASSED')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
