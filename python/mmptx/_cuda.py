"""Where the CUDA libraries (NVRTC, nvJitLink, the driver) come from.

mmptx opens them at their first use, never at import: ``import mmptx`` works
without any of them. The native search (the toolkit, ``$CUDA_HOME``, the
loader path, and NVIDIA's pip wheels under each search root) gets every
``sys.path`` entry holding an ``nvidia/`` folder as a root; where that finds
nothing and ``cuda-pathfinder`` is installed, its answer is passed down.
"""

import os
import sys
from typing import Any, Dict, Iterable, Optional, Union

from ._mmptx import frontend as _native

_LIBS = ("nvrtc", "nvjitlink", "cuda")
_registered = set()
_ensured = set()


def register_search_roots(paths: Optional[Iterable[str]] = None) -> None:
    """Gives the native search every directory of ``paths`` (default
    ``sys.path``) that holds NVIDIA's wheels (an ``nvidia/`` folder)."""
    for p in sys.path if paths is None else paths:
        if not p or p in _registered:
            continue
        try:
            if os.path.isdir(os.path.join(p, "nvidia")):
                _native.add_search_root(p)
                _registered.add(p)
        except (OSError, TypeError, ValueError):
            continue


def _pathfinder_path(name):
    """cuda-pathfinder's file for ``name``, or None (not installed, or it
    does not find it either)."""
    try:
        from cuda import pathfinder
    except ImportError:
        return None
    try:
        loaded = pathfinder.load_nvidia_dynamic_lib(name)
    except Exception:  # its own not-found errors, whatever their class
        return None
    return getattr(loaded, "abs_path", None)


def ensure(name: str) -> None:
    """Makes sure the native search can find ``name`` ("nvrtc",
    "nvjitlink"), asking cuda-pathfinder where it does not. Never raises:
    the call that needs the library reports what is missing."""
    if name in _ensured:
        return
    register_search_roots()
    found = _native.library_status(name)[0]
    if not found:
        path = _pathfinder_path(name)
        if path and _native.set_library_path(name, path):
            found = _native.library_status(name)[0]
    if found:
        _ensured.add(name)


def set_library_path(name: str, path: Union[str, "os.PathLike[str]"]) -> bool:
    """Loads ``name`` ("nvrtc", "nvjitlink" or "cuda") from ``path`` from
    now on (as ``$MMPTX_NVRTC_PATH`` etc. do). Returns False when the
    library is already loaded (then it has no effect)."""
    return _native.set_library_path(name, os.fspath(path))


def cuda_libraries() -> Dict[str, Any]:
    """What mmptx finds for each CUDA library it opens at run time:
    ``{"nvrtc": {"found": True, "version": "13.0", "file": "...",
    "error": ""}, "nvjitlink": ..., "cuda": ...}`` (loads them)."""
    register_search_roots()
    for name in ("nvrtc", "nvjitlink"):
        ensure(name)
    out = {}
    for name in _LIBS:
        found, version, path, error = _native.library_status(name)
        out[name] = {"found": found, "version": version, "file": path,
                     "error": error}
    return out


def version_text() -> str:
    """What every mmptx tool's ``--version`` prints."""
    register_search_roots()
    return _native.version_text()
