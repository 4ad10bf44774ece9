"""mmptx.inject: create, query, render, errors and threads."""

import threading

import pytest

import mmptx
from mmptx.inject import Module


def test_query(func_ptx):
    m = Module(func_ptx, name="func.ptx", trusted=True)
    assert len(m) == 1 and m.keys() == ["func"] and "func" in m
    inj = m["func"]
    assert inj is m[0] and inj.num_sites == 1 and len(inj) == 3
    assert [v.kind for v in inj] == ["in", "mod", "out"]
    assert [v.register for v in inj] == ["_x0", "_x1", "_x2"]
    assert m["func"]["z"].operand == "%_x2"
    assert m["func"]["y"].type == "F32" and m["func"]["y"].reg_type == "f32"
    assert m["func"][2].name == "z"
    with pytest.raises(KeyError):
        m["nope"]
    with pytest.raises(KeyError):
        m["func"]["nope"]


def test_to_list_is_json_like(func_ptx):
    import json
    lst = Module(func_ptx, trusted=True).to_list()
    assert json.loads(json.dumps(lst)) == lst
    assert lst[0]["variables"][0] == {
        "name": "x", "index": 0, "kind": "in", "type": "F32",
        "reg_type": "f32", "register": "_x0"}


def test_render_by_name_and_index(func_ptx):
    m = Module(func_ptx, trusted=True)
    stub = "\tadd.ftz.f32 %_x2, %_x0, %_x1;"
    by_name = m.render({"func": stub})
    assert by_name == m.render([stub]) == m.render((stub,))
    assert stub in by_name and "PTX_INJECT" not in by_name
    assert by_name.startswith(".version 8.0") and by_name.endswith("// post\n")


def test_render_into_reused_bytearray(func_ptx, two_sites_ptx):
    m = Module(func_ptx, trusted=True)
    buf = bytearray()
    for stub in ["\tadd.f32 %_x1, %_x0, %_x1;", "", "\tmov.f32 %_x2, %_x1;"]:
        expected = m.render([stub])
        assert m.render([stub], out=buf) is buf
        assert buf.decode() == expected
        assert m.render({"func": stub}, out=buf) is buf
        assert buf.decode() == expected
    # A shorter render shrinks it; another module's longer one grows it.
    two = Module(two_sites_ptx, trusted=True)
    stubs = {"func_a": "/*a*/" * 50, "func_b": "/*b*/"}
    assert two.render(stubs, out=buf).decode() == two.render(stubs)


def test_render_into_errors(func_ptx):
    m = Module(func_ptx, trusted=True)
    buf = bytearray(b"kept")
    with pytest.raises(TypeError, match="bytearray"):
        m.render(["x"], out=b"")
    with pytest.raises(TypeError, match="bytearray"):
        m.render(["x"], out=memoryview(bytearray(10)))
    with pytest.raises(mmptx.InjectError) as e:
        m.render(["a", "b"], out=buf)
    assert e.value.code == mmptx.errors.InjectErrorCode.WRONG_NUM_STUBS
    with pytest.raises(mmptx.InjectError) as e:
        m.render(["}"], out=buf)
    assert e.value.code == mmptx.errors.InjectErrorCode.INVALID_STUB
    assert "stub" in str(e.value)
    # An exported buffer cannot be resized: the render refuses, nothing is
    # written through a dangling pointer.
    view = memoryview(buf)
    with pytest.raises(BufferError):
        m.render(["\tmov.f32 %_x2, %_x1;"], out=buf)
    view.release()


def test_render_two_sites_exact(two_sites_ptx):
    m = Module(two_sites_ptx, trusted=True)
    assert m.keys() == ["func_a", "func_b"]
    out = m.render({"func_a": "/*stub-a*/", "func_b": "/*stub-b*/"})
    assert out == "// pre\n/*stub-a*/\n// mid\n/*stub-b*/\n// post\n"


def test_bytes_input(func_ptx):
    assert Module(func_ptx.encode(), trusted=True).keys() == ["func"]


def test_no_injects_renders_unchanged():
    m = Module("// nothing here\n", trusted=True)
    assert len(m) == 0 and m.render([]) == "// nothing here\n"


def test_checked_by_default(func_ptx):
    # Without trusted=True the PTX is parsed and every scaffold checked, as
    # by mmptx-opt and mmptx_inject_create: a marker-only fragment has no
    # declarations for its stable registers.
    with pytest.raises(mmptx.InjectError) as e:
        Module(func_ptx, name="func.ptx")
    assert e.value.message.startswith("func.ptx:6:5: error: stable register "
                                      "'%_x0' of variable 'x' is not declared")
    with pytest.raises(mmptx.InjectError) as e:
        Module("// comment only\n", name="c.ptx")
    assert e.value.message.startswith("c.ptx:")


def test_create_error_is_located():
    bad = "// PTX_INJECT_START f\n// _x0 q f32 F32 x\n// PTX_INJECT_END\n"
    with pytest.raises(mmptx.InjectError) as e:
        Module(bad, name="k.ptx", trusted=True)
    assert e.value.message.startswith("k.ptx:2:8: error: invalid argument "
                                      "kind 'q'")
    assert e.value.code == mmptx.errors.InjectErrorCode.FORMATTING
    assert isinstance(e.value, RuntimeError)


def test_marker_names_are_one_token():
    # mmptx's own markers name a variable with one token, as mmptx-opt and
    # the C API decide; mm-ptx's form keeps inner blanks.
    bad = ("// MMPTX_INJECT_BEGIN f 1\n"
           "// MMPTX_INJECT_ARG 0 in f32 F32 xi extra junk\n"
           "// MMPTX_INJECT_END f\n")
    with pytest.raises(mmptx.InjectError) as e:
        Module(bad, name="n.ptx", trusted=True)
    assert e.value.message.startswith(
        "n.ptx:2:37: error: unexpected text after variable name 'xi' in "
        "inject argument marker")
    assert e.value.code == mmptx.errors.InjectErrorCode.FORMATTING
    ok = "// PTX_INJECT_START f\n// _x0 i f32 F32 x[ 0 ]\n// PTX_INJECT_END\n"
    assert Module(ok, trusted=True)["f"]["x[ 0 ]"].type == "F32"


def test_inconsistent_duplicate_sites():
    ptx = ("// PTX_INJECT_START func\n// _x0 i f32 F32 x\n// PTX_INJECT_END\n"
           "// PTX_INJECT_START func\n// _x0 i f32 F32 x\n"
           "// _x1 o f32 F32 y\n// PTX_INJECT_END\n")
    with pytest.raises(mmptx.InjectError) as e:
        Module(ptx, name="dup.ptx", trusted=True)
    assert e.value.code == mmptx.errors.InjectErrorCode.INCONSISTENT_INJECTION
    assert e.value.message.startswith("dup.ptx:")


def test_unknown_type_and_extra_types():
    ptx = "// PTX_INJECT_START f\n// _x0 i f32 DOG x\n// PTX_INJECT_END\n"
    with pytest.raises(mmptx.InjectError) as e:
        Module(ptx, trusted=True)
    assert e.value.code == mmptx.errors.InjectErrorCode.UNKNOWN_TYPE
    m = Module(ptx, extra_types=[("DOG", "f32", "f32")], trusted=True)
    assert m["f"]["x"].type == "DOG"
    assert Module(ptx, allow_unknown_types=True, trusted=True)["f"]["x"].reg_type == "f32"


def test_render_errors(func_ptx):
    m = Module(func_ptx, trusted=True)
    codes = mmptx.errors.InjectErrorCode
    with pytest.raises(mmptx.InjectError) as e:
        m.render({})
    assert e.value.code == codes.MISSING_STUB
    assert "no stub for inject 'func'" in str(e.value)
    with pytest.raises(mmptx.InjectError) as e:
        m.render(["a", "b"])
    assert e.value.code == codes.WRONG_NUM_STUBS
    with pytest.raises(mmptx.InjectError) as e:
        m.render({"func": "", "nope": ""})
    assert e.value.code == codes.INJECTION_NAME_NOT_FOUND
    with pytest.raises(TypeError):
        m.render("a stub")
    with pytest.raises(TypeError):
        m.render([1])


def test_builtin_types():
    tokens = {t["token"] for t in mmptx.inject.builtin_types()}
    assert {"F32", "U32", "F16"} <= tokens


def test_render_from_many_threads(func_ptx):
    m = Module(func_ptx, trusted=True)
    stubs = [f"\tmov.f32 %_x2, 0f{i:08x};" for i in range(64)]
    expected = [m.render([s]) for s in stubs]
    results = [None] * len(stubs)
    errors = []

    def work(k):
        try:
            for _ in range(200):
                results[k] = m.render({"func": stubs[k]})
        except Exception as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,))
               for k in range(len(stubs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == expected
