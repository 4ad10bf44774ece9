"""mmptx.ast: the reference outputs of test/Ast, from text and from words."""

import threading

import numpy as np
import pytest

import mmptx
from mmptx import ast as A
from mmptx.errors import AstError, AstErrorCode

MUL_ADD = """\
(in x F32) (in y F32) (out z F32)
(define (mul a b) (mul.ftz.f32 a b))
(= z (add.ftz.f32 (mul x y) 1.0))
"""

MUL_ADD_STUB = """\
{
.reg .f32 %ast<2>;
mul.ftz.f32 %ast0, %x, %y;
add.ftz.f32 %ast1, %ast0, 0f3f800000;
mov.f32 %z, %ast1;
}"""

FMA_SUB = """\
(in x F32) (in y F32) (out z F32)
(define (sub a b) (sub.ftz.f32 b a))
(sub (fma.rn.ftz.f32 x y 2.0) y)
"""

TYPES = """\
(in a U32) (in b U32) (in s S32) (in d F64) (in f F32) (in p PRED)
(out wrap U32) (out sh S32) (out dd F64) (out sel F32) (out cmp PRED)
(out cv F32) (out h F16)
(= wrap (add.u32 a b))
(= sh (shr.s32 s 1))
(= dd (fma.rn.f64 d d 0.5))
(= sel (selp.f32 f 7.0 p))
(= cmp (setp.lt.ftz.f32 f 2.5))
(= cv (cvt.rn.f32.u32 b))
(= h (cvt.rn.f16.f32 f))
"""


def test_reference_text_outputs():
    p = A.parse(MUL_ADD, name="mul-add.ast")
    assert p.compile() == MUL_ADD_STUB
    assert p.inputs == ["x", "y", "z"] and p.outputs == ["z"]
    assert p.interpret(x=5, y=3) == {"z": 16.0}
    q = A.parse(FMA_SUB)
    assert q.compile() == ("{\n.reg .f32 %ast<2>;\n"
                           "fma.rn.ftz.f32 %ast0, %x, %y, 0f40000000;\n"
                           "sub.ftz.f32 %ast1, %y, %ast0;\n"
                           "mov.f32 %z, %ast1;\n}")
    assert q.interpret({"x": 5.0, "y": 3.0}) == {"z": -14.0}
    c = A.parse("(out z F32)\n2.0\n")
    assert c.compile() == "{\nmov.f32 %z, 0f40000000;\n}"


def test_interpreter_types():
    p = A.parse(TYPES)
    got = p.interpret(a=4294967295, b=3, s=-7, d=1.5, f=2.25, p=True)
    assert got == {"wrap": 2, "sh": -4, "dd": 2.75, "sel": 2.25,
                   "cmp": True, "cv": 3.0, "h": 0x4080}
    got = p.interpret(a=1, b=2, s=8, d=-2.0, f=3.0, p=False)
    assert got == {"wrap": 3, "sh": 4, "dd": 4.5, "sel": 7.0, "cmp": False,
                   "cv": 2.0, "h": 0x4200}
    with pytest.raises(ValueError, match="unknown variable 'q'"):
        p.interpret(q=1)
    # Bit patterns in and out with raw.
    ftz = A.parse("(in x F32) (out flushed F32) (out kept F32)\n"
                  "(= flushed (mul.ftz.f32 x 0.1))\n(= kept (mul.f32 x 0.1))")
    out = ftz.interpret(x=1e-38)
    assert out["flushed"] == 0.0 and out["kept"] != 0.0
    assert ftz.interpret(x=0x3F800000, raw=True)["kept"] == 0x3DCCCCCD


def test_words_round_trip():
    p = A.parse(MUL_ADD, name="mul-add.ast")
    listing = p.words_text()
    assert "// routine mul a b (4 words)" in listing
    assert "0x3f80000000000002" in listing
    again = A.parse_words(listing, name="mul-add.words")
    assert again.compile() == MUL_ADD_STUB
    assert "(define (mul" in p.text()


def mul_add_words():
    expr = np.array([A.input_(0), A.input_(1), A.routine(0, 2),
                     A.constant(1.0), A.ptx("add.ftz.f32"), A.ret()],
                    dtype=np.uint64)
    mul = np.array([A.routine_arg(0), A.routine_arg(1),
                    A.ptx("mul.ftz.f32"), A.ret()], dtype=np.uint64)
    return expr, mul


def test_compile_words_from_numpy():
    expr, mul = mul_add_words()
    ins = [("x", "F32"), ("y", "F32")]
    stub = A.compile_words(ins, [("z", "F32", expr)], routines=[mul])
    assert stub == MUL_ADD_STUB
    assert A.interpret_words(ins, [("z", "F32", expr)], [5.0, 3.0],
                             routines=[mul]) == [16.0]
    # Plain int lists work too (copied).
    assert A.compile_words(ins, [("z", "F32", list(map(int, expr)))],
                           routines=[list(map(int, mul))]) == MUL_ADD_STUB
    # A strided view is copied, not read in place.
    assert A.compile_words(ins, [("z", "F32", np.repeat(expr, 2)[::2])],
                           routines=[mul]) == MUL_ADD_STUB


def test_options():
    x = "(in x F32) (out z F32)\n(= z (add.f32 (mul.f32 x x) (mul.f32 x x)))"
    shared = A.parse(x).compile()
    unshared = A.parse(x).compile(share_subexpressions=False)
    assert shared.count("mul.f32") == 1 and unshared.count("mul.f32") == 2
    with pytest.raises(AstError) as e:
        A.parse(x).compile(max_stack_depth=1)
    assert e.value.code == AstErrorCode.STACK_OVERFLOW
    with pytest.raises(TypeError):
        A.parse(x).compile(A.Options(), target_sm=80)


def test_default_options_come_from_the_compiler():
    """Options left None take AstPtxOptions' defaults (C++), read from the
    extension."""
    d = A.default_options()
    assert d == {"max_stack_depth": 256, "max_routine_depth": 8,
                 "max_words": 65536, "max_args": 4,
                 "max_executed_words": 1 << 24, "share_subexpressions": True,
                 "target_sm": 0}
    o = A.Options(max_words=7)
    assert o.max_words == 7 and o.max_stack_depth == 256
    assert A.Options() == A.Options(**d)
    # The default limit is the one in force: three values on the stack
    # pass, a limit of 2 refuses them.
    p = A.parse("(in a F32) (out z F32) (= z (fma.rn.f32 a a a))")
    assert "fma.rn.f32" in p.compile()
    assert "fma.rn.f32" in p.compile(max_stack_depth=None)
    with pytest.raises(AstError) as e:
        p.compile(max_stack_depth=2)
    assert e.value.code == AstErrorCode.STACK_OVERFLOW


def test_text_errors_are_located():
    with pytest.raises(AstError) as e:
        A.parse("(in x F32) (out z F32)\n(= z (mul.f33 x x))\n",
                name="unknown-instr.ast")
    assert str(e.value).startswith(
        "unknown-instr.ast:2:7: error: unknown instruction or routine "
        "'mul.f33'")
    assert e.value.code == AstErrorCode.PARSE
    with pytest.raises(AstError) as e:
        A.parse("(in x F32) (out z U32)\n(= z (add.f32 x x))\n",
                name="result-type.ast").compile()
    assert ("result-type.ast:2:6: error: the value is F32; output 'z' is "
            "U32 (AST_PTX_ERROR_TYPE_MISMATCH)") in str(e.value)
    assert e.value.code == AstErrorCode.TYPE_MISMATCH
    with pytest.raises(AstError) as e:
        A.parse("(in x F32) (out z F32)\n(define (f a) (f (neg.f32 a)))\n"
                "(= z (f x))\n", name="recursion.ast").compile()
    assert "recursion.ast:2:16: error: routine calls nested more than 8 " \
        "deep" in str(e.value)
    assert e.value.code == AstErrorCode.ROUTINE_DEPTH_EXCEEDED


def test_word_errors():
    ins = [("x", "F32")]
    with pytest.raises(AstError) as e:
        A.compile_words(ins, [("z", "F32", [A.input_(3), A.ret()])])
    assert e.value.code == AstErrorCode.INPUT_IDX_OUT_OF_BOUNDS
    with pytest.raises(AstError) as e:
        A.compile_words(ins, [("z", "F32", [A.input_(0)])])
    assert e.value.code == AstErrorCode.BAD_INSTRUCTION_MAYBE_FORGOT_RETURN
    with pytest.raises(AstError, match="unknown stack 'F33'"):
        A.compile_words([("x", "F33")], [("z", "F32", [A.ret()])])
    with pytest.raises(AstError):
        A.ptx("mul.f33")


def test_threads():
    out = []

    def work():
        out.append(A.parse(MUL_ADD).compile())

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert out == [MUL_ADD_STUB] * 4


def test_exported():
    assert mmptx.ast is A and mmptx.AstError is AstError


def test_generated_enums():
    """AST word kinds and the default instructions come from mmptx._enums
    (generated at build time)."""
    assert A.WordType.SPECIAL == 8 and A.WordType.ROUTINE_ARG == 6
    assert A.ptx(A.PtxInstr.ADD_FTZ_F32) == A.ptx("add.ftz.f32")
    assert A.ptx(A.PtxInstr.SIN_APPROX_FTZ_F32, 1) == \
        A.ptx("sin.approx.ftz.f32", 1)
    assert A.special(A.SpecialReg.TID_X) == \
        A.make_word(A.WordType.SPECIAL, 0, int(A.SpecialReg.TID_X))
    with pytest.raises(AstError, match="unknown instruction"):
        A.ptx(len(A.PtxInstr))


def test_interpret_specials():
    p = A.parse("(out z U32)\n(= z (add.u32 %tid.x %ntid.x))")
    assert p.interpret() == {"z": 0}
    assert p.interpret(specials={"tid.x": 3, "%ntid.x": 32}) == {"z": 35}
    assert p.interpret(specials={"tid": [4, 0, 0], "ntid": [1]}) == {"z": 5}
    words = np.array([A.special(A.SpecialReg.TID_X),
                      A.special(A.SpecialReg.NTID_X),
                      A.ptx("add.u32"), A.ret()], dtype=np.uint64)
    assert A.interpret_words([], [("z", "U32", words)], [],
                             specials={A.SpecialReg.TID_X: 7}) == [7]
    with pytest.raises(AstError, match="unknown special register") as e:
        p.interpret(specials={"nope": 1})
    assert e.value.code == AstErrorCode.SPECIAL_REGISTER_IDX_OUT_OF_BOUNDS
