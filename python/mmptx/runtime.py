"""Load cubins and launch kernels through the project's runtime library.

    dev = mmptx.runtime.Device()          # $MMPTX_LIBCUDA or libcuda.so.1
    k = dev.load(cubin).kernel("axpy")    # loaded once, launched many times
    x = dev.from_numpy(numpy.arange(3, dtype=numpy.float32))
    y = dev.zeros(3, numpy.float32)       # device-resident DeviceBuffers
    for _ in range(10):
        k.launch(grid=1, block=3, args=[numpy.float32(2.0), x, y,
                                        numpy.int32(3)])
    y.to_numpy()                          # synchronises, copies back

    # one-shot convenience: copies the arrays and reloads the module
    dev.run(cubin, "axpy", grid=1, block=3,
            args=[numpy.float32(2.0), xs, mmptx.runtime.inout(ys),
                  numpy.int32(3)])

Kernel arguments:
  * a NumPy scalar passes by value with its type
    (float32/float64/uint32/int32/uint64/int64);
  * a :class:`DeviceBuffer`, any object with ``__cuda_array_interface__``
    (CuPy, Numba, PyTorch CUDA tensors), a CUDA DLPack capsule or an object
    whose ``__dlpack__`` is on a CUDA device pass their device address, with
    no copy;
  * a host NumPy array (or a host DLPack object) is copied to a temporary
    device buffer, read-only for the kernel unless wrapped in :func:`inout`
    or :func:`out`, whose results are written back after the launch.

A launch is checked against the kernel's parameters as the cubin declares
them (``Kernel.param_sizes``): a wrong count, or a scalar whose size is not
the parameter's (``np.float64`` for an ``f32``), raises TypeError before the
driver is called; values are never converted implicitly. Device arrays must
be C-contiguous (ValueError otherwise: the kernel gets only a pointer);
``__cuda_array_interface__``'s ``stream`` is waited for, and ``__dlpack__``
is asked for the legacy default stream (1), where launches go.

Launches go to the context's default stream; a launch with host arrays
waits for its kernel, others return at once (:meth:`Device.synchronize`
waits) and a kernel's fault is reported by the next synchronising call,
which names the last launch; ``launch(..., checked=True)`` waits and
reports it as the launch's own error. A DeviceBuffer exports ``__cuda_array_interface__`` (version 3) and
``__dlpack__`` (kDLCUDA), so ``torch.from_dlpack(buf)`` and
``cupy.asarray(buf)`` see it without a copy. Driver failures raise
:class:`mmptx.errors.CudaError` naming the CUDA call and the error
(``cuMemAlloc(64 bytes): CUDA_ERROR_OUT_OF_MEMORY (2): out of memory``);
without a driver or device its code is NO_DRIVER or NO_DEVICE.
"""

from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np

from ._mmptx import runtime as _native
from .errors import CudaError, CudaErrorCode

__all__ = ["Device", "DeviceBuffer", "Module", "Kernel", "inout", "out",
           "device_count", "CudaError", "CudaErrorCode"]

# KernelArg kinds and ArgType values of mmptx/Runtime/KernelRun.h.
_SCALAR, _IN, _INOUT, _OUT = range(4)
_TYPES = {np.dtype(np.float32): (0, np.uint32),
          np.dtype(np.float64): (1, np.uint64),
          np.dtype(np.uint32): (2, np.uint32),
          np.dtype(np.int32): (3, np.uint32),
          np.dtype(np.uint64): (4, np.uint64),
          np.dtype(np.int64): (5, np.uint64)}

# DLPack device types and dtype codes (dlpack.h).
_KDLCPU, _KDLCUDA = 1, 2
_DL_CODES = {"i": 0, "u": 1, "f": 2, "b": 6}


class _Buffer:
    def __init__(self, kind, array):
        if not isinstance(array, np.ndarray):
            raise TypeError("inout/out take a NumPy array")
        self.kind = kind
        self.array = array


def inout(array: np.ndarray) -> "_Buffer":
    """A host buffer the kernel reads and writes; written back after the
    run."""
    return _Buffer(_INOUT, array)


def out(array: np.ndarray) -> "_Buffer":
    """A host buffer the kernel writes (zeroed before); written back."""
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


def _host_array(a):
    """``a`` as a C-contiguous NumPy array (NumPy arrays, host DLPack
    objects)."""
    if not isinstance(a, np.ndarray):
        a = np.from_dlpack(a)
    return np.ascontiguousarray(a)


class DeviceBuffer:
    """Device memory holding ``shape`` elements of ``dtype``; freed by
    :meth:`close`, by leaving a ``with`` block or when collected. Made by
    :meth:`Device.empty`, :meth:`Device.zeros` and
    :meth:`Device.from_numpy`."""

    def __init__(self, device: "Device", shape: Union[int, Sequence[int]],
                 dtype: Any) -> None:
        self.device = device
        self.dtype = np.dtype(dtype)
        self.shape = (int(shape),) if isinstance(shape, (int, np.integer)) \
            else tuple(int(n) for n in shape)
        if any(n < 0 for n in self.shape):
            raise ValueError("a buffer's shape has no negative sizes")
        self.nbytes = int(np.prod(self.shape, dtype=np.int64)) * \
            self.dtype.itemsize
        # cuMemAlloc refuses 0 bytes.
        self._b = device._d.alloc(max(self.nbytes, 1))

    size = property(lambda self: self.nbytes // self.dtype.itemsize,
                    doc="Number of elements.")
    ptr = property(lambda self: self._b.address, doc="The device address.")
    closed = property(lambda self: self._b.closed,
                      doc="Whether the memory was freed (close()).")

    def _check_host(self, array, what):
        if array.dtype != self.dtype or array.nbytes != self.nbytes:
            raise ValueError(
                f"{what}: the array is {array.dtype} {array.shape}, the "
                f"buffer {self.dtype} {self.shape}")

    def copy_from(self, array: Any) -> None:
        """Copies a host array (NumPy or host DLPack) of the buffer's type
        and size into the buffer."""
        src = _host_array(array)
        self._check_host(src, "copy_from")
        self._b.copy_from_host(src.ctypes.data, src.nbytes)

    def copy_to(self, array: np.ndarray) -> None:
        """Copies the buffer into a writable C-contiguous NumPy array of
        its type and size (after the device's pending work)."""
        if not isinstance(array, np.ndarray) or \
                not array.flags.c_contiguous or not array.flags.writeable:
            raise ValueError("copy_to: needs a writable C-contiguous NumPy "
                             "array")
        self._check_host(array, "copy_to")
        self._b.copy_to_host(array.ctypes.data, array.nbytes)

    def to_numpy(self) -> np.ndarray:
        """A new NumPy array with the buffer's contents."""
        a = np.empty(self.shape, dtype=self.dtype)
        self._b.copy_to_host(a.ctypes.data, a.nbytes)
        return a

    def fill_bytes(self, value: int = 0) -> None:
        """Sets every byte to ``value``."""
        self._b.fill(value)

    def close(self) -> None:
        """Frees the memory now; later use raises ValueError. Views exported
        through ``__dlpack__`` or ``__cuda_array_interface__`` must not be
        used afterwards (without close(), a DLPack view keeps the buffer
        alive)."""
        self._b.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        state = "closed" if self.closed else hex(self.ptr)
        return (f"<DeviceBuffer {self.dtype} {self.shape} on device "
                f"{self.device.ordinal} at {state}>")

    @property
    def __cuda_array_interface__(self):
        """Version 3; the data are ready on the legacy default stream (1),
        where launches go."""
        return {"shape": self.shape, "typestr": self.dtype.str,
                "data": (self.ptr, False), "strides": None, "version": 3,
                "stream": 1}

    def __dlpack_device__(self):
        return (_KDLCUDA, self.device.ordinal)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None,
                   copy=None):
        """A DLPack capsule (kDLCUDA) viewing the buffer, which it keeps
        alive. ``stream``: the consumer's stream; other than None or the
        legacy default stream (1) this waits for the device's work."""
        if dl_device is not None and tuple(dl_device) != \
                self.__dlpack_device__():
            raise BufferError("a DeviceBuffer exports only to its device")
        if copy:
            raise BufferError("a DeviceBuffer exports without copies")
        if stream not in (None, 1):
            self.device.synchronize()
        kind = self.dtype.kind
        if kind not in _DL_CODES:
            raise BufferError(f"no DLPack type for {self.dtype}")
        view = self._b.view(self, list(self.shape), _DL_CODES[kind],
                            self.dtype.itemsize * 8)
        kwargs = {}
        if max_version is not None:
            kwargs["max_version"] = max_version
        return view.__dlpack__(**kwargs)


def _check_cai_layout(cai):
    """Refuses a __cuda_array_interface__ array that is not C-contiguous:
    a kernel gets only its address."""
    strides = cai.get("strides")
    if strides is None:
        return
    shape = tuple(cai.get("shape", ()))
    itemsize = np.dtype(cai.get("typestr", "|u1")).itemsize
    want = itemsize
    for extent, stride in reversed(list(zip(shape, strides))):
        if extent != 1 and stride != want:
            raise ValueError(
                "a __cuda_array_interface__ kernel argument must be "
                f"C-contiguous (shape {shape}, strides {tuple(strides)}): "
                "the kernel gets only its address; make a contiguous copy "
                "first")
        want *= extent


def _dlpack_device(a):
    """The (type, id) of a DLPack producer, or None."""
    dev = getattr(a, "__dlpack_device__", None)
    return tuple(dev()) if dev is not None else None


class _Launch:
    """The launch parameters of one call's arguments; host arrays go through
    temporary buffers (copied back afterwards for inout/out)."""

    def __init__(self, device, args):
        self.params = []
        self.temps = []   # (buffer, host array written back or None)
        try:
            for a in args:
                self.params.append(self._param(device, a))
        except BaseException:
            self.release()
            raise

    def _pointer(self, device, address, ordinal, what):
        if ordinal is not None and ordinal != device.ordinal:
            raise ValueError(f"{what} is on device {ordinal}, the kernel "
                             f"on device {device.ordinal}")
        return (8, address)

    def _param(self, device, a):
        if isinstance(a, DeviceBuffer):
            if a.closed:
                raise ValueError("a kernel argument's DeviceBuffer is "
                                 "closed")
            return self._pointer(device, a.ptr, a.device.ordinal,
                                 "a DeviceBuffer")
        cai = getattr(a, "__cuda_array_interface__", None)
        if cai is not None:
            if not isinstance(cai, dict) or "data" not in cai:
                raise TypeError("__cuda_array_interface__ without 'data'")
            _check_cai_layout(cai)
            stream = cai.get("stream")
            if stream is not None:
                if stream == 0:
                    raise ValueError("__cuda_array_interface__ 'stream' 0 is "
                                     "ambiguous (the protocol forbids it)")
                # The producer's work on its stream must end first.
                device._d.synchronize_stream(int(stream))
            return self._pointer(device, int(cai["data"][0]), None,
                                 "a __cuda_array_interface__ array")
        if type(a).__name__ == "PyCapsule" or (
                not isinstance(a, np.ndarray) and
                _dlpack_device(a) not in (None, (_KDLCPU, 0))):
            if type(a).__name__ != "PyCapsule":
                # The consumer's stream: launches go to the legacy default
                # stream (1), after which the producer's work is ordered.
                try:
                    a = a.__dlpack__(stream=1)
                except TypeError:
                    a = a.__dlpack__()
            dev_type, dev_id, address, _, contiguous = \
                _native.dlpack_info(a)
            if dev_type != _KDLCUDA:
                raise TypeError("a DLPack kernel argument must be on a CUDA "
                                "device (kDLCUDA) or the host")
            if not contiguous:
                raise ValueError("a DLPack kernel argument must be "
                                 "C-contiguous (the kernel gets only its "
                                 "address): make a contiguous copy first")
            return self._pointer(device, address, dev_id,
                                 "a DLPack tensor")
        kind = _IN
        if isinstance(a, _Buffer):
            kind, a = a.kind, a.array
        if not isinstance(a, (np.ndarray, np.generic)) and \
                _dlpack_device(a) == (_KDLCPU, 0):
            a = np.from_dlpack(a)
        if isinstance(a, np.ndarray) and a.ndim > 0:
            if a.dtype not in _TYPES:
                raise TypeError("unsupported kernel argument type %s"
                                % a.dtype)
            buf = DeviceBuffer(device, a.shape, a.dtype)
            if kind == _OUT:
                buf.fill_bytes(0)
            else:
                buf.copy_from(a)
            self.temps.append((buf, a if kind != _IN else None))
            return (8, buf.ptr)
        if isinstance(a, (np.generic, np.ndarray)):
            v = np.asarray(a).reshape(1)
            if v.dtype not in _TYPES:
                raise TypeError("unsupported kernel argument type %s"
                                % v.dtype)
            bits = _TYPES[v.dtype][1]
            return (v.dtype.itemsize, int(v.view(bits)[0]))
        raise TypeError("kernel arguments are NumPy scalars or arrays, "
                        "DeviceBuffers, __cuda_array_interface__ or DLPack "
                        "objects (np.float32(1.0), not 1.0): got %r" % (a,))

    def finish(self, device):
        """Waits for the launch if it used host arrays and copies them
        back; frees the temporaries."""
        try:
            if self.temps:
                device.synchronize()
            for buf, host in self.temps:
                if host is not None:
                    if host.flags.c_contiguous and host.flags.writeable:
                        buf.copy_to(host)
                    else:
                        host[...] = buf.to_numpy()
        finally:
            self.release()

    def release(self):
        for buf, _ in self.temps:
            buf.close()
        self.temps = []


class Kernel:
    """A kernel of a loaded :class:`Module`; keeps the module loaded."""

    def __init__(self, module, native):
        self.module = module
        self._k = native
        self.name = native.name

    @property
    def param_sizes(self) -> Optional[List[int]]:
        """The kernel's parameter sizes in bytes, as its image declares
        them, or None where the image does not say."""
        return self._k.param_sizes

    def _check_args(self, args):
        sizes = self._k.param_sizes
        if sizes is not None and len(args) != len(sizes):
            raise TypeError(
                f"kernel {self.name!r} takes {len(sizes)} parameter"
                f"{'s' if len(sizes) != 1 else ''} ({', '.join(map(str, sizes))}"
                f" bytes), but {len(args)} argument"
                f"{'s were' if len(args) != 1 else ' was'} given")

    def _check_params(self, args, params):
        sizes = self._k.param_sizes
        if sizes is None:
            return
        for i, ((size, _), want) in enumerate(zip(params, sizes)):
            if size == want:
                continue
            a = args[i]
            what = (f"a {type(a).__module__}.{type(a).__name__} of {size} "
                    f"bytes" if isinstance(a, np.generic) else
                    f"a pointer ({size} bytes)" if size == 8 else
                    f"{size} bytes")
            raise TypeError(
                f"argument {i} of kernel {self.name!r} is {what}, but "
                f"parameter {i} is {want} bytes (pass a NumPy scalar of the "
                f"parameter's own type: values are not converted)")

    def launch(self, grid: Any = 1, block: Any = 1, args: Sequence[Any] = (),
               shared: int = 0, checked: bool = False) -> None:
        """Launches on the device's default stream. Returns at once unless
        host arrays are among ``args`` (then it waits and copies inout/out
        arrays back). ``checked``: wait for the kernel, so that its fault
        is raised here, naming this launch."""
        args = list(args)
        self._check_args(args)
        dev = self.module.device
        call = _Launch(dev, args)
        try:
            self._check_params(args, call.params)
            self._k.launch(_dim3(grid), _dim3(block), shared, call.params,
                           checked)
        except BaseException:
            call.release()
            raise
        call.finish(dev)

    def __call__(self, *args, grid=1, block=1, shared=0, checked=False):
        """``kernel(a, x, y, n, grid=..., block=...)``: :meth:`launch`."""
        self.launch(grid, block, args, shared, checked)

    def __repr__(self):
        return f"<Kernel {self.name!r}>"


class Module:
    """A cubin (or PTX) loaded on a device, until :meth:`close` or
    collection; ``module.kernel(name)`` or ``module[name]`` finds a kernel
    (CudaError naming cuModuleGetFunction if there is none)."""

    def __init__(self, device, image):
        if isinstance(image, (bytearray, memoryview)):
            image = bytes(image)
        if isinstance(image, str):
            image = image.encode()
        if not isinstance(image, bytes):
            raise TypeError("a module image is bytes (a cubin, fatbin or "
                            "PTX)")
        self.device = device
        self._m = device._d.load(image)
        self._kernels = {}

    closed = property(lambda self: self._m.closed,
                      doc="Whether the module was unloaded (close()).")

    def kernel(self, name: str) -> "Kernel":
        """The kernel ``name`` of the module."""
        k = self._kernels.get(name)
        if k is None:
            k = self._kernels[name] = Kernel(self, self._m.kernel(name))
        return k

    __getitem__ = kernel

    def close(self) -> None:
        """Unloads the module; its kernels then raise ValueError."""
        self._kernels.clear()
        self._m.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Device:
    """A device's context; ``info`` is (ordinal, name, major, minor,
    multiprocessors, total memory)."""

    def __init__(self, ordinal: int = 0) -> None:
        self._d = _native.Device(ordinal)
        self.ordinal = ordinal

    @property
    def info(self) -> Tuple[Any, ...]:
        """(ordinal, name, major, minor, multiprocessors, total memory)."""
        return self._d.info()

    def empty(self, shape: Union[int, Sequence[int]],
              dtype: Any = np.float32) -> DeviceBuffer:
        """An uninitialised :class:`DeviceBuffer`."""
        return DeviceBuffer(self, shape, dtype)

    def zeros(self, shape: Union[int, Sequence[int]],
              dtype: Any = np.float32) -> DeviceBuffer:
        """A :class:`DeviceBuffer` of zero bytes."""
        buf = DeviceBuffer(self, shape, dtype)
        buf.fill_bytes(0)
        return buf

    def from_numpy(self, array: Any) -> DeviceBuffer:
        """A :class:`DeviceBuffer` with a copy of a host array (NumPy or
        host DLPack)."""
        src = _host_array(array)
        buf = DeviceBuffer(self, src.shape, src.dtype)
        buf.copy_from(src)
        return buf

    def load(self, image: Union[bytes, str]) -> "Module":
        """Loads a cubin, fatbin or PTX image: a :class:`Module`."""
        return Module(self, image)

    def synchronize(self) -> None:
        """Waits for all work of the device (cuCtxSynchronize)."""
        self._d.synchronize()

    def run(self, cubin: bytes, kernel: str, grid: Any = 1, block: Any = 1,
            args: Sequence[Any] = (), shared: int = 0,
            repeat: int = 1) -> Tuple[float, float]:
        """Loads ``cubin`` (bytes), launches ``kernel`` ``repeat`` times
        and synchronises; inout/out arrays receive the results. Returns
        (module load seconds, seconds per launch). Copies every array and
        reloads the module at each call: :meth:`load` and device buffers
        avoid both."""
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


def device_count() -> int:
    """Devices the driver reports; 0 without a driver or a device."""
    return _native.device_count()
