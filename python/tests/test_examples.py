"""The examples in examples/python run (CPU path; the GPU path of
random_image.py against the fake driver the C++ build makes)."""

import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples",
                        "python")


ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
FAKE = os.environ.get("MMPTX_FAKE_LIBCUDA") or os.path.join(
    ROOT, "build", "unittests", "Runtime", "FakeCuda", "libcuda.so.1")


def run(script, *args, env=None):
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, script),
                           *args], capture_output=True, text=True,
                          check=True, env=env).stdout


def test_quickstart(tmp_path):
    out = run("quickstart.py", str(tmp_path))
    assert "axpy on the CPU: a=2, xi=3, yi=1 -> yi = 7.0" in out
    assert "fma.rn.f32 %_s0_0, %_x0, %_x1, %_x2;" in out
    for name in ("axpy", "scale", "wave"):
        with open(tmp_path / f"saxpy-{name}.ptx") as f:
            ptx = f.read()
        assert "MMPTX_INJECT" not in ptx and ".entry saxpy" in ptx


def test_random_image(tmp_path):
    pytest.importorskip("numpy")
    png = tmp_path / "img.png"
    out = run("random_image.py", str(png), "--size", "32", "--seed", "3")
    assert "wrote" in out
    data = png.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and b"IDAT" in data
    assert int.from_bytes(data[16:20], "big") == 32  # width


@pytest.mark.skipif(not os.path.exists(FAKE), reason="fake driver not built")
def test_random_image_gpu_path(tmp_path):
    """Rendered, compiled to cubins in a batch and launched through
    mmptx.runtime (the fake device runs no code: the picture is flat)."""
    pytest.importorskip("numpy")
    import mmptx

    if not any(b.available for b in mmptx.backends()):
        pytest.skip("no PTX backend")
    png = tmp_path / "img.png"
    env = dict(os.environ, MMPTX_LIBCUDA=FAKE)
    out = run("random_image.py", str(png), "--size", "16", env=env)
    assert "rendering on mmptx fake device" in out and "wrote" in out
    out = run("random_image.py", str(png), "--size", "16", "--cpu", env=env)
    assert "rendering on the CPU interpreter" in out


def test_symbolic_regression():
    np = pytest.importorskip("numpy")
    out = run("symbolic_regression.py", "--generations", "6",
              "--population", "24", "--seed", "5")
    lines = out.splitlines()
    mses = [float(ln.split("best mse ")[1].split()[0])
            for ln in lines if ln.startswith("generation ")]
    assert len(mses) == 6
    # Elitism: the best error never gets worse.
    assert all(b <= a for a, b in zip(mses, mses[1:]))
    assert "6 generations x 24 programs" in out
    assert "generations/s" in out
    # The printed expression computes what the interpreter measured.
    best = next(ln for ln in lines if ln.startswith("best: y = "))
    expr = best[len("best: y = "):best.index("  (mse")]
    x = np.linspace(-2.0, 2.0, 21)
    got = eval(expr, {"x": x}) + 0 * x
    mse = float(np.mean((got - (x * x + 0.5 * x)) ** 2))
    assert mse == pytest.approx(mses[-1], rel=1e-3, abs=1e-4)
    assert ".reg .f32" in out  # the best program's stub
    # Deterministic with a seed.
    again = run("symbolic_regression.py", "--generations", "6",
                "--population", "24", "--seed", "5")
    assert [ln for ln in again.splitlines() if "generations/s" not in ln] \
        == [ln for ln in lines if "generations/s" not in ln]


def test_symbolic_regression_cubin():
    pytest.importorskip("numpy")
    import mmptx
    if not any(b.available for b in mmptx.backends()):
        pytest.skip("no PTX backend")
    out = run("symbolic_regression.py", "--generations", "2",
              "--population", "8", "--seed", "2", "--cubin")
    assert "16 cubins (" in out
