#!/usr/bin/env python3
"""Turns the naming fixes clang-tidy exported (run-clang-tidy -export-fixes)
into one set of renames for clang-apply-replacements.

  naming-fixes.py SRC_ROOT FIXES.yaml OUT.yaml [SHADOWS]

Each declaration is renamed once: the diagnostics every translation unit
gives for a name declared in a shared header are merged, and a rename whose
edits would reach a file outside the tracked sources (a TableGen-generated
file) is dropped whole. A variable, parameter or member whose new name would
collide with another declaration gets the LLVM idiom for such a clash
instead, a "The" prefix (`Module &TheModule`): when the new name is a type
or unscoped enumerator at namespace scope (found with universal-ctags, in
the project and LLVM's ADT and Support; one declared in a .cpp or in a
header outside include/ counts only in that file or folder), or when the
compiler says the renamed declaration hides another one that had a
different name before (SHADOWS: "path:line:name path:line" lines of
declaration and shadowed declaration, or "path:line:name -" for one that
changes the meaning of a name; from utils/fix-naming.sh). Uses in
offsetof(), which clang-tidy 14 does not rename, are renamed too. Prints one
line per rename it changed or dropped.
"""

import os
import re
import subprocess
import sys

import yaml

# Every scalar read as a string: a new name such as `Off` or `No` must not
# become a boolean.
try:
    from yaml import CBaseLoader as Loader, CSafeDumper as Dumper
except ImportError:
    from yaml import BaseLoader as Loader, SafeDumper as Dumper


def read(path, cache={}):
    if path not in cache:
        with open(path, "rb") as f:
            cache[path] = f.read()
    return cache[path]


def line_of(path, offset):
    return read(path).count(b"\n", 0, offset) + 1


def ctags(paths, kinds):
    """The tags universal-ctags finds in paths: (name, path, fields)."""
    out = subprocess.run(
        ["ctags", "-L", "-", "-f", "-", "--fields=+Ksn",
         "--fields-C++=+{properties}", "--language-force=C++",
         "--kinds-C++=" + kinds],
        input="\n".join(paths), capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("!"):
            continue
        cols = line.split("\t")
        fields = {}
        for f in cols[3:]:
            k, sep, v = f.partition(":")
            fields[k if sep else "kind"] = v if sep else k
        yield cols[0], cols[1], fields


SCOPES = ("function", "struct", "class", "union", "enum")


def type_names(root, tracked):
    """Names a variable must not take -> the path prefix where they count."""
    llvm = subprocess.run(["llvm-config-14", "--includedir"],
                          capture_output=True, text=True).stdout.strip()
    llvm = llvm or "/usr/lib/llvm-14/include"
    headers = [os.path.join(dp, f)
               for d in ("llvm/ADT", "llvm/Support")
               for dp, _, fs in os.walk(os.path.join(llvm, d))
               for f in fs if f.endswith(".h")]
    gen = [os.path.join(dp, f)
           for d in ("build/include", "build/unittests")
           for dp, _, fs in os.walk(os.path.join(root, d))
           for f in fs if f.endswith(".inc")]
    src = [p for p in tracked if p.endswith((".h", ".cpp", ".def"))]
    tags = list(ctags(src + gen, "csgute")) + [
        (n, "", f) for n, _, f in ctags(headers, "csgut")
        if f.get("namespace", "llvm") == "llvm" and
        not any(k in f for k in SCOPES)]
    # Unscoped enums at namespace scope: their enumerators are seen there.
    open_enums = set()
    for name, path, f in tags:
        if f.get("kind") == "enum" and "scopedenum" not in f.get(
                "properties", "") and not any(k in f for k in SCOPES):
            ns = f.get("namespace")
            open_enums.add(f"{ns}::{name}" if ns else name)
    names = {}
    for name, path, f in tags:
        if f.get("kind") == "enumerator":
            if f.get("enum") not in open_enums:
                continue
        elif any(k in f for k in SCOPES):
            continue
        if not path or path.startswith(os.path.join(root, "include") + os.sep) \
                or path.startswith(os.path.join(root, "build") + os.sep):
            where = ""
        elif path.endswith(".cpp"):
            where = path
        else:
            where = os.path.dirname(path) + os.sep
        old = names.get(name)
        names[name] = where if old is None else os.path.commonprefix(
            [old, where])
    return names


def nested_clashes(tracked):
    """(path, line, old name) of the variables, parameters and members that
    are declared in a class, or in one of its member functions, with a nested
    type: the class's short name -> those type names too."""
    src = [p for p in tracked if p.endswith((".h", ".cpp"))]
    nested, decls = {}, {}
    for name, path, f in ctags(src, "csgutmlz"):
        kind = f.get("kind")
        if kind in ("member", "local", "parameter"):
            scope = next((f[k] for k in SCOPES if k in f), "")
            if kind != "member":
                scope = scope.rpartition("::")[0]  # function:A::f -> A
            decls[(path, int(f.get("line", 0)), name)] = scope.split("::")[-1]
        else:
            scope = next((f[k] for k in ("struct", "class", "union") if k in f),
                         None)
            if scope:
                nested.setdefault(scope.split("::")[-1], set()).add(name)
    return {k: nested.get(c, set()) for k, c in decls.items() if c}


# PyYAML (run-clang-tidy merges the fixes with it) reads a new name such as
# `Off` as a boolean and writes it back as `false`.
YAML_WORDS = {"true", "false", "null", "~", ""}


def main():
    root = os.path.abspath(sys.argv[1])
    src, dst = sys.argv[2], sys.argv[3]
    shadows = []
    if len(sys.argv) > 4:
        with open(sys.argv[4]) as f:
            shadows = [l.split() for l in f if len(l.split()) == 2]
    tracked = set(
        os.path.join(root, f) for f in subprocess.run(
            ["git", "-C", root, "ls-files"], check=True, capture_output=True,
            text=True).stdout.split())
    types = type_names(root, tracked)

    with open(src) as f:
        diags = yaml.load(f, Loader=Loader).get("Diagnostics") or []

    # One entry per declaration: (file, offset) -> old name, new name, edits.
    renames = {}
    for d in diags:
        if d.get("DiagnosticName") != "readability-identifier-naming":
            continue
        msg = d["DiagnosticMessage"]
        reps = msg.get("Replacements") or []
        if not reps:
            continue
        m = re.search(r"'([^']*)'", msg["Message"])
        key = (msg["FilePath"], int(msg["FileOffset"]))
        new = reps[0]["ReplacementText"]
        if new.lower() in YAML_WORDS and new != m.group(1):
            old = m.group(1)
            new = (old[0].lower() if "function" in msg["Message"] else
                   old[0].upper()) + old[1:]
        r = renames.setdefault(key, {"old": m.group(1), "kind": msg["Message"],
                                     "new": new, "edits": set()})
        for rep in reps:
            p, o, n = rep["FilePath"], int(rep["Offset"]), int(rep["Length"])
            # clang-tidy 14 also "renames" a lambda's implicit capture
            # (`[&]`, `[=]`) of the variable: keep only edits of the name.
            if p in tracked and read(p)[o:o + n] != r["old"].encode():
                continue
            r["edits"].add((p, o, n))

    # offsetof(Type, member): the member's uses clang-tidy 14 leaves alone.
    members = {}
    for r in renames.values():
        if " member " in r["kind"]:
            members.setdefault(r["old"], r)
    for p in sorted(tracked):
        if not p.endswith((".cpp", ".h")) or not os.path.exists(p):
            continue
        for m in re.finditer(rb"offsetof\(\s*([A-Za-z_][\w:]*)\s*,\s*(\w+)\s*\)",
                             read(p)):
            r = members.get(m.group(2).decode())
            if r and not m.group(1).startswith(b"mmptx_"):
                r["edits"].add((p, m.start(2), len(m.group(2))))

    # Declarations by where clang-tidy renamed them: (path, line) -> renames.
    at = {}
    for key, r in renames.items():
        at.setdefault((os.path.relpath(key[0], root), line_of(*key)),
                      []).append(r)
    avoid = set()
    for decl, shadowed in shadows:
        dpath, dline, name = decl.rsplit(":", 2)
        dpath = os.path.relpath(os.path.abspath(dpath), root)
        if shadowed != "-":
            spath, sline = shadowed.rsplit(":", 1)
            spath = os.path.relpath(os.path.abspath(spath), root)
        rd = [r for r in at.get((dpath, int(dline)), []) if r["new"] == name]
        if shadowed == "-":
            avoid.update(id(r) for r in rd)
            continue
        rs = [r for r in at.get((spath, int(sline)), []) if r["new"] == name]
        # Both were one name before (`int size` hiding member `size`): the
        # renamed code means what the old code did.
        if rd and rs and rd[0]["old"] == rs[0]["old"]:
            continue
        # Otherwise the renamed one of the two takes the prefix.
        avoid.update(id(r) for r in (rd or rs))

    clashes = nested_clashes(tracked)
    for (path, offset), r in renames.items():
        if r["new"] in clashes.get((path, line_of(path, offset), r["old"]),
                                   ()):
            avoid.add(id(r))

    # Declarations that share a use (a member seen through two translation
    # units' views of one header) take one name: the prefix spreads.
    by_edit = {}
    for (path, offset), r in renames.items():
        if r["new"] in types and path.startswith(types[r["new"]]):
            avoid.add(id(r))
    for r in renames.values():
        for e in r["edits"]:
            by_edit.setdefault(e, []).append(r)
    changed = True
    while changed:
        changed = False
        for rs in by_edit.values():
            if any(id(r) in avoid for r in rs) and \
                    not all(id(r) in avoid for r in rs):
                avoid.update(id(r) for r in rs)
                changed = True

    # The names .clang-tidy leaves alone (when it changed since the fixes).
    with open(os.path.join(root, ".clang-tidy")) as f:
        opts = {o["key"].rpartition(".")[2]: o["value"]
                for o in yaml.load(f, Loader=Loader).get("CheckOptions", [])}
    ignored = {k[:-len("IgnoredRegexp")].lower(): re.compile(v)
               for k, v in opts.items() if k.endswith("IgnoredRegexp")}

    out = []
    for (path, offset), r in sorted(renames.items()):
        kind = re.search(r"for (\w+) ", r["kind"])
        if kind and kind.group(1) in ignored and \
                ignored[kind.group(1)].fullmatch(r["old"]):
            continue
        outside = sorted({p for p, _, _ in r["edits"] if p not in tracked})
        if outside:
            print(f"naming: not renaming '{r['old']}' "
                  f"({os.path.relpath(path, root)}:{line_of(path, offset)}): "
                  f"it is used in {', '.join(outside)}")
            continue
        new = r["new"]
        is_var = re.search(r"for (\w+ )*(variable|parameter|member) ",
                           r["kind"])
        if is_var and id(r) in avoid:
            new = "The" + new
            print(f"naming: {os.path.relpath(path, root)}:"
                  f"{line_of(path, offset)}: '{r['old']}' becomes '{new}' "
                  f"('{r['new']}' names another declaration)")
        out.append({
            "DiagnosticName": "readability-identifier-naming",
            "Level": "Warning",
            "BuildDirectory": root,
            "DiagnosticMessage": {
                "Message": r["kind"], "FilePath": path, "FileOffset": offset,
                "Replacements": [
                    {"FilePath": p, "Offset": o, "Length": n,
                     "ReplacementText": new}
                    for p, o, n in sorted(r["edits"])]},
        })
    with open(dst, "w") as f:
        yaml.dump({"MainSourceFile": "", "Diagnostics": out}, f, Dumper=Dumper)
    print(f"naming: {len(out)} declarations renamed")


if __name__ == "__main__":
    main()
