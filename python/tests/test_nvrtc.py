"""mmptx.annotate and mmptx.nvrtc.compile: CUDA -> PTX from Python; the CUDA
libraries opened on demand."""

import os
import sys
import textwrap

import pytest

import mmptx
from mmptx.errors import (AnnotateError, AnnotateErrorCode, NvrtcError,
                          NvrtcErrorCode)

from helpers import run_python

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SAXPY = os.path.join(ROOT, "examples", "quickstart", "saxpy.cu")

HAVE_NVRTC = mmptx.cuda_libraries()["nvrtc"]["found"]
needs_nvrtc = pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC not found")


def read(path):
    with open(path) as f:
        return f.read()


def test_annotate_rewrites_comment_sites():
    out = mmptx.annotate(read(SAXPY), name="saxpy.cu")
    assert "/* PTX_INJECT f" not in out
    assert "asm" in out and "saxpy" in out
    # Without #line directives too.
    bare = mmptx.annotate(read(SAXPY), line_directives=False)
    assert "#line" not in bare


def test_annotate_error_is_located():
    src = ("__global__ void k(float *p) {\n"
           "  /* PTX_INJECT site\n"
           "     in f32 p[0]\n"
           "     mod f32 p[0]\n"
           "  */\n}\n")
    with pytest.raises(AnnotateError) as e:
        mmptx.annotate(src, name="bad.cu")
    assert e.value.code == AnnotateErrorCode.SYNTAX
    assert "bad.cu:4:" in str(e.value)
    assert "duplicate inject variable 'p[0]'" in str(e.value)


def test_annotate_rejects_non_text():
    with pytest.raises(TypeError):
        mmptx.annotate(42)


@needs_nvrtc
def test_quickstart_annotate_then_nvrtc():
    r = mmptx.nvrtc.compile(mmptx.annotate(read(SAXPY), name="saxpy.cu"),
                            arch="sm_80", name="saxpy.cu")
    assert ".visible .entry saxpy" in r.ptx
    assert r.from_cache is False
    # The inject step reads the PTX NVRTC made.
    module = mmptx.inject.Module(r.ptx)
    assert "f" in [i.name for i in module.injects]


@needs_nvrtc
def test_nvrtc_compile_error_is_located():
    with pytest.raises(NvrtcError) as e:
        mmptx.nvrtc.compile("__global__ void k() { undefined_name = 1; }\n",
                            name="bad.cu")
    assert e.value.code == NvrtcErrorCode.COMPILE
    assert "bad.cu:1: error: identifier \"undefined_name\" is undefined" \
        in str(e.value)


@needs_nvrtc
def test_nvrtc_options_defines_and_include_dirs(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "scale.h").write_text("#define SCALE 3.0f\n")
    src = ('#include "scale.h"\n'
           'extern "C" __global__ void k(float *x) { x[0] = SCALE * OFFSET; }'
           '\n')
    r = mmptx.nvrtc.compile(src, arch="sm_90", include_dirs=[tmp_path / "inc"],
                            defines=["OFFSET=2.0f"], options=["-lineinfo"])
    assert ".target sm_90" in r.ptx and ".entry k" in r.ptx
    with pytest.raises(NvrtcError) as e:
        mmptx.nvrtc.compile(src, arch="sm_80")
    assert "scale.h" in str(e.value)
    with pytest.raises(TypeError):
        mmptx.nvrtc.compile(src, options="-lineinfo")


@needs_nvrtc
def test_nvrtc_cache(tmp_path):
    src = 'extern "C" __global__ void k(float *x) { x[0] = 1; }\n'
    first = mmptx.nvrtc.compile(src, cache_dir=tmp_path)
    again = mmptx.nvrtc.compile(src, cache_dir=tmp_path)
    assert not first.from_cache and again.from_cache
    assert first.ptx == again.ptx


@needs_nvrtc
def test_compat_include_name_resolves():
    # Sources written against mm-ptx include <ptx_inject.h>.
    src = textwrap.dedent("""\
        #include <ptx_inject.h>
        extern "C" __global__ void k(float *p) {
          float x = p[0], y;
          PTX_INJECT("f", PTX_IN(F32, x), PTX_OUT(F32, y));
          p[1] = y;
        }
        """)
    r = mmptx.nvrtc.compile(src)
    module = mmptx.inject.Module(r.ptx)
    assert [i.name for i in module.injects] == ["f"]
    assert os.path.isfile(os.path.join(mmptx.get_include(), "ptx_inject.h"))


def test_cuda_libraries_and_version():
    libs = mmptx.cuda_libraries()
    assert set(libs) == {"nvrtc", "nvjitlink", "cuda"}
    for info in libs.values():
        assert info["found"] == (info["error"] == "")
        if info["found"]:
            assert info["version"] and info["file"]
    text = mmptx.version()
    assert text.startswith("mmptx version " + mmptx.__version__)
    assert "LLVM" in text and "NVRTC:" in text


def test_without_nvrtc_import_works_and_compile_says_what_to_install(
        tmp_path):
    # As on a machine without NVRTC: the path it must use does not exist.
    r = run_python("""
        import mmptx
        from mmptx.errors import NvrtcError, NvrtcErrorCode
        print("imported")
        try:
            mmptx.nvrtc.compile('__global__ void k() {}')
        except NvrtcError as e:
            assert e.code == NvrtcErrorCode.NOT_FOUND, e.code
            print("error:", e)
        """, MMPTX_NVRTC_PATH=str(tmp_path / "none" / "libnvrtc.so.13"))
    assert r.returncode == 0, r.stderr
    assert "imported" in r.stdout
    assert "error: NVRTC not found" in r.stdout
    assert "pip install 'nvidia-cuda-nvrtc==13.0.*'" in r.stdout


def test_set_library_path_before_first_use(tmp_path):
    r = run_python("""
        import mmptx, sys
        assert mmptx.set_library_path("nvrtc", %r)
        print(mmptx.cuda_libraries()["nvrtc"]["error"])
        """ % str(tmp_path / "nope.so"))
    assert r.returncode == 0, r.stderr
    assert "NVRTC not found: the path given is" in r.stdout
    assert "nope.so" in r.stdout


def test_pathfinder_answer_is_passed_down(monkeypatch):
    # Where the native search finds nothing, cuda-pathfinder's file is used.
    import types

    from mmptx import _cuda

    class FakeNative:
        def __init__(self):
            self.paths = {}

        def library_status(self, name):
            found = name in self.paths
            return (found, "13.0" if found else "", self.paths.get(name, ""),
                    "" if found else "not found")

        def set_library_path(self, name, path):
            self.paths[name] = path
            return True

        def add_search_root(self, d):
            pass

    fake = FakeNative()
    loaded = types.SimpleNamespace(abs_path="/wheels/nvidia/cu13/lib/"
                                            "libnvrtc.so.13")
    pathfinder = types.SimpleNamespace(
        load_nvidia_dynamic_lib=lambda name: loaded)
    cuda_pkg = types.ModuleType("cuda")
    cuda_pkg.pathfinder = pathfinder
    monkeypatch.setitem(sys.modules, "cuda", cuda_pkg)
    monkeypatch.setitem(sys.modules, "cuda.pathfinder", pathfinder)
    monkeypatch.setattr(_cuda, "_native", fake)
    monkeypatch.setattr(_cuda, "_ensured", set())
    _cuda.ensure("nvrtc")
    assert fake.paths == {"nvrtc": loaded.abs_path}
    assert "nvrtc" in _cuda._ensured


def test_pathfinder_failure_is_not_an_error(monkeypatch):
    import types

    from mmptx import _cuda

    def fail(name):
        raise RuntimeError("not found by pathfinder")

    pathfinder = types.SimpleNamespace(load_nvidia_dynamic_lib=fail)
    cuda_pkg = types.ModuleType("cuda")
    cuda_pkg.pathfinder = pathfinder
    monkeypatch.setitem(sys.modules, "cuda", cuda_pkg)
    monkeypatch.setitem(sys.modules, "cuda.pathfinder", pathfinder)
    assert _cuda._pathfinder_path("nvrtc") is None
