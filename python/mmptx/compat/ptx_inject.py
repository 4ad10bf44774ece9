"""``mm_ptx.ptx_inject`` names over :mod:`mmptx.inject`."""

from dataclasses import dataclass
from enum import IntEnum
from typing import Tuple

from .. import inject as _inject
from ..errors import InjectError


class PtxInjectError(RuntimeError):
    """Raised for every failed call; ``code`` is the mmptx error code."""

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


class MutType(IntEnum):
    OUT = 0
    MOD = 1
    IN = 2


_KINDS = {"out": MutType.OUT, "mod": MutType.MOD, "in": MutType.IN}


@dataclass(frozen=True)
class InjectArg:
    name: str
    mut_type: MutType
    data_type: str      # type token, "F32"
    register_type: str  # "f32"
    reg: str            # stable register, "_x0"


@dataclass(frozen=True)
class Inject:
    name: str
    num_args: int
    num_sites: int
    args: Tuple[InjectArg, ...]

    def __getitem__(self, name):
        for a in self.args:
            if a.name == name:
                return a
        raise KeyError(name)


class PTXInject:
    """The injects of annotated PTX; ``inj["site"]["var"]`` is an
    InjectArg, ``render_ptx({site: stub})`` the PTX with the stubs in."""

    def __init__(self, annotated_ptx):
        try:
            # The reference's create only scans for markers.
            self._m = _inject.Module(annotated_ptx, trusted=True)
        except InjectError as e:
            raise PtxInjectError(str(e), e.code) from None
        self.injects = [
            Inject(i.name, len(i.variables), i.num_sites,
                   tuple(InjectArg(v.name, _KINDS[v.kind], v.type,
                                   v.reg_type, v.register)
                         for v in i.variables))
            for i in self._m.injects]
        self._by_name = {i.name: i for i in self.injects}

    def __getitem__(self, name):
        return self._by_name[name]

    def print_injects(self):
        for inj in self.injects:
            print(f"Inject '{inj.name}': {inj.num_args} args, "
                  f"{inj.num_sites} sites")
            for a in inj.args:
                print(f"  {a.name}: {a.mut_type.name} {a.data_type} "
                      f"{a.register_type} %{a.reg}")

    def render_ptx(self, stubs):
        """``stubs``: {site name: stub}; a missing site raises KeyError."""
        for inj in self.injects:
            if inj.name not in stubs:
                raise KeyError(inj.name)
        try:
            return self._m.render(dict(stubs))
        except InjectError as e:
            raise PtxInjectError(str(e), e.code) from None

    def close(self):
        self._m = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
