"""mmptx: splice generated PTX stubs into compiled GPU kernels.

Modules:
  mmptx.inject  find the inject sites of compiled PTX and render stubs in
  mmptx.stack   compile Stack PTX programs into stubs; CPU interpreter
  mmptx.ast     compile AST PTX programs (S-expressions or words); interpreter
  mmptx.nvrtc   CUDA -> PTX with NVRTC in process (compile); annotate()
                rewrites /* PTX_INJECT ... */ comment blocks first
  mmptx.backend PTX -> cubin in batches (compile_batch, backends)
  mmptx.runtime load cubins, device buffers, launches (needs numpy; imported
                on first use of ``mmptx.runtime``)
  mmptx.wire    the wire format (jobs, programs, results as bytes); every
                object above pickles through it
  mmptx.compat  the class names of the mm-ptx Python package
"""

import os as _os
from typing import Any, List, Union

from . import _cuda, ast, backend, errors, inject, nvrtc, stack, wire
from ._cuda import cuda_libraries, set_library_path
from ._mmptx import frontend as _frontend
from .backend import (BatchInterrupted, backends, build_packed_module,
                      compile_batch)
from .errors import (AnnotateError, AstError, CompileError, InjectError,
                     MmptxError, NvrtcError, StackError, WireError)

__version__ = "0.1.0"
__all__ = ["inject", "stack", "ast", "backend", "errors", "runtime", "nvrtc",
           "wire", "annotate", "compile_batch", "build_packed_module",
           "BatchInterrupted",
           "backends", "cuda_libraries", "set_library_path", "version",
           "AstError", "InjectError", "StackError", "CompileError",
           "NvrtcError", "AnnotateError", "WireError",
           "MmptxError", "get_include", "get_device_header",
           "get_nvrtc_options"]

# NVIDIA's pip wheels (nvidia-cuda-nvrtc, nvidia-nvjitlink) on sys.path are
# searched for the CUDA libraries, which are opened only when first needed.
_cuda.register_search_roots()


def annotate(source: Union[str, bytes], name: str = "<source>",
             line_directives: bool = True) -> str:
    """Rewrites every ``/* PTX_INJECT ... */`` comment block of CUDA
    ``source`` into the inline asm with markers that the inject step reads
    (what ``mmptx-annotate`` does), ready for :func:`mmptx.nvrtc.compile`.
    ``line_directives`` brackets each site with ``#line`` so that compiler
    messages point into the original. A broken site raises
    :class:`AnnotateError` with every located message (``name:line:col``).
    """
    if isinstance(source, bytes):
        source = source.decode("utf-8")
    if not isinstance(source, str):
        raise TypeError("mmptx.annotate: source must be str")
    text, _count = _frontend.annotate(source, str(name), bool(line_directives))
    return text


def version() -> str:
    """What every mmptx tool's ``--version`` prints: mmptx's version, the
    LLVM it was built with, and the CUDA libraries it finds (loaded)."""
    return _cuda.version_text()


def __getattr__(name: str) -> Any:
    # mmptx.runtime needs NumPy, which the rest of the package does not:
    # import it when first used.
    if name == "runtime":
        import importlib

        return importlib.import_module(".runtime", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_include() -> str:
    """The directory to pass to NVRTC/nvcc as ``-I``: it holds
    ``mmptx/cuda/ptx_inject.h`` (the device header), its generated type
    macros ``mmptx/cuda/PtxInjectTypes.h``, and the C headers
    ``mmptx-c/*.h``."""
    return _os.path.join(_os.path.dirname(_os.path.abspath(__file__)),
                         "include")


def get_device_header() -> str:
    """The absolute path of the device header ``mmptx/cuda/ptx_inject.h``."""
    return _os.path.join(get_include(), "mmptx", "cuda", "ptx_inject.h")


def get_nvrtc_options() -> List[str]:
    """The NVRTC options that make ``#include "mmptx/cuda/ptx_inject.h"``
    compile."""
    return ["-I" + get_include()]
