#!/usr/bin/env python3
"""Runs mmptx-annotate, mmptx-compile, mmptx-nvrtc, mmptx-run and mmptx-opt
with a table of bad command lines, then with random ones made of their own
options, bad values and bad files.

Every run must end with a message and exit status 1 (0 where a random
command line happens to be valid, 77 for mmptx-run without a usable GPU),
never a signal, a crash report, a hang or a stray file outside the work
directory. Usage: bad-arguments.py TOOLS_DIR WORK_DIR CORPUS_DIR [SEED]
"""
import os
import random
import subprocess
import sys

TOOLS, WORK, CORPUS = sys.argv[1:4]
SEED = int(sys.argv[4]) if len(sys.argv) > 4 else 1
RANDOM_RUNS = 40  # per tool
TIMEOUT = 120     # seconds: a hang, not a slow machine

os.makedirs(WORK, exist_ok=True)


def work(name):
    return os.path.join(WORK, name)


def write(name, data):
    with open(work(name), 'wb') as f:
        f.write(data)
    return work(name)


PTX = os.path.join(CORPUS, 'ptx_inject_simple_kernel.ptx')
FILES = {
    'ptx': PTX,
    'cu': write('good.cu', b'__global__ void k(float *x) { x[0] = 1; }\n'),
    'bad_cu': write('bad.cu', b'__global__ void k() { nope = 1; }\n'),
    'site': write('site.cu', b'/* PTX_INJECT f\n in f32 x\n*/\n'),
    'stub': write('s.stub', b'\tadd.f32 %_x1, %_x0, %_x2;\n'),
    'empty': write('empty', b''),
    'binary': write('binary', bytes(range(256)) * 4),
    'missing': work('missing/none'),
    'dir': WORK,
}
# (No endless device such as /dev/zero as an input: every tool would read
# it to the end.)
BAD_VALUES = ['', '-1', '0', '99999999999999999999', 'sm_0', 'sm_99999',
              'x=', '=', ',', '\xff', FILES['missing'], FILES['dir'],
              FILES['empty'], FILES['binary']]
# The options of each tool (values drawn from BAD_VALUES and the files).
OPTIONS = {
    'mmptx-annotate': ['-o', '--types', '--line-directives'],
    'mmptx-compile': ['-o', '--arch', '-j', '--backend', '--cache-dir',
                      '--cache-size-mb', '-O', '--maxrregcount', '-X',
                      '--format', '--sites-per-kernel', '--pack-inputs',
                      '-I', '-D', '--Xnvrtc', '--pack', '--no-cache',
                      '--no-dedup', '--lineinfo', '-v', '-Ofast-compile',
                      '--no-share-slow-ops', '--module-timeout'],
    'mmptx-nvrtc': ['-o', '--arch', '-I', '-D', '--Xnvrtc', '--cache-dir',
                    '--no-cuda-include', '-v'],
    'mmptx-run': ['--kernel', '--grid', '--block', '--shared', '--arg',
                  '--device', '--repeat', '--time', '--probe',
                  '--print-arch'],
    'mmptx-opt': ['-o', '--inject', '--stub-gen', '--inject-types',
                  '--format', '--list-injects', '--split-input-file',
                  '--verify-each', '--no-verify', '--strip-comments',
                  '--normalize-injection-sites', '--stack-size',
                  '--stack-target-sm', '--allow-unknown-inject-types'],
}
FLAGS = {'--pack', '--no-cache', '--no-dedup', '--lineinfo', '-v',
         '--no-share-slow-ops',
         '--no-cuda-include', '--time', '--probe', '--print-arch',
         '--list-injects', '--split-input-file', '--verify-each',
         '--no-verify', '--strip-comments', '--normalize-injection-sites',
         '--allow-unknown-inject-types'}

# (tool, arguments, text the message must hold): mistakes a user makes.
TABLE = [
    ('mmptx-annotate', [], 'Not enough positional'),
    ('mmptx-annotate', [FILES['missing']], 'No such file'),
    ('mmptx-annotate', [FILES['dir']], 'Is a directory'),
    ('mmptx-annotate', [FILES['site'], '-o', '/dev/full'], 'No space left'),
    ('mmptx-annotate', [FILES['site'], '-o', FILES['empty'] + '/x'], 'error:'),
    ('mmptx-annotate', ['--types', FILES['binary'], FILES['site']], 'error:'),
    ('mmptx-annotate', ['--line-directives=maybe', FILES['site']], 'maybe'),
    ('mmptx-compile', [], 'no input files'),
    ('mmptx-compile', [PTX, '--arch', 'sm_0'], "unknown architecture 'sm_0'"),
    ('mmptx-compile', [PTX, '-j', '99999'], 'at most 1024'),
    ('mmptx-compile', [PTX, '-O', '9'], 'invalid optimization level'),
    ('mmptx-compile', [PTX, '-Ofast-compile=fast'],
     'expected min, mid, max or 0'),
    ('mmptx-compile', [PTX, '-O2', '-Ofast-compile=mid'], 'conflict'),
    ('mmptx-compile', [PTX, '--module-timeout=-1'],
     'expected seconds, 0 or more'),
    ('mmptx-compile', [PTX, PTX], 'given twice'),
    ('mmptx-compile', [PTX, '--backend', 'nvcc'], "unknown backend 'nvcc'"),
    ('mmptx-compile', [FILES['missing'], '--cache-dir', FILES['empty']],
     'is not a directory'),
    ('mmptx-compile', [PTX, '-o', ''], 'empty name'),
    ('mmptx-compile', [PTX, '--pack', '--pack-inputs', '99999'],
     'at most 4096'),
    ('mmptx-compile', [FILES['binary'], '-o', work('out')], 'error:'),
    ('mmptx-compile', [PTX, '-X', '-arch=sm_90'], 'use --arch'),
    ('mmptx-compile', [PTX, '-X', '--version'], 'prints instead'),
    ('mmptx-compile', [PTX, '-X', '-o'], 'mmptx names the output'),
    ('mmptx-compile', [PTX, FILES['cu'], '-o', '-'], 'names one output'),
    ('mmptx-compile', [PTX, '--pack', '-o', '-'], '--pack writes two'),
    ('mmptx-compile', [FILES['stub'], '-o', FILES['stub']],
     'would be overwritten'),
    ('mmptx-compile', [FILES['missing'], '--cache-dir',
                       FILES['empty'] + '/x'], 'compiling without a cache'),
    ('mmptx-nvrtc', [], 'Not enough positional'),
    ('mmptx-nvrtc', [FILES['missing']], 'No such file'),
    ('mmptx-nvrtc', [FILES['cu'], '-o', FILES['dir']], 'Is a directory'),
    ('mmptx-run', [], 'expected an input file'),
    ('mmptx-run', [PTX, '--kernel=k', '--grid=0'], "bad --grid='0'"),
    ('mmptx-run', [PTX, '--kernel=k', '--block=1,1,1,1'], 'bad --block'),
    ('mmptx-run', [PTX, '--kernel=k', '--repeat=0'], 'bad --repeat=0'),
    ('mmptx-run', [PTX, '--kernel=k', '--arg=f33:1'], "unknown type 'f33'"),
    ('mmptx-run', [PTX, '--kernel=k', '--arg=out:f32:0'], 'element count'),
    ('mmptx-run', [PTX, '--kernel=k', '--device=-1'], 'bad --device=-1'),
    ('mmptx-run', [FILES['dir'], '--kernel=k'], 'Is a directory'),
    ('mmptx-opt', [FILES['missing']], 'No such file'),
    ('mmptx-opt', ['--no-such-pass', PTX], 'Unknown command line argument'),
    ('mmptx-opt', [PTX, '-o', FILES['dir']], 'Is a directory'),
    ('mmptx-opt', [PTX, '--inject', 'func'], 'expects NAME=FILE'),
    ('mmptx-opt', [PTX, '--list-injects', '--stub-gen', 'f=x'],
     'exclude each other'),
    ('mmptx-opt', [FILES['binary']], 'error:'),
]

# The work directory holds every file a run may write.
ENV = dict(os.environ, MMPTX_LIBCUDA=work('no-driver/libcuda.so.1'),
           MMPTX_CACHE_DIR='', HOME=WORK, XDG_CACHE_HOME=work('xdg'))


def run(tool, args, allowed):
    cmd = [os.path.join(TOOLS, tool)] + args
    try:
        p = subprocess.run(cmd, cwd=WORK, env=ENV, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return 'hung (%d s)' % TIMEOUT, ''
    err = p.stderr.decode('utf-8', 'replace')
    if p.returncode < 0:
        return 'killed by signal %d' % -p.returncode, err
    if 'Stack dump' in err or 'PLEASE submit' in err:
        return 'crash report', err
    if p.returncode not in allowed:
        return 'exit status %d' % p.returncode, err
    if p.returncode not in (0, 77) and not err.strip():
        return 'exit status %d without a message' % p.returncode, err
    return None, err


failures = 0


def report(what, tool, args, err):
    global failures
    failures += 1
    print('FAIL: %s: %s %s' % (what, tool, ' '.join(repr(a) for a in args)))
    print('  ' + err.strip().replace('\n', '\n  ')[:2000])


for tool, args, expected in TABLE:
    allowed = (1, 77) if tool == 'mmptx-run' else (1,)
    problem, err = run(tool, args, allowed)
    if not problem and expected not in err:
        problem = 'message lacks %r' % expected
    if problem:
        report(problem, tool, args, err)
print('table: %d command lines' % len(TABLE))

rng = random.Random(SEED)
inputs = [FILES[k] for k in ('ptx', 'cu', 'bad_cu', 'site', 'stub', 'empty',
                              'binary', 'missing', 'dir')]
for tool, options in OPTIONS.items():
    for _ in range(RANDOM_RUNS):
        args = []
        for _ in range(rng.randint(0, 2)):
            args.append(rng.choice(inputs))
        for _ in range(rng.randint(1, 4)):
            opt = rng.choice(options)
            if opt in FLAGS:
                args.append(opt)
                continue
            value = rng.choice(BAD_VALUES + inputs + ['f=' + FILES['stub'],
                                                      'func=' + FILES['stub'],
                                                      'sm_80', '1', '4'])
            if opt == '-o':  # outputs stay in the work directory
                value = rng.choice([work('out'), work('out/'), '/dev/full',
                                    FILES['dir'], FILES['empty'] + '/x',
                                    work('o.cubin'), '-', '/dev/null'])
            if opt in ('-X', '--Xnvrtc'):  # conflicting and file options
                value = rng.choice([value, '-arch=sm_90', '--gpu-name',
                                    '--version', '-h', '--help', '-o',
                                    '--output-file=' + work('x'), '-O0',
                                    '-I' + WORK, '--pre-include=' +
                                    FILES['missing'], '-pch', '-lineinfo'])
            args.append(opt + '=' + value if opt.startswith('--')
                        else opt)
            if not opt.startswith('--'):
                args.append(value)
        allowed = (0, 1, 77) if tool == 'mmptx-run' else (0, 1)
        problem, err = run(tool, args, allowed)
        if problem:
            report(problem, tool, args, err)
print('random: %d command lines, seed %d' % (RANDOM_RUNS * len(OPTIONS),
                                             SEED))
print('failures: %d' % failures)
sys.exit(1 if failures else 0)
