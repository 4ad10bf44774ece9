#!/usr/bin/env python3
"""Compile or run every fenced code block of the documentation.

Usage:
  check-doc-blocks.py --src SRC --build BUILD --work DIR
                      [--features F1,F2,...] [--python PY] [--list] PATH...

PATH is a Markdown file or a directory (searched for *.md). Each fenced
block is handled by its language tag:

  cpp         compiled against include/ and the built libraries; a block with
              `main` is linked and run
  c           compiled as C99 against include/mmptx-c; a block with `main`
              is linked against the shared libmmptx-c and run
  python      run with PY (needs the feature `python-mmptx`)
  sh          run by bash (-e -o pipefail) with build/bin first on PATH
  text, console, cuda, cmake, ptx, stack, ast, json, ...
              not run: outputs, illustrations and other languages

The info string may add `{requires=F1,F2}`: the block is skipped, with the
reason, unless every feature is in --features (lit's available features).
`{run=no}` links a cpp or c block without running it.

Blocks of one file run in order in one working directory under DIR, where
`examples`, `include`, `td`, `test`, `bench`, `lib`, `utils`, `python` and
`build` are links into the source and build trees: a block is written as if
run from the root of a checkout, and its outputs stay in DIR. Relative links
between pages ([text](Page.md)) must name existing files.

Exits 1 when a block fails (its output is printed with its file:line), when
a block has no language tag or an unknown one, or when a link is broken.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

RUN_LANGS = {'cpp', 'c', 'python', 'sh'}
# Tags of blocks that are shown, not run.
SHOW_LANGS = {'text', 'console', 'cuda', 'cmake', 'ptx', 'stack', 'ast',
              'json', 'ini', 'toml', 'diff', 'tablegen', 'yaml', 'output'}
LINKED_DIRS = ['examples', 'include', 'td', 'test', 'bench', 'lib', 'utils',
               'python', 'unittests', 'docs', 'README.md']
FENCE = re.compile(r'^( {0,3})(`{3,}|~{3,})\s*([^`]*)$')
LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')


class Block:
    def __init__(self, path, line, lang, opts, text):
        self.path, self.line, self.lang, self.opts, self.text = (
            path, line, lang, opts, text)

    def where(self):
        return '%s:%d' % (self.path, self.line)


def parse_info(info):
    """`sh {requires=nvcc,ptxas run=no}` -> ('sh', {...})."""
    info = info.strip()
    m = re.match(r'^([A-Za-z0-9_+-]*)\s*(\{(.*)\})?\s*$', info)
    if not m:
        return None, None
    opts = {}
    for item in shlex.split(m.group(3) or ''):
        key, _, value = item.partition('=')
        opts[key] = value
    return m.group(1), opts


def read_blocks(path, errors):
    blocks = []
    lines = open(path, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = len(m.group(1)), m.group(2), m.group(3)
        start = i + 1
        body = []
        i += 1
        while i < len(lines):
            close = re.match(r'^ {0,3}' + re.escape(fence[0]) + '{%d,}\\s*$'
                             % len(fence), lines[i])
            if close:
                break
            line = lines[i]
            lead = len(line) - len(line.lstrip(' '))
            body.append(line[min(lead, indent):])
            i += 1
        else:
            errors.append('%s:%d: error: unterminated code block'
                          % (path, start))
        i += 1
        lang, opts = parse_info(info)
        if lang is None or lang == '':
            errors.append('%s:%d: error: code block without a language tag '
                          '(use text for output)' % (path, start))
            continue
        if lang not in RUN_LANGS and lang not in SHOW_LANGS:
            errors.append("%s:%d: error: unknown code block language '%s'"
                          % (path, start, lang))
            continue
        unknown = set(opts) - {'requires', 'run'}
        if unknown:
            errors.append("%s:%d: error: unknown block option '%s'"
                          % (path, start, sorted(unknown)[0]))
            continue
        blocks.append(Block(path, start, lang, opts, '\n'.join(body) + '\n'))
    return blocks


def slug(heading):
    """GitHub's anchor of a heading."""
    text = re.sub(r'[`*_]', '', heading.strip().lower())
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def anchors(path):
    text = re.sub(r'```.*?```', '', open(path, encoding='utf-8').read(),
                  flags=re.S)
    return {slug(m.group(1)) for m in re.finditer(r'^#+\s+(.*)$', text,
                                                  re.M)}


def check_links(path, errors):
    text = open(path, encoding='utf-8').read()
    # Links inside code blocks and inline code are not links.
    text = re.sub(r'```.*?```', '', text, flags=re.S)
    text = re.sub(r'`[^`\n]*`', '', text)
    for m in LINK.finditer(text):
        target, _, anchor = m.group(1).partition('#')
        if re.match(r'^[a-z]+:', target):
            continue
        full = os.path.normpath(os.path.join(os.path.dirname(path), target))
        if not os.path.exists(full):
            errors.append("%s: error: broken link '%s'" % (path, m.group(1)))
        elif anchor and full.endswith('.md') and anchor not in anchors(full):
            errors.append("%s: error: no heading '#%s' in '%s'"
                          % (path, anchor, target or path))


def llvm_config(args, flag):
    exe = shutil.which('llvm-config-14') or shutil.which('llvm-config')
    if args.llvm_config:
        exe = args.llvm_config
    out = subprocess.run([exe] + flag.split(), stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    return out.split()


class Runner:
    def __init__(self, args):
        self.args = args
        self.features = set(f for f in args.features.split(',') if f)
        self.passed = self.failed = self.skipped = self.shown = 0
        self._cxx_flags = None

    def cxx_flags(self):
        if self._cxx_flags is None:
            a = self.args
            inc = ['-I', os.path.join(a.src, 'include'),
                   '-I', os.path.join(a.build, 'include')]
            cpp = [f for f in llvm_config(a, '--cppflags')]
            self._cxx_flags = ['-std=c++17', '-fno-rtti'] + inc + cpp
            libdir = os.path.join(a.build, 'lib')
            libs = sorted(os.path.join(libdir, f) for f in os.listdir(libdir)
                          if re.match(r'^libMMPTX.*\.a$', f))
            self._cxx_libs = (['-Wl,--start-group'] + libs +
                              ['-Wl,--end-group'] + self.reference_libs())
        return self._cxx_flags

    def reference_libs(self):
        """The libraries the build links a program over every layer with
        (the CuTe example's link line in build.ninja): LLVM, the CUDA
        libraries and the system libraries, in the build's order."""
        ninja = os.path.join(self.args.build, 'build.ninja')
        text = open(ninja, encoding='utf-8').read() if os.path.exists(
            ninja) else ''
        m = re.search(r'^build bin/mmptx-example-cute-gemm:.*?\n'
                      r'(?:  .*\n)*?  LINK_LIBRARIES = (.*)$', text, re.M)
        if not m:
            return (llvm_config(self.args, '--ldflags') +
                    llvm_config(self.args, '--libs support') +
                    llvm_config(self.args, '--system-libs') +
                    ['-ldl', '-lpthread'])
        out = []
        for word in m.group(1).split():
            if not word.startswith('-') and not os.path.isabs(word):
                word = os.path.join(self.args.build, word)
            out.append(word)
        return out + ['-lpthread']

    def run(self, cmd, cwd, env=None, stdin=None):
        try:
            r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, input=stdin,
                               universal_newlines=True,
                               timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            return 124, 'timed out after %d s' % self.args.timeout
        return r.returncode, r.stdout

    def env(self):
        env = dict(os.environ)
        env['PATH'] = (os.path.join(self.args.build, 'bin') + os.pathsep +
                       env.get('PATH', ''))
        return env

    def check(self, block, workdir, index):
        missing = [f for f in block.opts.get('requires', '').split(',')
                   if f and f not in self.features]
        if block.lang in SHOW_LANGS:
            self.shown += 1
            return
        if block.lang == 'python' and 'python-mmptx' not in self.features:
            missing.append('python-mmptx')
        if missing:
            self.skipped += 1
            print('SKIP %s %s: requires %s, absent' %
                  (block.where(), block.lang, ', '.join(missing)))
            return
        stem = os.path.join(workdir, 'block%d' % index)
        has_main = re.search(r'\bint\s+main\s*\(', block.text) is not None
        run_it = block.opts.get('run', 'yes') != 'no'
        steps = []
        if block.lang == 'cpp':
            src = stem + '.cpp'
            open(src, 'w').write(block.text)
            flags = self.cxx_flags()
            if has_main:
                steps.append([self.args.cxx] + flags + [src, '-o', stem] +
                             self._cxx_libs)
                if run_it:
                    steps.append([stem])
            else:
                steps.append([self.args.cxx] + flags +
                             ['-fsyntax-only', src])
        elif block.lang == 'c':
            src = stem + '.c'
            open(src, 'w').write(block.text)
            flags = ['-std=c99', '-pedantic-errors', '-Wall', '-Werror',
                     '-I', os.path.join(self.args.src, 'include'),
                     '-I', os.path.join(self.args.build, 'include')]
            if has_main:
                libdir = os.path.join(self.args.build, 'lib')
                steps.append([self.args.cc] + flags + [src, '-o', stem,
                              '-L', libdir, '-lmmptx-c',
                              '-Wl,-rpath,' + libdir])
                if run_it:
                    steps.append([stem])
            else:
                steps.append([self.args.cc] + flags + ['-fsyntax-only', src])
        elif block.lang == 'python':
            src = stem + '.py'
            open(src, 'w').write(block.text)
            steps.append([self.args.python, src])
        elif block.lang == 'sh':
            src = stem + '.sh'
            open(src, 'w').write(block.text)
            steps.append(['bash', '-e', '-o', 'pipefail', src])
        for cmd in steps:
            rc, out = self.run(cmd, workdir, self.env())
            if rc != 0:
                self.failed += 1
                print('FAIL %s %s: %s exited with %d' %
                      (block.where(), block.lang, os.path.basename(cmd[0]),
                       rc))
                print('---- block ----\n' + block.text.rstrip('\n'))
                print('---- output ----\n' + out.rstrip('\n') +
                      '\n---- end ----')
                return
        self.passed += 1
        print('PASS %s %s' % (block.where(), block.lang))

    def workdir(self, doc):
        rel = os.path.relpath(os.path.abspath(doc), self.args.src)
        name = re.sub(r'[^A-Za-z0-9_.-]', '_', rel)
        d = os.path.join(self.args.work, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for sub in LINKED_DIRS:
            target = os.path.join(self.args.src, sub)
            if os.path.exists(target):
                os.symlink(target, os.path.join(d, sub))
        os.symlink(os.path.abspath(self.args.build), os.path.join(d, 'build'))
        return d


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--src', required=True)
    p.add_argument('--build', required=True)
    p.add_argument('--work', required=True)
    p.add_argument('--features', default='')
    p.add_argument('--python', default=sys.executable)
    p.add_argument('--cc', default=os.environ.get('CC', 'cc'))
    p.add_argument('--cxx', default=os.environ.get('CXX', 'c++'))
    p.add_argument('--llvm-config', default=None)
    p.add_argument('--timeout', type=int, default=600)
    p.add_argument('--list', action='store_true',
                   help='only list the blocks and check tags and links')
    p.add_argument('paths', nargs='+')
    args = p.parse_args()
    args.src = os.path.abspath(args.src)
    args.build = os.path.abspath(args.build)
    args.work = os.path.abspath(args.work)

    docs = []
    for path in args.paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                docs += [os.path.join(root, f) for f in sorted(files)
                         if f.endswith('.md')]
        elif os.path.exists(path):
            docs.append(path)
        else:
            print("error: no such file or directory '%s'" % path)
            return 1

    errors = []
    per_doc = []
    for doc in docs:
        per_doc.append((doc, read_blocks(doc, errors)))
        check_links(doc, errors)
    for e in errors:
        print(e)
    runner = Runner(args)
    if args.list:
        for doc, blocks in per_doc:
            for b in blocks:
                print('%s %s %s' % (b.where(), b.lang, b.opts or ''))
        return 1 if errors else 0
    os.makedirs(args.work, exist_ok=True)
    for doc, blocks in per_doc:
        if not any(b.lang in RUN_LANGS for b in blocks):
            runner.shown += len(blocks)
            continue
        work = runner.workdir(doc)
        for i, b in enumerate(blocks):
            runner.check(b, work, i)
    print('doc blocks: %d passed, %d failed, %d skipped, %d not run '
          '(output or illustration); %d errors' %
          (runner.passed, runner.failed, runner.skipped, runner.shown,
           len(errors)))
    return 1 if runner.failed or errors else 0


if __name__ == '__main__':
    sys.exit(main())
