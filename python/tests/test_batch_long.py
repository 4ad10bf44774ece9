"""Long batches from Python: progress, Ctrl-C between modules, per-module
timeouts, the per-user cache, the backend of failed results."""

import os
import sys

import pytest

import mmptx

from helpers import run_python
from test_backend import AVAILABLE, BAD, GOOD, variant

needs_any = pytest.mark.skipif(not AVAILABLE, reason="no PTX backend")


@needs_any
def test_progress_callable_sees_every_module():
    seen = []
    rs = mmptx.compile_batch([variant(i) for i in range(5)] + [variant(0)],
                             jobs=2, progress=lambda d, t: seen.append((d, t)))
    assert all(r.ok for r in rs)
    # Called on this thread as modules finish; the total counts unique ones.
    assert seen and seen[-1] == (5, 5)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


@needs_any
def test_progress_true_without_tqdm_writes_a_line(monkeypatch, capfd):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    mmptx.compile_batch([variant(i) for i in range(3)], progress=True)
    err = capfd.readouterr().err
    assert "mmptx compile: 3/3 modules" in err


@needs_any
def test_progress_exception_stops_the_batch_and_propagates():
    def boom(done, total):
        raise ValueError("stop here")

    with pytest.raises(ValueError, match="stop here"):
        mmptx.compile_batch([variant(i) for i in range(4)], jobs=1,
                            progress=boom)


def test_bad_arguments():
    with pytest.raises(ValueError):
        mmptx.compile_batch([GOOD], timeout=-1)
    with pytest.raises(TypeError):
        mmptx.compile_batch([GOOD], progress="yes")
    with pytest.raises(ValueError):
        mmptx.compile_batch([GOOD], cache_size_mb=-1)


@needs_any
def test_cache_on_by_default_in_the_per_user_directory(tmp_path,
                                                      monkeypatch):
    monkeypatch.setenv("MMPTX_CACHE_DIR", str(tmp_path / "c"))
    first = mmptx.compile_batch([GOOD])
    again = mmptx.compile_batch([GOOD])
    assert first[0].source == "compiled" and again[0].source == "cached"
    assert os.listdir(tmp_path / "c")
    off = mmptx.compile_batch([GOOD], cache_dir=None)
    assert off[0].source == "compiled"


@needs_any
def test_failed_results_name_their_backend():
    rs = mmptx.compile_batch([GOOD, BAD])
    assert rs[0].backend and rs[1].backend == rs[0].backend
    assert not rs[1].ok


@pytest.mark.skipif("ptxas" not in AVAILABLE, reason="ptxas not available")
def test_version_skew_is_refused_with_what_to_install():
    newer = GOOD.replace(".version 8.0", ".version 9.5")
    r = mmptx.compile_batch([newer], backend="ptxas")[0]
    assert not r.ok and r.backend.startswith("ptxas ")
    assert "PTX .version 9.5 is newer than ptxas" in r.error
    assert "CUDA 13.5" in r.error


@needs_any
def test_ctrl_c_keeps_finished_results():
    # SIGINT from the progress callback, as Ctrl-C at that moment would be.
    r = run_python("""
        import os, signal
        import mmptx
        from mmptx.backend import BatchInterrupted
        GOOD = %r
        mods = [GOOD.replace("0f40400000", "0f%%08X" %% (0x40400000 + i))
                for i in range(60)]
        def progress(done, total):
            if done == 2:
                os.kill(os.getpid(), signal.SIGINT)
        try:
            mmptx.compile_batch(mods, jobs=1, cache_dir=None,
                                progress=progress)
            print("not interrupted")
        except BatchInterrupted as e:
            src = [x.source for x in e.results]
            print("interrupted", len(src), src.count("compiled"),
                  src.count("cancelled"))
            assert isinstance(e, KeyboardInterrupt)
        """ % GOOD)
    assert r.returncode == 0, r.stderr
    words = r.stdout.split()
    assert words[0] == "interrupted", r.stdout
    total, compiled, cancelled = map(int, words[1:])
    assert total == 60 and compiled >= 2 and cancelled > 0
    assert compiled + cancelled == 60


def test_timeout_stops_a_hung_ptxas(tmp_path):
    # A ptxas that answers --version, then never finishes a compile.
    fake = tmp_path / "ptxas"
    fake.write_text("#!/bin/sh\ncase \"$1\" in --version) echo 'Cuda "
                    "compilation tools, release 13.0, V13.0.88'; exit 0;; "
                    "esac\nexec sleep 1000\n")
    fake.chmod(0o755)
    r = run_python("""
        import mmptx
        r = mmptx.compile_batch([%r], backend="ptxas", timeout=1,
                                cache_dir=None)[0]
        print(r.ok, r.source)
        print(r.error)
        """ % GOOD, PATH=str(tmp_path) + os.pathsep + os.environ["PATH"])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "False timeout"
    assert "timed out after 1 s" in r.stdout


def test_compat_enums_are_integers():
    from mmptx.compat.ptx_inject import MutType
    from mmptx.compat.stack_ptx_default_types import ArgType, Stack

    assert int(MutType.IN) == 2 and MutType.OUT == 0
    assert int(Stack.f32) == 0 and int(Stack.u32) == 2
    assert int(ArgType.u32) == 1
    assert Stack.f32.literal_prefix == "f32"


@needs_any
def test_progress_true_uses_tqdm(monkeypatch):
    import types

    bars = []

    class FakeBar:
        def __init__(self, total, unit, desc):
            self.total, self.n, self.closed = total, 0, False
            bars.append(self)

        def refresh(self):
            pass

        def update(self, k):
            self.n += k

        def close(self):
            self.closed = True

    auto = types.ModuleType("tqdm.auto")
    auto.tqdm = FakeBar
    pkg = types.ModuleType("tqdm")
    pkg.auto = auto
    monkeypatch.setitem(sys.modules, "tqdm", pkg)
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    mmptx.compile_batch([variant(i) for i in range(4)], progress=True)
    assert len(bars) == 1
    assert bars[0].n == 4 and bars[0].total == 4 and bars[0].closed
