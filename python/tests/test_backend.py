"""mmptx.compile_batch and mmptx.backends: PTX -> cubin from Python."""

import os
import threading

import pytest

import mmptx
from mmptx.errors import CompileError, CompileErrorCode

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "bench", "corpus")

GOOD = """\
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
\t.reg .b64 %rd<3>;
\t.reg .f32 %f<3>;
\tld.param.u64 %rd1, [p];
\tcvta.to.global.u64 %rd2, %rd1;
\tmov.f32 %f1, 0f40400000;
\tadd.f32 %f2, %f1, %f1;
\tst.global.f32 [%rd2], %f2;
\tret;
}
"""

BAD = GOOD.replace("add.f32 %f2, %f1, %f1", "add.f33 %f2, %f1, %f9")

AVAILABLE = {b.name: b for b in mmptx.backends() if b.available}
ALL = ["nvptxcompiler", "nvjitlink", "ptxas"]
needs_any = pytest.mark.skipif(not AVAILABLE, reason="no PTX backend")


def backend_param(name):
    return pytest.param(name, marks=pytest.mark.skipif(
        name not in AVAILABLE, reason=name + " not available"))


BACKENDS = [backend_param(n) for n in ALL]


def variant(i):
    """GOOD with a different constant: a distinct module."""
    return GOOD.replace("0f40400000", "0f%08X" % (0x40400000 + i))


def test_backends_listed():
    got = mmptx.backends()
    assert [b.name for b in got] == ALL
    for b in got:
        if b.available:
            assert b.version and b.version[0].isdigit() and b.reason is None
        else:
            assert b.version is None and b.reason


@pytest.mark.parametrize("backend", BACKENDS)
def test_compile_each_backend(backend):
    (r,) = mmptx.compile_batch([GOOD], backend=backend, jobs=1)
    assert r.ok and bool(r)
    assert isinstance(r.cubin, bytes) and r.cubin[:4] == b"\x7fELF"
    assert r.error == "" and r.source == "compiled"
    assert r.backend == backend + " " + AVAILABLE[backend].version


@pytest.mark.parametrize("backend", BACKENDS)
def test_per_module_errors(backend):
    rs = mmptx.compile_batch([GOOD, BAD], backend=backend,
                             names=["good.ptx", "bad.ptx"])
    assert rs[0].ok and not rs[1].ok
    assert rs[1].cubin is None
    # Located at the input's line 10, under the given name.
    assert "bad.ptx:11: error" in rs[1].error
    with pytest.raises(CompileError) as e:
        mmptx.compile_batch([GOOD, BAD], backend=backend, check=True)
    assert e.value.code == CompileErrorCode.COMPILE
    assert "<ptx#1>:11: error" in str(e.value)


@needs_any
def test_dedup_and_order():
    texts = [variant(0), variant(1), variant(0), variant(2).encode()]
    rs = mmptx.compile_batch(texts, jobs=2, cache_dir=None)
    assert [r.source for r in rs] == ["compiled", "compiled", "duplicate",
                                      "compiled"]
    assert rs[2].cubin == rs[0].cubin and rs[1].cubin != rs[0].cubin
    rs = mmptx.compile_batch(texts, jobs=2, dedup=False, cache_dir=None)
    assert all(r.source == "compiled" for r in rs)


@needs_any
def test_cache_dir(tmp_path):
    first = mmptx.compile_batch([GOOD], cache_dir=str(tmp_path))
    again = mmptx.compile_batch([GOOD], cache_dir=str(tmp_path))
    assert first[0].source == "compiled" and again[0].source == "cached"
    assert again[0].cubin == first[0].cubin


@needs_any
def test_options():
    (r,) = mmptx.compile_batch([GOOD], opt_level=0, lineinfo=True,
                               maxrregcount=32, verbose=True)
    assert r.ok
    (r,) = mmptx.compile_batch([GOOD], arch="sm_90")
    assert r.ok


def test_errors_raise():
    with pytest.raises(CompileError) as e:
        mmptx.compile_batch([GOOD], backend="nvcc")
    assert e.value.code == CompileErrorCode.UNKNOWN_BACKEND
    assert "unknown backend 'nvcc'" in str(e.value)
    with pytest.raises(CompileError) as e:
        mmptx.compile_batch([GOOD], arch="sm_7")
    assert e.value.code == CompileErrorCode.INVALID_OPTION
    assert "sm_7" in str(e.value)
    with pytest.raises(CompileError):
        mmptx.compile_batch([GOOD], opt_level=9)
    with pytest.raises(TypeError):
        mmptx.compile_batch(GOOD)
    with pytest.raises(TypeError):
        mmptx.compile_batch([GOOD, 3])
    with pytest.raises(ValueError):
        mmptx.compile_batch([GOOD], names=["a", "b"])


def test_unavailable_backend_raises():
    missing = [n for n in ALL if n not in AVAILABLE]
    if not missing:
        pytest.skip("every backend is available")
    with pytest.raises(CompileError) as e:
        mmptx.compile_batch([GOOD], backend=missing[0])
    assert e.value.code == CompileErrorCode.UNAVAILABLE


@needs_any
def test_empty_batch():
    assert mmptx.compile_batch([]) == []


@needs_any
def test_threads_share_the_gil():
    # Batches from several Python threads run at once (the GIL is
    # released while compiling) and each gets its own results.
    out = {}

    def work(i):
        out[i] = mmptx.compile_batch([variant(10 + i)], jobs=1)[0]

    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert all(out[i].ok for i in range(4))
    assert len({out[i].cubin for i in range(4)}) == 4


@needs_any
def test_corpus():
    paths = sorted(os.path.join(CORPUS, f) for f in os.listdir(CORPUS)
                   if f.endswith(".ptx"))
    texts = [open(p).read() for p in paths]
    rs = mmptx.compile_batch(texts, names=paths)
    for r in rs:
        assert r.ok, r.error


def test_conflicting_backend_options_raise():
    # mmptx's own options say these; as backend options they would silently
    # override them (or print instead of compiling).
    for option, hint in (("-arch=sm_90", "arch="), ("--version", "prints"),
                         ("-O0", "opt_level="), ("-o", "names the output")):
        with pytest.raises(CompileError) as e:
            mmptx.compile_batch([GOOD], options=[option])
        assert e.value.code == CompileErrorCode.INVALID_OPTION
        assert "backend option '%s'" % option in str(e.value)
        assert hint in str(e.value)


def test_empty_cubin_is_a_failure_never_cached(tmp_path, monkeypatch):
    # A ptxas that exits 0 without writing a cubin.
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "ptxas"
    fake.write_text("#!/bin/sh\n"
                    "echo 'Cuda compilation tools, release 13.0, V13.0.88'\n"
                    "exit 0\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(bindir) + os.pathsep + os.environ["PATH"])
    cache = tmp_path / "cache"
    for _ in range(2):
        (r,) = mmptx.compile_batch([GOOD], backend="ptxas",
                                   cache_dir=str(cache), names=["k.ptx"])
        assert not r.ok and r.source == "compiled"
        assert "produced no cubin" in r.error
