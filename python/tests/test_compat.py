"""Ports of the mm-ptx Python package's documented tests, run through
mmptx.compat with only the imports changed."""

from enum import auto

import pytest

from mmptx.compat import (ArgTypeEnum, PTXInject, PtxInjectError,
                          RegisterRegistry, StackPtx, StackTypeEnum,
                          create_instruction_enum,
                          create_special_register_enum)
from mmptx.compat.ptx_inject import MutType
from mmptx.compat.stack_ptx_default_types import (PtxInstruction, Stack,
                                                  compiler)


class TestPtxInjectParsing:
    def test_parse_and_render(self, func_ptx):
        inj = PTXInject(func_ptx)
        func = inj["func"]
        assert func.num_args == 3 and func.num_sites == 1
        assert func["x"].mut_type == MutType.IN
        assert func["y"].mut_type == MutType.MOD
        assert func["z"].mut_type == MutType.OUT
        assert {a.data_type for a in func.args} == {"F32"}
        assert {a.register_type for a in func.args} == {"f32"}
        assert [a.reg for a in func.args] == ["_x0", "_x1", "_x2"]
        stub = "\tadd.ftz.f32 %_x2, %_x0, %_x1;"
        rendered = inj.render_ptx({"func": stub})
        assert "// pre" in rendered and "// post" in rendered
        assert stub in rendered
        assert "PTX_INJECT_START" not in rendered
        assert "PTX_INJECT_END" not in rendered


class TestPtxInjectMultiSite:
    def test_render_two_sites(self, two_sites_ptx):
        with PTXInject(two_sites_ptx) as inj:
            assert [i.name for i in inj.injects] == ["func_a", "func_b"]
            out = inj.render_ptx({"func_a": "/*stub-a*/",
                                  "func_b": "/*stub-b*/"})
        assert out == "// pre\n/*stub-a*/\n// mid\n/*stub-b*/\n// post\n"


def test_ptx_inject_errors(func_ptx):
    with pytest.raises(KeyError):
        PTXInject(func_ptx).render_ptx({})
    with pytest.raises(PtxInjectError):
        PTXInject("// PTX_INJECT_START f\n// _x0 q f32 F32 x\n"
                  "// PTX_INJECT_END\n")
    with pytest.raises(RuntimeError):
        PTXInject("// PTX_INJECT_START f\n")


def _registry_for(inj):
    func = inj["func"]
    registry = RegisterRegistry()
    registry.add(func["x"].reg, Stack.f32, name="x")
    registry.add(func["y"].reg, Stack.f32, name="y")
    registry.add(func["z"].reg, Stack.f32, name="z")
    registry.freeze()
    return registry


class TestStackPtxInjectParsing:
    def test_parse_and_render(self, func_ptx):
        inj = PTXInject(func_ptx)
        registry = _registry_for(inj)
        instructions = [registry.x, registry.y, PtxInstruction.add_ftz_f32,
                        Stack.f32.dup, registry.x,
                        PtxInstruction.add_ftz_f32]
        stub = compiler.compile(registry=registry,
                                instructions=instructions,
                                requests=[registry.z, registry.y],
                                execution_limit=100)
        rendered = inj.render_ptx({"func": stub})
        assert "add.ftz.f32" in rendered
        assert "mov.f32 %_x2" in rendered
        assert "mov.f32 %_x1" in rendered
        assert not stub.endswith("\0")


class TestStackPtxInjectMultiSite:
    def test_render_two_sites(self, two_funcs_ptx):
        inj = PTXInject(two_funcs_ptx)
        stubs = {}
        for name, op in (("func_a", PtxInstruction.add_ftz_f32),
                         ("func_b", PtxInstruction.mul_ftz_f32)):
            registry = RegisterRegistry()
            registry.add(inj[name]["x"].reg, Stack.f32, name="x")
            registry.add(inj[name]["y"].reg, Stack.f32, name="y")
            stubs[name] = compiler.compile(
                registry, [registry.x, registry.x, op], [registry.y], 100)
        out = inj.render_ptx(stubs)
        assert out.index("add.ftz.f32") < out.index("// between")
        assert out.index("mul.ftz.f32") > out.index("// between")


def test_registry():
    registry = RegisterRegistry()
    rec = registry.add("_x0", Stack.f32, name="a")
    registry.add("_x1", Stack.u32)
    assert rec.idx == 0 and registry.get("_x1").idx == 1
    assert registry.by_idx(1).register_name == "_x1"
    assert registry.get_register_names() == ["_x0", "_x1"]
    assert registry.get_stack_types() == [Stack.f32, Stack.u32]
    assert len(registry) == 2 and [r.name for r in registry] == ["a", "_x1"]
    registry.freeze()
    with pytest.raises(RuntimeError):
        registry.add("_x2", Stack.f32)
    with pytest.raises(AttributeError):
        registry.nope
    with pytest.raises(ValueError):
        compiler.compile(registry, [registry.a], [-1], 100)


def test_user_defined_instruction_set():
    class MyStack(StackTypeEnum):
        f32 = (auto(), "f32")
        u32 = (auto(), "u32")

    class MyArg(ArgTypeEnum):
        f32 = (auto(), MyStack.f32)
        u32 = (auto(), MyStack.u32)

    class MyInstr(create_instruction_enum(MyArg)):
        fma = (auto(), "fma.rn.ftz.f32", [MyArg.f32] * 3, [MyArg.f32])
        neg = (auto(), "neg.ftz.f32", [MyArg.f32], [MyArg.f32])

    class MySpecial(create_special_register_enum(MyArg)):
        tid = (auto(), "tid.x", MyArg.u32)

    with pytest.raises(ValueError):
        class Bad(create_instruction_enum(MyArg)):
            x = (auto(), "add.u32", [MyStack.u32], [MyArg.u32])

    sp = StackPtx(MyStack, MyArg, MyInstr, MySpecial)
    registry = RegisterRegistry()
    registry.add("a", MyStack.f32)
    registry.add("out", MyStack.f32)
    registry.add("t", MyStack.u32)
    stub = sp.compile(registry,
                      [registry.a, MyStack.f32.constant(2.0), registry.a,
                       MyInstr.fma, MyInstr.neg, MySpecial.tid],
                      [registry.out, registry.t], execution_limit=100)
    assert "fma.rn.ftz.f32" in stub and "neg.ftz.f32" in stub
    assert "%tid.x" in stub and "0f40000000" in stub


def test_routines_and_store():
    from mmptx.compat import RoutineEnum

    class Routine(RoutineEnum):
        square = (auto(), [])
        quad = (auto(), [])

    # Assigned after the members exist, so routines can call each other.
    Routine.square.instructions = [Stack.f32.dup, PtxInstruction.mul_ftz_f32]
    Routine.quad.instructions = [Routine.square, Routine.square]
    registry = RegisterRegistry()
    registry.add("a", Stack.f32)
    registry.add("b", Stack.f32)
    stub = compiler.compile(registry,
                            [registry.a, Routine.quad, Stack.f32.store(0),
                             Stack.load(0)],
                            [registry.b], execution_limit=100,
                            routine_enum=Routine)
    assert stub.count("mul.ftz.f32") == 2 and "mov.f32 %b" in stub
