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


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """compile_batch caches in the per-user directory by default: each test
    gets its own, so results never come from another test or run."""
    monkeypatch.setenv("MMPTX_CACHE_DIR",
                       str(tmp_path_factory.mktemp("mmptx-cache")))
