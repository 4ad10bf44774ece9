"""PTX -> cubin in batches, through the project's backends.

    results = mmptx.compile_batch([ptx_a, ptx_b, ptx_a], arch="sm_80")
    for r in results:
        if r.ok:
            open(r.name + ".cubin", "wb").write(r.cubin)
        else:
            print(r.error)        # "<ptx#1>:12: error: ..." per module
    mmptx.backends()              # [Backend(name="nvptxcompiler", ...), ...]

The batch runs on ``jobs`` threads (0: one per hardware thread) with the GIL
released; identical modules are compiled once (``source == "duplicate"``),
and with ``cache_dir`` the cubins persist across runs (``"cached"``).
"""

from collections import namedtuple

from ._mmptx import backend as _native
from .errors import CompileError, CompileErrorCode

__all__ = ["Backend", "CompileResult", "backends", "compile_batch",
           "build_packed_module", "CompileError", "CompileErrorCode"]

Backend = namedtuple("Backend", "name available version reason")
Backend.__doc__ = """A backend: ``version`` when available, else ``reason``
says why not."""


class CompileResult:
    """One module's outcome: ``ok``; ``cubin`` (``bytes``, or None when it
    failed); ``error`` (the located message, empty when ok); ``log`` (the
    compiler's info log); ``source`` ("compiled", "cached" or "duplicate");
    ``backend`` ("<name> <version>"); ``seconds`` (its compile or lookup)."""

    __slots__ = ("name", "ok", "cubin", "error", "log", "source", "backend",
                 "seconds")

    def __init__(self, name, ok, cubin, error, log, source, backend,
                 seconds):
        self.name = name
        self.ok = ok
        self.cubin = cubin
        self.error = error
        self.log = log
        self.source = source
        self.backend = backend
        self.seconds = seconds

    def __bool__(self):
        return self.ok

    def __repr__(self):
        what = ("%d-byte cubin" % len(self.cubin)) if self.ok else "error"
        return "<CompileResult %s: %s, %s>" % (self.name, what, self.source)


def backends():
    """Every backend mmptx knows, in the order the default is chosen."""
    out = []
    for name, ok, text in _native.backends():
        out.append(Backend(name, ok, text if ok else None,
                           None if ok else text))
    return out


def compile_batch(ptx_list, arch="sm_80", backend=None, jobs=0,
                  cache_dir=None, opt_level=3, lineinfo=False,
                  maxrregcount=0, verbose=False, options=(), names=None,
                  dedup=True, check=False):
    """Compiles each PTX text (``str`` or ``bytes``) to a cubin.

    ``backend``: "nvptxcompiler", "nvjitlink" or "ptxas" (None: the first
    available). ``cache_dir``: a content-keyed cubin cache ("" for the
    default directory). ``options``: further backend options. ``names``:
    what messages call each module (default ``<ptx#i>``). Returns one
    :class:`CompileResult` per input, in order; a module's failure is its
    own unless ``check`` is set, which raises :class:`CompileError` for
    the first. Bad options or an unavailable backend always raise."""
    if isinstance(ptx_list, (str, bytes)):
        raise TypeError("compile_batch takes a list of PTX texts")
    ptx_list = list(ptx_list)
    names = ["<ptx#%d>" % i for i in range(len(ptx_list))] \
        if names is None else [str(n) for n in names]
    if len(names) != len(ptx_list):
        raise ValueError("compile_batch: %d names for %d modules"
                         % (len(names), len(ptx_list)))
    raw = _native.compile_batch(ptx_list, names, arch, backend, jobs,
                                cache_dir, opt_level, lineinfo,
                                maxrregcount, verbose, list(options), dedup)
    results = [CompileResult(n, *r) for n, r in zip(names, raw)]
    if check:
        for r in results:
            if not r.ok:
                raise CompileError(r.error, CompileErrorCode.COMPILE)
    return results


def build_packed_module(stubs, num_inputs=2, sites_per_kernel=128,
                        arch="sm_80", prefix="mmptx_packed"):
    """One PTX module holding every stub (as ``mmptx-compile --pack``):
    kernel ``k`` is ``<prefix>_<k>(.u64 in, .u64 out, .u32 n)`` with
    ``sites_per_kernel`` sites; launched with gridDim.x = sites, block b
    runs program ``k * sites_per_kernel + b`` on elements
    ``e = blockIdx.y * blockDim.x + threadIdx.x < n``: ``%x<j> = in[j*n +
    e]`` (f32, j < ``num_inputs``), then the stub, then ``out[P*n + e] =
    %y``. Compile Stack PTX programs with registers ``x0``... (in, F32)
    and ``y`` (out, F32) and request ``y``. Bad sizes, prefix or arch raise
    :class:`CompileError`."""
    if isinstance(stubs, (str, bytes)):
        raise TypeError("build_packed_module takes a list of stubs")
    return _native.build_packed_module(list(stubs), num_inputs,
                                       sites_per_kernel, arch, prefix)
