"""AST PTX: expression programs (S-expressions or word arrays) -> PTX stubs.

    p = mmptx.ast.parse('''
        (in x F32) (in y F32) (out z F32)
        (= z (add.ftz.f32 (mul.ftz.f32 x y) 1.0))''', name="k.ast")
    p.compile()                      # "{\\n.reg .f32 %ast<2>;\\n..."
    p.interpret(x=5, y=3)            # {"z": 16.0} on the CPU

    # The same program as words, read in place from NumPy arrays:
    A = mmptx.ast
    words = numpy.array([A.input_(0), A.input_(1), A.ptx("mul.ftz.f32"),
                         A.constant(1.0), A.ptx("add.ftz.f32"), A.ret()],
                        dtype=numpy.uint64)
    A.compile_words([("x", "F32"), ("y", "F32")], [("z", "F32", words)])

Word layout: ``type | aux << 16 | payload << 32`` (aux: a PTX word's or a
routine call's operand count). Errors raise :class:`mmptx.errors.AstError`
with the located message (``k.ast:2:7: error: ...``) and the result code.
"""

import struct
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from ._enums import AstWordType as WordType
from ._enums import PtxInstr, SpecialReg
from ._mmptx import ast as _native
from .errors import AstError, AstErrorCode
from .errors import StackError
from .stack import _from_bits, _special_bits, _to_bits, default_instruction_set

__all__ = ["WordType", "PtxInstr", "SpecialReg", "Options", "default_options", "Program", "parse", "parse_words",
           "compile_words", "interpret_words", "make_word", "input_",
           "constant", "constant_bits", "ptx", "routine", "routine_arg",
           "ret", "special", "AstError", "AstErrorCode"]


def make_word(type_: int, aux: int, payload: int) -> int:
    """The word ``type_ | aux << 16 | payload << 32`` (each field masked to
    its width)."""
    return (int(type_) & 0xFFFF) | (aux & 0xFFFF) << 16 | \
        (payload & 0xFFFFFFFF) << 32


def input_(i: int) -> int:
    """Reads input variable ``i``."""
    return make_word(WordType.INPUT, 0, i)


def constant_bits(bits: int, stack: int = 0) -> int:
    """A literal of raw ``bits`` (``stack``: the stack it is written for)."""
    return make_word(WordType.CONSTANT, stack, bits)


def constant(x: float) -> int:
    """An f32 literal; it takes the type of the operand it fills."""
    return constant_bits(struct.unpack("<I", struct.pack("<f", x))[0])


def ptx(name: Union[str, int], num_args: Optional[int] = None) -> int:
    """The word of instruction ``name`` (e.g. ``"add.ftz.f32"``, or
    ``PtxInstr.ADD_FTZ_F32`` with no lookup) of the default tables, with its
    own arity unless ``num_args`` is given."""
    if isinstance(name, int):
        i = int(name) if 0 <= name < len(PtxInstr) else -1
    else:
        i = _native.instruction_index(name)
    if i < 0:
        raise AstError("unknown instruction '%s'" % name,
                       AstErrorCode.PTX_INSTRUCTION_IDX_OUT_OF_BOUNDS)
    if num_args is None:
        num_args = _native.instruction_arity(i)
    return make_word(WordType.PTX, num_args, i)


def routine(i: int, num_args: int) -> int:
    """Calls routine ``i`` with ``num_args`` operands."""
    return make_word(WordType.ROUTINE, num_args, i)


def routine_arg(i: int) -> int:
    """Reads argument ``i`` of the routine being run."""
    return make_word(WordType.ROUTINE_ARG, 0, i)


def ret() -> int:
    """Ends an expression or routine."""
    return make_word(WordType.RETURN, 0, 0)


def _specials(specials):
    """Special-register values by name for the interpreter (the default
    tables' registers)."""
    try:
        return _special_bits(default_instruction_set(), specials)
    except StackError as e:
        raise AstError(e.message,
                       AstErrorCode.SPECIAL_REGISTER_IDX_OUT_OF_BOUNDS) \
            from None


def special(i: int, elem: int = 0) -> int:
    """Special register ``i`` (e.g. ``SpecialReg.TID_X``), vector element
    ``elem``."""
    return make_word(WordType.SPECIAL, elem, i)


# The compiler's defaults, written once, in C++ (AstPtxOptions).
_DEFAULT_OPTIONS = _native.default_options()


def default_options() -> Dict[str, Any]:
    """The AST PTX compiler's default options by keyword
    (``max_stack_depth``, ...), read from the C++ compiler
    (``AstPtxOptions``): what an :class:`Options` field left ``None``
    takes."""
    return dict(_DEFAULT_OPTIONS)


class Options:
    """Compile options; a field left ``None`` takes the compiler's default
    (:func:`default_options`: the reference's limits).
    ``reference_instructions`` makes PTX word payloads index the
    reference's AST catalogue instead of the default tables."""

    __slots__ = ("max_stack_depth", "max_routine_depth", "max_words",
                 "max_args", "max_executed_words", "share_subexpressions",
                 "target_sm", "reference_instructions")

    def __init__(self, max_stack_depth: Optional[int] = None,
                 max_routine_depth: Optional[int] = None,
                 max_words: Optional[int] = None,
                 max_args: Optional[int] = None,
                 max_executed_words: Optional[int] = None,
                 share_subexpressions: Optional[bool] = None,
                 target_sm: Optional[int] = None,
                 reference_instructions: bool = False) -> None:
        d = _DEFAULT_OPTIONS

        def pick(value: Any, key: str) -> Any:
            return d[key] if value is None else value

        self.max_stack_depth: int = pick(max_stack_depth, "max_stack_depth")
        self.max_routine_depth: int = pick(max_routine_depth,
                                           "max_routine_depth")
        self.max_words: int = pick(max_words, "max_words")
        self.max_args: int = pick(max_args, "max_args")
        self.max_executed_words: int = pick(max_executed_words,
                                            "max_executed_words")
        self.share_subexpressions: bool = pick(share_subexpressions,
                                               "share_subexpressions")
        self.target_sm: int = pick(target_sm, "target_sm")
        self.reference_instructions = reference_instructions

    def _tuple(self):
        return (self.max_stack_depth, self.max_routine_depth, self.max_words,
                self.max_args, self.max_executed_words,
                self.share_subexpressions, self.target_sm,
                self.reference_instructions)

    def __eq__(self, other):
        return isinstance(other, Options) and self._tuple() == other._tuple()

    __hash__ = None

    def __repr__(self):
        return "Options(%s)" % ", ".join(
            "%s=%r" % (k, getattr(self, k)) for k in self.__slots__)


def _opts(options, kw):
    if options is None:
        options = Options(**kw)
    elif kw:
        raise TypeError("give either options or keyword options")
    return options._tuple()


_STACKS = dict(_native.stacks())


def _value_bits(prefix, v, stack=None):
    """The number model of :func:`mmptx.stack._to_bits`, shared by every
    interpreter: floats for float variables are values, rounded once."""
    return _to_bits(prefix, v, stack)


class Program:
    """A program parsed from text: :func:`parse` or :func:`parse_words`."""

    def __init__(self, text: str, name: str = "<ast>",
                 words: bool = False) -> None:
        self._p = _native.Program(text, name, words)
        self.vars = [tuple(v) for v in self._p.vars()]  # name stack prefix kind
        self.outputs = [self.vars[i][0] for i in self._p.outputs()]

    @property
    def inputs(self) -> List[str]:
        """The variables' names, in the order Input words read them."""
        return [v[0] for v in self.vars]

    def compile(self, options: Optional[Options] = None, **kw: Any) -> str:
        """The PTX stub; keyword options as :class:`Options`."""
        return self._p.compile(_opts(options, kw))

    def interpret(self, values: Optional[Mapping[str, Any]] = None,
                  options: Optional[Options] = None, raw: bool = False,
                  specials: Optional[Mapping[Union[str, int], Any]] = None,
                  **kw_values: Any) -> Dict[str, Any]:
        """Runs the program on the CPU: values by variable name (a dict or
        keywords; unnamed ones are 0). Returns {output: value}; bit
        patterns throughout with ``raw``. ``specials`` gives special
        registers' values by name (``{"tid.x": 3}``); the others read 0."""
        values = dict(values or {}, **kw_values)
        unknown = set(values) - set(self.inputs)
        if unknown:
            raise ValueError("interpret: unknown variable '%s'"
                             % sorted(unknown)[0])
        bits = [int(values.get(n, 0)) if raw
                else _value_bits(p, values.get(n, 0), st)
                for n, st, p, _ in self.vars]
        out = self._p.interpret(bits, _opts(options, {}), _specials(specials))
        prefixes = {v[0]: v[2] for v in self.vars}
        return {n: b if raw else _from_bits(prefixes[n], b)
                for n, b in zip(self.outputs, out)}

    def text(self) -> str:
        """The program printed back as S-expressions."""
        return self._p.text()

    def words_text(self) -> str:
        """The word listing (what ``mmptx-ast --emit=words`` prints)."""
        return self._p.words_text()

    def __reduce__(self):
        # Through the wire format: a programs message with one AST PTX
        # program whose text is the word listing (variables, routines and
        # words).
        from . import wire
        return (wire._load_ast_program, (wire.dumps_programs([(0, [(
            wire.PROGRAM_AST, 0, [], [], self.words_text())])]),))


def parse(text: str, name: str = "<ast>") -> Program:
    """Parses the S-expression form; errors are located in ``name``."""
    return Program(text, name)


def parse_words(text: str, name: str = "<ast>") -> Program:
    """Parses the word listing (``--emit=words``'s form)."""
    return Program(text, name, words=True)


def compile_words(inputs: Sequence[Sequence[Any]],
                  outputs: Sequence[Sequence[Any]],
                  routines: Optional[Sequence[Any]] = None,
                  options: Optional[Options] = None, **kw: Any) -> str:
    """Compiles a program of word arrays: ``inputs`` (name, stack) in the
    order Input words index them, ``outputs`` (name, stack, words),
    ``routines`` a list of words. Words are 1-D uint64 NumPy arrays (read in
    place) or sequences of ints."""
    return _native.compile_words([tuple(i) for i in inputs],
                                 [tuple(o) for o in outputs], routines,
                                 _opts(options, kw))


def interpret_words(inputs: Sequence[Sequence[Any]],
                    outputs: Sequence[Sequence[Any]], values: Sequence[Any],
                    routines: Optional[Sequence[Any]] = None,
                    options: Optional[Options] = None, raw: bool = False,
                    specials: Optional[Mapping[Union[str, int], Any]] = None
                    ) -> List[Any]:
    """Runs a program of word arrays on the CPU with one value per input
    (and ``specials`` as :meth:`Program.interpret`); returns one value per
    output."""
    if raw:
        bits = [int(v) for v in values]
    else:
        bits = [_value_bits(_STACKS[s], v, s)
                for (_, s), v in zip(inputs, values)]
    out = _native.interpret_words([tuple(i) for i in inputs],
                                  [tuple(o) for o in outputs], routines,
                                  bits, _opts(options, {}),
                                  _specials(specials))
    if raw:
        return out
    return [_from_bits(_STACKS[o[1]], b) for o, b in zip(outputs, out)]
