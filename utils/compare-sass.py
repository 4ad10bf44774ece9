#!/usr/bin/env python3
"""Checks that two PTX modules assemble to the same machine code.

    compare-sass.py --ptxas P --cuobjdump C A.ptx B.ptx
        assembles A and B for their .target and compares the SASS of every
        function (cuobjdump -sass);
    compare-sass.py --ptxas P --cuobjdump C --prune-with CMD F.ptx...
        for each F, runs `CMD F -o F.pruned` (e.g. "mmptx-opt
        --prune-unused-globals") and compares F with its pruned version
        (a file that CMD leaves byte for byte as it is passes as is).

Instructions are compared one by one, opcode and registers exactly, with the
hex immediates and the offsets of constant-bank operands masked: removing
unused globals moves the kept ones' slots in c[0x3]/c[0x4] (and the offsets
that an indexed c[0x4][Rn] load adds) without changing the code. The
functions of the two sides must be the same, except functions that only the
first side has and that are not entries (removed device functions; ptxas
keeps a non-inlined .func that nothing calls). Exits 1 on any difference,
naming the file, the function and the first instruction that differs.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile

INSTR = re.compile(r'^\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;?\s*(/\*.*\*/)?\s*$')
FUNC = re.compile(r'^\s*Function\s*:\s*(\S+)')
BANK = re.compile(r'c\[0x([0-9a-f]+)\]\[[^\]]*\]')
HEX = re.compile(r'-?0x[0-9a-fA-F]+')


def target_of(ptx):
    with open(ptx, errors='replace') as f:
        for line in f:
            m = re.match(r'\s*\.target\s+([A-Za-z0-9_]+)', line)
            if m:
                return m.group(1)
    raise RuntimeError('%s: no .target directive' % ptx)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        raise RuntimeError('%s failed: %s' % (
            ' '.join(cmd), (p.stderr or p.stdout).strip().split('\n')[0]))
    return p.stdout


def sass(args, ptx, work):
    cubin = os.path.join(work, os.path.basename(ptx) + '.cubin')
    run([args.ptxas, '-arch=' + target_of(ptx), ptx, '-o', cubin])
    text = run([args.cuobjdump, '-sass', cubin])
    funcs, cur = {}, None
    for line in text.split('\n'):
        m = FUNC.match(line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = INSTR.match(line)
        if m and cur is not None:
            ins = BANK.sub(r'c[bank\1][*]', m.group(1))
            cur.append(HEX.sub('IMM', ins))
    return funcs


def entries(ptx):
    with open(ptx, errors='replace') as f:
        return set(re.findall(r'\.entry\s+([A-Za-z0-9_$]+)', f.read()))


def compare(args, a, b, work):
    """Returns (message, ok)."""
    fa, fb = sass(args, a, work), sass(args, b, work)
    problems = []
    kernels = entries(a)
    for name in sorted(set(fa) | set(fb)):
        if name not in fb:
            if name in kernels:
                problems.append('entry %s missing after' % name)
            continue
        if name not in fa:
            problems.append('function %s only after' % name)
            continue
        ia, ib = fa[name], fb[name]
        if ia == ib:
            continue
        for i, (x, y) in enumerate(zip(ia, ib)):
            if x != y:
                problems.append('%s: instruction %d: %s | %s' % (name, i, x, y))
                break
        else:
            problems.append('%s: %d instructions | %d' % (name, len(ia),
                                                         len(ib)))
    count = sum(len(v) for k, v in fb.items())
    if problems:
        return '%s: SASS differs: %s' % (a, '; '.join(problems[:3])), False
    return '%s: same SASS (%d functions, %d instructions)' % (
        a, len(fb), count), True


def one(args, path, work):
    try:
        if args.prune_with:
            out = os.path.join(work, os.path.basename(path) + '.pruned.ptx')
            run(shlex.split(args.prune_with) + [path, '-o', out])
            with open(path, 'rb') as a, open(out, 'rb') as b:
                if a.read() == b.read():
                    return '%s: unchanged' % path, True
            return compare(args, path, out, work)
        return compare(args, path[0], path[1], work)
    except (RuntimeError, OSError) as e:
        return '%s: %s' % (path if args.prune_with else path[0], e), False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ptxas', default='ptxas')
    ap.add_argument('--cuobjdump', default='cuobjdump')
    ap.add_argument('--prune-with', metavar='CMD',
                    help='compare each file with its output of CMD F -o OUT')
    ap.add_argument('-j', '--jobs', type=int, default=2)
    ap.add_argument('-q', '--quiet', action='store_true',
                    help='print only differences and the summary')
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    if not args.prune_with and len(args.files) != 2:
        ap.error('expected two PTX files (or --prune-with and files)')
    jobs = args.files if args.prune_with else [tuple(args.files)]
    failed = unchanged = 0
    with tempfile.TemporaryDirectory(prefix='compare-sass') as tmp:
        works = []
        for i, _ in enumerate(jobs):
            works.append(os.path.join(tmp, str(i)))
            os.mkdir(works[-1])
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for msg, ok in pool.map(lambda x: one(args, *x),
                                    zip(jobs, works)):
                failed += not ok
                unchanged += msg.endswith(': unchanged')
                if not ok or not args.quiet:
                    print(('' if ok else 'FAIL ') + msg)
    print('compare-sass: %d compared, %d differ%s' % (
        len(jobs), failed,
        ' (%d left unchanged by the prune)' % unchanged if unchanged else ''))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
