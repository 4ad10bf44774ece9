"""Stack PTX: compile programs of 8-byte words into PTX stubs.

    cc = mmptx.stack.Compiler()                    # default instruction set
    stub = cc.compile_text('''
        .registers { x : F32 in; y : F32 in; z : F32 out; }
        .program { x y add.ftz.f32 }
        .requests { z }''')
    iset = cc.instruction_set
    regs = iset.registers([("x", "F32", "in"), ("y", "F32", "in"),
                           ("z", "F32", "out")])
    words = numpy.array([input_(0), input_(1), iset.ptx("add.ftz.f32")],
                        dtype=numpy.uint64)     # read in place, no copy
    stub = cc.compile(words, regs, [2])
    cc.interpret(words, regs, [2], [1.5, 2.0])   # [3.5] on the CPU

The default instruction set's enums are generated from td/StackInstrs.td at
build time (mmptx-tblgen -gen-python-enums): ``StackType.F32``,
``PtxInstr.ADD_FTZ_F32``, ``SpecialReg.TID_X``, ``ArgType``, and the word
formats' ``WordType`` and ``MetaOp``; ``ptx(PtxInstr.ADD_FTZ_F32)`` is a word
with no lookup by name.

Word layout: ``type | aux << 16 | payload << 32``. Stubs have no trailing
NUL. Compilers are safe to share between threads (calls are serialised);
compile_batch and interpret_rows release the GIL.
"""

import functools
import math
import struct
from typing import (Any, Dict, Iterable, List, Mapping, Optional, Sequence,
                    Tuple, Union)

from ._enums import ArgType, MetaOp, PtxInstr, SpecialReg, StackType, WordType
from ._mmptx import stack as _native
from .errors import StackError, StackErrorCode

# The compiler's defaults, written once, in C++ (StackPtxOptions).
_DEFAULT_OPTIONS = _native.default_options()

__all__ = ["convert_word_numbering", "WordType", "MetaOp", "StackType", "ArgType", "PtxInstr",
           "SpecialReg", "make_word", "ptx", "constant", "input_",
           "special", "meta", "meta_constant", "routine", "store", "load",
           "ret", "f32_bits", "bits_f32", "InstructionSet", "Registers",
           "Program", "Compiler", "parse", "default_instruction_set",
           "default_options",
           "StackError", "StackErrorCode"]


def make_word(type_: int, aux: int, payload: int) -> int:
    """The word ``type_ | aux << 16 | payload << 32`` (each field masked to
    its width)."""
    return (int(type_) & 0xFFFF) | ((aux & 0xFFFF) << 16) | \
        ((payload & 0xFFFFFFFF) << 32)


def ptx(instr: int) -> int:
    """PTX instruction ``instr`` (an index, e.g. ``PtxInstr.ADD_FTZ_F32``)."""
    return make_word(WordType.PTX, 0, instr)


def constant(stack: int, bits: int) -> int:
    """A 32-bit constant (raw bits) pushed on stack ``stack``."""
    return make_word(WordType.CONSTANT, stack, bits)


def input_(reg: int) -> int:
    """Pushes register ``reg`` (an index into the registers)."""
    return make_word(WordType.INPUT, 0, reg)


def special(sreg: int) -> int:
    """Special register ``sreg`` (an index, e.g. ``SpecialReg.TID_X``)."""
    return make_word(WordType.SPECIAL, 0, sreg)


def meta(stack: int, op: int) -> int:
    """META word ``op`` (a :class:`MetaOp`) acting on stack ``stack``."""
    return make_word(WordType.META, stack, int(op))


def meta_constant(value: int) -> int:
    """Pushes ``value`` on the meta stack (the count of the next META
    word)."""
    return make_word(WordType.META_CONSTANT, 0, value)


def routine(idx: int) -> int:
    """Calls routine ``idx``."""
    return make_word(WordType.ROUTINE, 0, idx)


def store(stack: int, slot: int) -> int:
    """Pops the top of stack ``stack`` into store slot ``slot``."""
    return make_word(WordType.STORE, stack, slot)


def load(slot: int) -> int:
    """Pushes the value of store slot ``slot`` back on its stack."""
    return make_word(WordType.LOAD, 0, slot)


def ret() -> int:
    """Returns from the routine (ends the program in the main one)."""
    return make_word(WordType.RETURN, 0, 0)


# The reference describes its default set twice: its examples description
# (which mmptx's default set follows: F32 U32 S32 PRED TF32 F16 F16X2 U8
# PHILOX = 0..8) and its tests description (F32 U32 PHILOX S32 PRED TF32 F16
# F16X2 U8 = 0..8). Only stack indices differ.
_TESTS_TO_EXAMPLES = (0, 1, 8, 2, 3, 4, 5, 6, 7)
_EXAMPLES_TO_TESTS = (0, 1, 3, 4, 5, 6, 7, 8, 2)


def convert_word_numbering(words: Iterable[int], from_: str = "tests",
                           to: str = "examples") -> List[int]:
    """Words with the stack index of CONSTANT, META and STORE words
    renumbered between the reference's two descriptions ("tests" or
    "examples", mmptx's default); other words, and stack indices past the
    reference's nine, are kept. Returns a list of ints."""
    for n in (from_, to):
        if n not in ("tests", "examples"):
            raise ValueError(f"unknown word numbering '{n}' (tests or "
                             "examples)")
    words = [int(w) for w in words]
    if from_ == to:
        return words
    table = _TESTS_TO_EXAMPLES if from_ == "tests" else _EXAMPLES_TO_TESTS
    stacked = (WordType.CONSTANT, WordType.META, WordType.STORE)
    out = []
    for w in words:
        aux = (w >> 16) & 0xFFFF
        if (w & 0xFFFF) in stacked and aux < 9:
            w = (w & ~(0xFFFF << 16)) | (table[aux] << 16)
        out.append(w)
    return out


def f32_bits(x: float) -> int:
    """The bits of ``x`` as an f32."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits_f32(b: int) -> float:
    """The f32 whose bits are ``b`` (its low 32 bits)."""
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def _round_to_half(x, man_bits, min_exp):
    """The float ``x`` rounded once, to nearest even, to a 16-bit format of
    ``man_bits`` stored significand bits and smallest normal exponent
    ``min_exp`` (f16: 10, -14; bf16: 7, -126): its bits."""
    inf = ((1 << (15 - man_bits)) - 1) << man_bits
    if math.isnan(x):
        return 0x7FFF
    sign = 0x8000 if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    if math.isinf(a):
        return sign | inf
    if a == 0:
        return sign
    lead = math.frexp(a)[1] - 1
    ulp = max(lead, min_exp) - man_bits
    q = round(math.ldexp(a, -ulp))  # exact scaling; round() ties to even
    if lead < min_exp:
        bits = q
    else:
        bits = ((lead - min_exp + 1) << man_bits) + q - (1 << man_bits)
    return sign | min(bits, inf)


_HALF_FORMATS = {"f16": (10, -14), "bf16": (7, -126)}


def _is_float(v):
    return isinstance(v, float) or (
        type(v).__module__ == "numpy" and hasattr(v, "dtype") and
        v.dtype.kind == "f")


def _is_int(v):
    return isinstance(v, int) or (
        type(v).__module__ == "numpy" and hasattr(v, "dtype") and
        v.dtype.kind in "iub")


#: Words: a 1-D uint64 array (NumPy's, read in place) or a sequence of ints.
WordsLike = Union[Sequence[int], Any]
#: A register: (name, stack name or index[, kind "in" | "out" | "mod"]).
RegisterDecl = Sequence[Any]
#: Requests: register indices or names.
RequestsLike = Sequence[Union[int, str]]

# The half-precision stacks, whose literal prefixes (b16, b32) do not say
# how a float is rounded.
_HALF_STACKS = {"F16": "f16", "BF16": "bf16", "F16X2": "f16x2",
                "BF16X2": "bf16x2", "TF32": "f32"}


def _to_bits(prefix, v, stack=None):
    """One number model for every interpreter (and the CLI): f32 and f64
    registers take numbers (ints and floats, NumPy's too) as values; f16 and
    bf16 take floats as values, rounded once to nearest even, and ints as
    bit patterns (the CLI's 0x3c00); packed x2 registers take bit patterns
    or a pair of lane values (lane 0 first); integer registers take ints,
    masked to their width (-1 is all ones), never floats. ``stack`` (the
    register's stack name) tells the half types apart."""
    if stack == "TF32" and _is_int(v):
        return int(v) & 0xFFFFFFFF
    prefix = _HALF_STACKS.get(stack, prefix)
    if prefix in ("f32", "f64"):
        if not (_is_float(v) or _is_int(v)):
            raise TypeError(f"a {prefix} register takes a number: got {v!r}")
        if prefix == "f32":
            try:
                return struct.unpack("<I", struct.pack("<f", float(v)))[0]
            except OverflowError:  # rounds past the largest float
                return 0xFF800000 if float(v) < 0 else 0x7F800000
        return struct.unpack("<Q", struct.pack("<d", float(v)))[0]
    base = prefix[:-2] if prefix.endswith("x2") else prefix
    if base in _HALF_FORMATS:
        if prefix.endswith("x2") and isinstance(v, (tuple, list)):
            if len(v) != 2:
                raise TypeError(f"a {prefix} register takes 2 lanes: got "
                                f"{len(v)}")
            return _to_bits(base, v[0]) | _to_bits(base, v[1]) << 16
        if _is_float(v):
            if prefix.endswith("x2"):
                raise TypeError(f"a {prefix} register takes bits or a pair "
                                f"of lane values: got {v!r}")
            return _round_to_half(float(v), *_HALF_FORMATS[base])
        if _is_int(v):
            return int(v) & (0xFFFFFFFF if prefix.endswith("x2") else 0xFFFF)
        raise TypeError(f"a {prefix} register takes a float or bits: got "
                        f"{v!r}")
    if not _is_int(v):
        raise TypeError(f"a {prefix} register takes an int: got {v!r}")
    width = _width(prefix)
    return int(v) & ((1 << width) - 1)


def _width(prefix):
    digits = "".join(c for c in prefix if c.isdigit())
    if prefix == "pred":
        return 1
    return int(digits) if digits and not prefix.endswith("x2") else 32


def _from_bits(prefix, b):
    if prefix == "f32":
        return bits_f32(b)
    if prefix == "f64":
        return struct.unpack("<d", struct.pack("<Q", b))[0]
    if prefix == "pred":
        return bool(b)
    if prefix.startswith("s"):
        width = int(prefix[1:])
        b &= (1 << width) - 1
        return b - (1 << width) if b >> (width - 1) & 1 else b
    return b


def _special_bits(iset, specials):
    """``specials`` ({name, ``%name`` or SpecialReg index: value, or a
    sequence of values for a vector register}) as the extension's (index,
    element bits) pairs."""
    if not specials:
        return []
    given = {}
    for name, value in specials.items():
        if isinstance(name, str) and name.startswith("%"):
            name = name[1:]
        i = iset.special_index(name)
        arg = iset.arg_types[iset.specials[i][2]]
        prefix = iset.literal_prefixes[arg[1]]
        elems = list(value) if isinstance(value, (list, tuple)) else [value]
        width = max(arg[2], 1)
        if len(elems) > width:
            raise StackError(f"special register '{iset.specials[i][0]}' has "
                             f"{width} element(s): got {len(elems)} values",
                             StackErrorCode.INVALID_ARGUMENT)
        given[i] = [_to_bits(prefix, v) for v in elems]
    # A vector register and its components (%tid and %tid.x, ...) agree
    # unless both are given.
    derived = {}
    for i, bits in given.items():
        name = iset.specials[i][0]
        for k, b in enumerate(bits[:4]):
            c = iset._special.get(f"{name}.{'xyzw'[k]}")
            if c is not None and c not in given:
                derived[c] = [b]
        base, dot, comp = name.rpartition(".")
        v = iset._special.get(base) if dot and comp in ("x", "y", "z", "w") \
            else None
        if v is not None and v not in given:
            elems = derived.setdefault(v, [0] * 4)
            elems["xyzw".index(comp)] = bits[0]
    return list(given.items()) + list(derived.items())


class InstructionSet:
    """The tables of an instruction set: the default one generated from
    td/StackInstrs.td (:func:`default_instruction_set`), or one built at run
    time with ``InstructionSet(stacks, arg_types, instructions, specials)``:

      stacks:       (name, literal_prefix[, inline_literals=True])
      arg_types:    (name, stack index, num_vec_elems)
      instructions: (name, ptx, [arg type indices], [ret indices][, min_sm])
      specials:     (name, ptx, arg type index[, min_sm])
    """

    def __init__(self, stacks: Optional[Sequence[Sequence[Any]]],
                 arg_types: Optional[Sequence[Sequence[Any]]],
                 instructions: Optional[Sequence[Sequence[Any]]],
                 specials: Optional[Sequence[Sequence[Any]]],
                 _native_set: Any = None) -> None:
        if _native_set is None:
            _native_set = _native.InstructionSet(
                [(s[0], s[1], s[2] if len(s) > 2 else True)
                 for s in stacks or ()],
                [tuple(a) for a in arg_types or ()],
                [(i[0], i[1], list(i[2]), list(i[3]),
                  i[4] if len(i) > 4 else 0) for i in instructions or ()],
                [(s[0], s[1], s[2], s[3] if len(s) > 3 else 0)
                 for s in specials or ()])
        self._native = _native_set
        self.stacks: List[str] = [s[0] for s in _native_set.stacks]
        self.literal_prefixes: List[str] = [s[1] for s in _native_set.stacks]
        self.arg_types = _native_set.arg_types
        self.instructions = _native_set.instructions
        self.specials = _native_set.specials
        self._instr = {i[0]: k for k, i in enumerate(self.instructions)}
        self._special = {s[0]: k for k, s in enumerate(self.specials)}
        self._stack = {s: k for k, s in enumerate(self.stacks)}

    def vocabulary(self, name: str) -> List[str]:
        """The names of the instructions in the vocabulary ``name``:
        ``"all"``, or ``"fast-compile"`` (ftz forms, no IEEE-rounded
        div/sqrt/rcp, no integer division: what assembles fastest), for
        generators that should draw from it."""
        return [self.instructions[k][0] for k in self._native.vocabulary(name)]

    @property
    def instr(self) -> "_Names":
        """Instruction words by name, dots as underscores:
        ``iset.instr.add_ftz_f32``."""
        return _Names({n: ptx(k) for n, k in self._instr.items()})

    @property
    def sreg(self) -> "_Names":
        """Special register words by name: ``iset.sreg.tid_x``."""
        return _Names({n: special(k) for n, k in self._special.items()})

    @property
    def stack(self) -> "_Names":
        """Stack indices by name: ``iset.stack.F32``."""
        return _Names(dict(self._stack))

    def stack_index(self, stack: Union[str, int]) -> int:
        """The index of stack ``stack`` (a name, or an index as is)."""
        if isinstance(stack, int):
            return stack
        try:
            return self._stack[stack]
        except KeyError:
            raise StackError(f"unknown stack '{stack}'",
                             StackErrorCode.INVALID_ARGUMENT) from None

    def instruction_index(self, name: Union[str, int]) -> int:
        """The index of instruction ``name`` (``"add.ftz.f32"``, or an index,
        checked)."""
        if isinstance(name, int):
            if not 0 <= name < len(self.instructions):
                raise StackError(f"instruction {int(name)} is out of range",
                                 StackErrorCode.INVALID_ARGUMENT)
            return int(name)
        try:
            return self._instr[name]
        except KeyError:
            raise StackError(f"unknown instruction '{name}'",
                             StackErrorCode.INVALID_ARGUMENT) from None

    def ptx(self, name: Union[str, int]) -> int:
        """The word of instruction ``name`` (``"add.ftz.f32"``, or an index
        such as ``PtxInstr.ADD_FTZ_F32``)."""
        return ptx(self.instruction_index(name))

    def special_index(self, name: Union[str, int]) -> int:
        """The index of special register ``name`` (``"tid.x"``, or an
        index, checked)."""
        if isinstance(name, int):
            if not 0 <= name < len(self.specials):
                raise StackError(f"special register {int(name)} is out of "
                                 "range", StackErrorCode.INVALID_ARGUMENT)
            return int(name)
        try:
            return self._special[name]
        except KeyError:
            raise StackError(f"unknown special register '{name}'",
                             StackErrorCode.INVALID_ARGUMENT) from None

    def special(self, name: Union[str, int]) -> int:
        """The word of special register ``name`` (``"tid.x"``, or an index
        such as ``SpecialReg.TID_X``)."""
        return special(self.special_index(name))

    def constant(self, stack: Union[str, int],
                 value: Union[int, float]) -> int:
        """A constant of ``stack``: floats for f32/f64 stacks (stored as an
        f32), ints as their 32 bits."""
        s = self.stack_index(stack)
        if isinstance(value, float):
            return constant(s, f32_bits(value))
        return constant(s, int(value) & 0xFFFFFFFF)

    def meta(self, stack: Union[str, int], op: int) -> int:
        """META word ``op`` on stack ``stack`` (a name or index)."""
        return meta(self.stack_index(stack), op)

    def store(self, stack: Union[str, int], slot: int) -> int:
        """STORE word: stack ``stack`` (a name or index) into ``slot``."""
        return store(self.stack_index(stack), slot)

    def registers(self, regs: Iterable[RegisterDecl]) -> "Registers":
        """A :class:`Registers` from (name, stack name or index, kind)."""
        return Registers(self, regs)

    def __reduce__(self):
        # Through the wire format: a job holding these tables (none for the
        # default set, which the reader has).
        from . import wire
        return (wire._load_instruction_set, (wire._job_bytes(self),))


class _Names:
    """Attribute access to a table's entries; names are made identifiers
    (``add.ftz.f32`` -> ``add_ftz_f32``)."""

    def __init__(self, entries: Mapping[str, int]) -> None:
        self.__dict__.update({n.replace(".", "_"): v
                              for n, v in entries.items()})

    def __getattr__(self, name: str) -> int:
        # Only for names that are not entries.
        raise AttributeError(f"no entry named '{name}'")

    def __repr__(self) -> str:
        return f"<{len(self.__dict__)} names: {', '.join(self.__dict__)}>"


@functools.lru_cache(maxsize=None)
def default_instruction_set() -> InstructionSet:
    """The instruction set of td/StackInstrs.td."""
    return InstructionSet(None, None, None, None,
                          _native_set=_native.InstructionSet.default())


class Registers:
    """The registers a stub reads and writes: (name, stack, kind) with kind
    "in", "out" or "mod". Build once and reuse: compiles take it as is."""

    def __init__(self, instruction_set: InstructionSet,
                 regs: Iterable[RegisterDecl]) -> None:
        self.instruction_set = instruction_set
        decls = [(r[0], instruction_set.stack_index(r[1]),
                  r[2] if len(r) > 2 else "in") for r in regs]
        self._native = _native.Registers(instruction_set._native, decls)
        self.names = [d[0] for d in decls]
        self._prefixes = [instruction_set.literal_prefixes[d[1]]
                          for d in decls]
        self._index = {n: i for i, n in enumerate(self.names)}
        self._kinds = [d[2] for d in decls]
        self._stacks = [instruction_set.stacks[d[1]] for d in decls]

    def index(self, name: str) -> int:
        """The index of register ``name``."""
        try:
            return self._index[name]
        except KeyError:
            raise StackError(f"unknown register '{name}'",
                             StackErrorCode.INVALID_REQUEST) from None

    def requests(self, reqs: RequestsLike) -> List[int]:
        """``reqs`` (indices or names) as indices; as the C API, an index
        past the registers or an in register (which the stub may not
        write) raises StackError."""
        out = [r if isinstance(r, int) else self.index(r) for r in reqs]
        for i, r in enumerate(out):
            if not 0 <= r < len(self.names):
                raise StackError(f"request {i} names register {r} of "
                                 f"{len(self.names)}",
                                 StackErrorCode.INVALID_REQUEST)
            if self._kinds[r] == "in":
                raise StackError(f"request {i} names '{self.names[r]}', an "
                                 "in register, which the stub may not write",
                                 StackErrorCode.INVALID_REQUEST)
        return out

    def to_list(self) -> List[Tuple[str, int, str]]:
        """The registers as (name, stack index, kind)."""
        return self._native.to_list()

    def __len__(self):
        return len(self.names)

    def __reduce__(self):
        from . import wire
        return (wire._load_registers,
                (wire._job_bytes(self.instruction_set,
                                 registers=self.to_list()),))


class Program:
    """A program parsed from the text form (see :func:`parse`)."""

    def __init__(self, native: Any, instruction_set: InstructionSet) -> None:
        self._native = native
        self.instruction_set = instruction_set

    main = property(lambda self: self._native.main,
                    doc="The main program's words (a list of ints).")
    routines = property(lambda self: self._native.routines,
                        doc="Each routine's words, in index order.")
    routine_names = property(lambda self: self._native.routine_names,
                             doc="The routines' names, in index order.")
    requests = property(lambda self: self._native.requests,
                        doc="The requested register indices, in order.")
    registers = property(lambda self: self._native.registers,
                         doc="The registers as (name, stack index, kind).")

    def format(self) -> str:
        """The canonical text form."""
        return self._native.format(self.instruction_set._native)

    def __str__(self):
        return self.format()

    def __reduce__(self):
        # Its words travel as a programs message whose text is the
        # canonical form (declarations, routines and requests included).
        from . import wire
        job = wire._job_bytes(self.instruction_set,
                              registers=self._native.registers,
                              requests=[list(self.requests)])
        programs = wire.dumps_programs([(0, [(
            wire.PROGRAM_STACK, 0, list(self.main),
            [list(r) for r in self.routines], self.format())])])
        return (wire._load_stack_program, (job, programs))


def parse(text: str, instruction_set: Optional[InstructionSet] = None,
          name: str = "<stack>") -> "Program":
    """Parses the text form; errors raise StackError with a located
    message (``name:line:col: error: ...``)."""
    iset = instruction_set or default_instruction_set()
    return Program(_native.parse(iset._native, text, name), iset)


def default_options() -> Dict[str, Any]:
    """The Stack PTX compiler's default options by keyword (``stack_size``,
    ``max_nodes``, ...), read from the C++ compiler (``StackPtxOptions``):
    what a :class:`Compiler` option left ``None`` takes."""
    return dict(_DEFAULT_OPTIONS)


class Compiler:
    """A Stack PTX compiler for one instruction set (default: the generated
    one), with its options (``None``: the compiler's default, see
    :func:`default_options`):

      target_sm         words that need a newer sm_XX are invalid (0 = any)
      strict            invalid words raise StackError instead of no-ops
      zero_unsatisfied  unsatisfied out requests get zero
      stack_size, max_nodes, max_frame_depth, store_size, execution_limit

    ``options`` holds the options in effect.
    """

    def __init__(self, instruction_set: Optional["InstructionSet"] = None, *,
                 target_sm: Optional[int] = None,
                 strict: Optional[bool] = None,
                 zero_unsatisfied: Optional[bool] = None,
                 stack_size: Optional[int] = None,
                 max_nodes: Optional[int] = None,
                 max_frame_depth: Optional[int] = None,
                 store_size: Optional[int] = None,
                 execution_limit: Optional[int] = None) -> None:
        self.instruction_set = instruction_set or default_instruction_set()
        self._c = _native.Compiler(
            self.instruction_set._native, target_sm=target_sm, strict=strict,
            zero_unsatisfied=zero_unsatisfied, stack_size=stack_size,
            max_nodes=max_nodes, max_frame_depth=max_frame_depth,
            store_size=store_size, execution_limit=execution_limit)
        self._compile = self._c.compile
        self.options: Dict[str, Any] = self._c.options

    def _regs(self, registers):
        if isinstance(registers, Registers):
            return registers
        return Registers(self.instruction_set, registers)

    def compile(self, words: WordsLike,
                registers: Union["Registers", Iterable[RegisterDecl]],
                requests: RequestsLike,
                routines: Optional[Sequence[WordsLike]] = None,
                zero_registers: Optional[Union["Registers",
                                               Iterable[RegisterDecl]]] = None
                ) -> str:
        """Compiles ``words`` (a 1-D uint64 array, read in place, or a
        sequence of ints). ``requests``: register indices or names, in
        order; ``routines``: word arrays that ROUTINE i calls."""
        # The common call (a Registers, no zero registers) goes straight to
        # the extension, which resolves request names itself.
        if zero_registers is None and type(registers) is Registers:
            return self._compile(words, registers._native, requests,
                                 routines, None)
        regs = self._regs(registers)
        zero = self._regs(zero_registers)._native if zero_registers else None
        return self._compile(words, regs._native, requests, routines, zero)

    def compile_text(self, text: str, name: str = "<stack>") -> str:
        """Parses and compiles the text form (registers and requests come
        from its sections)."""
        return self._c.compile_program(
            parse(text, self.instruction_set, name)._native)

    def compile_program(self, program: "Program") -> str:
        """Compiles a parsed :class:`Program` (its registers and
        requests)."""
        return self._c.compile_program(program._native)

    def compile_batch(self, programs: Any,
                      registers: Union["Registers", Iterable[RegisterDecl]],
                      requests: RequestsLike,
                      offsets: Optional[Sequence[int]] = None) -> List[str]:
        """Compiles many programs with the same registers and requests in
        one call, without the GIL: ``programs`` is a list of word arrays, or
        one uint64 array sliced by ``offsets`` (N + 1 ints). Returns the
        stubs in order."""
        regs = self._regs(registers)
        return self._c.compile_batch(programs, offsets, regs._native,
                                     regs.requests(requests))

    def measure_batch(self, programs: Any,
                      registers: Union["Registers", Iterable[RegisterDecl]],
                      requests: RequestsLike,
                      offsets: Optional[Sequence[int]] = None) -> int:
        """Compiles like :meth:`compile_batch` but builds no strings;
        returns the total stub size in bytes (the C++ cost of a batch, for
        overhead measurements)."""
        regs = self._regs(registers)
        return self._c.measure_batch(programs, offsets, regs._native,
                                     regs.requests(requests))

    def interpret(self, words: WordsLike,
                  registers: Union["Registers", Iterable[RegisterDecl]],
                  requests: RequestsLike, inputs: Sequence[Any],
                  routines: Optional[Sequence[WordsLike]] = None,
                  raw: bool = False,
                  specials: Optional[Mapping[Union[str, int], Any]] = None
                  ) -> List[Any]:
        """Runs the program on the CPU with one input per register (floats
        for float stacks; bit patterns with ``raw``). Returns one value per
        request, as the compiled stub would compute it. ``specials`` gives
        special registers' values by name (``{"tid.x": 3}``; a sequence for
        a vector register); the others read 0."""
        regs = self._regs(registers)
        reqs = regs.requests(requests)
        if raw:
            bits = [int(v) for v in inputs]
        else:
            if len(inputs) != len(regs):
                raise ValueError(f"interpret: {len(inputs)} inputs for "
                                 f"{len(regs)} registers")
            bits = [_to_bits(p, v, st) for p, v, st in
                    zip(regs._prefixes, inputs, regs._stacks)]
        out = self._c.interpret(words, regs._native, reqs, bits, routines,
                                _special_bits(self.instruction_set, specials))
        if raw:
            return out
        return [_from_bits(regs._prefixes[r], b) if r < len(regs) else b
                for r, b in zip(reqs, out)]

    def interpret_rows(self, words: WordsLike,
                       registers: Union["Registers", Iterable[RegisterDecl]],
                       requests: RequestsLike, inputs: Any,
                       routines: Optional[Sequence[WordsLike]] = None,
                       specials: Optional[Mapping[Union[str, int], Any]] = None
                       ) -> Any:
        """Runs the program once per row of ``inputs`` (a uint64 NumPy array
        rows x registers of bit patterns; see numpy's ``.view``), with the
        same ``specials`` (as :meth:`interpret`) for every row. Returns a
        rows x requests uint64 array."""
        regs = self._regs(registers)
        kind = getattr(getattr(inputs, "dtype", None), "kind", None)
        if kind not in ("u", "i"):
            raise TypeError("interpret_rows: inputs are a 2-D array of bit "
                            "patterns (uint64; float arrays: "
                            "a.view(np.uint32).astype(np.uint64) for f32, "
                            "a.view(np.uint64) for f64), not %s"
                            % (getattr(inputs, "dtype", type(inputs).__name__),))
        if inputs.ndim != 2 or inputs.shape[1] != len(regs):
            raise ValueError(f"interpret_rows: inputs of shape {inputs.shape} "
                             f"for {len(regs)} registers: one column per "
                             "register is needed")
        if kind == "i" or inputs.dtype.itemsize != 8:
            inputs = inputs.astype("int64").view("uint64") if kind == "i" \
                else inputs.astype("uint64")
        return self._c.interpret_rows(
            words, regs._native, regs.requests(requests), inputs, routines,
            _special_bits(self.instruction_set, specials))

    @property
    def stats(self) -> Dict[str, Any]:
        """What the last compile did (dict), including limits it hit."""
        return self._c.stats

    def __reduce__(self):
        from . import wire
        return (wire._load_compiler,
                (wire._job_bytes(self.instruction_set,
                                 stack_options=self.options),))
