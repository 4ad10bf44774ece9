"""Load a cubin and launch a kernel through the project's runtime library.

    dev = mmptx.runtime.Device()          # $MMPTX_LIBCUDA or libcuda.so.1
    x = numpy.arange(3, dtype=numpy.float32)
    y = numpy.zeros(3, dtype=numpy.float32)
    dev.run(cubin, "axpy", grid=1, block=3,
            args=[numpy.float32(2.0), x, mmptx.runtime.inout(y), numpy.int32(3)])
    # y now holds the kernel's results

A NumPy array argument is copied to a device buffer (read-only for the
kernel unless wrapped in :func:`inout` or :func:`out`, whose results are
written back into the array); a NumPy scalar passes by value with its type.
Types: float32/float64/uint32/int32/uint64/int64. The driver is loaded when a
Device is created; without one, :class:`mmptx.errors.CudaError` (code
NO_DRIVER or NO_DEVICE) is raised.
"""

import numpy as np

from ._mmptx import runtime as _native
from .errors import CudaError, CudaErrorCode

__all__ = ["Device", "inout", "out", "device_count", "CudaError",
           "CudaErrorCode"]

# KernelArg kinds and ArgType values of mmptx/Runtime/KernelRun.h.
_SCALAR, _IN, _INOUT, _OUT = range(4)
_TYPES = {np.dtype(np.float32): (0, np.uint32),
          np.dtype(np.float64): (1, np.uint64),
          np.dtype(np.uint32): (2, np.uint32),
          np.dtype(np.int32): (3, np.uint32),
          np.dtype(np.uint64): (4, np.uint64),
          np.dtype(np.int64): (5, np.uint64)}


class _Buffer:
    def __init__(self, kind, array):
        if not isinstance(array, np.ndarray):
            raise TypeError("inout/out take a NumPy array")
        self.kind = kind
        self.array = array


def inout(array):
    """A buffer the kernel reads and writes; written back after the run."""
    return _Buffer(_INOUT, array)


def out(array):
    """A buffer the kernel writes (zeroed before); written back."""
    return _Buffer(_OUT, array)


def _dim3(d):
    if isinstance(d, int):
        return (d, 1, 1)
    d = tuple(d) + (1,) * (3 - len(tuple(d)))
    if len(d) != 3:
        raise ValueError("a grid or block has at most 3 dimensions")
    return d


def _arg(a):
    kind = _IN
    if isinstance(a, _Buffer):
        kind, a = a.kind, a.array
    if isinstance(a, np.ndarray) and a.ndim > 0:
        arr = a
    elif isinstance(a, (np.generic, np.ndarray)):
        kind, arr = _SCALAR, np.asarray(a).reshape(1)
    else:
        raise TypeError("kernel arguments are NumPy scalars or arrays "
                        "(np.float32(1.0), not 1.0): got %r" % (a,))
    if arr.dtype not in _TYPES:
        raise TypeError("unsupported kernel argument type %s" % arr.dtype)
    type_, bits = _TYPES[arr.dtype]
    if kind == _OUT:
        return kind, type_, np.zeros(arr.size, dtype=np.uint64)
    words = np.ascontiguousarray(arr).reshape(-1).view(bits).astype(np.uint64)
    return kind, type_, words


class Device:
    """A device's context; ``info`` is (ordinal, name, major, minor,
    multiprocessors, total memory)."""

    def __init__(self, ordinal=0):
        self._d = _native.Device(ordinal)
        self.ordinal = ordinal

    @property
    def info(self):
        return self._d.info()

    def run(self, cubin, kernel, grid=1, block=1, args=(), shared=0,
            repeat=1):
        """Loads ``cubin`` (bytes), launches ``kernel`` ``repeat`` times
        and synchronises; inout/out arrays receive the results. Returns
        (module load seconds, seconds per launch)."""
        if isinstance(cubin, (bytearray, memoryview)):
            cubin = bytes(cubin)
        passed = [_arg(a) for a in args]
        values, load_s, launch_s = self._d.run(
            cubin, kernel, _dim3(grid), _dim3(block), shared, passed, repeat)
        for a, (kind, _, _), v in zip(args, passed, values):
            if kind in (_INOUT, _OUT):
                dst = a.array
                bits = _TYPES[dst.dtype][1]
                dst.reshape(-1)[...] = v.astype(bits).view(dst.dtype)
        return load_s, launch_s


def device_count():
    """Devices the driver reports; 0 without a driver or a device."""
    return _native.device_count()
