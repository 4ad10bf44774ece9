"""Exceptions of the mmptx package.

Every error carries the library's located message (``name:line:col: error:
...`` where the input has a location) and a numeric ``code``.
"""

from enum import IntEnum


class InjectErrorCode(IntEnum):
    """Categories of PTX Inject errors: the library's ``mmptx::InjectErrc``,
    in its order. (The C API's ``mmptx_result_t`` keeps the reference's
    numbers and folds MISSING_STUB into INJECTION_NAME_NOT_FOUND.)"""

    SUCCESS = 0
    FORMATTING = 1
    INSUFFICIENT_BUFFER = 2
    INTERNAL = 3
    INVALID_INPUT = 4
    WRONG_NUM_STUBS = 5
    OUT_OF_BOUNDS_IDX = 6
    INCONSISTENT_INJECTION = 7
    INJECTION_NAME_NOT_FOUND = 8
    INJECTION_ARG_NAME_NOT_FOUND = 9
    OUT_OF_MEMORY = 10
    UNKNOWN_TYPE = 11
    MISSING_STUB = 12
    INVALID_PTX = 13
    INVALID_SITE = 14
    INVALID_STUB = 15


class StackErrorCode(IntEnum):
    """Categories of Stack PTX errors (the C API's values; PARSE for text)."""

    INVALID_ARGUMENT = 1
    INVALID_TABLES = 2
    INVALID_REGISTER = 3
    INVALID_REQUEST = 4
    INVALID_WORD = 5
    PARSE = 8


class MmptxError(RuntimeError):
    """Base class: ``message`` is the library's text, ``code`` its category."""

    codes = None

    def __init__(self, message, code=0):
        super().__init__(message)
        self.message = message
        try:
            self.code = self.codes(code) if self.codes else code
        except ValueError:
            self.code = code

    def __str__(self):
        return self.message


class InjectError(MmptxError):
    """A PTX Inject error; ``code`` is an :class:`InjectErrorCode`."""

    codes = InjectErrorCode


class StackError(MmptxError):
    """A Stack PTX error; ``code`` is a :class:`StackErrorCode`."""

    codes = StackErrorCode


class CompileErrorCode(IntEnum):
    """Categories of batch-compile errors (mmptx.compile_batch)."""

    UNKNOWN_BACKEND = 1
    UNAVAILABLE = 2
    INVALID_OPTION = 3
    CACHE = 4
    COMPILE = 5


class CompileError(MmptxError):
    """A PTX -> cubin error: a bad option or backend, or, with
    ``check=True``, the first module that failed (``code`` COMPILE, the
    message the compiler's log with ``name:line:`` locations)."""

    codes = CompileErrorCode


class AstErrorCode(IntEnum):
    """AST PTX result codes (the C API's ``ast_ptx_result_t``), then PARSE
    for errors of the text form."""

    SUCCESS = 0
    INTERNAL = 1
    INSUFFICIENT_BUFFER = 2
    INVALID_VALUE = 3
    BAD_INSTRUCTION_MAYBE_FORGOT_RETURN = 4
    INPUT_IDX_OUT_OF_BOUNDS = 5
    PTX_INSTRUCTION_IDX_OUT_OF_BOUNDS = 6
    STACK_OVERFLOW = 7
    STACK_UNDERFLOW = 8
    TOO_MANY_ARGS = 9
    UNSUPPORTED_INSTRUCTION = 10
    ROUTINE_IDX_OUT_OF_BOUNDS = 11
    ROUTINE_ARG_IDX_OUT_OF_BOUNDS = 12
    ROUTINE_DEPTH_EXCEEDED = 13
    TYPE_MISMATCH = 14
    SPECIAL_REGISTER_IDX_OUT_OF_BOUNDS = 15
    STACK_IDX_OUT_OF_BOUNDS = 16
    LIMIT_EXCEEDED = 17
    PARSE = 18


class AstError(MmptxError):
    """An AST PTX error; ``code`` is an :class:`AstErrorCode`."""

    codes = AstErrorCode


class CudaErrorCode(IntEnum):
    """Categories of GPU runtime errors (``mmptx::runtime::CudaErrorKind``
    plus one)."""

    OTHER = 0
    NO_DRIVER = 1
    STUB_LIBRARY = 2
    NO_DEVICE = 3
    CALL = 4


class CudaError(MmptxError):
    """A driver error: the call, its CUDA_ERROR name and the driver's text."""

    codes = CudaErrorCode


class WireErrorCode(IntEnum):
    """Categories of wire-format errors (mmptx.wire)."""

    INVALID_ARGUMENT = 1
    MALFORMED = 2


class WireError(MmptxError):
    """A wire-format error: bad values to serialise, or bytes that are not
    a valid message (the message names the byte offset)."""

    codes = WireErrorCode


class NvrtcErrorCode(IntEnum):
    """Categories of CUDA -> PTX errors (mmptx.nvrtc.compile)."""

    NOT_FOUND = 1
    COMPILE = 2
    INVALID_INPUT = 3
    CACHE = 4


class NvrtcError(MmptxError):
    """A CUDA -> PTX error: NVRTC not found (``code`` NOT_FOUND, the message
    says where it was looked for and what to install), or NVRTC's log with
    ``file:line:`` locations (COMPILE)."""

    codes = NvrtcErrorCode


class AnnotateErrorCode(IntEnum):
    """Categories of annotate errors (mmptx.annotate)."""

    SYNTAX = 1


class AnnotateError(MmptxError):
    """A broken ``/* PTX_INJECT ... */`` site: the located messages
    (``name:line:col: error: ...``), one per broken site."""

    codes = AnnotateErrorCode
