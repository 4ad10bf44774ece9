#!/usr/bin/env python3
"""Checks two naming rules that clang-tidy does not: doc comments name real
parameters, and no local or parameter is called `The<Something>`.

1. Every `\\p Name` in a doc comment (a `///` block, or a `/* */` block that
   uses `\\p`) names a parameter of the declaration the comment documents
   (the function or macro right below it), or one of its template
   parameters. A comment above something that has no parameters (a class, a
   variable) may not use `\\p`.
2. A parameter, local or namespace-scope variable is not called
   `The[A-Z]...`: LLVM writes `A`, `I`, `Out`, `Kind`, and keeps the `The`
   prefix for "the one X" of a scope (`TheModule`, `TheTriple`; ALLOWED
   below). Class members are not checked.

Both are text scans of the C and C++ sources, not a compiler's view: a
declaration is what a doc comment stands right above, and a variable is an
identifier that follows a type-like token and precedes `=`, `;`, `,`, `)`,
`(`, `[`, `{` or `:`. Prints each finding as PATH:LINE: message and exits 1
if there is one.

  utils/check-doc-params.py [--root DIR] [PATH...]

PATHs (files or folders, relative to the root) default to the whole tree:
TREE below.
"""

import argparse
import os
import re
import sys

# The folders of the whole tree that hold C and C++ sources.
TREE = ["include", "lib", "tools", "unittests", "bench", "fuzz", "examples",
        "python/src"]

# LLVM's "the one X of this scope" idiom.
ALLOWED = {"TheModule", "TheTriple", "TheTarget", "TheContext"}

EXTENSIONS = (".h", ".hpp", ".cpp", ".cc", ".c", ".cu", ".cuh", ".inc",
              ".def")

KEYWORDS = {
    "return", "case", "delete", "new", "throw", "else", "do", "goto",
    "sizeof", "alignof", "co_return", "co_yield", "co_await", "typename",
    "using", "namespace", "public", "private", "protected", "default",
    "operator", "decltype", "noexcept", "static_assert", "if", "while",
    "for", "switch", "catch",
}

# Identifiers before a parenthesis that do not open a parameter list.
NOT_PARAMS = {"__attribute__", "alignas", "decltype", "sizeof", "alignof",
              "noexcept", "__declspec", "static_assert"}

TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.']*|->|::|&&|\|\||<<=?|>>=?|[<>!=]="
                   r"|\.\.\.|\S")
DOC_REF = re.compile(r"\\p\s+[*&]*([A-Za-z_]\w*)")
THE = re.compile(r"^The[A-Z]\w*$")


def blank(text):
    """Returns (code, comments): the text with comments and string and
    character literals blanked (same length and lines), and the comments as
    (start, end, text) triples."""
    out = list(text)
    comments = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            comments.append((i, j, text[i:j]))
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            comments.append((i, j, text[i:j]))
        elif c == 'R' and text.startswith('R"', i) and (
                i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():
                i += 1  # a digit separator: 1'000
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            i += 1
            continue
        for k in range(i, j):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out), comments


def doc_blocks(text, comments):
    """Yields (line, body, end) per doc comment: a run of `///` lines (not
    `///<`), or a `/* */` comment that uses \\p; end is where the documented
    declaration may start."""
    run = []

    def flush():
        if run:
            body = " ".join(t[3:] for _, _, t in run)
            yield (text.count("\n", 0, run[0][0]) + 1, body, run[-1][1])
        run.clear()

    for start, end, body in comments:
        line_start = text.rfind("\n", 0, start) + 1
        own_line = not text[line_start:start].strip()
        if body.startswith("///") and not body.startswith("///<") and own_line:
            if run and text[run[-1][1]:start].strip():
                yield from flush()
            run.append((start, end, body))
            continue
        yield from flush()
        if body.startswith("/*") and "\\p" in body and own_line:
            lines = [re.sub(r"^\s*\*(?!/)", "", ln)
                     for ln in body[2:-2].split("\n")]
            yield (text.count("\n", 0, start) + 1, " ".join(lines), end)
    yield from flush()


def nesting(t):
    """How token t changes the depth of brackets."""
    if t in "([{<":
        return 1
    if t in ")]}>":
        return -1
    return -2 if t == ">>" else 0


def split_top(tokens, sep=","):
    parts, cur, depth = [], [], 0
    for t in tokens:
        depth += nesting(t)
        if t == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        parts.append(cur)
    return parts


def param_name(tokens):
    """The name a parameter declares, or None."""
    # A default argument ends the declarator.
    depth = 0
    for k, t in enumerate(tokens):
        depth += nesting(t)
        if t == "=" and depth == 0:
            tokens = tokens[:k]
            break
    # A function pointer or reference to an array: (*Name)(...).
    for k in range(len(tokens) - 2):
        if tokens[k] == "(" and tokens[k + 1] in ("*", "&", "&&", "^"):
            j = k + 1
            while j < len(tokens) and tokens[j] in ("*", "&", "&&", "^"):
                j += 1
            if j < len(tokens) and re.match(r"[A-Za-z_]\w*$", tokens[j]):
                return tokens[j]
    while tokens and tokens[-1] == "]":  # Name[N]
        k = len(tokens) - 1
        while k > 0 and tokens[k] != "[":
            k -= 1
        tokens = tokens[:k]
    if len(tokens) < 2 and not (tokens and tokens[0] == "..."):
        return None  # a type alone: (void), (int)
    last = tokens[-1] if tokens else ""
    if re.match(r"[A-Za-z_]\w*$", last) and last not in (
            "const", "volatile", "int", "char", "bool", "float", "double",
            "long", "short", "unsigned", "signed", "void", "auto"):
        prev = tokens[-2] if len(tokens) > 1 else ""
        if prev == "::":
            return None
        return last
    return None


def template_params(tokens):
    """Names declared by leading `template <...>` clauses; the tokens after."""
    names = set()
    while tokens and tokens[0] == "template" and len(tokens) > 1 and \
            tokens[1] == "<":
        depth, k = 0, 1
        while k < len(tokens):
            if tokens[k] == "<":
                depth += 1
            elif tokens[k] == ">":
                depth -= 1
            elif tokens[k] == ">>":
                depth -= 2
            if depth <= 0:
                break
            k += 1
        for p in split_top(tokens[2:k]):
            n = param_name(p)
            if n:
                names.add(n)
            elif p and re.match(r"[A-Za-z_]\w*$", p[-1]):
                names.add(p[-1])
        tokens = tokens[k + 1:]
    return names, tokens


def declaration(code, start):
    """(parameters or None when it has no parameter list, text) of the
    declaration that starts at code[start:]."""
    tail = code[start:start + 4000]
    if re.match(r"\s*#\s*define\s+\w+\(", tail):
        m = re.match(r"\s*#\s*define\s+(\w+)\(([^)]*)\)", tail)
        names = {p.strip().rstrip(".") for p in m.group(2).split(",")}
        return names | {"__VA_ARGS__"}, m.group(1)
    tokens = TOKEN.findall(tail)
    # Stop at the body, the end, or a constructor's initializer list.
    depth, end = 0, len(tokens)
    for k, t in enumerate(tokens):
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
        elif depth == 0 and t in (";", "{"):
            end = k
            break
    tokens = tokens[:end]
    names, tokens = template_params(tokens)
    text = " ".join(tokens)
    skip_to = -1
    for k, t in enumerate(tokens):
        if t != "(" or k <= skip_to:
            continue
        prev = tokens[k - 1] if k else ""
        if prev in NOT_PARAMS or prev.startswith("LLVM_") or \
                prev.startswith("MMPTX_") and prev.isupper():
            depth, skip_to = 0, k
            while skip_to < len(tokens):
                depth += {"(": 1, ")": -1}.get(tokens[skip_to], 0)
                if depth == 0:
                    break
                skip_to += 1
            continue
        if prev == "operator" and k + 1 < len(tokens) and \
                tokens[k + 1] == ")":
            continue  # operator()(...)
        if not (re.match(r"[A-Za-z_~]\w*$", prev) or prev == ")" and
                k > 2 and tokens[k - 3] == "operator" or prev in (
                    ">", "=", "==", "<", "+", "-", "*", "/", "[", "]")):
            continue
        depth, j = 0, k
        while j < len(tokens):
            if tokens[j] == "(":
                depth += 1
            elif tokens[j] == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        for p in split_top(tokens[k + 1:j]):
            n = param_name(p)
            if n:
                names.add(n)
        return names, text
    return (names or None), text


def check_doc(path, text, code, comments, report):
    for line, body, end in doc_blocks(text, comments):
        refs = DOC_REF.findall(body)
        if not refs:
            continue
        params, decl = declaration(code, end)
        for r in refs:
            if params is None:
                report(path, line, "\\p %s: the declaration below has no "
                       "parameters (%s)" % (r, decl[:60]))
            elif r not in params:
                report(path, line, "\\p %s names no parameter of %s "
                       "(parameters: %s)" % (r, decl[:60],
                                             ", ".join(sorted(params))))


def check_the(path, code, report):
    tokens = [(m.group(), m.start()) for m in TOKEN.finditer(code)]
    # Scopes: 'class' (members, not checked) or anything else.
    scopes, since = [], 0
    parens = 0
    for k, (t, pos) in enumerate(tokens):
        if t == "{":
            head = [x for x, _ in tokens[since:k]]
            kind = "block"
            if ("class" in head or "struct" in head or "union" in head) and \
                    "(" not in head and "=" not in head:
                kind = "class"
            elif "enum" in head:
                kind = "enum"
            scopes.append(kind)
            since = k + 1
            continue
        if t == "}":
            if scopes:
                scopes.pop()
            since = k + 1
            continue
        if t == ";":
            since = k + 1
            continue
        if t == "(":
            parens += 1
        elif t == ")":
            parens = max(0, parens - 1)
        if not THE.match(t) or t in ALLOWED or k == 0 or k + 1 >= len(tokens):
            continue
        prev, nxt = tokens[k - 1][0], tokens[k + 1][0]
        if nxt not in ("=", ";", ",", ")", "(", "[", "{", ":"):
            continue
        head = [x for x, _ in tokens[since:k]]
        statement = head.count("(") == head.count(")")
        if prev in ("*", "&", "&&", "...", ","):
            j = k - 1
            while j > 0 and tokens[j][0] in ("*", "&", "&&", "...", "const"):
                j -= 1
            before = tokens[j][0]
            # Type *Name, or a second declarator: Type A = X, *Name = Y.
            if not (re.match(r"[A-Za-z_]\w*$", before) and
                    before not in KEYWORDS or before == ">" or
                    before == "," and nxt == "=" and statement):
                continue
        elif prev == ">" or prev == ">>":
            pass
        elif not re.match(r"[A-Za-z_]\w*$", prev) or prev in KEYWORDS:
            continue
        in_class = scopes and scopes[-1] == "class"
        if in_class and "(" not in head:
            continue  # a member
        line = code.count("\n", 0, pos) + 1
        report(path, line, "'%s': LLVM names a local or parameter for what "
               "it is ('A', 'I', 'Out', 'Kind'); 'The' is for the one X of a "
               "scope (%s)" % (t, ", ".join(sorted(ALLOWED))))


def sources(root, paths):
    for p in paths:
        full = os.path.join(root, p)
        if os.path.isfile(full):
            yield p
            continue
        for dirpath, dirs, names in os.walk(full):
            dirs.sort()
            for n in sorted(names):
                if n.endswith(EXTENSIONS):
                    yield os.path.relpath(os.path.join(dirpath, n), root)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()
    paths = args.paths or TREE
    for p in paths:
        if not os.path.exists(os.path.join(args.root, p)):
            print("check-doc-params: %s: no such file or folder" % p,
                  file=sys.stderr)
            return 2
    found = []

    def report(path, line, msg):
        found.append((path, line, msg))

    count = 0
    for path in sources(args.root, paths):
        with open(os.path.join(args.root, path), encoding="utf-8",
                  errors="replace") as f:
            text = f.read()
        code, comments = blank(text)
        check_doc(path, text, code, comments, report)
        check_the(path, code, report)
        count += 1
    for path, line, msg in sorted(found, key=lambda f: f[:2]):
        print("%s:%d: %s" % (path, line, msg))
    if found:
        print("check-doc-params: %d findings in %d sources" %
              (len(found), count))
        return 1
    print("check-doc-params: %d sources checked" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
