"""mmptx.runtime: cubins launched through lib/Runtime. The fake driver the
C++ build makes for its tests runs `fake_axpy` (y += a * x) on the host; the
real-GPU test runs only where a device is present."""

import os

import pytest

np = pytest.importorskip("numpy")

import mmptx
from mmptx import runtime as R
from mmptx.errors import CudaError, CudaErrorCode

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
FAKE = os.environ.get("MMPTX_FAKE_LIBCUDA") or os.path.join(
    ROOT, "build", "unittests", "Runtime", "FakeCuda", "libcuda.so.1")

AXPY_PTX = """\
.version 8.0
.target sm_80
.address_size 64
.visible .entry {name}(.param .f32 a, .param .u64 x, .param .u64 y,
                       .param .u32 n)
{{
  .reg .pred %p;
  .reg .f32 %f<4>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<6>;
  ld.param.f32 %f1, [a];
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p, %r2, %r1;
  @%p ret;
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  ld.global.f32 %f3, [%rd5];
  fma.rn.f32 %f3, %f1, %f2, %f3;
  st.global.f32 [%rd5], %f3;
  ret;
}}
"""

HAVE_BACKEND = any(b.available for b in mmptx.backends())
needs_fake = pytest.mark.skipif(not os.path.exists(FAKE),
                                reason="fake driver not built")
needs_backend = pytest.mark.skipif(not HAVE_BACKEND, reason="no backend")


def cubin(name):
    (r,) = mmptx.compile_batch([AXPY_PTX.format(name=name)], check=True)
    return r.cubin


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setenv("MMPTX_LIBCUDA", FAKE)
    monkeypatch.delenv("MMPTX_FAKE_CUDA_FAIL", raising=False)
    monkeypatch.delenv("MMPTX_FAKE_CUDA_DEVICES", raising=False)
    return monkeypatch


@needs_fake
@needs_backend
def test_fake_axpy(fake):
    dev = R.Device()
    assert R.device_count() == 1 and dev.ordinal == 0
    x = np.array([1, 2, 3], dtype=np.float32)
    y = np.full(3, 0.5, dtype=np.float32)
    load_s, launch_s = dev.run(cubin("fake_axpy"), "fake_axpy", block=3,
                               args=[np.float32(-1), x, R.inout(y),
                                     np.int32(3)])
    assert y.tolist() == [-0.5, -1.5, -2.5]
    assert x.tolist() == [1, 2, 3] and load_s >= 0 and launch_s >= 0
    # Twice more: y += 2 * (-x) again per launch.
    dev.run(cubin("fake_axpy"), "fake_axpy", block=(3, 1), repeat=2,
            args=[np.float32(-1), x, R.inout(y), np.int32(3)])
    assert y.tolist() == [-2.5, -5.5, -8.5]


@needs_fake
@needs_backend
def test_fake_errors(fake):
    dev = R.Device()
    with pytest.raises(CudaError) as e:
        dev.run(cubin("fake_axpy"), "fake_axp", args=[])
    assert e.value.code == CudaErrorCode.CALL
    assert "cuModuleGetFunction('fake_axp'): CUDA_ERROR_NOT_FOUND" \
        in str(e.value)
    with pytest.raises(CudaError):
        dev.run(b"not a cubin", "fake_axpy")
    with pytest.raises(TypeError, match="NumPy scalars"):
        dev.run(cubin("fake_axpy"), "fake_axpy", args=[1.0])
    with pytest.raises(TypeError, match="unsupported"):
        dev.run(cubin("fake_axpy"), "fake_axpy",
                args=[np.zeros(2, dtype=np.int8)])
    fake.setenv("MMPTX_FAKE_CUDA_DEVICES", "0")
    with pytest.raises(CudaError) as e:
        R.Device()
    assert e.value.code == CudaErrorCode.NO_DEVICE
    assert R.device_count() == 0


def test_no_driver(monkeypatch, tmp_path):
    monkeypatch.setenv("MMPTX_LIBCUDA", str(tmp_path / "libcuda.so.1"))
    with pytest.raises(CudaError) as e:
        R.Device()
    assert e.value.code == CudaErrorCode.NO_DRIVER
    assert R.device_count() == 0


def real_gpu():
    old = os.environ.pop("MMPTX_LIBCUDA", None)
    try:
        return R.device_count() > 0
    finally:
        if old is not None:
            os.environ["MMPTX_LIBCUDA"] = old


@pytest.mark.skipif(not real_gpu(), reason="no GPU")
@needs_backend
def test_gpu_axpy(monkeypatch):
    monkeypatch.delenv("MMPTX_LIBCUDA", raising=False)
    dev = R.Device()
    major, minor = dev.info[2:4]
    ptx = AXPY_PTX.format(name="axpy")
    (r,) = mmptx.compile_batch([ptx], arch="sm_%d%d" % (major, minor),
                               check=True)
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    dev.run(r.cubin, "axpy", grid=1, block=1024,
            args=[np.float32(2), x, R.inout(y), np.uint32(n)])
    assert np.array_equal(y, 2 * x + 1)
