"""Lists the NEEDED entries of ELF files and fails on any CUDA library.

usage: check-needed.py [--expect-cuda] FILE...   (directories: every ELF file
in them). Prints one line per file checked and the count; --expect-cuda
inverts the verdict (for the test that this check can fail)."""
import os
import re
import subprocess
import sys

CUDA = re.compile(r'^lib(cuda|nvrtc|nvJitLink|nvptxcompiler|cudart)\b', re.I)


def is_elf(path):
    try:
        with open(path, 'rb') as f:
            return f.read(4) == b'\x7fELF'
    except OSError:
        return False


def needed(path):
    out = subprocess.run(['llvm-readelf', '--needed-libs', path],
                         stdout=subprocess.PIPE, universal_newlines=True,
                         check=True).stdout
    libs = []
    seen = False
    for line in out.splitlines():
        if line.startswith('NeededLibraries'):
            seen = True
            continue
        if seen and line.strip() and line.strip() not in '[]':
            libs.append(line.strip())
    return libs


def main(argv):
    expect = False
    if argv and argv[0] == '--expect-cuda':
        expect, argv = True, argv[1:]
    files = []
    for a in argv:
        if os.path.isdir(a):
            for n in sorted(os.listdir(a)):
                p = os.path.join(a, n)
                if os.path.isfile(p) and not os.path.islink(p) and is_elf(p):
                    files.append(p)
        elif is_elf(a):
            files.append(a)
    bad = 0
    for f in files:
        cuda = [lib for lib in needed(f) if CUDA.match(lib)]
        print('%s: %s' % (os.path.basename(f),
                          ('NEEDED ' + ' '.join(cuda)) if cuda else 'ok'))
        bad += bool(cuda)
    print('checked %d files, %d with a CUDA library' % (len(files), bad))
    return 0 if (bad > 0) == expect and files else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
