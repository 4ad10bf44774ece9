#!/usr/bin/env python3
"""Random Stack PTX or AST PTX programs on the GPU against the CPU interpreter.

For each seed a random program over the variables of a test kernel's inject
site is made (`mmptx-stack --randomize` over stack_kernel.cu's variables;
with --ast, `mmptx-ast --random` over ast_kernel.cu's; both kernels have
variables on every stack a site can carry: F32, U32, PHILOX, S32, F16,
F16X2, F64, B32, BF16, BF16X2, U64), `mmptx-opt
--stub-gen` splices its stub into the kernel's PTX, ptxas assembles it for
the GPU, `mmptx-run` runs it on every input row, and the compiler's
`--interpret` computes each row on the CPU. The results must agree:

- a program whose stub has no approximate instruction (`.approx`, `tanh`):
  bit for bit, except that every NaN equals every NaN (lane by lane for
  the packed f16x2/bf16x2 values);
- a program whose stub has one, on the rows of moderate inputs only (the
  ISA bounds sin/cos only within [-pi, pi]): floats within 2^-10 relative
  or 1e-6 absolute (the bound for one approximate instruction is 2 ulp, or
  2^-20.9 absolute for sin/cos, but later instructions can amplify it);
  f16 lanes within 2^-7 relative or 2^-10 absolute and bf16 lanes within
  2^-4 relative or 2^-10 absolute (a few ulp of their 10- and 7-bit
  fractions); infinities of the same sign equal, integers within 1. An
  amplified error (a cancellation after an approximation, a comparison
  that flips) is not a bug, so approximate programs fail the check only
  when more than one in five diverges.

An AST PTX program's outputs are separate expressions, so there the
classification is per output: an output whose expression has no
approximate instruction is compared bit for bit on every row, and the
allowance counts approximate outputs (more than one in five diverging
fails).

Skipped, and counted: programs whose stub reads a special register whose
value is not 0 in a one-thread launch (the interpreter reads every special register as
0), and programs the interpreter does not support (warp-wide mma, which a
one-thread launch must not run either).

--no-gpu runs everything but the launch and compares the interpreter with
itself: the pipeline check for machines without a GPU.
"""

import argparse
import concurrent.futures
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import time


class Layout:
    """The variables of a test kernel's inject site and their input rows.

    variables: (name, stack, kind) in kernel parameter order, kind 'in',
    'mod' or 'out'; rows: per in or mod variable, one value per row (both
    the interpreter and mmptx-run parse these strings the same way: strtod
    then a cast for f32, integers with an optional 0x), the first
    MODERATE_ROWS rows moderate values, the others subnormals, extremes,
    infinities and NaN."""

    def __init__(self, variables, rows):
        self.variables = variables
        self.rows = rows
        self.results = [n for n, _, k in variables if k != 'in']
        self.stacks = {n: t for n, t, _ in variables}
        self.num_rows = len(next(iter(rows.values())))


# stack_kernel.cu's site `stack`. 16-bit and packed values are given as bits
# (F16 0x3e00 is 1.5, BF16 0x3fc0 is 1.5; an X2's low half is its first
# lane).
STACK_LAYOUT = Layout(
    [('x', 'F32', 'in'), ('y', 'F32', 'in'), ('a', 'U32', 'in'),
     ('b', 'U32', 'in'), ('c', 'S32', 'in'), ('d', 'S32', 'in'),
     ('w', 'F64', 'in'), ('v', 'U64', 'in'), ('p', 'PHILOX', 'in'),
     ('k', 'F16', 'in'), ('kk', 'F16X2', 'in'), ('e', 'BF16', 'in'),
     ('ee', 'BF16X2', 'in'), ('z', 'B32', 'in'), ('f', 'F32', 'mod'),
     ('u', 'U32', 'mod'), ('s', 'S32', 'mod'), ('g', 'F64', 'mod'),
     ('h', 'U64', 'mod'), ('q', 'PHILOX', 'mod'), ('r', 'F16', 'mod'),
     ('rr', 'F16X2', 'mod'), ('t', 'BF16', 'mod'), ('tt', 'BF16X2', 'mod'),
     ('n', 'B32', 'mod')],
    {
        'x': ['1.5', '-2.25', '0.1', '1e-39', '3.4e38', 'nan'],
        'y': ['0.75', '3', '-1.25', '-1e-38', 'inf', '2'],
        'a': ['7', '12345', '31', '4294967295', '2147483648', '0'],
        'b': ['3', '0', '2', '1', '32', '3735928559'],
        'c': ['-5', '100', '0', '2147483647', '-2147483648', '-1'],
        'd': ['9', '-7', '3', '-1', '0', '33'],
        'w': ['0.25', '2', '-0.5', '-1e300', '5e-324', '-0'],
        'v': ['12', '42', '7', '18446744073709551615',
              '9223372036854775808', '81985529216486895'],
        'p': ['0x12345678', '7', '3735928559', '0', '4294967295',
              '0x80000000'],
        'k': ['0x3e00', '0xc080', '0x2e66', '0x0001', '0x7bff', '0x7e00'],
        'kk': ['0x3c003e00', '0xc0803800', '0x2e66bc00', '0x80017c00',
               '0x7bfffc00', '0x7e000000'],
        'e': ['0x3fc0', '0xc010', '0x3dcd', '0x0001', '0x7f7f', '0x7fc0'],
        'ee': ['0x3f803fc0', '0xc0103f00', '0x3dcdbf80', '0x80017f80',
               '0x7f7fff80', '0x7fc00000'],
        'z': ['0x3fc00000', '0xffff0000', '0x0000ffff', '0x80000000',
              '0xffffffff', '0'],
        'f': ['0.5', '2', '-1', '7', '-0', '0'],
        'u': ['1', '2', '3', '4', '5', '6'],
        's': ['-1', '-2', '3', '4', '-5', '6'],
        'g': ['1', '3', '-2', '0.5', '0', '-1'],
        'h': ['1', '2', '3', '4', '5', '6'],
        'q': ['1', '2', '3', '4', '5', '6'],
        'r': ['0x3c00', '0x4000', '0xbc00', '0x3800', '0x8000', '0'],
        'rr': ['0x3c004000', '0xbc003800', '0x40000000', '0x3c00bc00',
               '0x80003c00', '0'],
        't': ['0x3f80', '0x4000', '0xbf80', '0x3f00', '0x8000', '0'],
        'tt': ['0x3f804000', '0xbf803f00', '0x40000000', '0x3f80bf80',
               '0x80003f80', '0'],
        'n': ['1', '0xffffffff', '0x80000000', '4', '5', '6'],
    })

# ast_kernel.cu's site `ast`: an in variable x<t> and an out variable y<t>
# per stack, the inputs those of stack_kernel.cu's variable given here.
AST_STACKS = [('f', 'F32', 'x'), ('u', 'U32', 'a'), ('p', 'PHILOX', 'p'),
              ('s', 'S32', 'c'), ('h', 'F16', 'k'), ('hh', 'F16X2', 'kk'),
              ('d', 'F64', 'w'), ('b', 'B32', 'z'), ('e', 'BF16', 'e'),
              ('ee', 'BF16X2', 'ee'), ('l', 'U64', 'v')]
AST_LAYOUT = Layout(
    [('x' + t, s, 'in') for t, s, _ in AST_STACKS] +
    [('y' + t, s, 'out') for t, s, _ in AST_STACKS],
    {'x' + t: STACK_LAYOUT.rows[v] for t, _, v in AST_STACKS})
MODERATE_ROWS = 3

# Per stack: the mmptx-run buffer type (16-bit and packed values travel in
# u32 buffers), the float lanes of a value as (format, lane width) or None
# for an integer, and the value's width in bits.
BUFFER_TYPES = {'F32': 'f32', 'F64': 'f64', 'S32': 's32', 'U64': 'u64'}
FLOAT_LANES = {'F32': ('f32', 32), 'F64': ('f64', 64), 'F16': ('f16', 16),
               'F16X2': ('f16', 16), 'BF16': ('bf16', 16),
               'BF16X2': ('bf16', 16)}
WIDTHS = {'F64': 64, 'U64': 64, 'F16': 16, 'BF16': 16}
# Approximate tolerance per float format: (relative, absolute).
TOLERANCE = {'f32': (2 ** -10, 1e-6), 'f64': (2 ** -10, 1e-6),
             'f16': (2 ** -7, 2 ** -10), 'bf16': (2 ** -4, 2 ** -10)}


def buffer_type(stack):
    return BUFFER_TYPES.get(stack, 'u32')


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


def bits(stack, text):
    """The bits of a printed value: `1.5 (0f3FC00000)`, `7 (0x00000007)`,
    `-3`, or a bare %.17g double."""
    text = text.strip()
    m = re.search(r'\(0[fd]([0-9A-Fa-f]+)\)', text)
    if m:
        return int(m.group(1), 16)
    if stack == 'F64':
        return struct.unpack('<Q', struct.pack('<d', float(text)))[0]
    if stack == 'F32':
        return struct.unpack('<I', struct.pack('<f', float(text)))[0]
    return int(text.split()[0], 0) & ((1 << WIDTHS.get(stack, 32)) - 1)


def lane_value(fmt, b):
    if fmt == 'f32':
        return struct.unpack('<f', struct.pack('<I', b))[0]
    if fmt == 'f64':
        return struct.unpack('<d', struct.pack('<Q', b))[0]
    if fmt == 'f16':
        return struct.unpack('<e', struct.pack('<H', b))[0]
    return struct.unpack('<f', struct.pack('<I', b << 16))[0]  # bf16


def lane_agrees(fmt, gpu, cpu, approx):
    g, c = lane_value(fmt, gpu), lane_value(fmt, cpu)
    if math.isnan(g) or math.isnan(c):
        return math.isnan(g) and math.isnan(c)
    if not approx:
        return gpu == cpu
    if math.isinf(g) or math.isinf(c):
        return g == c
    rel, absolute = TOLERANCE[fmt]
    return abs(g - c) <= max(absolute, rel * max(abs(g), abs(c)))


def agree(stack, gpu, cpu, approx):
    if stack in FLOAT_LANES:
        fmt, width = FLOAT_LANES[stack]
        mask = (1 << width) - 1
        lanes = WIDTHS.get(stack, 32) // width
        return all(lane_agrees(fmt, (gpu >> (k * width)) & mask,
                               (cpu >> (k * width)) & mask, approx)
                   for k in range(lanes))
    if not approx:
        return gpu == cpu
    signed = lambda b: b - (1 << 32) if stack == 'S32' and b & 0x80000000 \
        else b
    return abs(signed(gpu) - signed(cpu)) <= 1


def compiler(args):
    return 'mmptx-ast' if args.ast else 'mmptx-stack'


def interpret(args, prog, row):
    lay = args.layout
    inputs = ','.join('%s=%s' % (n, lay.rows[n][row])
                      for n, _, k in lay.variables if k != 'out')
    rc, out, err = run([compiler(args), prog, '--target-sm=%d' %
                        args.target_sm, '--interpret', inputs])
    if rc != 0:
        return None, err.strip()
    values = {}
    for line in out.splitlines():
        name, _, text = line.partition(' = ')
        values[name.strip()] = bits(lay.stacks[name.strip()], text)
    return [values[n] for n in lay.results], None


def make_ast_program(args, seed, prog):
    """A random AST PTX program over ast_kernel.cu's variables: mmptx-ast
    names them i<stack>/o<stack>, renamed here to the kernel's names by
    their stacks. \returns an error message or None."""
    stacks = [s for _, s, _ in AST_STACKS]
    rc, text, err = run(['mmptx-ast', '--random=%d' % args.words,
                         '--seed=%d' % seed, '--random-stacks=' +
                         ','.join(stacks), '--target-sm=%d' % args.target_sm,
                         '--emit=text'])
    if rc != 0:
        return err
    names = {}
    for kind, name, stack in re.findall(r'\((in|out) ([a-z]\d+) (\w+)\)',
                                        text):
        names[name] = [n for n, t, k in args.layout.variables
                       if t == stack and k == kind][0]
    with open(prog, 'w') as f:
        f.write(re.sub(r'\b[io]\d+\b',
                       lambda m: names.get(m.group(0), m.group(0)), text))
    return None


def prepare(args, seed, zero_specials):
    """Makes the program of `seed` and runs it on the CPU. Returns a dict:
    status ('exact', 'approx', 'skip-special', 'skip-unsupported' or
    'error'), prog (its file), cpu (per row, the results' bits), bad
    (messages)."""
    lay = args.layout
    prog = os.path.join(args.work, ('a%d.ast' if args.ast else 's%d.stack') %
                        seed)
    res = {'seed': seed, 'prog': prog, 'cpu': None, 'bad': [],
           'diverged': {}, 'approx': set()}

    def fail(what, err):
        res.update(status='error', bad=['seed %d: %s: %s' % (seed, what, err)])
        return res

    if args.ast and args.program:
        shutil.copyfile(args.program, prog)
    elif args.ast:
        err = make_ast_program(args, seed, prog)
        if err is not None:
            return fail('mmptx-ast --random', err)
    elif args.program:
        shutil.copyfile(args.program, prog)
    else:
        rc, _, err = run(['mmptx-stack', args.base,
                          '--randomize=%d' % args.words, '--seed=%d' % seed,
                          '--emit=text', '-o', prog])
        if rc != 0:
            return fail('mmptx-stack --randomize', err)
    # Classify by the stub, which holds only what the results depend on.
    rc, stub, err = run([compiler(args), prog,
                         '--target-sm=%d' % args.target_sm])
    if rc != 0:
        return fail(compiler(args), err)
    # Registers other than the variables, the site's (%_x<i>) and AST PTX's
    # temporaries (%ast<k>, %ast_s<stack>_<k>) are special registers.
    names = set(re.findall(r'%([a-z_]+(?:\.[a-z])?)', stub))
    if {n for n in names if not n.startswith('_') and
            not n.startswith('ast')} - set(lay.stacks) - zero_specials:
        res['status'] = 'skip-special'
        return res
    if args.ast:
        # Each output is its own expression: only those with an approximate
        # instruction are compared as approximate.
        with open(prog) as f:
            res['approx'] = {m.group(1) for m in re.finditer(
                r'^\(= (\w+) (.*)$', f.read(), re.M) if APPROX.search(m.group(2))}
    elif APPROX.search(stub):
        res['approx'] = set(lay.results)
    res['status'] = 'approx' if res['approx'] else 'exact'
    cpu = []
    for row in range(lay.num_rows):
        values, err = interpret(args, prog, row)
        if values is None:
            if 'does not support' in err:
                res['status'] = 'skip-unsupported'
                return res
            return fail('interpreter', err)
        cpu.append(values)
    res['cpu'] = cpu
    return res


def compare(lay, res, gpu):
    """Records every result of `gpu` (per row, the results' bits) that
    disagrees with the CPU's: in res['bad'] for an exact result, in
    res['diverged'] for an approximate one, which is compared on the
    moderate rows only: the ISA bounds approximate instructions' error only
    there (sin/cos within [-pi, pi], ex2 without overflow)."""
    for i, name in enumerate(lay.results):
        approx = name in res['approx']
        for row in range(MODERATE_ROWS if approx else lay.num_rows):
            g, c = gpu[row][i], res['cpu'][row][i]
            if not agree(lay.stacks[name], g, c, approx):
                msg = 'seed %d (%s) row %d: %s = %#x on the GPU, %#x on the ' \
                    'CPU' % (res['seed'], res['prog'], row, name, g, c)
                if approx:
                    res['diverged'].setdefault(name, []).append(msg)
                else:
                    res['bad'].append(msg)


def read_buffers(out):
    """mmptx-run's output as {(argument index, element): text}."""
    read = {}
    for line in out.splitlines():
        m = re.match(r'arg(\d+)\[(\d+)\] = (.*)', line)
        if m:
            read[(int(m.group(1)), int(m.group(2)))] = m.group(3)
    return read


def check_single(args, seed):
    """One program in the test kernel, one cubin, one launch."""
    lay = args.layout
    res = prepare(args, seed, ZERO_SPECIALS)
    res['times'] = None
    if res['cpu'] is None:
        return res
    stem = os.path.splitext(res['prog'])[0]
    site = 'ast' if args.ast else 'stack'
    for cmd in (['mmptx-opt', args.ptx, '--stub-gen',
                 '%s=%s' % (site, res['prog']), '-o', stem + '.ptx'],
                ['ptxas', '-arch=' + args.arch, stem + '.ptx', '-o',
                 stem + '.cubin']):
        rc, _, err = run(cmd)
        if rc != 0:
            res.update(status='error', bad=['seed %d: %s: %s' %
                                            (seed, cmd[0], err)])
            return res
    if args.no_gpu:
        compare(lay, res, res['cpu'])
        return res
    cmd = ['mmptx-run', stem + '.cubin', '--kernel=%s_kernel' % site,
           '--time']
    for name, stack, kind in lay.variables:
        if kind == 'out':
            cmd.append('--arg=out:%s:%d' % (buffer_type(stack),
                                            lay.num_rows))
        else:
            cmd.append('--arg=%s:%s:%s' % (
                'in' if kind == 'in' else 'inout', buffer_type(stack),
                ','.join(lay.rows[name])))
    cmd.append('--arg=s32:%d' % lay.num_rows)
    rc, out, err = run(cmd)
    if rc != 0:
        res.update(status='error', bad=['seed %d: mmptx-run: %s' %
                                        (seed, err)])
        return res
    res['times'] = [float(t) for t in re.findall(r'([0-9.]+) ms', err)]
    read = read_buffers(out)
    index = {n: i for i, (n, _, _) in enumerate(lay.variables)}
    compare(lay, res, [[bits(lay.stacks[n], read[(index[n], row)])
                        for n in lay.results]
                       for row in range(lay.num_rows)])
    if res['bad']:
        with open(stem + '.ptx') as f:
            defect = known_assembler_defect(f.read())
        if defect:
            res['known'] = ['%s (%s)' % (m, defect) for m in res['bad']]
            res['bad'] = []
    return res


def known_assembler_defect(ptx):
    """Names the known ptxas defect that `ptx` meets, or returns None.

    ptxas 13.0 folds a signed comparison of -|x| with a constant to a
    constant (`abs.s32 a, x; neg.s32 b, a; setp.lt.s32 p, b, C` is true for
    every x): the GPU's results then differ from the interpreter's, which
    follows PTX. Registers are followed through the statements in order;
    a constant is an immediate or a register computed from immediates
    only."""
    ops = re.findall(r'^\s*([a-z][\w.]*)\s+([^;]*);', ptx, re.M)
    absolute, negated, constant = set(), set(), set()
    is_const = lambda v: re.fullmatch(r'-?(0[xX][0-9a-fA-F]+|\d+)', v) or \
        v in constant
    for op, operands in ops:
        regs = [v.strip() for v in operands.split(',')]
        if not regs:
            continue
        dst, srcs = regs[0], regs[1:]
        if op == 'abs.s32':
            absolute.add(dst)
        elif op == 'neg.s32' and srcs[:1] and srcs[0] in absolute:
            negated.add(dst)
        elif op == 'sub.s32' and len(srcs) == 2 and srcs[0] == '0' and \
                srcs[1] in absolute:
            negated.add(dst)
        elif op.startswith('setp.') and op.endswith('.s32') and \
                len(srcs) == 2 and \
                ((srcs[0] in negated and is_const(srcs[1])) or
                 (srcs[1] in negated and is_const(srcs[0]))):
            return ('ptxas 13.0 folds %s of -|x| with a constant; not '
                    'counted' % op)
        elif srcs and all(is_const(v) for v in srcs):
            constant.add(dst)
    return None


# The C type of a stack's variable in the test kernels (16-bit values come
# and go in 32-bit buffers).
C_TYPES = {'F32': 'float', 'F64': 'double', 'S32': 'int',
           'U64': 'unsigned long long', 'F16': 'unsigned short',
           'BF16': 'unsigned short'}
C_BUFFER_TYPES = {'F32': 'float', 'F64': 'double', 'S32': 'int',
                  'U64': 'unsigned long long'}


def packed_kernel(lay, sites):
    """The CUDA source of the packed kernel: block p runs site "p<p>", a
    copy of stack_kernel.cu's site, on every row; the results go to output
    buffers, row-major per block."""
    ctype = lambda st: C_TYPES.get(st, 'unsigned')
    btype = lambda st: C_BUFFER_TYPES.get(st, 'unsigned')
    params = ['const %s *%s0' % (btype(t), n) for n, t, _ in lay.variables]
    params += ['%s *%so' % (btype(lay.stacks[n]), n) for n in lay.results]
    operands = ', '.join('PTX_%s(%s, %s)' % (k.upper(), t, n)
                         for n, t, k in lay.variables)
    out = ['// Generated by check-stack-random.py --packed: block p runs site '
           '"p<p>".',
           '#include "mmptx/cuda/ptx_inject.h"',
           'extern "C" __global__ void packed_kernel(%s, int rows) {' %
           ', '.join(params),
           '  const int site = blockIdx.x;',
           '#pragma unroll 1',
           '  for (int i = 0; i < rows; ++i) {']
    out += ['    %s %s = (%s)%s0[i];' % (ctype(t), n, ctype(t), n)
            for n, t, _ in lay.variables]
    out.append('    switch (site) {')
    for k in range(sites):
        out += ['    case %d:' % k,
                '      PTX_INJECT("p%d", %s);' % (k, operands),
                '      break;']
    out.append('    }')
    out += ['    %so[site * rows + i] = %s;' % (n, n) for n in lay.results]
    out += ['  }', '}', '']
    return '\n'.join(out)


def check_packed(args, seeds, pool):
    """Every program in one kernel of one cubin (a site per program, block p
    runs site p), one launch; each program checked on its own."""
    lay = args.layout
    # %ctaid is the program's index here, not 0; %warpid is the warp's slot
    # on its SM, which the many resident one-thread blocks share out (an
    # H200 gave 1 to block 280 of 2,048).
    zero = ZERO_SPECIALS - {'ctaid', 'ctaid.x', 'warpid'}
    results = list(pool.map(lambda s: prepare(args, s, zero), seeds))
    stem = os.path.join(args.work, 'packed')
    with open(stem + '.cu', 'w') as f:
        f.write(packed_kernel(lay, len(results)))
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
    n = len(results) * lay.num_rows
    if args.no_gpu:
        for res in results:
            if res['cpu'] is not None:
                compare(lay, res, res['cpu'])
        return results, None
    cmd = ['mmptx-run', stem + '.cubin', '--kernel=packed_kernel', '--time',
           '--grid=%d' % len(results)]
    for name, stack, _ in lay.variables:
        cmd.append('--arg=in:%s:%s' % (buffer_type(stack),
                                       ','.join(lay.rows[name])))
    for name in lay.results:
        cmd.append('--arg=out:%s:%d' % (buffer_type(lay.stacks[name]), n))
    cmd.append('--arg=s32:%d' % lay.num_rows)
    rc, out, err = run(cmd)
    if rc != 0:
        sys.exit('error: mmptx-run failed:\n' + err)
    read = read_buffers(out)
    first_out = len(lay.variables)
    for k, res in enumerate(results):
        if res['cpu'] is None:
            continue
        compare(lay, res, [[bits(lay.stacks[name],
                                 read[(first_out + i,
                                       k * lay.num_rows + row)])
                            for i, name in enumerate(lay.results)]
                           for row in range(lay.num_rows)])
    return results, [float(t) for t in re.findall(r'([0-9.]+) ms', err)]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--ptx', help="the test kernel's PTX (not with --packed)")
    p.add_argument('--ast', action='store_true',
                   help='AST PTX programs in ast_kernel.cu (default: Stack '
                   'PTX programs in stack_kernel.cu)')
    p.add_argument('--base', help='without --ast: stack_kernel.stack')
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
    p.add_argument('--program',
                   help='check this program instead of random ones: Stack '
                   "PTX over --base's registers, or with --ast AST PTX over "
                   "ast_kernel.cu's variables")
    p.add_argument('--rows',
                   help="a JSON file of input rows replacing the layout's "
                   '({"variable": [value per row], ...})')
    p.add_argument('--max-skipped', type=float, default=0.4,
                   help='fail when more than this fraction of the programs '
                   'is skipped (default 0.4)')
    args = p.parse_args()
    if not args.packed and not args.ptx:
        p.error('--ptx is needed without --packed')
    if args.ast and args.packed:
        p.error('--packed is for Stack PTX programs')
    if not args.ast and not args.base:
        p.error('--base is needed without --ast')
    args.layout = AST_LAYOUT if args.ast else STACK_LAYOUT
    if args.program and args.packed:
        p.error('--program is for one program, without --packed')
    if args.rows:
        with open(args.rows) as f:
            rows = json.load(f)
        lay = args.layout
        for name, values in rows.items():
            if name not in lay.rows or len(values) != lay.num_rows:
                p.error('--rows: %r is not an input variable with %d rows' %
                        (name, lay.num_rows))
        args.layout = Layout(lay.variables, dict(lay.rows, **rows))
    first, _, last = args.seeds.partition('-')
    seeds = range(int(first), int(last or first) + 1)
    if args.program:
        seeds = range(1, 2)
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

    # The approximate allowance counts programs for Stack PTX (every result
    # depends on the one stub) and approximate results for AST PTX (each
    # output its own expression).
    counts = {}
    failures, approx_bad, approx_units, diverged_units = [], 0, 0, 0
    known = []
    for res in results:
        counts[res['status']] = counts.get(res['status'], 0) + 1
        failures += res['bad']
        known += res.get('known', [])
        if res['cpu'] is None:
            continue
        approx_units += len(res['approx']) if args.ast else \
            int(bool(res['approx']))
        if res['diverged']:
            approx_bad += 1
            diverged_units += len(res['diverged']) if args.ast else 1
            print('diverged (approximate):\n  ' + '\n  '.join(
                m for v in res['diverged'].values() for m in v))
    checked = counts.get('exact', 0) + counts.get('approx', 0)
    print('checked %d programs (%d exact, %d approximate, %d diverged within '
          'the approximate allowance) on %d rows each' %
          (checked, counts.get('exact', 0), counts.get('approx', 0),
           approx_bad, args.layout.num_rows))
    if args.ast:
        print('approximate results: %d compared, %d diverged' %
              (approx_units, diverged_units))
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
    for k in known:
        print('KNOWN ASSEMBLER DEFECT ' + k)
    # A skipped program checks nothing: too many skips is a failure too.
    skipped = counts.get('skip-special', 0) + counts.get('skip-unsupported', 0)
    too_many_skipped = skipped > args.max_skipped * len(results)
    if too_many_skipped:
        print('TOO MANY SKIPPED: %d of %d programs (more than %g)' %
              (skipped, len(results), args.max_skipped))
    if failures or counts.get('error', 0) or too_many_skipped or \
            diverged_units * 5 > max(approx_units, 1):
        print('FAILED')
        return 1
    print('PASSED')
    return 0


if __name__ == '__main__':
    sys.exit(main())
