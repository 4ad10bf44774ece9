"""Shared inputs of the mmptx package tests."""

import pytest

# One inject `func` in mm-ptx 1.x markers: x in, y mod, z out.
FUNC_PTX = """\
.version 8.0
.target sm_80
.address_size 64
// pre
\t{
\t// PTX_INJECT_START func
\t// _x0 i f32 F32 x
\t// _x1 m f32 F32 y
\t// _x2 o f32 F32 z
\t// PTX_INJECT_END
\t}
// post
"""

TWO_SITES_PTX = ("// pre\n// PTX_INJECT_START func_a\n// PTX_INJECT_END\n"
                 "// mid\n// PTX_INJECT_START func_b\n// PTX_INJECT_END\n"
                 "// post\n")

# Two injects with variables, for per-site Stack PTX stubs.
TWO_FUNCS_PTX = """\
// PTX_INJECT_START func_a
// _x0 i f32 F32 x
// _x1 o f32 F32 y
// PTX_INJECT_END
// between
// PTX_INJECT_START func_b
// _x0 i f32 F32 x
// _x1 o f32 F32 y
// PTX_INJECT_END
"""


@pytest.fixture
def func_ptx():
    return FUNC_PTX


@pytest.fixture
def two_sites_ptx():
    return TWO_SITES_PTX


@pytest.fixture
def two_funcs_ptx():
    return TWO_FUNCS_PTX


def real_gpu():
    """Whether the real driver (never MMPTX_LIBCUDA's fake) has a device.

    A machine that seems to have a GPU (utils/gpuprobe.py: a device node,
    the driver's /proc entry, or libcuda counting devices) whose device
    cannot be opened is not silently a machine without one: a warning with
    the driver's reason is given, and the GPU tests are reported skipped
    with that reason too. MMPTX_NO_GPU_TESTS=1 quiets it."""
    import os
    import sys
    import warnings
    from mmptx import runtime as R
    from mmptx.errors import CudaError
    old = os.environ.pop("MMPTX_LIBCUDA", None)
    try:
        try:
            R.Device()
            return True
        except CudaError as e:
            reason = str(e)
    finally:
        if old is not None:
            os.environ["MMPTX_LIBCUDA"] = old
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    sys.path.insert(0, os.path.join(root, "utils"))
    try:
        import gpuprobe
    finally:
        sys.path.pop(0)
    evidence = gpuprobe.device_evidence()
    if evidence and not os.environ.get("MMPTX_NO_GPU_TESTS"):
        msg = ("a GPU seems present (%s) but the runtime cannot open it: "
               "%s; the GPU tests are skipped (set MMPTX_NO_GPU_TESTS=1 if "
               "this is meant)" % (evidence, reason))
        sys.stderr.write("mmptx tests: warning: " + msg + "\n")
        warnings.warn(msg, pytest.PytestWarning)
    return False


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """compile_batch caches in the per-user directory by default: each test
    gets its own, so results never come from another test or run."""
    monkeypatch.setenv("MMPTX_CACHE_DIR",
                       str(tmp_path_factory.mktemp("mmptx-cache")))
