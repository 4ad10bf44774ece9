"""mmptx's wire format from Python, and the pickling of mmptx objects.

A job (set up once), programs (sent many times) and results (sent back) are
each one self-checking ``bytes`` message: magic, version, little-endian
fixed-width fields, lengths checked, xxHash64 checksum (see the C++
``mmptx/Serialize/Wire.h``). Malformed bytes raise :class:`WireError`
naming the byte offset.

  dumps_job(dict) / loads_job(bytes)            a job as a dict
  dumps_programs(variants) / loads_programs     [(id, [(kind, inject, words,
                                                   routines, text), ...])]
  dumps_results(list) / loads_results           result dicts
  from_reference(bytes, layout)                 a buffer the reference
                                                 serialised -> (job, programs)

Every mmptx object a worker needs pickles through these messages, so
``pickle``, ``multiprocessing``, Ray and Dask take them as they are:
:class:`mmptx.inject.Module`, :class:`mmptx.stack.InstructionSet`,
:class:`mmptx.stack.Registers`, :class:`mmptx.stack.Compiler`,
:class:`mmptx.stack.Program`, :class:`mmptx.ast.Program` and
:class:`mmptx.CompileResult` (:class:`mmptx.ast.Options`, plain numbers,
pickles as an ordinary object).
"""

from typing import Any, Dict, List, Mapping, Sequence, Tuple

from ._mmptx import wire as _native
from .errors import WireError, WireErrorCode

__all__ = ["dumps_job", "loads_job", "dumps_programs", "loads_programs",
           "dumps_results", "loads_results", "from_reference",
           "message_kind", "WireError", "WireErrorCode",
           "SOURCE_NONE", "SOURCE_PTX", "SOURCE_INJECT",
           "PROGRAM_STACK", "PROGRAM_AST", "PROGRAM_STUB", "PROGRAM_PTX"]

SOURCE_NONE, SOURCE_PTX, SOURCE_INJECT = 0, 1, 2
PROGRAM_STACK, PROGRAM_AST, PROGRAM_STUB, PROGRAM_PTX = 1, 2, 3, 4

#: A programs message's content: [(variant id, [(kind, inject, words,
#: routines, text), ...]), ...].
Variants = List[Tuple[int, List[Tuple[int, int, List[int], List[List[int]],
                                      str]]]]


def dumps_job(job: Mapping[str, Any]) -> bytes:
    """The job message of ``job``, a dict with the keys :func:`loads_job`
    gives (``source_kind``, ``source``, ``instruction_set``,
    ``stack_options``, ``registers``, ``requests``, ``target``, ...,
    ``metadata``: {str: str or bytes}, named values for the job's reader,
    written only when there are some); keys left out take their
    defaults."""
    return _native.dumps_job(dict(job))


def loads_job(data: bytes) -> Dict[str, Any]:
    """The job of a job message, as a dict (every key present; metadata
    values as str, bytes that are not UTF-8 as lone surrogates:
    ``value.encode("utf-8", "surrogateescape")`` gives them back)."""
    return _native.loads_job(data)


def dumps_programs(variants: Sequence[Tuple[int, Sequence[Tuple[
        int, int, Sequence[int], Sequence[Sequence[int]], str]]]]) -> bytes:
    """The programs message of ``variants``: (id, [(kind, inject, words,
    routines, text), ...]) with kind one of the ``PROGRAM_*`` constants."""
    return _native.dumps_programs(variants)


def loads_programs(data: bytes) -> Variants:
    """The variants of a programs message (as :func:`dumps_programs` takes
    them)."""
    return _native.loads_programs(data)


def dumps_results(results: Sequence[Mapping[str, Any]]) -> bytes:
    """The results message of ``results``, dicts as :func:`loads_results`
    gives them."""
    return _native.dumps_results(list(results))


def loads_results(data: bytes) -> List[Dict[str, Any]]:
    """The results of a results message, one dict each."""
    return _native.loads_results(data)


def from_reference(data: bytes, layout: str) -> Tuple[Any, ...]:
    """A buffer the reference system serialised, in ``layout``, as
    (job bytes, programs bytes) of this format."""
    return _native.from_reference(data, layout)


def message_kind(data: bytes) -> str:
    """The kind of message ``data`` holds ("job", "programs" or
    "results"), from its header."""
    return _native.message_kind(data)


# -- Pickling --------------------------------------------------------------
# Each object's __reduce__ gives one of the loaders below and the message(s)
# it needs.

def _tables(iset):
    """None for the default set (the reader's own), else its tables."""
    from .stack import default_instruction_set
    if iset is default_instruction_set():
        return None
    n = iset._native
    return (n.stacks, n.arg_types, n.instructions, n.specials)


def _set_from(tables):
    from .stack import InstructionSet, default_instruction_set
    if tables is None:
        return default_instruction_set()
    stacks, arg_types, instructions, specials = tables
    return InstructionSet(stacks, arg_types, instructions, specials)


def _job_bytes(iset=None, **fields):
    job = dict(fields)
    if iset is not None:
        job["instruction_set"] = _tables(iset)
    return dumps_job(job)


def _load_instruction_set(data):
    return _set_from(loads_job(data)["instruction_set"])


def _load_registers(data):
    from .stack import Registers
    job = loads_job(data)
    return Registers(_set_from(job["instruction_set"]), job["registers"])


def _load_compiler(data):
    from .stack import Compiler
    job = loads_job(data)
    return Compiler(_set_from(job["instruction_set"]),
                    **job["stack_options"])


def _load_stack_program(job_data, programs_data):
    from .stack import parse
    job = loads_job(job_data)
    (_, programs), = loads_programs(programs_data)
    return parse(programs[0][4], _set_from(job["instruction_set"]),
                 job["source_name"])


def _load_module(data):
    from .inject import Module
    job = loads_job(data)
    return Module(job["source"], name=job["source_name"],
                  extra_types=job["extra_types"],
                  allow_unknown_types=job["allow_unknown_types"],
                  trusted=job["trusted"])


def _load_ast_program(data):
    from .ast import parse_words
    (_, programs), = loads_programs(data)
    return parse_words(programs[0][4])


def _compile_result(r, name=None):
    """The CompileResult of a result dict (:func:`loads_results`'s);
    ``name`` replaces the one it carries."""
    from .backend import CompileResult
    backend = r["backend"] + (" " + r["backend_version"]
                              if r["backend_version"] else "")
    return CompileResult(r["name"] if name is None else name, r["ok"],
                         r["cubin"] if r["ok"] else None,
                         r["errors"][0][0] if r["errors"] else "", r["log"],
                         r["origin"], backend, r["seconds"])


def _result_dict(res, id=0, name=None):
    """The result dict of a CompileResult (its backend "<name> <version>"
    split in two), with ``id``; ``name`` replaces its own."""
    backend, _, version = (res.backend or "").partition(" ")
    return dict(
        id=id, name=res.name if name is None else name, ok=bool(res.ok),
        cubin=res.cubin or b"",
        errors=[(res.error, "", 0, 0)] if res.error else [],
        backend=backend, backend_version=version, log=res.log or "",
        origin=res.source or "", seconds=float(res.seconds or 0.0))


def _load_compile_result(data):
    r, = loads_results(data)
    return _compile_result(r)


def _result_bytes(res):
    return dumps_results([_result_dict(res)])
