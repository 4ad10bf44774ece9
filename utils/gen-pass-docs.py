#!/usr/bin/env python3
"""The pass reference of mmptx-opt, generated from Passes.def.

Usage:
  gen-pass-docs.py PASSES_DEF -o OUT.md        write the Markdown page
  gen-pass-docs.py PASSES_DEF --check-help F   check `mmptx-opt --help`
                                               (saved in F) against it

Passes.def is the one place a pass's flag and description are written
(the MMPTX_PASS* entries); the build turns it into
build/docs/CommandGuide/Passes.md, and --check-help verifies that the
driver's --help lists every pass with the same description and value.
"""

import argparse
import os
import re
import sys

# Every MMPTX_PASS* macro: (flag, factory, description) or (flag, factory,
# value, description); a *_WITH_OPTIONS pass's value may be left out.
ENTRY = re.compile(r'^\s*(MMPTX_PASS\w*)\s*\(', re.M)


def c_strings(text):
    """The concatenated C string literals of an argument."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', text)
    return ''.join(p.encode().decode('unicode_escape') for p in parts)


def split_args(text):
    args, depth, cur, in_str, i = [], 0, '', False, 0
    while i < len(text):
        c = text[i]
        if in_str:
            cur += c
            if c == '\\':
                cur += text[i + 1]
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            cur += c
        elif c == '(':
            depth += 1
            cur += c
        elif c == ')':
            if depth == 0:
                args.append(cur)
                return args, i
            depth -= 1
            cur += c
        elif c == ',' and depth == 0:
            args.append(cur)
            cur = ''
        else:
            cur += c
        i += 1
    raise SystemExit('error: unterminated pass entry')


def read_passes(path):
    text = open(path, encoding='utf-8').read()
    # Drop comments and the #ifndef defaults at the top.
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'#[^\n]*', '', text)
    passes = []
    for m in ENTRY.finditer(text):
        args, _ = split_args(text[m.end():])
        if len(args) == 3:
            flag, _factory, desc = args
            value = ''
        elif len(args) == 4:
            flag, _factory, value, desc = args
            value = c_strings(value)
        else:
            raise SystemExit('error: %s with %d arguments'
                             % (m.group(1), len(args)))
        optional = m.group(1).endswith('_WITH_OPTIONS')
        passes.append((c_strings(flag), value, c_strings(desc), optional))
    return passes


def write_page(passes, out):
    lines = [
        '# mmptx-opt passes',
        '',
        '<!-- Generated from include/mmptx/Transforms/Passes.def by',
        '     utils/gen-pass-docs.py; do not edit. -->',
        '',
        'Each pass is a flag of `mmptx-opt`; passes run in the order of '
        'their flags.',
        'A pass that takes a value (`--flag=VALUE`) may be given several '
        'times;',
        'it runs once, at the position of its first flag.',
        '',
        '| flag | description |',
        '|---|---|',
    ]
    for flag, value, desc, optional in passes:
        shown = '--%s' % flag
        if value:
            shown += ('[=%s]' if optional else '=%s') % value
        lines.append('| `%s` | %s |' % (shown, desc.replace('|', '\\|')))
    text = '\n'.join(lines) + '\n'
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    # Leave an unchanged page alone, so that nothing rebuilds for nothing.
    if os.path.exists(out) and open(out, encoding='utf-8').read() == text:
        return
    with open(out, 'w', encoding='utf-8') as f:
        f.write(text)


def check_help(passes, help_path):
    """`--flag - description` lines, the values form included."""
    listed = {}
    for line in open(help_path, encoding='utf-8'):
        m = re.match(r'^\s+--([a-z0-9-]+)(?:\[?=<([^>]*)>\]?)?\s+- (.*)$',
                     line)
        if m:
            listed[m.group(1)] = (m.group(2) or '', m.group(3).strip())
    errors = []
    for flag, value, desc, _optional in passes:
        if flag not in listed:
            errors.append("pass '--%s' of Passes.def is not in --help" % flag)
            continue
        got_value, got_desc = listed[flag]
        if got_desc != desc:
            errors.append("pass '--%s': --help says '%s', Passes.def '%s'"
                          % (flag, got_desc, desc))
        if got_value != value:
            errors.append("pass '--%s': --help takes '%s', Passes.def '%s'"
                          % (flag, got_value, value))
    for e in errors:
        print('error: ' + e)
    print('%d passes in Passes.def, %d checked against --help'
          % (len(passes), len(passes) - len(errors)))
    return 1 if errors else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('passes_def')
    p.add_argument('-o', dest='out')
    p.add_argument('--check-help', dest='help')
    args = p.parse_args()
    passes = read_passes(args.passes_def)
    if not passes:
        print('error: no passes in ' + args.passes_def)
        return 1
    if args.out:
        write_page(passes, args.out)
    if args.help:
        return check_help(passes, args.help)
    return 0


if __name__ == '__main__':
    sys.exit(main())
