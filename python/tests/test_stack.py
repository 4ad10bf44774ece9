"""mmptx.stack: text and word programs, options, interpreter, batches."""

import array
import threading

import pytest

import mmptx
from mmptx import stack as S

np = pytest.importorskip("numpy")

XYZ = [("x", "F32", "in"), ("y", "F32", "in"), ("z", "F32", "out")]
ADD_TEXT = """
.registers { x : F32 in; y : F32 in; z : F32 out; }
.program { x y add.ftz.f32 }
.requests { z }
"""
ADD_STUB = ("\t{\n\t.reg .f32 %_s0_<1>;\n\tadd.ftz.f32 %_s0_0, %y, %x;\n"
            "\tmov.f32 %z, %_s0_0;\n\t}")


@pytest.fixture(scope="module")
def cc():
    return S.Compiler()


@pytest.fixture(scope="module")
def iset(cc):
    return cc.instruction_set


def test_compile_text_exact(cc):
    stub = cc.compile_text(ADD_TEXT)
    assert stub == ADD_STUB
    assert "\0" not in stub


def test_compile_words_all_forms(cc, iset):
    regs = iset.registers(XYZ)
    words = [S.input_(0), S.input_(1), iset.ptx("add.ftz.f32")]
    as_numpy = np.array(words, dtype=np.uint64)
    assert cc.compile(as_numpy, regs, ["z"]) == ADD_STUB
    as_numpy.flags.writeable = False  # read in place: read-only is enough
    assert cc.compile(as_numpy, regs, ["z"]) == ADD_STUB
    assert cc.compile(words, regs, [2]) == ADD_STUB
    assert cc.compile(array.array("Q", words), XYZ, [2]) == ADD_STUB
    # A strided view or another dtype is copied, not refused.
    wide = np.zeros(6, dtype=np.uint64)
    wide[::2] = words
    assert cc.compile(wide[::2], regs, [2]) == ADD_STUB
    assert cc.compile(as_numpy.astype(np.int64), regs, [2]) == ADD_STUB


def test_word_encoders_match_text(iset):
    prog = S.parse(".registers { x : F32 in; }\n"
                   ".program { x dup(F32) mul.ftz.f32 1.0 add.ftz.f32 "
                   "meta(2) store(F32, 1) load(1) return }")
    assert prog.main == [S.input_(0), iset.meta("F32", S.MetaOp.DUP),
                         iset.ptx("mul.ftz.f32"), iset.constant("F32", 1.0),
                         iset.ptx("add.ftz.f32"), S.meta_constant(2),
                         iset.store("F32", 1), S.load(1), S.ret()]
    again = S.parse(prog.format())
    assert again.main == prog.main and again.registers == prog.registers


def test_routines(cc, iset):
    text = (".registers { x : F32 in; z : F32 out; }\n"
            ".routine sq { dup(F32) mul.ftz.f32 }\n"
            ".program { x call sq }\n.requests { z }")
    prog = S.parse(text)
    assert prog.routine_names == ["sq"]
    from_text = cc.compile_text(text)
    from_words = cc.compile(prog.main, [("x", "F32"), ("z", "F32", "out")],
                            ["z"], routines=prog.routines)
    assert from_text == from_words and "mul.ftz.f32" in from_text
    assert cc.interpret(prog.main, [("x", "F32"), ("z", "F32", "out")],
                        ["z"], [3.0, 0.0], routines=prog.routines) == [9.0]


def test_interpreter(cc, iset):
    regs = iset.registers(XYZ)
    words = np.array([S.input_(0), S.input_(1), iset.ptx("mul.ftz.f32"),
                      iset.constant("F32", 1.0), iset.ptx("add.ftz.f32")],
                     dtype=np.uint64)
    assert cc.interpret(words, regs, ["z"], [3.0, 5.0, 0.0]) == [16.0]
    raw = cc.interpret(words, regs, ["z"],
                       [S.f32_bits(3.0), S.f32_bits(5.0), 0], raw=True)
    assert raw == [S.f32_bits(16.0)]
    rows = np.array([[3.0, 5.0, 0.0], [2.0, 2.0, 0.0]],
                    dtype=np.float32).view(np.uint32).astype(np.uint64)
    out = cc.interpret_rows(words, regs, ["z"], rows)
    assert out.shape == (2, 1)
    assert out.astype(np.uint32).view(np.float32).ravel().tolist() == [16, 5]


def test_integer_interpreter(cc):
    words = S.parse(".registers { a : S32 in; r : S32 out; }\n"
                    ".program { a -7 add.s32 }").main
    regs = [("a", "S32"), ("r", "S32", "out")]
    assert "add.s32" in [i[1] for i in cc.instruction_set.instructions]
    assert cc.interpret(words, regs, ["r"], [2, 0]) == [-5]


def test_unsatisfied_out_is_zero(cc, iset):
    stub = cc.compile([], iset.registers(XYZ), ["z"])
    assert "mov.f32 %z, 0f00000000;" in stub
    assert cc.stats["zeroed_requests"] == 1


def test_strict_and_invalid_words(iset):
    bad = [S.input_(0), S.ptx(100000)]
    lax = S.Compiler(iset)
    lax.compile(bad, XYZ, ["z"])
    assert lax.stats["ignored_words"] == 1
    strict = S.Compiler(iset, strict=True)
    with pytest.raises(mmptx.StackError) as e:
        strict.compile(bad, XYZ, ["z"])
    assert e.value.code == mmptx.errors.StackErrorCode.INVALID_WORD
    assert "100000" in e.value.message


def test_target_sm(iset):
    newer = [i for i in iset.instructions if i[4] > 50]
    if not newer:
        pytest.skip("no instruction with a minimum sm in the default set")
    name, _, args, rets, min_sm = newer[0]
    cc = S.Compiler(iset, target_sm=min_sm - 1, strict=True)
    assert cc._c.target_sm == min_sm - 1
    with pytest.raises(mmptx.StackError):
        cc.compile([iset.ptx(name)], XYZ, [])
    S.Compiler(iset, target_sm=min_sm, strict=True).compile(
        [iset.ptx(name)], XYZ, [])


def test_limits(iset):
    loop = S.parse(".registers { x : F32 in; z : F32 out; }\n"
                   ".routine r { x call r }\n.program { call r }")
    cc = S.Compiler(iset, execution_limit=10, max_frame_depth=3)
    cc.compile(loop.main, [("x", "F32"), ("z", "F32", "out")], ["z"],
               routines=loop.routines)
    stats = cc.stats
    assert stats["refused_calls"] >= 1 and stats["executed_words"] <= 10
    with pytest.raises(mmptx.StackError, match="stack_size must be at least 1"):
        S.Compiler(iset, stack_size=0)
    with pytest.raises(mmptx.StackError,
                       match=r"max_nodes = 4294967295 is too large"):
        S.Compiler(iset, max_nodes=2**32 - 1)


def test_default_options_come_from_the_compiler(iset):
    """The defaults are StackPtxOptions' (C++), read from the extension: an
    option left None takes them, and ``options`` shows what is in effect."""
    d = S.default_options()
    assert d == {"target_sm": 0, "strict": False, "zero_unsatisfied": True,
                 "stack_size": 128, "max_nodes": 1 << 16,
                 "max_frame_depth": 8, "store_size": 32,
                 "execution_limit": 1 << 20}
    assert S.Compiler(iset).options == d
    cc = S.Compiler(iset, stack_size=4, strict=None)
    assert cc.options == dict(d, stack_size=4)
    # The default bounds what a compile does: 9 frames would be refused.
    loop = S.parse(".registers { x : F32 in; z : F32 out; }\n"
                   ".routine r { x call r }\n.program { call r }")
    cc.compile(loop.main, [("x", "F32"), ("z", "F32", "out")], ["z"],
               routines=loop.routines)
    assert cc.stats["refused_calls"] == 1
    # Changing the returned dict changes no default.
    S.default_options()["stack_size"] = 1
    assert S.default_options()["stack_size"] == 128


def test_batch(cc, iset):
    regs = iset.registers(XYZ)
    ops = ["add.ftz.f32", "mul.ftz.f32", "sub.ftz.f32", "max.ftz.f32"]
    progs = [np.array([S.input_(0), S.input_(1), iset.ptx(o)],
                      dtype=np.uint64) for o in ops]
    singles = [cc.compile(p, regs, [2]) for p in progs]
    assert cc.compile_batch(progs, regs, [2]) == singles
    packed = np.concatenate(progs)
    offsets = [0, 3, 6, 9, 12]
    assert cc.compile_batch(packed, regs, ["z"], offsets=offsets) == singles
    assert cc.compile_batch([], regs, [2]) == []
    with pytest.raises(mmptx.StackError):
        cc.compile_batch(packed, regs, [2], offsets=[0, 13])
    with pytest.raises(mmptx.StackError) as e:
        S.Compiler(iset, strict=True).compile_batch(
            [progs[0], [S.ptx(99999)]], regs, [2])
    assert e.value.message.startswith("program 1: ")


def test_parse_errors_are_located():
    with pytest.raises(mmptx.StackError) as e:
        S.parse(".program { foo }", name="p.stack")
    assert e.value.message.startswith(
        "p.stack:1:12: error: unknown instruction or register 'foo'")
    assert e.value.code == mmptx.errors.StackErrorCode.PARSE


def test_register_errors(iset):
    with pytest.raises(mmptx.StackError, match="not a PTX identifier"):
        iset.registers([("1x", "F32")])
    with pytest.raises(mmptx.StackError, match="reserved"):
        iset.registers([("_s0_1", "F32")])
    with pytest.raises(mmptx.StackError, match="unknown stack"):
        iset.registers([("x", "NOPE")])
    with pytest.raises(mmptx.StackError, match="out of range"):
        iset.registers([("x", 999)])
    with pytest.raises(mmptx.StackError, match="not one of in, out, mod"):
        iset.registers([("x", "F32", "inout")])
    with pytest.raises(mmptx.StackError, match="unknown register"):
        S.Compiler().compile([], XYZ, ["w"])
    with pytest.raises(TypeError):
        S.Compiler().compile("x y", XYZ, [])


def test_custom_instruction_set():
    iset = S.InstructionSet(
        stacks=[("F32", "f32"), ("U32", "u32")],
        arg_types=[("F32", 0, 0), ("U32", 1, 0)],
        instructions=[("add", "add.ftz.f32", [0, 0], [0])],
        specials=[("tid", "tid.x", 1)])
    cc = S.Compiler(iset)
    stub = cc.compile_text(".registers { a : F32 in; b : F32 out; }\n"
                           ".program { a a add }\n.requests { b }")
    assert "add.ftz.f32" in stub
    assert cc.interpret([S.input_(0), S.input_(0), iset.ptx("add")],
                        [("a", "F32"), ("b", "F32", "out")], [1],
                        [1.25, 0.0]) == [2.5]
    with pytest.raises(mmptx.StackError) as e:
        S.InstructionSet([("F32", "f32")], [("F32", 3, 0)], [], [])
    assert e.value.code == mmptx.errors.StackErrorCode.INVALID_TABLES


def test_compile_from_many_threads(iset):
    cc = S.Compiler(iset)
    regs = iset.registers(XYZ)
    ops = ["add.ftz.f32", "mul.ftz.f32", "sub.ftz.f32", "min.ftz.f32"]
    progs = [[S.input_(0), S.input_(1), iset.ptx(o)] for o in ops]
    expected = [cc.compile(p, regs, [2]) for p in progs]
    bad = []

    def work(k):
        for i in range(300):
            j = (k + i) % len(progs)
            if i % 50 == 0:
                got = cc.compile_batch(progs, regs, [2])
                if got != expected:
                    bad.append(k)
            elif cc.compile(progs[j], regs, [2]) != expected[j]:
                bad.append(k)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not bad


def test_named_encoders(iset):
    assert iset.instr.add_ftz_f32 == iset.ptx("add.ftz.f32")
    assert iset.sreg.tid_x == iset.special("tid.x")
    assert iset.stack.F32 == iset.stack_index("F32") == 0
    assert "fma_rn_f32" in dir(iset.instr)
    with pytest.raises(AttributeError):
        iset.instr.no_such_op


def _mangle(name):
    return "".join(c.upper() if c.isalnum() else "_" for c in name)


def test_generated_enums_match_the_tables(iset):
    """mmptx._enums is generated from td/StackInstrs.td at build time: its
    numbering is the default tables'."""
    assert [m.name for m in S.StackType] == iset.stacks
    assert [m.name for m in S.PtxInstr] == \
        [_mangle(i[0]) for i in iset.instructions]
    assert [m.name for m in S.SpecialReg] == \
        [_mangle(s[0]) for s in iset.specials]
    assert [m.name for m in S.ArgType] == \
        [_mangle(a[0]) for a in iset.arg_types]
    assert S.WordType.PTX == 1 and S.WordType.LOAD == 12
    assert S.MetaOp.REVERSE == 8 and len(S.MetaOp) == 9
    assert S.StackType.F32 == 0 and S.StackType.U32 == 1


def test_enum_words_need_no_lookup(cc, iset):
    regs = iset.registers(XYZ)
    words = [S.input_(0), S.input_(1), S.ptx(S.PtxInstr.ADD_FTZ_F32)]
    assert words[2] == iset.ptx("add.ftz.f32") == \
        iset.ptx(S.PtxInstr.ADD_FTZ_F32)
    assert cc.compile(words, regs, ["z"]) == ADD_STUB
    assert iset.special(S.SpecialReg.TID_X) == iset.special("tid.x") == \
        S.special(S.SpecialReg.TID_X)
    assert iset.meta(S.StackType.F32, S.MetaOp.DUP) == \
        iset.meta("F32", S.MetaOp.DUP)
    with pytest.raises(S.StackError, match="instruction 100000 is out of"):
        iset.ptx(100000)
    with pytest.raises(S.StackError, match="special register -1 is out of"):
        iset.special(-1)


def test_compile_fast_path_requests(cc, iset):
    """With a Registers, compile() resolves request names in the extension;
    its errors match the other paths'."""
    regs = iset.registers(XYZ)
    words = np.array([S.input_(0), S.input_(1), iset.ptx("add.ftz.f32")],
                     dtype=np.uint64)
    assert cc.compile(words, regs, ("z",)) == cc.compile(words, regs, [2]) \
        == ADD_STUB
    with pytest.raises(mmptx.StackError, match="unknown register 'w'") as e:
        cc.compile(words, regs, ["w"])
    assert e.value.code == mmptx.errors.StackErrorCode.INVALID_REQUEST
    with pytest.raises(mmptx.StackError, match="request 1 is not a register"):
        cc.compile(words, regs, [2, -1])
    with pytest.raises(TypeError, match="register indices or names"):
        cc.compile(words, regs, [2.0])
    with pytest.raises(TypeError, match="must be a sequence"):
        cc.compile(words, regs, 2)
    # Buffers of other item types are copied through the sequence path.
    assert cc.compile(words.view(np.int64), regs, [2]) == ADD_STUB
    assert cc.compile(words.astype(">u8"), regs, [2]) == ADD_STUB
    assert cc.compile(np.repeat(words, 2)[::2], regs, [2]) == ADD_STUB

    class Sub(np.ndarray):
        pass

    assert cc.compile(words.view(Sub), regs, [2]) == ADD_STUB
    with pytest.raises(TypeError, match="1-D uint64 array"):
        cc.compile(words.reshape(1, 3), regs, [2])


def test_interpret_specials(cc, iset):
    """Special registers read the values given by name (0 otherwise)."""
    regs = iset.registers([("z", "U32", "out")])
    w = [iset.special("tid.x")]
    assert cc.interpret(w, regs, ["z"], [0]) == [0]
    assert cc.interpret(w, regs, ["z"], [0], specials={"tid.x": 3}) == [3]
    assert cc.interpret(w, regs, ["z"], [0], specials={"%tid.x": 4}) == [4]
    assert cc.interpret(w, regs, ["z"], [0],
                        specials={S.SpecialReg.TID_X: 5}) == [5]
    # A vector register's elements are its components' values.
    assert cc.interpret(w, regs, ["z"], [0], specials={"tid": [6, 7]}) == [6]
    w2 = [iset.special("tid.x"), iset.special("ntid.x"), iset.ptx("add.u32")]
    sp = {"tid.x": 3, "ntid.x": 32}
    assert cc.interpret(w2, regs, ["z"], [0], specials=sp) == [35]
    rows = cc.interpret_rows(np.array(w2, dtype=np.uint64), regs, ["z"],
                             np.zeros((2, 1), dtype=np.uint64), specials=sp)
    assert rows.tolist() == [[35], [35]]
    with pytest.raises(S.StackError, match="unknown special register 'tid.q'"):
        cc.interpret(w, regs, ["z"], [0], specials={"tid.q": 1})
    with pytest.raises(S.StackError, match="'tid.x' has 1 element"):
        cc.interpret(w, regs, ["z"], [0], specials={"tid.x": [1, 2]})
    with pytest.raises(S.StackError, match="special register 99 is out"):
        cc.interpret(w, regs, ["z"], [0], specials={99: 1})


def test_vocabulary_fast_compile():
    iset = S.default_instruction_set()
    fast = iset.vocabulary("fast-compile")
    assert "add.ftz.f32" in fast and "div.approx.ftz.f32" in fast
    for slow in ("div.rn.f32", "sqrt.rn.f32", "rcp.rn.f64", "add.f32",
                 "sin.approx.f32"):
        assert slow not in fast
    assert len(iset.vocabulary("all")) == len(iset.instructions)
    with pytest.raises(S.StackError, match="unknown vocabulary 'slow'"):
        iset.vocabulary("slow")


def test_one_number_model(cc, iset):
    """The Python interpreters read numbers as the CLI does: floats and ints
    are values for F32/F64, floats are values rounded once for F16/BF16
    (ints are their bits), ints are masked to an integer register's width."""
    from mmptx import ast as A
    f32 = [("x", "F32"), ("z", "F32", "out")]
    ident = [S.input_(0)]
    for v in (1.5, np.float32(1.5), 2, np.int32(2), np.float64(0.1)):
        got = cc.interpret(ident, f32, ["z"], [v, 0])
        assert got == [float(np.float32(v))], v
        prog = A.parse("(in x F32)\n(out z F32)\n(= z x)")
        assert prog.interpret(x=v) == {"z": float(np.float32(v))}, v
    # F16 and BF16 from floats: correctly rounded (1.5 is 0x3e00, 0x3fc0;
    # 1 + 2^-11 + 2^-20 rounds up, past the tie).
    for stack, v, bits in (("F16", 1.5, 0x3E00), ("BF16", 1.5, 0x3FC0),
                           ("F16", 1 + 2 ** -11 + 2 ** -20, 0x3C01),
                           ("F16", 1 + 2 ** -11, 0x3C00),
                           ("BF16", 1 + 2 ** -8 + 2 ** -30, 0x3F81),
                           ("F16", 1e6, 0x7C00), ("F16", -0.0, 0x8000),
                           ("F16", 0x3E00, 0x3E00)):
        regs = [("x", stack), ("z", stack, "out")]
        assert cc.interpret(ident, regs, ["z"], [v, 0]) == [bits], (stack, v)
        prog = A.parse(f"(in x {stack})\n(out z {stack})\n(= z x)")
        assert prog.interpret(x=v) == {"z": bits}, (stack, v)
    # Packed: a pair of lane values, lane 0 first, or bits.
    regs = [("x", "F16X2"), ("z", "F16X2", "out")]
    assert cc.interpret(ident, regs, ["z"], [(1.5, -2.0), 0]) == [0xC0003E00]
    # S32: negative values, and a mod register the program does not write.
    regs = [("m", "S32", "mod")]
    assert cc.interpret([], regs, ["m"], [-24]) == [-24]
    words = S.parse(".registers { a : S32 in; r : S32 out; }\n"
                    ".program { a -7 add.s32 }").main
    assert cc.interpret(words, [("a", "S32"), ("r", "S32", "out")], ["r"],
                        [-2, 0]) == [-9]
    with pytest.raises(TypeError, match="a u32 register takes an int"):
        cc.interpret([], [("m", "U32", "mod")], ["m"], [1.5])
    with pytest.raises(TypeError, match="f32 register takes a number"):
        cc.interpret(ident, f32, ["z"], ["1.5", 0])
    with pytest.raises(ValueError, match="1 inputs for 2 registers"):
        cc.interpret(ident, f32, ["z"], [1.5])


def test_interpret_rows_checks_its_array(cc, iset):
    regs = iset.registers(XYZ)
    words = np.array([S.input_(0)], dtype=np.uint64)
    with pytest.raises(TypeError, match="bit patterns"):
        cc.interpret_rows(words, regs, ["z"], np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"shape \(2, 2\) for 3 registers"):
        cc.interpret_rows(words, regs, ["z"], np.zeros((2, 2), np.uint64))
    bits = np.full((1, 3), S.f32_bits(2.5), dtype=np.uint32)
    assert cc.interpret_rows(words, regs, ["z"], bits).tolist() == \
        [[S.f32_bits(2.5)]]


def test_word_api_requests_as_the_c_api(iset):
    """Requests of an in register or past the registers are refused, as the
    C API refuses them; store_size=0 is accepted, as there."""
    cc = S.Compiler(store_size=0)
    regs = iset.registers(XYZ)
    words = [S.input_(0)]
    with pytest.raises(S.StackError, match="request 0 names 'x', an in "
                                           "register"):
        cc.compile(words, regs, ["x"])
    with pytest.raises(S.StackError, match="request 0 names register 7 of 3"):
        cc.compile(words, regs, [7])
    with pytest.raises(S.StackError, match="an in register"):
        cc.compile_batch([words], regs, [0])
    assert "mov" in cc.compile(words, regs, ["z"])
