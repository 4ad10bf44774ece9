"""mmptx: splice generated PTX stubs into compiled GPU kernels.

Modules:
  mmptx.inject  find the inject sites of compiled PTX and render stubs in
  mmptx.stack   compile Stack PTX programs into stubs; CPU interpreter
  mmptx.ast     compile AST PTX programs (S-expressions or words); interpreter
  mmptx.backend PTX -> cubin in batches (compile_batch, backends)
  mmptx.runtime load cubins, device buffers, launches (needs numpy; imported
                on first use of ``mmptx.runtime``)
  mmptx.compat  the class names of the mm-ptx Python package
"""

import os as _os

from . import ast, backend, errors, inject, stack
from .backend import backends, build_packed_module, compile_batch
from .errors import AstError, CompileError, InjectError, MmptxError, StackError

__version__ = "0.1.0"
__all__ = ["inject", "stack", "ast", "backend", "errors", "runtime",
           "compile_batch", "build_packed_module",
           "backends", "AstError", "InjectError", "StackError", "CompileError",
           "MmptxError", "get_include", "get_device_header",
           "get_nvrtc_options"]


def __getattr__(name):
    # mmptx.runtime needs NumPy, which the rest of the package does not:
    # import it when first used.
    if name == "runtime":
        import importlib

        return importlib.import_module(".runtime", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_include():
    """The directory to pass to NVRTC/nvcc as ``-I``: it holds
    ``mmptx/cuda/ptx_inject.h`` (the device header), its generated type
    macros ``mmptx/cuda/PtxInjectTypes.h``, and the C headers
    ``mmptx-c/*.h``."""
    return _os.path.join(_os.path.dirname(_os.path.abspath(__file__)),
                         "include")


def get_device_header():
    """The absolute path of the device header ``mmptx/cuda/ptx_inject.h``."""
    return _os.path.join(get_include(), "mmptx", "cuda", "ptx_inject.h")


def get_nvrtc_options():
    """The NVRTC options that make ``#include "mmptx/cuda/ptx_inject.h"``
    compile."""
    return ["-I" + get_include()]
