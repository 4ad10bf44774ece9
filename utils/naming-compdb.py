#!/usr/bin/env python3
"""Writes the compilation database that utils/fix-naming.sh and
utils/check-naming.sh run clang-tidy over: every tracked C++ source of the
project, one entry each.

  naming-compdb.py SRC_ROOT BUILD_DIR PYTHON_BUILD_DIR OUT_DIR

Entries come from BUILD_DIR's compile_commands.json; the Python extension's
sources (python/src) from PYTHON_BUILD_DIR's (a configure with
MMPTX_PYTHON_ONLY=ON, whose generated-header paths are pointed at BUILD_DIR,
which has them built). A tracked .cpp in neither (the fuzzers, which
fuzz/build.sh compiles, and the sources lit tests compile against the
installed headers) gets the flags of a library source. C sources are left
out: they use the C API, whose names are C's. Prints the sources, one a line.
"""

import json
import os
import subprocess
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        return []


def main():
    root, build, pybuild, out = (os.path.abspath(a) for a in sys.argv[1:5])
    tracked = subprocess.run(
        ["git", "-C", root, "ls-files", "*.cpp"], check=True,
        capture_output=True, text=True).stdout.split()
    tracked = [os.path.join(root, f) for f in tracked]

    entries = {}
    for e in load(os.path.join(build, "compile_commands.json")):
        entries.setdefault(os.path.abspath(e["file"]), e)
    for e in load(os.path.join(pybuild, "compile_commands.json")):
        f = os.path.abspath(e["file"])
        if not f.startswith(os.path.join(root, "python", "src") + os.sep):
            continue
        e = dict(e)
        e["command"] = e["command"].replace(pybuild, build)
        e["directory"] = build
        entries.setdefault(f, e)

    # A library source's flags for the sources CMake does not compile.
    template = next(e for f, e in sorted(entries.items())
                    if f.startswith(os.path.join(root, "lib") + os.sep))
    db, files = [], []
    for f in tracked:
        e = entries.get(f)
        if e is None:
            if f.startswith(os.path.join(root, "python") + os.sep):
                continue  # No Python build: python/src is left out.
            e = dict(template)
            e["command"] = e["command"].replace(template["file"], f)
            e["file"] = f
        db.append(e)
        files.append(f)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)
    print("\n".join(files))


if __name__ == "__main__":
    main()
