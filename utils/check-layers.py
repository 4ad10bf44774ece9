#!/usr/bin/env python3
"""Checks the include graph of include/mmptx and lib/ against the layer rules.

Each layer (a folder of include/mmptx/ and lib/) may include the headers of
the layers the table below allows, and no others; a library's LINK_LIBS may
name only libraries of its own layer or of layers it may include. Prints
every violation as FILE:LINE: LAYER may not include LAYER and exits 1 if
there is one. KNOWN lists the violations the tree still has, each with what
removes it; a violation that is gone from the tree must leave the list too
(the check fails on a stale entry, so the list only shrinks).

  utils/check-layers.py [SOURCE_ROOT]
"""

import os
import re
import sys

# Layer -> the layers it may depend on (directly; not transitive).
RULES = {
    "Support": set(),
    "IR": {"Support"},
    "Parser": {"IR", "Support"},
    "Printer": {"IR", "Support"},
    "Inject": {"IR", "Parser", "Printer", "Support"},
    "Annotate": {"Inject", "Support"},
    "Expr": {"Inject", "Support"},
    "Stack": {"Expr", "Inject", "Support"},
    "Ast": {"Expr", "Inject", "Support"},
    "Stub": {"Ast", "Expr", "Inject", "IR", "Stack", "Support"},
    "Transforms": {"Annotate", "Inject", "IR", "Parser", "Printer", "Stub",
                   "Support"},
    "Cache": {"Support"},
    "Frontend": {"Cache", "Support"},
    # Packed modules check their stubs as render does (lib/Inject).
    "Backend": {"Cache", "Inject", "Support"},
    "Serialize": {"Ast", "Backend", "Expr", "Inject", "Stack", "Stub",
                  "Support"},
    "Runtime": {"Support"},
    # Leaves over the libraries: anything.
    "CAPI": None,
    "Tools": None,
}

# (layer, included layer): what removes it.
KNOWN = {
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"mmptx/([A-Za-z]+)/')
LINK_LIBS = re.compile(r"LINK_LIBS([^)]*)\)", re.S)


def layer_files(root, layer):
    for base in (os.path.join(root, "include", "mmptx", layer),
                 os.path.join(root, "lib", layer)):
        for dirpath, _, names in os.walk(base):
            for n in sorted(names):
                if n.endswith((".h", ".cpp", ".c", ".def", ".inc")):
                    yield os.path.join(dirpath, n)


def library_layers(root):
    """Library name -> layer, from add_mmptx_library calls in lib/."""
    libs = {}
    for layer in RULES:
        path = os.path.join(root, "lib", layer, "CMakeLists.txt")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            for m in re.finditer(r"add_mmptx_library\((\w+)", f.read()):
                libs[m.group(1)] = layer
    return libs


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    errors, seen = [], set()
    layers = set(os.listdir(os.path.join(root, "lib"))) - {"CMakeLists.txt"}
    for layer in sorted(layers | set(os.listdir(
            os.path.join(root, "include", "mmptx"))) - {"cuda"}):
        if layer not in RULES:
            errors.append(f"{layer}: a layer the rules do not know; add it "
                          "to RULES in utils/check-layers.py")
            continue
        allowed = RULES[layer]
        if allowed is None:
            continue
        for path in layer_files(root, layer):
            with open(path, errors="replace") as f:
                for num, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m or m.group(1) in (layer, "cuda"):
                        continue
                    dep = m.group(1)
                    if dep in allowed:
                        continue
                    if (layer, dep) in KNOWN:
                        seen.add((layer, dep))
                        continue
                    rel = os.path.relpath(path, root)
                    errors.append(f"{rel}:{num}: {layer} may not include "
                                  f"{dep} (allowed: "
                                  f"{', '.join(sorted(allowed)) or 'none'})")
    libs = library_layers(root)
    for layer in sorted(RULES):
        allowed = RULES[layer]
        path = os.path.join(root, "lib", layer, "CMakeLists.txt")
        if allowed is None or not os.path.exists(path):
            continue
        with open(path) as f:
            text = f.read()
        for m in LINK_LIBS.finditer(text):
            for lib in m.group(1).split():
                dep = libs.get(lib)
                if dep is None or dep == layer or dep in allowed:
                    continue
                if (layer, dep) in KNOWN:
                    seen.add((layer, dep))
                    continue
                rel = os.path.relpath(path, root)
                errors.append(f"{rel}: {layer} may not link {lib} ({dep})")
    for pair in sorted(set(KNOWN) - seen):
        errors.append(f"{pair[0]} no longer depends on {pair[1]}: remove "
                      "the entry from KNOWN in utils/check-layers.py")
    for e in errors:
        print(e)
    if not errors:
        print(f"layers: {len(layers)} checked, {len(KNOWN)} known exceptions")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
