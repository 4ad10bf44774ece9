"""CUDA -> PTX in this process, through NVRTC (no nvcc, no host compiler).

    import mmptx
    src = mmptx.annotate(open("kernel.cu").read())      # comment-form sites
    r = mmptx.nvrtc.compile(src, arch="sm_80")
    module = mmptx.inject.InjectModule(r.ptx)            # then stubs, cubins

NVRTC is opened at the first compile: from the CUDA toolkit
(``$CUDA_HOME``, ``$CUDA_PATH``, /usr/local/cuda), the loader path, or the
``nvidia-cuda-nvrtc`` wheel (``pip install "mmptx[nvrtc]"``). Where none is
found, :class:`mmptx.errors.NvrtcError` (code ``NOT_FOUND``) says where it
looked and what to install. The directory of mmptx's device header
(:func:`mmptx.get_include`) is searched by default, so
``#include "mmptx/cuda/ptx_inject.h"`` and ``#include <ptx_inject.h>``
resolve.
"""

import os
from collections import namedtuple
from typing import Optional, Sequence, Union

from . import _cuda
from ._mmptx import frontend as _native
from .errors import NvrtcError, NvrtcErrorCode

__all__ = ["compile", "identity", "NvrtcResult", "NvrtcError",
           "NvrtcErrorCode"]

NvrtcResult = namedtuple("NvrtcResult", "ptx log from_cache")
NvrtcResult.__doc__ = """The PTX text, NVRTC's warnings (``log``, "" when
none) and whether it came from the cache."""


def _mmptx_include():
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


def compile(source: str, arch: str = "sm_80", options: Sequence[str] = (),
            include_dirs: Sequence[Union[str, "os.PathLike[str]"]] = (),
            cache_dir: Optional[Union[str, "os.PathLike[str]"]] = None,
            name: str = "kernel.cu", defines: Sequence[str] = (),
            cache_size_mb: int = 1024, toolkit_includes: bool = True,
            mmptx_include: bool = True) -> "NvrtcResult":
    """Compiles CUDA ``source`` (``str``) to PTX with NVRTC.

    ``arch``: the target (``sm_80``, ``sm_90a``, ...). ``options``: further
    NVRTC options as they are (``-std=c++17``, ``-lineinfo``).
    ``include_dirs``: ``-I`` directories, searched before the toolkit's.
    ``defines``: ``NAME`` or ``NAME=VALUE``. ``name``: the file name NVRTC
    gives the source (in messages, and where quoted includes are looked
    for). ``cache_dir``: a content-keyed PTX cache directory ("" for the
    per-user default, ``~/.cache/mmptx`` or ``$XDG_CACHE_HOME/mmptx``;
    None: no cache) of at most ``cache_size_mb`` MiB. Returns an
    :class:`NvrtcResult`; raises :class:`NvrtcError` for a compile error
    (its message is NVRTC's log, each line at ``name:line``) or when NVRTC
    is not found."""
    if isinstance(source, bytes):
        source = source.decode("utf-8")
    if not isinstance(source, str):
        raise TypeError("mmptx.nvrtc.compile: source must be str")
    if isinstance(options, str) or isinstance(include_dirs, str) \
            or isinstance(defines, str):
        raise TypeError("mmptx.nvrtc.compile: options, include_dirs and "
                        "defines are lists of strings")
    _cuda.ensure("nvrtc")
    dirs = [os.fspath(d) for d in include_dirs]
    if mmptx_include:
        dirs.append(_mmptx_include())
    ptx, log, cached = _native.nvrtc_compile(
        source, str(name), str(arch), [str(o) for o in options], dirs,
        [str(d) for d in defines],
        None if cache_dir is None else os.fspath(cache_dir),
        int(cache_size_mb), bool(toolkit_includes))
    return NvrtcResult(ptx, log, cached)


def identity() -> str:
    """``nvrtc <version>`` of the NVRTC mmptx would use ("" when none is
    found)."""
    _cuda.ensure("nvrtc")
    return _native.nvrtc_identity()
