"""mmptx.wire: the wire format from Python, and pickling every object
through it (so multiprocessing, Ray and Dask take them as they are)."""

import os
import pickle

import pytest

import mmptx
from mmptx import ast as A
from mmptx import stack as S
from mmptx import wire
from mmptx.errors import WireError, WireErrorCode
from mmptx.inject import Module

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
INPUTS = os.path.join(ROOT, "test", "Serialize", "Inputs")

MUL_ADD = """\
(in x F32) (in y F32) (out z F32)
(define (mul a b) (mul.ftz.f32 a b))
(= z (add.ftz.f32 (mul x y) 1.0))
"""


def roundtrip(x):
    return pickle.loads(pickle.dumps(x))


def test_job_roundtrip_and_errors():
    job = dict(source_kind=wire.SOURCE_INJECT, source_name="k.ptx",
               source="// PTX\n", trusted=True,
               extra_types=[("DOG", "f32", "f32")],
               stack_options=dict(stack_size=64, target_sm=80),
               registers=[("x", 0, "in"), ("y", 8, "mod")],
               requests=[[1, 0], []], target="sm_80", backend="ptxas",
               backend_options=["-O3"])
    data = wire.dumps_job(job)
    assert data[:8] == b"MMPTXWIR"
    assert wire.message_kind(data) == "job"
    back = wire.loads_job(data)
    for k, v in job.items():
        if k == "stack_options":
            assert back[k]["stack_size"] == 64 and back[k]["target_sm"] == 80
        elif k in ("registers", "extra_types"):
            assert [tuple(r) for r in back[k]] == v
        else:
            assert back[k] == v, k
    assert back["instruction_set"] is None
    with pytest.raises(WireError) as e:
        wire.loads_job(data[:-1])
    assert e.value.code == WireErrorCode.MALFORMED
    assert str(e.value).startswith("byte ")
    bad = bytearray(data)
    bad[40] ^= 1
    with pytest.raises(WireError, match="checksum mismatch"):
        wire.loads_job(bytes(bad))
    with pytest.raises(WireError, match="not a job message"):
        wire.loads_job(wire.dumps_programs([]))
    with pytest.raises(WireError) as e:
        wire.dumps_job(dict(registers=[("x", 0, "sideways")]))
    assert e.value.code == WireErrorCode.INVALID_ARGUMENT


def test_job_metadata():
    """Metadata: key/value texts in order; any bytes survive (str values
    with lone surrogates for the bytes that are not UTF-8, as Python's
    surrogateescape writes them); a job without it has no record."""
    meta = {"kind": "packed", "stub:a": "\t// \u00e9t\u00e9\n",
            "raw": b"\xff\x00".decode("utf-8", "surrogateescape")}
    data = wire.dumps_job(dict(metadata=meta))
    back = wire.loads_job(data)["metadata"]
    assert back == meta and list(back) == list(meta)
    assert wire.loads_job(wire.dumps_job(dict(
        metadata={"b": b"\xff"})))["metadata"] == {"b": "\udcff"}
    plain = wire.dumps_job({})
    assert wire.loads_job(plain)["metadata"] == {}
    assert wire.dumps_job(dict(metadata={})) == plain
    # Each entry: a u64 length and the bytes of key and value; 10 bytes of
    # record header and an 8-byte count once.
    assert len(wire.dumps_job(dict(metadata={"k": "vv"}))) == \
        len(plain) + 10 + 8 + 8 + 1 + 8 + 2
    with pytest.raises(WireError, match="a metadata key must be a str") as e:
        wire.dumps_job(dict(metadata={1: "x"}))
    assert e.value.code == WireErrorCode.INVALID_ARGUMENT
    with pytest.raises(WireError, match="metadata 'k' must be str or bytes"):
        wire.dumps_job(dict(metadata={"k": 3}))


def test_programs_and_results_roundtrip():
    variants = [(7, [(wire.PROGRAM_STACK, 0, [3, 10], [[5]], ""),
                     (wire.PROGRAM_STUB, 1, [], [], "\tret;")])]
    back = wire.loads_programs(wire.dumps_programs(variants))
    assert [(i, [tuple(p) for p in ps]) for i, ps in back] == variants
    results = [dict(id=1, name="m", ok=True, cubin=b"\x7fELF\0", stubs=["s"],
                    errors=[], backend="ptxas", backend_version="13.0",
                    log="", origin="compiled", seconds=0.5)]
    back = wire.loads_results(wire.dumps_results(results))
    assert back[0]["cubin"] == b"\x7fELF\0" and back[0]["seconds"] == 0.5


def test_reference_buffer_loads():
    with open(os.path.join(INPUTS, "compiler_state_simple.bin"), "rb") as f:
        job_bytes, programs = wire.from_reference(f.read(), "state")
    job = wire.loads_job(job_bytes)
    assert job["instruction_set"] is None  # the reference's default tables
    assert job["stack_options"]["execution_limit"] == 1000
    assert job["target"] == "sm_80"
    assert "PTX_INJECT_START func" in job["source"]
    assert wire.loads_programs(programs) == []
    m = Module(job["source"])
    assert m.keys() == ["func"]
    with pytest.raises(WireError, match="unknown layout"):
        wire.from_reference(b"", "sideways")


def test_default_instruction_set_pickles_to_itself():
    iset = S.default_instruction_set()
    assert roundtrip(iset) is iset
    # Nothing but a reference to the reader's own set travels (its tables
    # would be several KB).
    tables = wire.dumps_job(dict(instruction_set=wire._tables(
        S.InstructionSet(*[getattr(iset._native, k) for k in (
            "stacks", "arg_types", "instructions", "specials")]))))
    assert len(pickle.dumps(iset)) < 512 < len(tables)


def test_custom_instruction_set_pickles():
    iset = S.InstructionSet(
        stacks=[("F32", "f32"), ("U32", "u32", True)],
        arg_types=[("F32", 0, 0), ("U32", 1, 0)],
        instructions=[("add", "add.f32", [0, 0], [0]),
                      ("cvt", "cvt.rn.f32.u32", [1], [0], 80)],
        specials=[("tid.x", "tid.x", 1)])
    back = roundtrip(iset)
    assert back is not iset
    assert back.instructions == iset.instructions
    assert back.specials == iset.specials
    assert back.arg_types == iset.arg_types
    assert back.stacks == iset.stacks
    words = [S.input_(0), S.input_(0), back.ptx("add")]
    c1, c2 = S.Compiler(iset), S.Compiler(back)
    assert c2.compile(words, [("a", 0, "in"), ("b", 0, "out")], [1]) == \
        c1.compile(words, [("a", 0, "in"), ("b", 0, "out")], [1])


def test_registers_and_compiler_pickle():
    iset = S.default_instruction_set()
    regs = iset.registers([("x", "F32", "in"), ("y", "F32", "in"),
                           ("z", "F32", "out")])
    regs2 = roundtrip(regs)
    assert regs2.to_list() == regs.to_list()
    assert regs2.instruction_set is iset
    comp = S.Compiler(stack_size=64, max_frame_depth=4, strict=True,
                      target_sm=80, execution_limit=1000)
    comp2 = roundtrip(comp)
    assert comp2.options == comp.options
    words = [S.input_(0), S.input_(1), iset.ptx("mul.ftz.f32"),
             iset.constant("F32", 1.0), iset.ptx("add.ftz.f32")]
    assert comp2.compile(words, regs2, ["z"]) == comp.compile(words, regs, ["z"])
    assert comp2._c.target_sm == 80


def test_stack_program_pickles():
    p = S.parse(".registers { x : F32 in; z : F32 out; }\n"
                ".routine sq { dup(F32) mul.ftz.f32 }\n"
                ".program { x call sq }\n.requests { z }\n", name="sq.stack")
    q = roundtrip(p)
    assert q.main == p.main and q.routines == p.routines
    assert q.requests == p.requests and q.registers == p.registers
    c = S.Compiler()
    assert c.compile_program(q) == c.compile_program(p)


def test_module_pickles(func_ptx):
    m = Module(func_ptx, name="func.ptx", trusted=True)
    m2 = roundtrip(m)
    assert m2.ptx == m.ptx and m2.name == m.name and m2.keys() == m.keys()
    assert m2.to_list() == m.to_list()
    stub = "\tadd.f32 %_x2, %_x0, %_x1;"
    assert m2.render({"func": stub}) == m.render({"func": stub})
    # A module that is checked stays checked, and its options travel.
    m3 = roundtrip(Module(func_ptx, extra_types=[("DOG", "f32", "f32")],
                          trusted=True))
    assert m3._options == ([("DOG", "f32", "f32")], False, True)


def test_ast_program_and_options_pickle():
    p = A.parse(MUL_ADD, name="mul-add.ast")
    q = roundtrip(p)
    assert q.words_text() == p.words_text()
    assert q.vars == p.vars and q.outputs == p.outputs
    assert q.compile() == p.compile()
    assert q.interpret(x=5, y=3) == p.interpret(x=5, y=3) == {"z": 16.0}
    o = A.Options(max_stack_depth=32, target_sm=80,
                  share_subexpressions=False)
    assert roundtrip(o) == o
    assert q.compile(o) == p.compile(o)


def test_compile_result_pickles():
    from mmptx.backend import CompileResult
    ok = CompileResult("<ptx#0>", True, b"\x7fELF\1\2", "", "info", "cached",
                       "ptxas 13.0", 0.125)
    assert roundtrip(ok) == ok
    bad = CompileResult("k.ptx", False, None, "k.ptx:3: error: bad", "",
                        "compiled", "nvjitlink 13.0", 0.0)
    assert roundtrip(bad) == bad
    assert roundtrip(bad).cubin is None


def test_multiprocessing_takes_them(func_ptx):
    import multiprocessing as mp
    m = Module(func_ptx, trusted=True)
    comp = S.Compiler(stack_size=64)
    regs = S.default_instruction_set().registers(
        [("_x0", "F32", "in"), ("_x1", "F32", "mod"), ("_x2", "F32", "out")])
    iset = S.default_instruction_set()
    words = [S.input_(0), S.input_(1), iset.ptx("add.ftz.f32")]
    ctx = mp.get_context("spawn")
    with ctx.Pool(1) as pool:
        got = pool.apply(_render_in_worker, (m, comp, regs, words))
    assert got == _render_in_worker(m, comp, regs, words)


def _render_in_worker(module, compiler, registers, words):
    stub = compiler.compile(words, registers, ["_x2"])
    return module.render({"func": stub})


def test_reference_word_numbering():
    # The reference's own word: SWAP on F16 (stack 5 in its examples
    # description, which mmptx's default set follows).
    swap_f16 = 0x0000000200050005
    f16 = S.default_instruction_set().stack_index("F16")
    assert swap_f16 == S.meta(f16, S.MetaOp.SWAP)
    # The same word in its tests description names F16 as stack 6.
    assert S.convert_word_numbering([0x0000000200060005]) == [swap_f16]
    assert S.convert_word_numbering([swap_f16], "examples", "tests") == \
        [0x0000000200060005]
    philox_store = S.store(S.default_instruction_set().stack_index("PHILOX"),
                           10)
    assert S.convert_word_numbering([S.store(2, 10)]) == [philox_store]
    # Other words and stacks past the ninth are kept.
    words = [S.input_(2), S.ptx(33), S.constant(12, 7)]
    assert S.convert_word_numbering(words) == words
    with pytest.raises(ValueError):
        S.convert_word_numbering(words, "sideways")
