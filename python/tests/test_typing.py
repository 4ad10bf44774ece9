"""Types and docs of the package: the extension's stubs (made by nanobind's
stubgen at build time) and the py.typed marker are installed, a type
checker (mypy, pinned) accepts a typed use of the API and reports a
wrong-typed call, and every public function and class has a docstring."""

import importlib
import inspect
import os
import subprocess
import sys
import textwrap

import pytest

import mmptx

MYPY_VERSION = "2.4.1"
PACKAGE_DIR = os.path.dirname(os.path.abspath(mmptx.__file__))
STUBS = ["__init__", "inject", "stack", "ast", "backend", "runtime", "wire",
         "frontend"]
PUBLIC_MODULES = ["mmptx", "mmptx.inject", "mmptx.stack", "mmptx.ast",
                  "mmptx.backend", "mmptx.errors", "mmptx.nvrtc",
                  "mmptx.wire", "mmptx.runtime"]


def test_stubs_and_marker_installed():
    assert os.path.isfile(os.path.join(PACKAGE_DIR, "py.typed"))
    for name in STUBS:
        path = os.path.join(PACKAGE_DIR, "_mmptx", name + ".pyi")
        assert os.path.isfile(path), f"{path}: not installed"
    with open(os.path.join(PACKAGE_DIR, "_mmptx", "stack.pyi")) as f:
        stub = f.read()
    # What the extension declares, as stubgen writes it: options that may
    # be None (the compiler's default) and the defaults' accessor.
    assert "def default_options() -> dict:" in stub
    assert "stack_size: int | None = None" in stub
    # ... with the bindings' docstrings.
    assert "The index of stack `name`, or -1." in stub


def _mypy():
    """A command running mypy MYPY_VERSION: the one installed, else one
    pip installs into a per-user cache (skips, saying why, when neither
    can be had)."""
    env = dict(os.environ)
    try:
        import mypy.version
        if mypy.version.__version__ == MYPY_VERSION:
            return [sys.executable, "-m", "mypy"], env
    except ImportError:
        pass
    # Per interpreter version: mypy's wheels hold compiled modules.
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or
                         os.path.expanduser("~/.cache"), "mmptx-tests",
                         "mypy-%s-%s" % (MYPY_VERSION,
                                         sys.implementation.cache_tag))
    if not os.path.isdir(os.path.join(cache, "mypy")):
        r = subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q",
             "--disable-pip-version-check", "--target", cache + ".tmp",
             "mypy==" + MYPY_VERSION],
            capture_output=True, text=True)
        if r.returncode != 0:
            pytest.skip(f"mypy=={MYPY_VERSION} could not be installed: "
                        f"{r.stderr.strip()[-300:]}")
        os.replace(cache + ".tmp", cache)
    env["PYTHONPATH"] = os.pathsep.join(
        [cache] + [p for p in [env.get("PYTHONPATH")] if p])
    return [sys.executable, "-m", "mypy"], env


def _check(tmp_path, code):
    cmd, env = _mypy()
    src = tmp_path / "sample.py"
    src.write_text(textwrap.dedent(code))
    r = subprocess.run(
        cmd + ["--no-incremental", "--cache-dir", str(tmp_path / "cache"),
               "--python-executable", sys.executable, "--strict-optional",
               "--no-error-summary", str(src)],
        capture_output=True, text=True, env=env, cwd=str(tmp_path))
    return r.returncode, r.stdout + r.stderr


def test_mypy_accepts_typed_usage(tmp_path):
    rc, out = _check(tmp_path, """
        from typing import Any, Dict, List

        import mmptx
        from mmptx import ast, inject, stack
        from mmptx._mmptx import stack as native

        cc = stack.Compiler(stack_size=64, strict=None)
        stub: str = cc.compile_text(
            ".registers { x : F32 in; z : F32 out; } .program { x }")
        limits: Dict[str, Any] = stack.default_options()
        regs = cc.instruction_set.registers([("x", "F32", "in")])
        word: int = cc.instruction_set.ptx("add.ftz.f32")
        p = ast.parse("(in x F32) (out z F32) (= z x)")
        text: str = p.compile(ast.Options(max_words=16))
        index: int = native.InstructionSet.default().find_stack("F32")
        m = inject.Module("// PTX_INJECT_START f\\n// PTX_INJECT_END\\n")
        names: List[str] = m.keys()
        include: str = mmptx.get_include()
    """)
    assert rc == 0, out


def test_mypy_reports_wrong_types(tmp_path):
    rc, out = _check(tmp_path, """
        from mmptx import stack
        from mmptx._mmptx import stack as native

        stack.Compiler(stack_size="large")
        native.InstructionSet.default().find_stack(3)
        n: int = stack.parse("").format()
    """)
    assert rc == 1, out
    # The pure-Python annotations...
    assert ('Argument "stack_size" to "Compiler" has incompatible type '
            '"str"; expected "int | None"') in out
    assert ('Incompatible types in assignment (expression has type "str", '
            'variable has type "int")') in out
    # ... and the extension's stubs.
    assert ('Argument 1 to "find_stack" of "InstructionSet" has '
            'incompatible type "int"; expected "str"') in out


def _doc(obj):
    """The docstring of ``obj`` without the signature nanobind puts first
    in a native function's ``__doc__``."""
    doc = getattr(obj, "__doc__", None) or ""
    if type(obj).__name__ == "nb_func":
        doc = doc.split("\n", 1)[1] if "\n" in doc else ""
    return doc.strip()


def _public(module):
    names = getattr(module, "__all__", None) or [
        n for n in vars(module) if not n.startswith("_")]
    for name in names:
        obj = getattr(module, name)
        if inspect.ismodule(obj):
            continue
        if inspect.isclass(obj) or callable(obj):
            yield f"{module.__name__}.{name}", obj


def test_every_public_function_has_a_docstring():
    missing = []
    for mod in PUBLIC_MODULES:
        for qual, obj in _public(importlib.import_module(mod)):
            if not _doc(obj):
                missing.append(qual)
            if not inspect.isclass(obj) or obj.__module__.startswith(
                    ("enum", "builtins")):
                continue
            for name, member in vars(obj).items():
                if name.startswith("_"):
                    continue
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if (callable(member) or isinstance(member, property)) \
                        and not _doc(member):
                    missing.append(f"{qual}.{name}")
    assert not missing, "no docstring: " + ", ".join(sorted(set(missing)))


def test_docstring_check_can_fail():
    """The walk above finds a public function without a docstring."""
    import types

    mod = types.ModuleType("sample")
    exec("def documented():\n    'Docs.'\ndef bare():\n    pass\n",
         mod.__dict__)
    found = [q for q, o in _public(mod) if not _doc(o)]
    assert found == ["sample.bare"]
