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
- a program whose stub has one: floats within 2^-10 relative or 1e-6 absolute (the
  ISA's error bound for one approximate instruction is 2 ulp, or 2^-20.9
  absolute for sin/cos, but later instructions can amplify it), infinities
  of the same sign equal, integers within 1. An amplified error (a
  cancellation after an approximation, a comparison that flips) is not a
  bug, so approximate programs fail the check only when more than one in
  ten diverges.

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
# (strtod then a cast for f32), so both sides see the same bits.
ROWS = {
    'x': ['1.5', '-2.25', '1e-39', '3.4e38', '-0', 'nan'],
    'y': ['0.75', '3', '-1e-38', '2', 'inf', '0.1'],
    'a': ['7', '4294967295', '0', '2147483648', '12345', '31'],
    'b': ['3', '1', '32', '2', '0', '3735928559'],
    'c': ['-5', '2147483647', '-2147483648', '0', '100', '-1'],
    'd': ['9', '-1', '3', '0', '-7', '33'],
    'w': ['0.25', '-1e300', '5e-324', '2', '-0', '1e10'],
    'v': ['12', '18446744073709551615', '0', '9223372036854775808', '42',
          '81985529216486895'],
    'f': ['0.5', '-1', '0', '2', '7', '-0'],
    'u': ['1', '2', '3', '4', '5', '6'],
    's': ['-1', '-2', '3', '4', '-5', '6'],
    'g': ['1', '-2', '0.5', '3', '0', '-1'],
    'h': ['1', '2', '3', '4', '5', '6'],
}
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


def check_seed(args, seed):
    """Returns (status, detail, gpu_times): status is 'exact', 'approx',
    'skip-special', 'skip-unsupported' or 'error'; detail lists the
    mismatches."""
    stem = os.path.join(args.work, 's%d' % seed)
    prog = stem + '.stack'
    rc, _, err = run(['mmptx-stack', args.base, '--randomize=%d' % args.words,
                      '--seed=%d' % seed, '--emit=text', '-o', prog])
    if rc != 0:
        return 'error', ['seed %d: mmptx-stack --randomize: %s' % (seed, err)], None
    # Classify by the stub, which holds only what the results depend on.
    rc, stub, err = run(['mmptx-stack', prog,
                         '--target-sm=%d' % args.target_sm])
    if rc != 0:
        return 'error', ['seed %d: mmptx-stack: %s' % (seed, err)], None
    names = set(re.findall(r'%([a-z_]+(?:\.[a-z])?)', stub))
    specials = {n for n in names if not n.startswith('_')} - set(TYPES) - \
        ZERO_SPECIALS
    if specials:
        return 'skip-special', [], None
    approx = bool(APPROX.search(stub))

    cpu = []
    for row in range(NUM_ROWS):
        values, err = interpret(prog, row, args.target_sm)
        if values is None:
            if 'does not support' in err:
                return 'skip-unsupported', [], None
            return 'error', ['seed %d: interpreter: %s' % (seed, err)], None
        cpu.append(values)

    rc, _, err = run(['mmptx-opt', args.ptx, '--stub-gen', 'stack=' + prog,
                      '-o', stem + '.ptx'])
    if rc != 0:
        return 'error', ['seed %d: stub-gen: %s' % (seed, err)], None
    rc, _, err = run(['ptxas', '-arch=' + args.arch, stem + '.ptx', '-o',
                      stem + '.cubin'])
    if rc != 0:
        return 'error', ['seed %d: ptxas: %s' % (seed, err)], None

    times = None
    if args.no_gpu:
        gpu = cpu
    else:
        cmd = ['mmptx-run', stem + '.cubin', '--kernel=stack_kernel', '--time']
        for name, typ, kind in VARIABLES:
            cmd.append('--arg=%s:%s:%s' % ('in' if kind == 'in' else 'inout',
                                           typ, ','.join(ROWS[name])))
        cmd.append('--arg=s32:%d' % NUM_ROWS)
        rc, out, err = run(cmd)
        if rc != 0:
            return 'error', ['seed %d: mmptx-run: %s' % (seed, err)], None
        times = [float(t) for t in re.findall(r'([0-9.]+) ms', err)]
        read = {}
        for line in out.splitlines():
            m = re.match(r'arg(\d+)\[(\d+)\] = (.*)', line)
            name, typ, _ = VARIABLES[int(m.group(1))]
            read[(name, int(m.group(2)))] = bits(typ, m.group(3))
        gpu = [[read[(n, row)] for n in RESULTS] for row in range(NUM_ROWS)]

    bad = []
    for row in range(NUM_ROWS):
        for i, name in enumerate(RESULTS):
            typ = TYPES[name]
            if not agree(typ, gpu[row][i], cpu[row][i], approx):
                bad.append('seed %d (%s) row %d: %s = %#x on the GPU, %#x on '
                           'the CPU' % (seed, prog, row, name, gpu[row][i],
                                        cpu[row][i]))
    return ('approx' if approx else 'exact'), bad, times


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--ptx', required=True, help="stack_kernel.cu's PTX")
    p.add_argument('--base', required=True, help='stack_kernel.stack')
    p.add_argument('--arch', required=True, help='ptxas -arch (sm_XY)')
    p.add_argument('--target-sm', type=int, default=80,
                   help="the PTX's .target, for the interpreter")
    p.add_argument('--seeds', default='1-40', help='FIRST-LAST')
    p.add_argument('--words', type=int, default=48)
    p.add_argument('--work', required=True, help='a scratch directory')
    p.add_argument('--no-gpu', action='store_true')
    args = p.parse_args()
    first, _, last = args.seeds.partition('-')
    seeds = range(int(first), int(last or first) + 1)
    os.makedirs(args.work, exist_ok=True)

    start = time.monotonic()
    counts = {}
    failures, approx_bad, load_ms, launch_ms = [], 0, [], []
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for status, bad, times in pool.map(lambda s: check_seed(args, s),
                                           seeds):
            counts[status] = counts.get(status, 0) + 1
            if status == 'approx' and bad:
                approx_bad += 1
                print('diverged (approximate):\n  ' + '\n  '.join(bad))
            elif bad:
                failures += bad
            if times and len(times) == 2:
                load_ms.append(times[0])
                launch_ms.append(times[1])
    elapsed = time.monotonic() - start

    checked = counts.get('exact', 0) + counts.get('approx', 0)
    print('checked %d programs (%d exact, %d approximate, %d diverged within '
          'the approximate allowance) on %d rows each' %
          (checked, counts.get('exact', 0), counts.get('approx', 0),
           approx_bad, NUM_ROWS))
    print('skipped %d (special registers) and %d (unsupported by the '
          'interpreter)' % (counts.get('skip-special', 0),
                            counts.get('skip-unsupported', 0)))
    if load_ms:
        print('GPU: module load %.3f ms, launch %.3f ms (medians); %.1f '
              'programs checked per second end to end' %
              (sorted(load_ms)[len(load_ms) // 2],
               sorted(launch_ms)[len(launch_ms) // 2], checked / elapsed))
    for f in failures:
        print('MISMATCH ' + f)
    if failures or counts.get('error', 0) or \
            approx_bad * 10 > max(counts.get('approx', 0), 1):
        print('FAILED')
        return 1
    print('PASSED')
    return 0


if __name__ == '__main__':
    sys.exit(main())
