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
and the cubins persist across runs in a per-user cache (``"cached"``;
``~/.cache/mmptx``, ``$XDG_CACHE_HOME/mmptx`` or ``$MMPTX_CACHE_DIR``, at
most ``cache_size_mb``). Long batches: ``progress=True`` shows a tqdm bar
(a plain stderr line without tqdm), ``progress=callable`` is called with
(done, total); Ctrl-C stops the batch between modules and raises
:class:`BatchInterrupted` holding the results so far; ``timeout`` limits
each module.
"""

import os
import sys
from collections import namedtuple
from typing import Any, Callable, List, Optional, Sequence, Union

from . import _cuda
from ._mmptx import backend as _native
from .errors import CompileError, CompileErrorCode

__all__ = ["Backend", "CompileResult", "backends", "compile_batch",
           "BatchInterrupted", "build_packed_module", "CompileError",
           "CompileErrorCode"]

_DEFAULT_CACHE = object()


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`compile_batch`: the modules started before it
    finished; ``results`` holds every module's :class:`CompileResult`, those
    not compiled with ``source == "cancelled"``."""

    def __init__(self, results: List["CompileResult"]) -> None:
        done = sum(1 for r in results if r.source != "cancelled")
        super().__init__("compile_batch interrupted: %d of %d modules done"
                         % (done, len(results)))
        self.results = results

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

    def __eq__(self, other):
        return isinstance(other, CompileResult) and all(
            getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None

    def __reduce__(self):
        # Through the wire format: a results message of one result.
        from . import wire
        return (wire._load_compile_result, (wire._result_bytes(self),))

    def __repr__(self):
        what = ("%d-byte cubin" % len(self.cubin)) if self.ok else "error"
        return "<CompileResult %s: %s, %s>" % (self.name, what, self.source)


def backends() -> List[Backend]:
    """Every backend mmptx knows, in the order the default is chosen."""
    _cuda.ensure("nvjitlink")
    out = []
    for name, ok, text in _native.backends():
        out.append(Backend(name, ok, text if ok else None,
                           None if ok else text))
    return out


def _progress_callback(progress):
    """(callback or None, close function) for ``progress``."""
    if progress is None or progress is False:
        return None, lambda: None
    if callable(progress):
        return progress, lambda: None
    if progress is not True:
        raise TypeError("compile_batch: progress is True, False, None or a "
                        "callable(done, total)")
    try:
        from tqdm.auto import tqdm
    except ImportError:
        tqdm = None
    if tqdm is not None:
        bar = tqdm(total=0, unit="module", desc="mmptx compile")

        def update(done, total):
            if bar.total != total:
                bar.total = total
                bar.refresh()
            bar.update(done - bar.n)

        return update, bar.close
    # Without tqdm, one line on stderr rewritten in place.
    state = {"shown": False}

    def line(done, total):
        sys.stderr.write("\rmmptx compile: %d/%d modules" % (done, total))
        sys.stderr.flush()
        state["shown"] = True

    def close():
        if state["shown"]:
            sys.stderr.write("\n")
            sys.stderr.flush()

    return line, close


def compile_batch(ptx_list: Sequence[Union[str, bytes]], arch: str = "sm_80",
                  backend: Optional[str] = None, jobs: int = 0,
                  cache_dir: Any = _DEFAULT_CACHE, opt_level: int = 3,
                  lineinfo: bool = False, maxrregcount: int = 0,
                  verbose: bool = False, options: Sequence[str] = (),
                  names: Optional[Sequence[str]] = None, dedup: bool = True,
                  check: bool = False,
                  progress: Union[None, bool, Callable[[int, int], Any]] = None,
                  timeout: Optional[float] = None,
                  cache_size_mb: int = 1024) -> List["CompileResult"]:
    """Compiles each PTX text (``str`` or ``bytes``) to a cubin.

    ``backend``: "nvptxcompiler", "nvjitlink" or "ptxas" (None: the first
    available). ``cache_dir``: the content-keyed cubin cache; by default
    the per-user one (``$MMPTX_CACHE_DIR``, else ``$XDG_CACHE_HOME/mmptx``,
    else ``~/.cache/mmptx``), "" the same, None no cache; it keeps at most
    ``cache_size_mb`` MiB (least recently used entries go first).
    ``options``: further backend options. ``names``: what messages call
    each module (default ``<ptx#i>``). ``progress``: True for a progress bar
    (tqdm, or a line on stderr without it), or a callable(done, total)
    called from this thread as modules finish. ``timeout``: seconds a
    module may take (ptxas is stopped; an in-process compile is abandoned to
    finish in the background) before it fails with ``source == "timeout"``.
    Ctrl-C stops the batch between modules and raises
    :class:`BatchInterrupted` (a KeyboardInterrupt) with the results so far.

    Returns one :class:`CompileResult` per input, in order; a module's
    failure is its own unless ``check`` is set, which raises
    :class:`CompileError` for the first. Bad options or an unavailable
    backend always raise."""
    if isinstance(ptx_list, (str, bytes)):
        raise TypeError("compile_batch takes a list of PTX texts")
    ptx_list = list(ptx_list)
    names = ["<ptx#%d>" % i for i in range(len(ptx_list))] \
        if names is None else [str(n) for n in names]
    if len(names) != len(ptx_list):
        raise ValueError("compile_batch: %d names for %d modules"
                         % (len(names), len(ptx_list)))
    if cache_dir is _DEFAULT_CACHE:
        cache_dir = ""
    elif cache_dir is not None:
        cache_dir = os.fspath(cache_dir)
    timeout = 0.0 if timeout is None else float(timeout)
    if timeout < 0:
        raise ValueError("compile_batch: timeout must be >= 0 seconds")
    if cache_size_mb < 0:
        raise ValueError("compile_batch: cache_size_mb must be >= 0")
    if backend in (None, "nvjitlink"):
        _cuda.ensure("nvjitlink")
    callback, close = _progress_callback(progress)
    try:
        raw, interrupted = _native.compile_batch(
            ptx_list, names, arch, backend, jobs, cache_dir, opt_level,
            lineinfo, maxrregcount, verbose, list(options), dedup, callback,
            timeout, int(cache_size_mb))
    finally:
        close()
    results = [CompileResult(n, *r) for n, r in zip(names, raw)]
    if interrupted:
        raise BatchInterrupted(results)
    if check:
        for r in results:
            if not r.ok:
                raise CompileError(r.error, CompileErrorCode.COMPILE)
    return results


def build_packed_module(stubs: Sequence[str], num_inputs: int = 2,
                        sites_per_kernel: int = 128, arch: str = "sm_80",
                        prefix: str = "mmptx_packed") -> str:
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
