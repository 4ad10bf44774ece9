"""The class names of the mm-ptx Python package (mm_ptx 1.0), over mmptx.

A program written for it runs with its imports changed:

    from mm_ptx.ptx_inject import PTXInject      ->  from mmptx.compat.ptx_inject import PTXInject
    from mm_ptx.stack_ptx import StackPtx, ...   ->  from mmptx.compat.stack_ptx import ...
    import mm_ptx                                ->  import mmptx.compat as mm_ptx

Stubs are mmptx's (its register names and zero-initialised unsatisfied
outputs); the words and the API are the reference's.
"""

import os as _os

from .. import get_device_header as _device_header
from .. import get_include as _get_include
from . import ptx_inject, stack_ptx
from .ptx_inject import (Inject, InjectArg, MutType, PTXInject,
                         PtxInjectError)
from .stack_ptx import (ArgTypeEnum, RegisterRegistry, RoutineEnum, StackPtx,
                        StackPtxError, StackTypeEnum,
                        create_instruction_enum,
                        create_special_register_enum)


def get_include_dir():
    """The include directory for NVRTC (``-I``)."""
    return _get_include()


def get_ptx_inject_header():
    """The device header (mmptx's ``mmptx/cuda/ptx_inject.h``)."""
    return _device_header()


def get_stack_ptx_header():
    """The C header of the Stack PTX compiler."""
    return _os.path.join(_get_include(), "mmptx-c", "StackPtx.h")
