"""``mm_ptx.stack_ptx`` names over :mod:`mmptx.stack`: instruction sets
declared as Python enums at run time, a register registry whose attributes
are input words and requests, and ``StackPtx.compile``."""

from enum import IntEnum

from .. import stack as _stack
from ..errors import StackError


class StackPtxError(RuntimeError):
    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


class _Word:
    """A word that is realised once the instruction set is known."""

    def __init__(self, fn):
        self._fn = fn

    def realize(self, stack_ptx):
        return self._fn(stack_ptx)


def _sequential(cls):
    return len(cls.__members__)


def _check_arg_types(ptx, types, arg_type_enum):
    for a in types:
        if not isinstance(a, arg_type_enum):
            raise ValueError(f"{ptx}: {a!r} is not a "
                             f"{arg_type_enum.__name__}")


class StackTypeEnum(IntEnum):
    """Members ``name = (auto(), "f32")``: a stack and its literal prefix."""

    def __new__(cls, _auto, literal_prefix):
        obj = int.__new__(cls, _sequential(cls))
        obj._value_ = int(obj)
        obj.literal_prefix = literal_prefix
        return obj

    def constant(self, value):
        p = self.literal_prefix
        if p == "f32":
            bits = _stack.f32_bits(float(value))
        elif p in ("u32", "s32"):
            bits = int(value) & 0xFFFFFFFF
        else:
            raise ValueError(f"constants are not supported on {p} stacks")
        return _stack.constant(self.value, bits)

    def store(self, slot):
        return _stack.store(self.value, slot)

    def _meta(self, op):
        return _stack.meta(self.value, op)

    dup = property(lambda self: self._meta(_stack.MetaOp.DUP))
    yank_dup = property(lambda self: self._meta(_stack.MetaOp.YANK_DUP))
    swap = property(lambda self: self._meta(_stack.MetaOp.SWAP))
    swap_with = property(lambda self: self._meta(_stack.MetaOp.SWAP_WITH))
    replace = property(lambda self: self._meta(_stack.MetaOp.REPLACE))
    drop = property(lambda self: self._meta(_stack.MetaOp.DROP))
    rotate = property(lambda self: self._meta(_stack.MetaOp.ROTATE))
    reverse = property(lambda self: self._meta(_stack.MetaOp.REVERSE))

    @classmethod
    def meta_constant(cls, value):
        return _stack.meta_constant(value)

    @classmethod
    def load(cls, slot):
        return _stack.load(slot)


class ArgTypeEnum(IntEnum):
    """Members ``name = (auto(), Stack.f32[, num_vec_elems])``."""

    def __new__(cls, _auto, stack, num_vec_elems=0):
        obj = int.__new__(cls, _sequential(cls))
        obj._value_ = int(obj)
        obj.stack = stack
        obj.num_vec_elems = num_vec_elems
        return obj


def create_instruction_enum(arg_type_enum):
    """A base for instruction enums over ``arg_type_enum``: members
    ``name = (auto(), "add.ftz.f32", [args], [rets][, aligned])``."""

    class PtxInstructionEnum(IntEnum):
        def __new__(cls, _auto, ptx, args, rets, aligned=False):
            if len(args) > 4 or len(rets) > 2:
                raise ValueError(f"{ptx}: at most 4 args and 2 rets")
            _check_arg_types(ptx, list(args) + list(rets), arg_type_enum)
            obj = int.__new__(cls, _sequential(cls))
            obj._value_ = int(obj)
            obj.ptx = ptx
            obj.args = list(args)
            obj.rets = list(rets)
            obj.aligned = aligned
            return obj

    return PtxInstructionEnum


def create_special_register_enum(arg_type_enum):
    """A base for special register enums: ``name = (auto(), "tid.x",
    ArgType.u32)``."""

    class SpecialRegisterEnum(IntEnum):
        def __new__(cls, _auto, ptx, arg):
            _check_arg_types(ptx, [arg], arg_type_enum)
            obj = int.__new__(cls, _sequential(cls))
            obj._value_ = int(obj)
            obj.ptx = ptx
            obj.arg = arg
            return obj

    return SpecialRegisterEnum


class RoutineEnum(IntEnum):
    """Members ``name = (auto(), [instructions])``; ``.instructions`` may be
    assigned later (routines may call each other)."""

    def __new__(cls, _auto, instructions=None):
        obj = int.__new__(cls, _sequential(cls))
        obj._value_ = int(obj)
        obj.instructions = list(instructions or [])
        return obj


class _RegisterRecord:
    def __init__(self, idx, register_name, stack_type, name):
        self.idx = idx
        self.register_name = register_name
        self.stack_type = stack_type
        self.name = name

    def __repr__(self):
        return (f"RegisterRecord(idx={self.idx}, register_name="
                f"{self.register_name!r}, stack_type={self.stack_type}, "
                f"name={self.name!r})")


class _RegisterSymbol(int):
    """``registry.x``: the INPUT word of register x, and a request for it."""

    def __new__(cls, record):
        obj = int.__new__(cls, _stack.input_(record.idx))
        obj.record = record
        return obj


class RegisterRegistry:
    """Registers by name; ``registry.x`` is register x as a word or a
    request."""

    def __init__(self):
        self._records = []
        self._by_name = {}
        self._frozen = False

    def add(self, register_name, stack_type, name=None):
        if self._frozen:
            raise RuntimeError("the registry is frozen")
        name = name or register_name
        if name in self._by_name:
            raise ValueError(f"register '{name}' is already registered")
        rec = _RegisterRecord(len(self._records), register_name, stack_type,
                              name)
        self._records.append(rec)
        self._by_name[name] = rec
        return rec

    def freeze(self):
        self._frozen = True
        return self

    def get(self, name):
        return self._by_name[name]

    def by_idx(self, i):
        return self._records[i]

    def get_register_names(self):
        return [r.register_name for r in self._records]

    def get_stack_types(self):
        return [r.stack_type for r in self._records]

    def __len__(self):
        return len(self._records)

    def __iter__(self):
        return iter(self._records)

    def __getattr__(self, name):
        by_name = self.__dict__.get("_by_name", {})
        if name in by_name:
            return _RegisterSymbol(by_name[name])
        raise AttributeError(name)


class StackPtx:
    """Compiles programs written with the enums above."""

    def __init__(self, stack_enum, arg_enum, ptx_instruction_enum,
                 special_register_enum):
        self.stack_enum = stack_enum
        self.arg_enum = arg_enum
        self.ptx_instruction_enum = ptx_instruction_enum
        self.special_register_enum = special_register_enum
        try:
            self.instruction_set = _stack.InstructionSet(
                [(s.name, s.literal_prefix) for s in stack_enum],
                [(a.name, a.stack.value, a.num_vec_elems) for a in arg_enum],
                [(i.name, i.ptx, [a.value for a in i.args],
                  [r.value for r in i.rets]) for i in ptx_instruction_enum],
                [(s.name, s.ptx, s.arg.value)
                 for s in special_register_enum])
        except StackError as e:
            raise StackPtxError(str(e), e.code) from None
        self._compilers = {}

    def _word(self, w):
        if isinstance(w, self.ptx_instruction_enum):
            return _stack.ptx(w.value)
        if isinstance(w, self.special_register_enum):
            return _stack.special(w.value)
        if isinstance(w, RoutineEnum):
            return _stack.routine(w.value)
        if isinstance(w, _Word):
            return w.realize(self)
        if isinstance(w, int):
            return int(w)
        raise TypeError(f"{w!r} is not an instruction word")

    def compile(self, registry, instructions, requests, execution_limit,
                routine_enum=None, max_ast_size=100,
                max_ast_to_visit_stack_depth=10, stack_size=128,
                max_frame_depth=4, store_size=16):
        """The stub (str) that runs ``instructions`` and moves the values of
        ``requests`` (registry symbols, records or indices) into their
        registers."""
        reqs = []
        for r in requests:
            if isinstance(r, _RegisterSymbol):
                r = r.record.idx
            elif isinstance(r, _RegisterRecord):
                r = r.idx
            r = int(r)
            if r < 0:
                raise ValueError(f"request {r} is negative")
            reqs.append(r)
        requested = set(reqs)
        regs = [(rec.register_name, rec.stack_type.value,
                 "mod" if rec.idx in requested else "in")
                for rec in registry]
        words = [self._word(w) for w in instructions]
        routines = None
        if routine_enum is not None:
            routines = [[self._word(w) for w in r.instructions]
                        for r in routine_enum]
        key = (execution_limit, stack_size, max_frame_depth, store_size)
        cc = self._compilers.get(key)
        if cc is None:
            cc = _stack.Compiler(self.instruction_set,
                                 execution_limit=execution_limit,
                                 stack_size=stack_size,
                                 max_frame_depth=max_frame_depth,
                                 store_size=store_size)
            self._compilers[key] = cc
        try:
            return cc.compile(words, regs, reqs, routines)
        except StackError as e:
            raise StackPtxError(str(e), e.code) from None
