#!/usr/bin/env python3
"""Feeds each case to `mmptx-opt` and to the C API driver and requires the
same verdict: both fail or both succeed, and a failure has the same message
(the text after 'error: ', since the two name stubs differently).

  same-verdict.py OPT CAPI modules FILE...          each '// -----' chunk
  same-verdict.py OPT CAPI stubs MODULE NAME STUB... each stub at inject NAME

Prints one line per case: '<case>: ok' or '<case>: error: <message>'.
"""
import os
import subprocess
import sys
import tempfile


def first_error(text):
    for line in text.splitlines():
        k = line.find('error: ')
        if k >= 0:
            return line[k + len('error: '):]
    return None


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, first_error(p.stderr.decode('utf-8', 'replace'))


def compare(label, opt_cmd, capi_cmd):
    (orc, omsg), (crc, cmsg) = run(opt_cmd), run(capi_cmd)
    if (orc != 0) != (crc != 0) or omsg != cmsg:
        print('%s: MISMATCH\n  mmptx-opt: exit %d, %s\n  C API:     exit %d, %s'
              % (label, orc, omsg, crc, cmsg))
        return False
    print('%s: %s' % (label, 'ok' if orc == 0 else 'error: ' + omsg))
    return True


def main():
    opt, capi, mode = sys.argv[1:4]
    ok = True
    tmp = tempfile.mkdtemp()
    if mode == 'modules':
        for path in sys.argv[4:]:
            with open(path, 'rb') as f:
                chunks = f.read().split(b'\n// -----\n')
            for i, chunk in enumerate(chunks):
                name = os.path.join(tmp, '%s.%d.ptx' % (os.path.basename(path), i))
                with open(name, 'wb') as f:
                    f.write(chunk)
                label = '%s#%d' % (os.path.basename(path), i)
                ok &= compare(label, [opt, '--no-verify', '--list-injects', name],
                              [capi, name])
    else:
        module, inject = sys.argv[4:6]
        for stub in sys.argv[6:]:
            arg = '%s=%s' % (inject, stub)
            ok &= compare(os.path.basename(stub),
                          [opt, '--no-verify', module, '--inject', arg],
                          [capi, module, arg])
    sys.exit(0 if ok else 1)


main()
