#!/usr/bin/env python3
"""The Python runtime on the GPU, for utils/gpu-smoke.sh: a kernel compiled
for the device at hand, looked up and launched from a second thread, checked
launches, too few arguments and a float64 for an f32 parameter refused,
foreign arrays (PyTorch's, where installed) through both protocols.

Prints one line per check and exits non-zero on the first failure."""

import os
import sys
import threading

import numpy as np

import mmptx
from mmptx import runtime as R

# The kernel the runtime tests launch too.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python", "tests"))
from helpers import axpy_ptx  # noqa: E402


def check(what, ok):
    print(("ok      " if ok else "FAILED  ") + what, flush=True)
    if not ok:
        sys.exit(1)


def raises(exc, fn):
    try:
        fn()
    except exc as e:
        return str(e)
    return None


def main():
    os.environ.pop("MMPTX_LIBCUDA", None)
    dev = R.Device()
    name, major, minor = dev.info[1], dev.info[2], dev.info[3]
    print("device: %s (sm_%d%d)" % (name, major, minor))
    (r,) = mmptx.compile_batch([axpy_ptx()], arch="sm_%d%d" % (major, minor),
                               check=True)
    mod = dev.load(r.cubin)
    n = 100000
    x = dev.from_numpy(np.arange(n, dtype=np.float32))
    y = dev.from_numpy(np.ones(n, dtype=np.float32))
    errors = []

    def work():
        try:
            k = mod.kernel("axpy")  # looked up on this thread
            k.launch(grid=(n + 255) // 256, block=256,
                     args=[np.float32(2), x, y, np.uint32(n)], checked=True)
        except Exception as e:
            errors.append(e)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    check("lookup and checked launch from a second thread %s" % errors,
          not errors)
    check("results of that launch",
          np.array_equal(y.to_numpy(), 2 * np.arange(n, dtype=np.float32) + 1))
    k = mod.kernel("axpy")
    check("param_sizes from the cubin %s" % k.param_sizes,
          k.param_sizes == [4, 8, 8, 4])
    msg = raises(TypeError, lambda: k.launch(args=[np.float32(1), x]))
    check("too few arguments: TypeError (%s)" % msg,
          msg is not None and "takes 4 parameters" in msg)
    msg = raises(TypeError, lambda: k.launch(
        args=[np.float64(1), x, y, np.uint32(n)]))
    check("np.float64 for an f32 parameter: TypeError (%s)" % msg,
          msg is not None and "numpy.float64 of 8 bytes" in msg)
    dev.synchronize()
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and torch.cuda.is_available():
        tx = torch.arange(8, dtype=torch.float32, device="cuda")
        ty = torch.zeros(8, dtype=torch.float32, device="cuda")
        k.launch(block=8, args=[np.float32(1), tx, ty, np.uint32(8)],
                 checked=True)
        check("a PyTorch tensor through __cuda_array_interface__",
              torch.equal(ty, tx))
        k.launch(block=8, args=[np.float32(1), tx.__dlpack__(stream=1),
                                ty, np.uint32(8)], checked=True)
        check("a PyTorch tensor through DLPack", torch.equal(ty, 2 * tx))
        msg = raises(ValueError, lambda: k.launch(
            block=4, args=[np.float32(1), tx[::2], ty, np.uint32(4)]))
        check("a strided tensor refused (%s)" % msg, msg is not None)
    else:
        print("skipped PyTorch checks (no torch with CUDA)")
    print("python runtime: all checks passed")


if __name__ == "__main__":
    main()
