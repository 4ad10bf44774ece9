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
