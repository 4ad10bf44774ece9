"""PTX Inject: the inject sites of compiled PTX, and rendering stubs in.

    m = mmptx.inject.Module(ptx, name="kernel.ptx")
    acc = m["mma"]["acc"]          # a Variable: .register, .kind, .type
    out = m.render({"mma": stub})  # or m.render([stub]) by inject index

A Module is read-only: any number of threads may render from one at once;
render releases the GIL.
"""

import json as _json
from dataclasses import dataclass, field
from typing import (Any, Dict, List, Mapping, Optional, Sequence, Tuple,
                    Union, overload)

from ._mmptx import inject as _native
from .errors import InjectError, InjectErrorCode

__all__ = ["Module", "Inject", "Variable", "InjectError", "InjectErrorCode",
           "builtin_types", "prune", "PruneStats"]


@dataclass(frozen=True)
class PruneStats:
    """What :func:`prune` removed."""

    variables: int  # module-scope .global/.const/.shared variables
    functions: int  # .func definitions (with their prototypes)
    bytes: int      # bytes of PTX


def prune(ptx: Union[str, bytes], *, name: str = "<ptx>",
          entries_only: bool = False, keep: Sequence[str] = (),
          return_stats: bool = False
          ) -> Union[str, Tuple[str, PruneStats]]:
    """The template ``ptx`` without the module-scope variables and functions
    that no entry, inject site or exported symbol refers to, as
    ``mmptx-opt --prune-unused-globals`` gives it (NVRTC's
    ``-default-device`` PTX carries thousands; assembling them costs most of
    a variant's compile). Run it once per template, before
    :class:`Module`.

    ``entries_only=True`` also removes unreferenced ``.visible``/``.extern``
    symbols; ``keep`` names symbols to keep whatever their linkage (a
    ``__device__`` variable the host reads with ``cuModuleGetGlobal``: NVRTC
    does not make it ``.visible``). With ``return_stats=True`` the result is
    ``(ptx, PruneStats)``. Errors raise :class:`InjectError`, located."""
    text, variables, functions, nbytes = _native.prune(
        ptx, name, entries_only, list(keep))
    if return_stats:
        return text, PruneStats(variables, functions, nbytes)
    return text


def builtin_types() -> List[Dict[str, Any]]:
    """The built-in type tokens as dicts (token, reg_type, mov_suffix,
    constraint, bits), from td/InjectTypes.td."""
    keys = ("token", "reg_type", "mov_suffix", "constraint", "bits")
    return [dict(zip(keys, t)) for t in _native.builtin_types]


@dataclass(frozen=True)
class Variable:
    """A variable of an inject as the stub sees it."""

    name: str
    index: int
    kind: str      # "in", "out" or "mod"
    type: str      # type token, "F32"
    reg_type: str  # PTX register type, "f32"
    register: str  # stable register without '%', "_x0"

    @property
    def operand(self) -> str:
        """The register as a stub writes it: ``%_x0``."""
        return "%" + self.register

    def to_dict(self) -> Dict[str, Any]:
        """The variable as a JSON-like dict."""
        return {"name": self.name, "index": self.index, "kind": self.kind,
                "type": self.type, "reg_type": self.reg_type,
                "register": self.register}


@dataclass(frozen=True)
class Inject:
    """All sites with one name; ``inject["var"]`` or ``inject[i]`` gives a
    Variable."""

    name: str
    index: int
    num_sites: int
    variables: Tuple[Variable, ...]
    _native: Any = field(default=None, repr=False, compare=False)

    def stub(self, program: Any, *, kind: Optional[str] = None,
             name: Optional[str] = None, **options: Any) -> str:
        """The stub of this inject built from ``program``, typed against its
        variables (user inject types included), as ``mmptx-opt --stub-gen``
        builds it.

        ``program`` is a :class:`mmptx.stack.Program`, a
        :class:`mmptx.ast.Program`, or program text: Stack PTX unless
        ``kind="ast"``. The program may name the variables without
        declaring them. Options (the compilers' defaults when not given):
        ``target_sm`` (default: the module's ``.target``), Stack PTX's
        ``strict``, ``stack_size``, ``max_nodes``, ``max_frame_depth``,
        ``store_size``, ``execution_limit``, ``include_dirs``; AST PTX's
        ``max_stack_depth``, ``max_routine_depth``, ``max_words``,
        ``max_args``, ``max_executed_words``, ``share_subexpressions``.
        Errors raise :class:`mmptx.StackError` or :class:`mmptx.AstError`
        with a message located in the program."""
        from . import ast as _ast
        from . import stack as _stack
        if isinstance(program, _ast.Program):
            kind, text = "ast", program.text()
        elif isinstance(program, _stack.Program):
            kind, text = "stack", program.format()
        elif isinstance(program, (str, bytes)):
            text = program
            kind = kind or "stack"
        else:
            raise TypeError("program must be a mmptx.stack.Program, a "
                            "mmptx.ast.Program, str or bytes")
        if kind not in ("stack", "ast"):
            raise ValueError(f"kind must be 'stack' or 'ast', not {kind!r}")
        if self._native is None:
            raise ValueError("this Inject belongs to no Module")
        return self._native.stub(self.name, kind == "ast", text,
                                 name or f"<{kind}>", options)

    def __getitem__(self, key):
        if isinstance(key, int):
            return self.variables[key]
        for v in self.variables:
            if v.name == key:
                return v
        raise KeyError(f"inject '{self.name}' has no variable '{key}'")

    def __contains__(self, key):
        return any(v.name == key for v in self.variables)

    def __iter__(self):
        return iter(self.variables)

    def __len__(self):
        return len(self.variables)

    def keys(self) -> List[str]:
        """The variables' names, in index order."""
        return [v.name for v in self.variables]

    def to_dict(self) -> Dict[str, Any]:
        """The inject and its variables as a JSON-like dict."""
        return {"name": self.name, "index": self.index,
                "num_sites": self.num_sites,
                "variables": [v.to_dict() for v in self.variables]}


class Module:
    """The inject sites of one PTX text.

    ``extra_types``: (token, reg_type, mov_suffix) triples accepted besides
    the built-in types. The PTX is parsed and every site's scaffold checked,
    as by ``mmptx-opt`` and ``mmptx_inject_create``; ``trusted=True`` only
    scans for markers (for PTX this project produced or already checked, or
    marker-only text as the reference system accepts). Errors raise :class:`mmptx.InjectError` with the
    located message and its code.
    """

    def __init__(self, ptx: Union[str, bytes], name: str = "<ptx>",
                 extra_types: Sequence[Tuple[str, str, str]] = (),
                 allow_unknown_types: bool = False,
                 trusted: bool = False) -> None:
        self._m = _native.Module.create(ptx, name, list(extra_types),
                                        allow_unknown_types, trusted)
        self._options = (list(extra_types), bool(allow_unknown_types),
                         bool(trusted))
        # The native handle keeps only what render needs, not the text.
        self._ptx = (ptx if isinstance(ptx, str)
                     else bytes(ptx).decode("utf-8", "surrogateescape"))
        self.name = name
        injects = []
        for i, (iname, sites, variables) in enumerate(self._m.describe()):
            vs = tuple(Variable(n, k, kind, tok, rt, reg)
                       for k, (n, kind, rt, tok, reg) in enumerate(variables))
            injects.append(Inject(iname, i, sites, vs, self._m))
        self.injects = injects
        self._by_name = {inj.name: inj for inj in injects}

    @property
    def ptx(self) -> str:
        """The PTX text the module was created from."""
        return self._ptx

    @property
    def memory_usage(self) -> int:
        """Bytes the native module holds (its tables and site text)."""
        return self._m.memory_usage

    def __getitem__(self, key):
        if isinstance(key, int):
            return self.injects[key]
        try:
            return self._by_name[key]
        except KeyError:
            raise KeyError(f"no inject named '{key}'") from None

    def __contains__(self, key):
        return key in self._by_name

    def __iter__(self):
        return iter(self.injects)

    def __len__(self):
        return len(self.injects)

    def keys(self) -> List[str]:
        """The injects' names, in index order."""
        return [inj.name for inj in self.injects]

    @overload
    def render(self, stubs: Union[Mapping[str, str], Sequence[str]]) -> str:
        ...

    @overload
    def render(self, stubs: Union[Mapping[str, str], Sequence[str]],
               out: bytearray) -> bytearray:
        ...

    def render(self, stubs: Union[Mapping[str, str], Sequence[str]],
               out: Optional[bytearray] = None) -> Union[str, bytearray]:
        """Renders the PTX with one stub per inject: a dict {name: stub}, or
        a sequence in inject-index order. Every inject needs a stub.

        Returns a str; with ``out``, a bytearray, the PTX is written into it
        instead (resized to the rendered size; ASCII, no terminator) and
        ``out`` is returned. A loop that renders many variants into one
        bytearray reuses its memory rather than a fresh string per
        variant."""
        if isinstance(stubs, (str, bytes)):
            raise TypeError("render takes a dict or a sequence of stubs")
        if out is not None:
            if not isinstance(out, bytearray):
                raise TypeError("out must be a bytearray")
            if isinstance(stubs, dict):
                self._m.render_by_name_into(stubs, out)
            else:
                self._m.render_into(list(stubs), out)
            return out
        if isinstance(stubs, dict):
            return self._m.render_by_name(stubs)
        return self._m.render(list(stubs))

    def to_list(self) -> List[Dict[str, Any]]:
        """The injects as JSON-like dicts, in index order."""
        return [inj.to_dict() for inj in self.injects]

    def to_json(self) -> Any:
        """The injects as the JSON object ``mmptx-opt --list-injects``
        style tools print."""
        return _json.loads(self._m.json())

    def __repr__(self):
        return f"<mmptx.inject.Module {self.name!r}: {self.keys()}>"

    def __reduce__(self):
        # Through the wire format: an inject job (the PTX and how it is
        # read); the reader parses it again.
        from . import wire
        extra, unknown, trusted = self._options
        return (wire._load_module, (wire.dumps_job(dict(
            source_kind=wire.SOURCE_INJECT, source_name=self.name,
            source=self._ptx, extra_types=[tuple(t) for t in extra],
            allow_unknown_types=unknown, trusted=trusted)),))
