"""The stub of an inject from a program: Module[name].stub(program)."""

import os

import pytest

import mmptx
from mmptx import ast, stack
from mmptx.inject import Module

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SIMPLE = os.path.join(ROOT, "bench", "corpus", "ptx_inject_simple_kernel.ptx")


@pytest.fixture
def simple():
    # inject `func`: v_x mod, v_z out, v_y in (all F32).
    with open(SIMPLE) as f:
        return Module(f.read(), name="simple.ptx")


def test_stack_text_by_variable_names(simple):
    stub = simple["func"].stub(".program { v_x v_y add.f32 }")
    assert "add.f32" in stub
    # v_x (mod) is requested; v_z (out) is zeroed, never left unwritten.
    assert "%_x0" in stub and "%_x1" in stub
    # The stub renders unchecked and checked alike.
    assert "add.f32" in simple.render({"func": stub})


def test_program_objects_of_both_languages(simple):
    s = stack.parse(".registers { v_x : F32 mod; v_y : F32 in; }\n"
                    ".program { v_x v_y mul.f32 }")
    a = ast.parse("(in v_x F32) (in v_y F32) (out v_z F32)\n"
                  "(= v_z (add.ftz.f32 v_x v_y))")
    assert "mul.f32" in simple["func"].stub(s)
    stub = simple["func"].stub(a)
    assert "add.ftz.f32" in stub
    assert stub == simple["func"].stub("(= v_z (add.ftz.f32 v_x v_y))",
                                       kind="ast")


def test_errors_are_located(simple):
    with pytest.raises(mmptx.AstError) as e:
        simple["func"].stub("(= v_z (add.f32 v_x v_q))", kind="ast",
                            name="p.ast")
    assert e.value.message.startswith("p.ast:1:")
    with pytest.raises(mmptx.StackError) as e:
        simple["func"].stub(".registers { v_y : U32 in; }\n.program { v_y }",
                            name="p.stack")
    assert e.value.message.startswith("p.stack:1:")


def test_options(simple):
    tanh = "(= v_z (tanh.approx.f32 v_y))"
    assert "tanh.approx.f32" in simple["func"].stub(tanh, kind="ast")
    with pytest.raises(mmptx.AstError, match="needs sm_75"):
        simple["func"].stub(tanh, kind="ast", target_sm=70)
    twice = "(= v_z (add.f32 (abs.f32 v_y) (abs.f32 v_y)))"
    assert "%ast1, %_x2" in simple["func"].stub(
        twice, kind="ast", share_subexpressions=False)
    with pytest.raises(mmptx.StackError, match="at least 1"):
        simple["func"].stub(".program { v_x }", stack_size=0)
    with pytest.raises(TypeError, match="unknown stub option 'stack_sise'"):
        simple["func"].stub(".program { v_x }", stack_sise=4)
    with pytest.raises(ValueError, match="kind"):
        simple["func"].stub(".program { v_x }", kind="forth")
    with pytest.raises(TypeError):
        simple["func"].stub(42)


def test_prune():
    from mmptx.inject import prune
    ptx = (".version 9.0\n.target sm_80\n.address_size 64\n\n"
           ".global .align 4 .u32 unused_a;\n"
           ".global .align 4 .u32 used;\n"
           ".visible .global .align 4 .u32 exported;\n\n"
           ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n"
           "\tld.global.u32 %r1, [used];\n\tret;\n}\n")
    out, stats = prune(ptx, return_stats=True)
    assert "unused_a" not in out and "used;" in out and "exported" in out
    assert stats.variables == 1 and stats.functions == 0 and stats.bytes > 0
    assert "exported" not in prune(ptx, entries_only=True)
    assert "unused_a" in prune(ptx, keep=["unused_a"])
    # Nothing to remove: the text comes back byte for byte.
    assert prune(out) == out
    with pytest.raises(mmptx.InjectError) as e:
        prune(".version 9.0\n.target sm_80\n}\n", name="bad.ptx")
    assert e.value.message.startswith("bad.ptx:3:1: error: unmatched '}'")
