"""mmptx.runtime: cubins launched through lib/Runtime. The fake driver the
C++ build makes for its tests runs `fake_axpy` (y += a * x) on the host; the
real-GPU test runs only where a device is present."""

import ctypes
import gc
import os
import types

import pytest

np = pytest.importorskip("numpy")

import mmptx
from mmptx import runtime as R
from mmptx.errors import CudaError, CudaErrorCode

from helpers import axpy_ptx, run_python

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
FAKE = os.environ.get("MMPTX_FAKE_LIBCUDA") or os.path.join(
    ROOT, "build", "unittests", "Runtime", "FakeCuda", "libcuda.so.1")


HAVE_BACKEND = any(b.available for b in mmptx.backends())
needs_fake = pytest.mark.skipif(not os.path.exists(FAKE),
                                reason="fake driver not built")
needs_backend = pytest.mark.skipif(not HAVE_BACKEND, reason="no backend")


def cubin(name):
    (r,) = mmptx.compile_batch([axpy_ptx(name)], check=True)
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


def live_objects():
    """Modules, allocations and contexts the fake driver holds, once the
    garbage (of earlier tests too) is collected."""
    gc.collect()
    return ctypes.CDLL(FAKE).mmptxFakeCudaLiveObjects()


@needs_fake
def test_device_buffer(fake):
    dev = R.Device()
    base = live_objects()
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    buf = dev.from_numpy(a)
    assert (buf.shape, buf.dtype, buf.size, buf.nbytes) == \
        ((2, 3), np.float32, 6, 24)
    assert buf.ptr != 0 and len(buf) == 2 and "float32" in repr(buf)
    assert np.array_equal(buf.to_numpy(), a)
    buf.copy_from(a * 2)
    back = np.empty_like(a)
    buf.copy_to(back)
    assert np.array_equal(back, a * 2)
    z = dev.zeros(4, np.int32)
    assert z.to_numpy().tolist() == [0, 0, 0, 0]
    assert live_objects() == base + 2
    with dev.empty((0,), np.float64) as e:
        assert e.nbytes == 0 and e.to_numpy().shape == (0,)
    assert e.closed
    # Freed on close and on collection.
    z.close()
    assert live_objects() == base + 1
    del buf
    gc.collect()
    assert live_objects() == base
    with pytest.raises(ValueError, match="closed"):
        z.to_numpy()
    with pytest.raises(ValueError, match="copy_from: the array is int64"):
        dev.zeros(3, np.float32).copy_from(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="writable C-contiguous"):
        dev.zeros(3).copy_to(np.zeros(6, np.float32)[::2])
    with pytest.raises(ValueError, match="negative"):
        dev.empty((2, -1))
    # Host DLPack producers are copied like NumPy arrays.
    h = dev.from_numpy(DlpackTensor(np.array([7, 8], dtype=np.int64)))
    assert h.to_numpy().tolist() == [7, 8]


@needs_fake
def test_device_errors_name_the_call(fake):
    dev = R.Device()
    fake.setenv("MMPTX_FAKE_CUDA_FAIL", "cuMemAlloc=2")
    with pytest.raises(CudaError) as e:
        dev.empty(16)
    assert e.value.code == CudaErrorCode.CALL
    assert "cuMemAlloc(64 bytes): CUDA_ERROR_OUT_OF_MEMORY" in str(e.value)
    fake.setenv("MMPTX_FAKE_CUDA_FAIL", "cuMemcpyHtoD=1")
    with pytest.raises(CudaError, match="cuMemcpyHtoD: CUDA_ERROR_INVALID"):
        dev.from_numpy(np.zeros(2))
    fake.setenv("MMPTX_FAKE_CUDA_FAIL", "cuCtxSynchronize=719")
    with pytest.raises(CudaError,
                       match="cuCtxSynchronize: CUDA_ERROR_LAUNCH_FAILED"):
        dev.synchronize()
    fake.delenv("MMPTX_FAKE_CUDA_FAIL")
    with pytest.raises(CudaError, match="cuModuleLoadData: CUDA_ERROR_INV"):
        dev.load(b"not a cubin")
    with pytest.raises(TypeError, match="bytes"):
        dev.load(1234)


class ForeignArray:
    """A device array of another library: __cuda_array_interface__ only."""

    def __init__(self, buf):
        self._buf = buf
        self.__cuda_array_interface__ = {
            "shape": buf.shape, "typestr": "<f4", "version": 3,
            "data": (buf.ptr, False), "strides": None}


class DlpackTensor:
    """A tensor of another library that offers only __dlpack__ (as torch,
    on the device or the host)."""

    def __init__(self, tensor):
        self._t = tensor

    def __dlpack__(self, **kwargs):
        return self._t.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._t.__dlpack_device__()


@needs_fake
@needs_backend
def test_module_launches_many_times(fake):
    dev = R.Device()
    base = live_objects()
    mod = dev.load(cubin("fake_axpy"))
    k = mod.kernel("fake_axpy")
    assert mod["fake_axpy"] is k and k.name == "fake_axpy"
    x = dev.from_numpy(np.array([1, 2, 3], dtype=np.float32))
    y = dev.from_numpy(np.full(3, 0.5, dtype=np.float32))
    for _ in range(3):
        k.launch(block=3, args=[np.float32(2), x, y, np.int32(3)])
    dev.synchronize()
    assert y.to_numpy().tolist() == [6.5, 12.5, 18.5]
    k(np.float32(-1), x, y, np.int32(3), block=(3, 1, 1))
    assert y.to_numpy().tolist() == [5.5, 10.5, 15.5]
    # Host arrays are copied in (and back for inout/out) per launch.
    hy = np.zeros(3, dtype=np.float32)
    k.launch(block=3, args=[np.float32(1), np.ones(3, np.float32),
                            R.inout(hy), np.int32(3)])
    assert hy.tolist() == [1, 1, 1]
    ho = np.full(3, 9, dtype=np.float32)
    k.launch(block=3, args=[np.float32(1), x, R.out(ho), np.int32(3)])
    assert ho.tolist() == [1, 2, 3]
    assert live_objects() == base + 3  # module, x, y: temporaries freed
    with pytest.raises(CudaError,
                       match=r"cuModuleGetFunction\('nope'\): "
                             "CUDA_ERROR_NOT_FOUND"):
        mod.kernel("nope")
    # n larger than the buffers: the fake device faults. As on a GPU, the
    # launch returns and the next synchronising call reports the fault,
    # naming the launch; a checked launch reports it itself.
    k.launch(block=8, args=[np.float32(1), x, y, np.int32(8)])
    with pytest.raises(CudaError,
                       match=r"cuCtxSynchronize \(reporting a failure of the "
                             r"work queued before it; the last launch was "
                             r"cuLaunchKernel\('fake_axpy', grid 1x1x1, "
                             r"block 8x1x1\)\): CUDA_ERROR_LAUNCH_FAILED"):
        dev.synchronize()
    with pytest.raises(CudaError,
                       match=r"cuLaunchKernel\('fake_axpy', grid 1x1x1, block "
                             r"8x1x1\) \(checked: the kernel failed\): "
                             r"CUDA_ERROR_LAUNCH_FAILED"):
        k.launch(block=8, args=[np.float32(1), x, y, np.int32(8)],
                 checked=True)
    k(np.float32(0), x, y, np.int32(3), block=3, checked=True)
    with pytest.raises(CudaError, match="cuLaunchKernel.*INVALID_VALUE"):
        k.launch(block=2048, args=[np.float32(1), x, y, np.int32(3)])
    with pytest.raises(TypeError, match="NumPy scalars or arrays"):
        k.launch(args=[1.0, x, y, np.int32(3)])
    with pytest.raises(TypeError, match="unsupported kernel argument"):
        k.launch(args=[np.int8(1), x, y, np.int32(3)])
    x2 = dev.from_numpy(np.zeros(3, np.float32))
    x2.close()
    with pytest.raises(ValueError, match="closed"):
        k.launch(args=[np.float32(1), x2, y, np.int32(3)])
    mod.close()
    with pytest.raises(ValueError, match="unloaded"):
        k.launch(block=3, args=[np.float32(1), x, y, np.int32(3)])
    with pytest.raises(ValueError, match="unloaded"):
        mod.kernel("fake_axpy")
    del x, y, k
    gc.collect()
    assert live_objects() == base


@needs_fake
@needs_backend
def test_foreign_device_arrays(fake):
    dev = R.Device()
    k = dev.load(cubin("fake_axpy")).kernel("fake_axpy")
    x = dev.from_numpy(np.array([1, 2, 3], dtype=np.float32))
    y = dev.zeros(3, np.float32)
    # __cuda_array_interface__ (v3) both ways.
    cai = y.__cuda_array_interface__
    assert cai["version"] == 3 and cai["data"] == (y.ptr, False)
    assert cai["shape"] == (3,) and cai["typestr"] == "<f4"
    k.launch(block=3, args=[np.float32(1), ForeignArray(x),
                            ForeignArray(y), np.int32(3)])
    assert y.to_numpy().tolist() == [1, 2, 3]
    # DLPack: a capsule and a __dlpack__ producer, both kDLCUDA.
    assert x.__dlpack_device__() == (2, 0)
    cap = x.__dlpack__()
    assert R._native.dlpack_info(cap) == (2, 0, x.ptr, 12, True)
    k.launch(block=3, args=[np.float32(1), x.__dlpack__(), DlpackTensor(y),
                            np.int32(3)])
    assert y.to_numpy().tolist() == [2, 4, 6]
    # A host DLPack producer is copied like a NumPy array.
    k.launch(block=3, args=[np.float32(1), DlpackTensor(np.ones(3, np.float32)),
                            y, np.int32(3)])
    assert y.to_numpy().tolist() == [3, 5, 7]
    # NumPy cannot import device memory: the capsule says CUDA.
    with pytest.raises((BufferError, RuntimeError, TypeError)):
        np.from_dlpack(x)
    with pytest.raises(BufferError, match="its device"):
        x.__dlpack__(dl_device=(1, 0))
    with pytest.raises(BufferError, match="without copies"):
        x.__dlpack__(copy=True)
    with pytest.raises(TypeError, match="without 'data'"):
        k.launch(args=[np.float32(1), x, types.SimpleNamespace(
            __cuda_array_interface__={}), np.int32(3)])
    fake.setenv("MMPTX_FAKE_CUDA_DEVICES", "2")
    other = R.Device(1).zeros(3, np.float32)
    for arg in (other, DlpackTensor(other)):
        with pytest.raises(ValueError, match="is on device 1, the kernel "
                                             "on device 0"):
            k.launch(block=3, args=[np.float32(1), x, arg, np.int32(3)])
    del other, arg
    gc.collect()  # released while device 1 exists


_REAL_GPU = None


def real_gpu():
    """conftest.real_gpu(), asked once (it warns when a GPU's probe fails)."""
    global _REAL_GPU
    if _REAL_GPU is None:
        from conftest import real_gpu as probe
        _REAL_GPU = probe()
    return _REAL_GPU


def torch_cuda():
    try:
        import torch
    except ImportError:
        return None
    return torch if torch.cuda.is_available() and real_gpu() else None


@pytest.mark.skipif(torch_cuda() is None, reason="no torch with a GPU")
@needs_backend
def test_torch_tensors(monkeypatch):
    torch = torch_cuda()
    monkeypatch.delenv("MMPTX_LIBCUDA", raising=False)
    dev = R.Device()
    major, minor = dev.info[2:4]
    (r,) = mmptx.compile_batch([axpy_ptx()],
                               arch="sm_%d%d" % (major, minor), check=True)
    k = dev.load(r.cubin).kernel("axpy")
    x = torch.arange(100, dtype=torch.float32, device="cuda")
    y = torch.ones(100, dtype=torch.float32, device="cuda")
    torch.cuda.synchronize()
    k.launch(block=128, args=[np.float32(2), x, y, np.uint32(100)])
    dev.synchronize()
    assert torch.equal(y, 2 * x + 1)
    buf = dev.from_numpy(np.arange(4, dtype=np.float32))
    t = torch.from_dlpack(buf)
    assert t.device.type == "cuda" and t.tolist() == [0, 1, 2, 3]
    k.launch(block=4, args=[np.float32(1), x[:4].__dlpack__(), buf,
                            np.uint32(4)])
    dev.synchronize()
    assert t.tolist() == [0, 2, 4, 6]


def test_no_driver(monkeypatch, tmp_path):
    monkeypatch.setenv("MMPTX_LIBCUDA", str(tmp_path / "libcuda.so.1"))
    with pytest.raises(CudaError) as e:
        R.Device()
    assert e.value.code == CudaErrorCode.NO_DRIVER
    assert R.device_count() == 0


@pytest.mark.skipif(not real_gpu(), reason="no GPU")
@needs_backend
def test_gpu_axpy(monkeypatch):
    monkeypatch.delenv("MMPTX_LIBCUDA", raising=False)
    dev = R.Device()
    major, minor = dev.info[2:4]
    ptx = axpy_ptx()
    (r,) = mmptx.compile_batch([ptx], arch="sm_%d%d" % (major, minor),
                               check=True)
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    dev.run(r.cubin, "axpy", grid=1, block=1024,
            args=[np.float32(2), x, R.inout(y), np.uint32(n)])
    assert np.array_equal(y, 2 * x + 1)


def test_gpu_probe_failure_is_loud(monkeypatch, tmp_path):
    """A machine that seems to have a GPU but whose driver cannot open it
    gives a warning with the driver's reason, not a silent skip."""
    from conftest import real_gpu as probe

    def no_device(*args):
        raise CudaError("cuInit: CUDA_ERROR_INSUFFICIENT_DRIVER (35)")

    monkeypatch.setattr(R, "Device", no_device)
    seen = tmp_path / "nvidia0"
    seen.write_text("")
    monkeypatch.setenv("MMPTX_GPU_EVIDENCE_PATHS", str(seen))
    monkeypatch.delenv("MMPTX_NO_GPU_TESTS", raising=False)
    with pytest.warns(pytest.PytestWarning,
                      match=r"a GPU seems present \(.*nvidia0 exists\) but "
                            r"the runtime cannot open it: .+"):
        assert probe() is False
    monkeypatch.setenv("MMPTX_NO_GPU_TESTS", "1")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert probe() is False


@needs_fake
@needs_backend
def test_launch_checked_against_parameters(fake):
    """The cubin's parameters decide: a wrong count or size is a TypeError
    before the driver is called (which would read past the arguments)."""
    dev = R.Device()
    k = dev.load(cubin("fake_axpy")).kernel("fake_axpy")
    assert k.param_sizes == [4, 8, 8, 4]
    x = dev.from_numpy(np.ones(3, np.float32))
    y = dev.zeros(3, np.float32)
    with pytest.raises(TypeError,
                       match=r"kernel 'fake_axpy' takes 4 parameters \(4, 8, "
                             r"8, 4 bytes\), but 1 argument was given"):
        k.launch(block=3, args=[np.float32(1)])
    with pytest.raises(TypeError, match="but 5 arguments were given"):
        k.launch(block=3, args=[np.float32(1), x, y, np.int32(3),
                                np.int32(0)])
    # np.float64 for an f32 parameter is refused, never converted.
    with pytest.raises(TypeError,
                       match=r"argument 0 of kernel 'fake_axpy' is a "
                             r"numpy.float64 of 8 bytes, but parameter 0 is "
                             r"4 bytes"):
        k.launch(block=3, args=[np.float64(2), x, y, np.int32(3)])
    with pytest.raises(TypeError, match=r"argument 3 of kernel 'fake_axpy' "
                                        r"is a pointer \(8 bytes\)"):
        k.launch(block=3, args=[np.float32(2), x, y, x])
    # The native layer and Device.run check too.
    with pytest.raises(TypeError, match="takes 4 parameters, but 1 were"):
        k._k.launch((1, 1, 1), (1, 1, 1), 0, [(4, 0)])
    with pytest.raises(TypeError, match="takes 4 parameters, but 1 were"):
        dev.run(cubin("fake_axpy"), "fake_axpy", args=[np.float32(1)])
    with pytest.raises(TypeError, match="argument 0 is 8 bytes, but "
                                        "parameter 0 of kernel 'fake_axpy' "
                                        "is 4 bytes"):
        dev.run(cubin("fake_axpy"), "fake_axpy",
                args=[np.float64(1), x.to_numpy(), R.inout(np.zeros(3,
                      np.float32)), np.int32(3)])
    assert y.to_numpy().tolist() == [0, 0, 0]  # nothing ran
    k.launch(block=3, args=[np.float32(2), x, y, np.int32(3)])
    assert y.to_numpy().tolist() == [2, 2, 2]


@needs_fake
@needs_backend
def test_foreign_array_layout_and_stream(fake):
    dev = R.Device()
    k = dev.load(cubin("fake_axpy")).kernel("fake_axpy")
    x = dev.from_numpy(np.arange(6, dtype=np.float32))
    y = dev.zeros(3, np.float32)

    def cai(buf, **over):
        a = types.SimpleNamespace()
        a.__cuda_array_interface__ = dict(
            {"shape": buf.shape, "typestr": "<f4", "version": 3,
             "data": (buf.ptr, False), "strides": None}, **over)
        return a

    # Every other element: not C-contiguous, refused.
    with pytest.raises(ValueError, match=r"must be C-contiguous \(shape "
                                         r"\(3,\), strides \(8,\)\)"):
        k.launch(block=3, args=[np.float32(1), cai(x, shape=(3,),
                                                   strides=(8,)),
                                y, np.int32(3)])
    # Explicit C-contiguous strides are fine, 2-D too.
    k.launch(block=3, args=[np.float32(1), cai(x, shape=(2, 3),
                                               strides=(12, 4)),
                            cai(y, strides=(4,)), np.int32(3)])
    assert y.to_numpy().tolist() == [0, 1, 2]
    # The producer's stream is waited for (the fake reports the call).
    fake.setenv("MMPTX_FAKE_CUDA_FAIL", "cuStreamSynchronize=1")
    with pytest.raises(CudaError, match="cuStreamSynchronize: "
                                        "CUDA_ERROR_INVALID_VALUE"):
        k.launch(block=3, args=[np.float32(1), cai(x, stream=7), y,
                                np.int32(3)])
    fake.delenv("MMPTX_FAKE_CUDA_FAIL")
    k.launch(block=3, args=[np.float32(1), cai(x, stream=2), y,
                            np.int32(3)])
    assert y.to_numpy().tolist() == [0, 2, 4]
    with pytest.raises(ValueError, match="'stream' 0"):
        k.launch(block=3, args=[np.float32(1), cai(x, stream=0), y,
                                np.int32(3)])

    # DLPack producers are asked for the launches' stream (1).
    class Recording(DlpackTensor):
        streams = []

        def __dlpack__(self, **kwargs):
            self.streams.append(kwargs.get("stream"))
            return super().__dlpack__(**kwargs)

    k.launch(block=3, args=[np.float32(1), Recording(x), y, np.int32(3)])
    assert Recording.streams == [1]
    assert y.to_numpy().tolist() == [0, 3, 6]


@needs_fake
@needs_backend
def test_launch_from_another_thread(fake):
    """Each call makes the device's context current on its own thread: a
    kernel looked up and launched on a new thread (which has no current
    context) works."""
    import threading
    dev = R.Device()
    mod = dev.load(cubin("fake_axpy"))
    x = dev.from_numpy(np.ones(3, np.float32))
    y = dev.zeros(3, np.float32)
    errors = []

    def work():
        try:
            k = mod.kernel("fake_axpy")
            k.launch(block=3, args=[np.float32(3), x, y, np.int32(3)],
                     checked=True)
        except Exception as e:  # reported below
            errors.append(e)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert errors == []
    assert y.to_numpy().tolist() == [3, 3, 3]


@needs_fake
def test_nvrtc_after_the_driver_is_loaded():
    # NVRTC opens "libcuda.so.1" itself, which resolves to the driver the
    # runtime already loaded, and asks it for cuGetExportTable: CUDA -> PTX
    # must still work in that process (run apart, so a crash is a failure
    # of this test, not of the session).
    if not mmptx.cuda_libraries()["nvrtc"]["found"]:
        pytest.skip("NVRTC not found")
    r = run_python("""
        import mmptx
        from mmptx import runtime as R
        assert R.device_count() == 1
        r = mmptx.nvrtc.compile(
            'extern "C" __global__ void k(float *p) { p[0] = 1.0f; }',
            arch="sm_80")
        print("ok", ".entry k" in r.ptx)
    """, MMPTX_LIBCUDA=FAKE)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok True"
