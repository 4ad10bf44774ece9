"""The examples in examples/python run (CPU path)."""

import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples",
                        "python")


def run(script, *args):
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, script),
                           *args], capture_output=True, text=True,
                          check=True).stdout


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
