"""examples/search/map_elites.py: a few small generations of the
quality-diversity search (pyribs), on the CPU interpreter here (on the GPU
where mmptx.runtime finds one)."""

import json
import os
import subprocess
import sys

import pytest

import mmptx
from mmptx import stack as S

np = pytest.importorskip("numpy")
pytest.importorskip("ribs", reason="pyribs is not installed "
                    "(pip install 'ribs[visualize]')")

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "examples",
                      "search", "map_elites.py")
SMALL = ["--batch", "24", "--emitters", "2", "--pack-size", "16",
         "--points", "16"]


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *SMALL, *args],
                          capture_output=True, text=True, check=True).stdout


def interpreter_mse(words, inputs, target):
    """The mse of a program from the interpreter, one point at a time."""
    cc = S.Compiler(target_sm=80)
    regs = cc.instruction_set.registers([("x0", "F32", "in"),
                                         ("x1", "F32", "in"),
                                         ("y", "F32", "out")])
    prog = np.array([int(w, 16) for w in words], dtype=np.uint64)
    xs = np.array(inputs, dtype=np.float32)
    got = np.array([cc.interpret(prog, regs, ["y"], [float(a), float(b), 0.0])
                    for a, b in zip(xs[0], xs[1])], dtype=np.float32)
    x0, x1 = xs.astype(np.float64)
    want = {"x0 * x1 + sin(x0)": x0 * x1 + np.sin(x0)}[target]
    return float(np.mean((got[:, 0].astype(np.float64) - want) ** 2))


@pytest.mark.skipif(not any(b.available for b in mmptx.backends()),
                    reason="no PTX backend")
def test_map_elites_small(tmp_path):
    out = run("--generations", "2", "--out", str(tmp_path))
    assert "gen   1:" in out and "programs/s end to end" in out
    assert "packed compile" in out and "programs per CPU-second" in out
    # Resumes from the checkpoint: generations 2 and 3 continue the archive.
    out = run("--generations", "4", "--out", str(tmp_path), "--resume")
    assert "resumed from" in out and "gen   0:" not in out
    with open(tmp_path / "log.json") as f:
        log = json.load(f)
    gens = log["generations"]
    assert [g["generation"] for g in gens] == [0, 1, 2, 3]
    # MAP-Elites never loses an elite: the QD score does not decrease.
    qd = [g["qd_score"] for g in gens]
    assert all(b >= a for a, b in zip(qd, qd[1:])) and qd[0] > 0
    for g in gens:
        assert g["programs"] == 48 and 1 <= g["unique"] <= 48
        assert g["packs"] == -(-g["unique"] // 16)
    # The best program's fitness from the interpreter is the fitness the
    # evaluated outputs gave it (the GPU's approximate transcendentals may
    # differ in the last bits).
    best = gens[-1]
    mse = interpreter_mse(best["best_words"], log["inputs"], log["target"])
    exact = log["evaluated_on"].startswith("CPU")
    assert mse == pytest.approx(best["best_mse"],
                                rel=1e-9 if exact else 1e-3, abs=1e-9)
    png = (tmp_path / "heatmap.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_map_elites_rejects_bad_options(tmp_path):
    r = subprocess.run([sys.executable, SCRIPT, "--generations", "0",
                        "--out", str(tmp_path)], capture_output=True,
                       text=True)
    assert r.returncode == 2
    assert "counts must be at least 1" in r.stderr


ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
FAKE = os.environ.get("MMPTX_FAKE_LIBCUDA") or os.path.join(
    ROOT, "build", "unittests", "Runtime", "FakeCuda", "libcuda.so.1")


@pytest.mark.skipif(not os.path.exists(FAKE), reason="fake driver not built")
@pytest.mark.skipif(not any(b.available for b in mmptx.backends()),
                    reason="no PTX backend")
def test_map_elites_gpu_path(tmp_path):
    """The GPU path against the fake driver (it runs no code, so the
    interpreter's check reports every sampled program as different)."""
    env = dict(os.environ, MMPTX_LIBCUDA=FAKE)
    out = subprocess.run([sys.executable, SCRIPT, *SMALL, "--generations",
                          "1", "--check", "4", "--out", str(tmp_path)],
                         capture_output=True, text=True, check=True,
                         env=env).stdout
    assert "evaluating on the GPU (mmptx fake device)" in out
    assert "checked 4, 4 differ" in out
    out = subprocess.run([sys.executable, SCRIPT, *SMALL, "--generations",
                          "1", "--cpu", "--out", str(tmp_path / "cpu")],
                         capture_output=True, text=True, check=True,
                         env=env).stdout
    assert "evaluating on the CPU interpreter" in out
