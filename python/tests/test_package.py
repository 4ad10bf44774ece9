"""Package-level pieces: import, include paths for NVRTC."""

import os

import mmptx


def test_version_and_modules():
    assert mmptx.__version__
    assert mmptx._mmptx.inject and mmptx._mmptx.stack


def test_runtime_is_imported_lazily():
    """mmptx.runtime needs NumPy: `import mmptx` alone does not import it,
    the attribute does."""
    import subprocess
    import sys

    code = ("import sys, mmptx; assert 'mmptx.runtime' not in sys.modules; "
            "assert 'numpy' not in sys.modules; r = mmptx.runtime; "
            "assert r is sys.modules['mmptx.runtime']; "
            "assert r.Device and r.DeviceBuffer and 'runtime' in mmptx.__all__")
    subprocess.run([sys.executable, "-c", code], check=True)
    import pytest

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        mmptx.nope


def test_include_paths():
    inc = mmptx.get_include()
    assert os.path.isfile(mmptx.get_device_header())
    assert os.path.isfile(os.path.join(inc, "mmptx", "cuda",
                                       "PtxInjectTypes.h"))
    assert os.path.isfile(os.path.join(inc, "mmptx-c", "StackPtx.h"))
    assert mmptx.get_nvrtc_options() == ["-I" + inc]
    with open(mmptx.get_device_header()) as f:
        assert '#include "mmptx/cuda/PtxInjectTypes.h"' in f.read()


def test_device_header_compiles_with_nvcc(tmp_path):
    """The installed headers are all nvcc needs: CUDA -> PTX -> injects."""
    import shutil
    import subprocess

    import pytest

    nvcc = shutil.which("nvcc")
    if not nvcc:
        pytest.skip("nvcc not found")
    cu = tmp_path / "k.cu"
    cu.write_text('#include "mmptx/cuda/ptx_inject.h"\n'
                  'extern "C" __global__ void k(float *p) {\n'
                  '  float x = p[0], y;\n'
                  '  PTX_INJECT("f", PTX_IN(F32, x), PTX_OUT(F32, y));\n'
                  '  p[1] = y;\n}\n')
    ptx = tmp_path / "k.ptx"
    subprocess.run([nvcc, "-ptx", "-arch=sm_80", *mmptx.get_nvrtc_options(),
                    str(cu), "-o", str(ptx)], check=True)
    m = mmptx.inject.Module(ptx.read_text())
    assert [(v.name, v.kind) for v in m["f"]] == [("x", "in"), ("y", "out")]
