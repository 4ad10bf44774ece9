#!/usr/bin/env python3
"""Random Stack PTX programs on the GPU against the CPU interpreter.

For each seed: `mmptx-stack --randomize` makes a random program over the
variables of stack_kernel.cu's inject site (f32, u32, s32, f64 and u64
stacks), `mmptx-opt --stub-gen` splices its stub into the kernel's PTX,
ptxas assembles it for the GPU, `mmptx-run` runs it on every input row, and
`mmptx-stack --interpret` computes each row on the CPU. The results must
agree:

- a program whose stub has no approximate instruction (`.approx`, `tanh`):
  bit for bit, except that every NaN equals every NaN;
- a program whose stub has one, on the rows of moderate inputs only (the
  ISA bounds sin/cos only within [-pi, pi]): floats within 2^-10 relative
  or 1e-6 absolute (the bound for one approximate instruction is 2 ulp, or
  2^-20.9 absolute for sin/cos, but later instructions can amplify it),
  infinities of the same sign equal, integers within 1. An amplified error
  (a cancellation after an approximation, a comparison that flips) is not
  a bug, so approximate programs fail the check only when more than one in
  five diverges.

Skipped, and counted: programs whose stub reads a special register whose
value is not 0 in a one-thread launch (the interpreter reads every special register as
0), and programs the interpreter does not support (warp-wide mma, which a
one-thread launch must not run either).

--no-gpu runs everything but the launch and compares the interpreter with
itself: the pipeline check for machines without a GPU.
"""

import argparse
import concurrent.futures
import math
import os
import re
import struct
import subprocess
import sys
import time

# Registers of the site, in kernel parameter order: (name, type, kind).
VARIABLES = [('x', 'f32', 'in'), ('y', 'f32', 'in'), ('a', 'u32', 'in'),
             ('b', 'u32', 'in'), ('c', 's32', 'in'), ('d', 's32', 'in'),
             ('w', 'f64', 'in'), ('v', 'u64', 'in'), ('f', 'f32', 'mod'),
             ('u', 'u32', 'mod'), ('s', 's32', 'mod'), ('g', 'f64', 'mod'),
             ('h', 'u64', 'mod')]
RESULTS = [n for n, _, k in VARIABLES if k == 'mod']
TYPES = {n: t for n, t, _ in VARIABLES}

# One column per input row. Both tools parse these strings the same way
# (strtod then a cast for f32), so both sides see the same bits. The first
# MODERATE_ROWS rows hold moderate values; the others subnormals, extremes,
# infinities and NaN.
ROWS = {
    'x': ['1.5', '-2.25', '0.1', '1e-39', '3.4e38', 'nan'],
    'y': ['0.75', '3', '-1.25', '-1e-38', 'inf', '2'],
    'a': ['7', '12345', '31', '4294967295', '2147483648', '0'],
    'b': ['3', '0', '2', '1', '32', '3735928559'],
    'c': ['-5', '100', '0', '2147483647', '-2147483648', '-1'],
    'd': ['9', '-7', '3', '-1', '0', '33'],
    'w': ['0.25', '2', '-0.5', '-1e300', '5e-324', '-0'],
    'v': ['12', '42', '7', '18446744073709551615', '9223372036854775808',
          '81985529216486895'],
    'f': ['0.5', '2', '-1', '7', '-0', '0'],
    'u': ['1', '2', '3', '4', '5', '6'],
    's': ['-1', '-2', '3', '4', '-5', '6'],
    'g': ['1', '3', '-2', '0.5', '0', '-1'],
    'h': ['1', '2', '3', '4', '5', '6'],
}
MODERATE_ROWS = 3
NUM_ROWS = len(ROWS['x'])

# Special registers that read 0 in a one-thread launch without dynamic
# shared memory, as the interpreter assumes.
ZERO_SPECIALS = {'tid', 'tid.x', 'tid.y', 'tid.z', 'ctaid', 'ctaid.x',
                 'ctaid.y', 'ctaid.z', 'laneid', 'warpid', 'lanemask_lt',
                 'dynamic_smem_size'}
APPROX = re.compile(r'\.approx|\btanh\b')


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    return r.returncode, r.stdout, r.stderr


def bits(typ, text):
    """The bits of a printed value: `1.5 (0f3FC00000)`, `7 (0x00000007)`,
    `-3`, or a bare %.17g double."""
    text = text.strip()
    m = re.search(r'\(0[fd]([0-9A-Fa-f]+)\)', text)
    if m:
        return int(m.group(1), 16)
    if typ == 'f64':
        return struct.unpack('<Q', struct.pack('<d', float(text)))[0]
    if typ == 'f32':
        return struct.unpack('<I', struct.pack('<f', float(text)))[0]
    value = int(text.split()[0])
    return value & (0xFFFFFFFF if typ in ('u32', 's32') else
                    0xFFFFFFFFFFFFFFFF)


def to_float(typ, b):
    return struct.unpack('<f', struct.pack('<I', b))[0] if typ == 'f32' else \
        struct.unpack('<d', struct.pack('<Q', b))[0]


def to_int(typ, b):
    if typ == 's32' and b & 0x80000000:
        return b - (1 << 32)
    return b


def agree(typ, gpu, cpu, approx):
    if typ in ('f32', 'f64'):
        g, c = to_float(typ, gpu), to_float(typ, cpu)
        if math.isnan(g) or math.isnan(c):
            return math.isnan(g) and math.isnan(c)
        if not approx:
            return gpu == cpu
        if math.isinf(g) or math.isinf(c):
            return g == c
        return abs(g - c) <= max(1e-6, 2 ** -10 * max(abs(g), abs(c)))
    if not approx:
        return gpu == cpu
    return abs(to_int(typ, gpu) - to_int(typ, cpu)) <= 1


def interpret(prog, row, target_sm):
    inputs = ','.join('%s=%s' % (n, ROWS[n][row]) for n, _, _ in VARIABLES)
    rc, out, err = run(['mmptx-stack', prog, '--target-sm=%d' % target_sm,
                        '--interpret', inputs])
    if rc != 0:
        return None, err.strip()
    values = {}
    for line in out.splitlines():
        name, _, text = line.partition(' = ')
        values[name.strip()] = bits(TYPES[name.strip()], text)
    return [values[n] for n in RESULTS], None


def prepare(args, seed, zero_specials):
    """Makes the program of \p seed and runs it on the CPU. Returns a dict:
    status ('exact', 'approx', 'skip-special', 'skip-unsupported' or
    'error'), prog (its file), cpu (per row, the results' bits), bad
    (messages)."""
    prog = os.path.join(args.work, 's%d.stack' % seed)
    res = {'seed': seed, 'prog': prog, 'cpu': None, 'bad': []}

    def fail(what, err):
        res.update(status='error', bad=['seed %d: %s: %s' % (seed, what, err)])
        return res

    rc, _, err = run(['mmptx-stack', args.base, '--randomize=%d' % args.words,
                      '--seed=%d' % seed, '--emit=text', '-o', prog])
    if rc != 0:
        return fail('mmptx-stack --randomize', err)
    # Classify by the stub, which holds only what the results depend on.
    rc, stub, err = run(['mmptx-stack', prog,
                         '--target-sm=%d' % args.target_sm])
    if rc != 0:
        return fail('mmptx-stack', err)
    names = set(re.findall(r'%([a-z_]+(?:\.[a-z])?)', stub))
    if {n for n in names if not n.startswith('_')} - set(TYPES) - \
            zero_specials:
        res['status'] = 'skip-special'
        return res
    res['status'] = 'approx' if APPROX.search(stub) else 'exact'
    cpu = []
    for row in range(NUM_ROWS):
        values, err = interpret(prog, row, args.target_sm)
        if values is None:
            if 'does not support' in err:
                res['status'] = 'skip-unsupported'
                return res
            return fail('interpreter', err)
        cpu.append(values)
    res['cpu'] = cpu
    return res


def compare(res, gpu):
    """Adds to res['bad'] every result of \p gpu (per row, the results'
    bits) that disagrees with the CPU's. An approximate program is compared
    on the moderate rows only: the ISA bounds approximate instructions'
    error only there (sin/cos within [-pi, pi], ex2 without overflow)."""
    approx = res['status'] == 'approx'
    for row in range(MODERATE_ROWS if approx else NUM_ROWS):
        for i, name in enumerate(RESULTS):
            g, c = gpu[row][i], res['cpu'][row][i]
            if not agree(TYPES[name], g, c, approx):
                res['bad'].append(
                    'seed %d (%s) row %d: %s = %#x on the GPU, %#x on the CPU'
                    % (res['seed'], res['prog'], row, name, g, c))


def read_buffers(out):
    """mmptx-run's output as {(argument index, element): text}."""
    read = {}
    for line in out.splitlines():
        m = re.match(r'arg(\d+)\[(\d+)\] = (.*)', line)
        if m:
            read[(int(m.group(1)), int(m.group(2)))] = m.group(3)
    return read


def check_single(args, seed):
    """One program in stack_kernel, one cubin, one launch."""
    res = prepare(args, seed, ZERO_SPECIALS)
    res['times'] = None
    if res['cpu'] is None:
        return res
    stem = res['prog'][:-len('.stack')]
    for cmd in (['mmptx-opt', args.ptx, '--stub-gen', 'stack=' + res['prog'],
                 '-o', stem + '.ptx'],
                ['ptxas', '-arch=' + args.arch, stem + '.ptx', '-o',
                 stem + '.cubin']):
        rc, _, err = run(cmd)
        if rc != 0:
            res.update(status='error', bad=['seed %d: %s: %s' %
                                            (seed, cmd[0], err)])
            return res
    if args.no_gpu:
        compare(res, res['cpu'])
        return res
    cmd = ['mmptx-run', stem + '.cubin', '--kernel=stack_kernel', '--time']
    for name, typ, kind in VARIABLES:
        cmd.append('--arg=%s:%s:%s' % ('in' if kind == 'in' else 'inout',
                                       typ, ','.join(ROWS[name])))
    cmd.append('--arg=s32:%d' % NUM_ROWS)
    rc, out, err = run(cmd)
    if rc != 0:
        res.update(status='error', bad=['seed %d: mmptx-run: %s' %
                                        (seed, err)])
        return res
    res['times'] = [float(t) for t in re.findall(r'([0-9.]+) ms', err)]
    read = read_buffers(out)
    index = {n: i for i, (n, _, _) in enumerate(VARIABLES)}
    compare(res, [[bits(TYPES[n], read[(index[n], row)]) for n in RESULTS]
                  for row in range(NUM_ROWS)])
    return res


PACKED_HEADER = """// Generated by check-stack-random.py --packed: block p runs site "p<p>".
#include "mmptx/cuda/ptx_inject.h"
#define SITE(K)                                                               \\
  case K:                                                                     \\
    PTX_INJECT("p" #K, PTX_IN(F32, x), PTX_IN(F32, y), PTX_IN(U32, a),        \\
               PTX_IN(U32, b), PTX_IN(S32, c), PTX_IN(S32, d),                \\
               PTX_IN(F64, w), PTX_IN(U64, v), PTX_MOD(F32, f),               \\
               PTX_MOD(U32, u), PTX_MOD(S32, s), PTX_MOD(F64, g),             \\
               PTX_MOD(U64, h));                                              \\
    break;
extern "C" __global__ void packed_kernel(
    const float *xs, const float *ys, const unsigned *as, const unsigned *bs,
    const int *cs, const int *ds, const double *ws,
    const unsigned long long *vs, const float *f0, const unsigned *u0,
    const int *s0, const double *g0, const unsigned long long *h0, float *fo,
    unsigned *uo, int *so, double *go, unsigned long long *ho, int n) {
  const int p = blockIdx.x;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
    float x = xs[i], y = ys[i], f = f0[i];
    unsigned a = as[i], b = bs[i], u = u0[i];
    int c = cs[i], d = ds[i], s = s0[i];
    double w = ws[i], g = g0[i];
    unsigned long long v = vs[i], h = h0[i];
    switch (p) {
"""
PACKED_FOOTER = """    }
    fo[p * n + i] = f;
    uo[p * n + i] = u;
    so[p * n + i] = s;
    go[p * n + i] = g;
    ho[p * n + i] = h;
  }
}
"""


def check_packed(args, seeds, pool):
    """Every program in one kernel of one cubin (a site per program, block p
    runs site p), one launch; each program checked on its own."""
    # %ctaid is the program's index here, not 0.
    zero = ZERO_SPECIALS - {'ctaid', 'ctaid.x'}
    results = list(pool.map(lambda s: prepare(args, s, zero), seeds))
    stem = os.path.join(args.work, 'packed')
    with open(stem + '.cu', 'w') as f:
        f.write(PACKED_HEADER)
        for k in range(len(results)):
            f.write('      SITE(%d)\n' % k)
        f.write(PACKED_FOOTER)
    # A program the interpreter cannot check still needs a stub; one that
    # must not run in a one-thread block (mma) gets the empty base program.
    stubs = []
    for k, res in enumerate(results):
        prog = res['prog'] if res['status'] != 'skip-unsupported' and \
            os.path.exists(res['prog']) else args.base
        stubs += ['--stub-gen', 'p%d=%s' % (k, prog)]
    start = time.monotonic()
    steps = [['nvcc', '-ptx', '-arch=sm_%d' % args.target_sm] +
             ['-I' + d for d in args.include] + [stem + '.cu', '-o',
                                                  stem + '.base.ptx'],
             ['mmptx-opt', stem + '.base.ptx'] + stubs + ['-o', stem + '.ptx'],
             ['ptxas', '-arch=' + args.arch, stem + '.ptx', '-o',
              stem + '.cubin']]
    for cmd in steps:
        rc, _, err = run(cmd)
        if rc != 0:
            sys.exit('error: %s failed:\n%s' % (cmd[0], err))
    print('packed: %d sites, nvcc + stub-gen + ptxas %.1f s' %
          (len(results), time.monotonic() - start))
    n = len(results) * NUM_ROWS
    if args.no_gpu:
        for res in results:
            if res['cpu'] is not None:
                compare(res, res['cpu'])
        return results, None
    cmd = ['mmptx-run', stem + '.cubin', '--kernel=packed_kernel', '--time',
           '--grid=%d' % len(results)]
    for name, typ, _ in VARIABLES:
        cmd.append('--arg=in:%s:%s' % (typ, ','.join(ROWS[name])))
    for name in RESULTS:
        cmd.append('--arg=out:%s:%d' % (TYPES[name], n))
    cmd.append('--arg=s32:%d' % NUM_ROWS)
    rc, out, err = run(cmd)
    if rc != 0:
        sys.exit('error: mmptx-run failed:\n' + err)
    read = read_buffers(out)
    first_out = len(VARIABLES)
    for k, res in enumerate(results):
        if res['cpu'] is None:
            continue
        compare(res, [[bits(TYPES[name],
                            read[(first_out + i, k * NUM_ROWS + row)])
                       for i, name in enumerate(RESULTS)]
                      for row in range(NUM_ROWS)])
    return results, [float(t) for t in re.findall(r'([0-9.]+) ms', err)]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--ptx', help="stack_kernel.cu's PTX (not with --packed)")
    p.add_argument('--base', required=True, help='stack_kernel.stack')
    p.add_argument('--arch', required=True, help='ptxas -arch (sm_XY)')
    p.add_argument('--target-sm', type=int, default=80,
                   help="the PTX's .target, for the interpreter")
    p.add_argument('--seeds', default='1-40', help='FIRST-LAST')
    p.add_argument('--words', type=int, default=48)
    p.add_argument('--work', required=True, help='a scratch directory')
    p.add_argument('--packed', action='store_true',
                   help='all programs in one generated kernel, one launch')
    p.add_argument('--include', action='append', default=[],
                   help='with --packed: nvcc include directories')
    p.add_argument('--no-gpu', action='store_true')
    args = p.parse_args()
    if not args.packed and not args.ptx:
        p.error('--ptx is needed without --packed')
    first, _, last = args.seeds.partition('-')
    seeds = range(int(first), int(last or first) + 1)
    os.makedirs(args.work, exist_ok=True)

    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        if args.packed:
            results, packed_times = check_packed(args, seeds, pool)
            times = [packed_times] if packed_times else []
        else:
            results = list(pool.map(lambda s: check_single(args, s), seeds))
            times = [r['times'] for r in results if r['times']]
    elapsed = time.monotonic() - start

    counts = {}
    failures, approx_bad = [], 0
    for res in results:
        counts[res['status']] = counts.get(res['status'], 0) + 1
        if res['status'] == 'approx' and res['bad']:
            approx_bad += 1
            print('diverged (approximate):\n  ' + '\n  '.join(res['bad']))
        else:
            failures += res['bad']
    checked = counts.get('exact', 0) + counts.get('approx', 0)
    print('checked %d programs (%d exact, %d approximate, %d diverged within '
          'the approximate allowance) on %d rows each' %
          (checked, counts.get('exact', 0), counts.get('approx', 0),
           approx_bad, NUM_ROWS))
    print('skipped %d (special registers) and %d (unsupported by the '
          'interpreter)' % (counts.get('skip-special', 0),
                            counts.get('skip-unsupported', 0)))
    if times:
        median = lambda v: sorted(v)[len(v) // 2]
        print('GPU: module load %.3f ms, launch %.3f ms (medians of %d); %.1f '
              'programs checked per second end to end' %
              (median([t[0] for t in times]), median([t[1] for t in times]),
               len(times), checked / elapsed))
    for f in failures:
        print('MISMATCH ' + f)
    if failures or counts.get('error', 0) or \
            approx_bad * 5 > max(counts.get('approx', 0), 1):
        print('FAILED')
        return 1
    print('PASSED')
    return 0


if __name__ == '__main__':
    sys.exit(main())
