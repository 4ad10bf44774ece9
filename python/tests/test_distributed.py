"""mmptx.distributed: a compile farm on a real two-node Ray cluster.

The cluster is a head and a second node started as separate processes
(`ray start --head`, `ray start --address=...`, one CPU each, in their own
process groups so that only they are stopped at the end). Everything here
is skipped when Ray is not installed, and the tests that compile when no
PTX backend is available."""

import sys
from pathlib import Path

import pytest

import mmptx
from mmptx import distributed as D
from mmptx import stack as S
from mmptx import wire as W

np = pytest.importorskip("numpy")

# The symbolic regression example's kernel: y[tid] = model(x[tid]).
TEMPLATE = (Path(__file__).resolve().parents[2] / "examples" / "python" /
            "fit.ptx").read_text()


def have_backend():
    return any(b.available for b in mmptx.backends())


def random_programs(n, seed, inputs=2, max_len=12):
    """Random Stack PTX programs over x0..x{inputs-1}, + - * and sin."""
    iset = S.default_instruction_set()
    genes = [S.input_(j) for j in range(inputs)] + [
        iset.ptx(o) for o in ("add.ftz.f32", "sub.ftz.f32", "mul.ftz.f32",
                              "sin.approx.ftz.f32")] + [
        iset.constant("F32", c) for c in (0.5, 2.0)]
    rng = np.random.default_rng(seed)
    return [np.array(rng.choice(genes, size=rng.integers(1, max_len)),
                     dtype=np.uint64) for _ in range(n)]


@pytest.fixture(scope="module")
def cluster():
    ray = pytest.importorskip("ray", reason="Ray is not installed "
                              "(pip install 'ray[default]')")
    if not have_backend():
        pytest.skip("no PTX backend")
    with D.LocalCluster(nodes=2, cpus_per_node=1) as c:
        try:
            ray.init(address=c.address, log_to_driver=False)
            yield c
        finally:
            if ray.is_initialized():
                ray.shutdown()


def same(a, b):
    """Farm results against a local batch: byte-identical cubins, the same
    errors. (A local batch also calls "duplicate" an item whose PTX equals
    an earlier one's; the farm, which sends programs, not PTX, compiles
    such an item on its own.)"""
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert (x.ok, x.cubin, x.error) == (y.ok, y.cubin, y.error), x.name


def test_packed_farm_across_two_nodes(cluster):
    progs = random_programs(96, seed=1)
    packs = [progs[i:i + 16] for i in range(0, 96, 16)]
    packs.append(packs[0])  # a duplicate pack
    job = D.Job.packed(num_inputs=2, sites_per_kernel=8)
    with D.Farm(job) as farm:
        assert farm.workers == 2
        nodes = {node for _, node in farm.where()}
        assert len(nodes) == 2  # one worker on each node
        got = farm.compile(packs)
        assert farm.stats["tasks"] == 6 and farm.stats["unique"] == 6
        # Words travel, not PTX: a programs message a task, 8 bytes a
        # word, 29 a program, 26 a variant and 32 a message besides.
        assert farm.stats["bytes_sent"] == sum(
            32 + 26 + sum(8 * len(p) + 29 for p in pack)
            for pack in packs[:-1])
        # The workers were sent one job message.
        ray = pytest.importorskip("ray")
        assert ray.get(farm._job_ref) == farm.job_message
        assert W.message_kind(farm.job_message) == "job"
        assert ray.get([w.received.remote() for w in farm._actors]) == \
            [("bytes", len(farm.job_message), "job")] * 2
        assert D.Job.from_wire(farm.job_message) == job
    want = job.compile_local(packs)
    same(got, want)
    assert all(r.ok for r in got)
    assert got[-1].source == "duplicate" and got[-1].cubin == got[0].cubin


def test_inject_farm_words_and_stubs(cluster):
    job = D.Job.inject(TEMPLATE, "model")
    progs = random_programs(8, seed=2, inputs=1)
    cc = S.Compiler()
    regs = cc.instruction_set.registers([("_x0", "F32", "in"),
                                         ("_x1", "F32", "out")])
    stub = cc.compile(progs[3], regs, [1])
    # Item 8, a stub, is the program of item 3; item 9 repeats item 5.
    items = progs + [stub, progs[5]]
    with D.Farm(job, chunk=3) as farm:
        got = farm.compile(items)
        # Again: the farm remembers what it compiled.
        again = dict(farm.as_completed(items))
        assert sorted(again) == list(range(len(items)))
        assert farm.stats["tasks"] == 3  # 9 distinct items, 3 a task
    same(got, job.compile_local(items))
    assert got[8].cubin == got[3].cubin
    assert got[9].cubin == got[5].cubin and got[9].source == "duplicate"
    assert [again[i].cubin for i in range(10)] == [r.cubin for r in got]
    assert {again[i].source for i in range(10)} == {"cached", "duplicate"}


def test_ptx_farm_reports_located_errors(cluster):
    job = D.Job.ptx()
    good = mmptx.inject.Module(TEMPLATE).render({"model": ""})
    items = [good, ".version 8.0\n.target sm_80\nbogus;\n"]
    # A job message instead of a Job: read on the driver, sent as it is.
    with D.Farm(job.to_wire()) as farm:
        assert farm.job == job
        got = farm.compile(items, names=["good.ptx", "bad.ptx"])
    assert got[0].ok and not got[1].ok
    assert got[1].error.startswith("bad.ptx:")
    same(got, job.compile_local(items, names=["good.ptx", "bad.ptx"]))


def test_killed_worker_loses_nothing(cluster):
    progs = random_programs(192, seed=3)
    packs = [progs[i:i + 8] for i in range(0, len(progs), 8)]
    job = D.Job.packed(num_inputs=2, sites_per_kernel=8)
    with D.Farm(job, max_in_flight=4) as farm:
        seen, killed = [], None
        for i, r in farm.as_completed(packs):
            seen.append(i)
            if killed is None:
                killed = farm.kill_worker(1)
        assert sorted(seen) == list(range(len(packs)))  # each once
        assert farm.stats["replaced_workers"] >= 1
        assert farm.stats["resubmitted"] >= 1
        # The replacement works: a second batch over the new pool.
        again = farm.compile(packs[:4])
    got = [None] * len(packs)
    with D.Farm(job) as farm:
        got = farm.compile(packs)
    same(got, job.compile_local(packs))
    assert [r.cubin for r in again] == [r.cubin for r in got[:4]]


def test_cancel(cluster):
    progs = random_programs(64, seed=4)
    packs = [progs[i:i + 4] for i in range(0, len(progs), 4)]
    job = D.Job.packed(num_inputs=2, sites_per_kernel=4)
    with D.Farm(job, max_in_flight=2) as farm:
        seen = []
        for i, _ in farm.as_completed(packs):
            seen.append(i)
            farm.cancel()
        # Two tasks were in flight at most: the rest were never submitted.
        assert 1 <= len(seen) <= 2 and farm.stats["tasks"] <= 3
        # The pool still works, and a new batch is not cancelled.
        got = farm.compile(packs[:3])
    assert all(r.ok for r in got)


def test_bad_options_raise_as_locally(cluster):
    job = D.Job.ptx(arch="sm_0")
    with pytest.raises(mmptx.CompileError) as local:
        job.compile_local(["// nothing"])
    with D.Farm(job) as farm:
        with pytest.raises(mmptx.CompileError) as remote:
            farm.compile(["// nothing"])
    assert str(remote.value) == str(local.value)


def test_without_ray(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match="mmptx.distributed needs Ray"):
        D.Farm(D.Job.ptx())


def test_job_checks_its_inputs():
    with pytest.raises(ValueError, match="unknown job kind 'x'"):
        D.Job("x")
    two = mmptx.inject.Module(TEMPLATE).ptx.replace(
        "PTX_INJECT_END\n", "PTX_INJECT_END\n\t// PTX_INJECT_START other\n"
        "\t// PTX_INJECT_END\n", 1)
    with pytest.raises(ValueError, match="say which is the site"):
        D.Job.inject(two)
    with pytest.raises(TypeError, match="a packed job takes packs"):
        D.Job.packed().encode("not a pack")
    with pytest.raises(TypeError, match="a ptx job takes PTX texts"):
        D.Job.ptx().encode(np.zeros(3, np.uint64))
    with pytest.raises(ValueError, match="1-D array of uint64 words"):
        D.Job.inject(TEMPLATE).encode(np.zeros((2, 2), np.uint64))


def test_job_round_trips_and_renders():
    """A job read back from its wire message renders the same PTX (what
    workers receive)."""
    iset = S.default_instruction_set()
    job = D.Job.inject(TEMPLATE, "model", stack_options={"target_sm": 80})
    back = D.Job.from_wire(job.to_wire())
    words = np.array([S.input_(0), S.input_(0), iset.ptx("mul.ftz.f32")],
                     dtype=np.uint64)
    enc = job.encode(words)
    assert back.render(enc) == job.render(enc)
    assert "mul.ftz.f32" in job.render(enc)
    # Words and the same words as a list hash alike; other words do not.
    assert D.Job.key(enc) == D.Job.key(job.encode([int(w) for w in words]))
    assert D.Job.key(enc) != D.Job.key(job.encode(words[:2]))
    packed = D.Job.packed(num_inputs=3, sites_per_kernel=2)
    ptx = packed.render(packed.encode([words, words, words]))
    assert ptx.count(".entry mmptx_packed_") == 2 and "%x2" in ptx


def _two_injects():
    """TEMPLATE with a second inject, `other`, before `model`."""
    return TEMPLATE.replace(
        "// PTX_INJECT_START model", "// PTX_INJECT_START other\n"
        "\t// PTX_INJECT_END\n\t// PTX_INJECT_START model", 1)


@pytest.mark.parametrize("kind", ["inject", "packed", "ptx"])
def test_job_round_trips_through_the_wire(kind):
    """Every field of a job survives its job message, for each kind."""
    iset = S.InstructionSet(
        [("F32", "f"), ("U32", "r")], [("f", 0, 1), ("r", 1, 1)],
        [("add.ftz.f32", "add.ftz.f32", [0, 0], [0], 0)], [])
    opts = dict(arch="sm_90", backend="ptxas", opt_level=2, lineinfo=True,
                maxrregcount=40, options=["--fmad=false"],
                stack_options={"stack_size": 64, "strict": True})
    if kind == "inject":
        job = D.Job.inject(_two_injects(), "model", instruction_set=iset,
                           other_stubs={"other": "\t// \u00e9t\u00e9\n"},
                           registers=[("_x0", 0, "in"), ("_x1", "F32", "mod")],
                           **opts)
    elif kind == "packed":
        job = D.Job.packed(num_inputs=3, sites_per_kernel=16, prefix="k",
                           instruction_set=iset, **opts)
    else:
        job = D.Job.ptx(**opts)
    message = job.to_wire()
    assert W.message_kind(message) == "job"
    back = D.Job.from_wire(message)
    assert back == job and back.spec == job.spec
    assert back.to_wire() == message
    # The wire job's own records say what they can.
    j = W.loads_job(message)
    assert j["source_kind"] == {"inject": W.SOURCE_INJECT,
                                "packed": W.SOURCE_NONE,
                                "ptx": W.SOURCE_PTX}[kind]
    assert (j["target"], j["backend"], j["backend_options"]) == \
        ("sm_90", "ptxas", ["--fmad=false"])
    assert j["stack_options"]["stack_size"] == 64
    assert j["metadata"]["job"] == kind and j["metadata"]["farm"] == "1"
    if kind == "inject":
        # One request list per inject: the site's, and none for `other`.
        assert j["requests"] == [[], [1]] and j["trusted"]
        assert [r[:2] for r in j["registers"]] == [("_x0", 0), ("_x1", 0)]


def test_bad_job_messages_are_clean_errors():
    message = bytearray(D.Job.packed().to_wire())
    bad = bytes(message[:30]) + bytes([message[30] ^ 1]) + bytes(message[31:])
    with pytest.raises(W.WireError, match="checksum mismatch"):
        D.Job.from_wire(bad)
    with pytest.raises(W.WireError, match=r"byte 16: payload length \d+ "
                       r"does not fit the message \(40 bytes\)"):
        D.Job.from_wire(bytes(message[:40]))
    # Another format version: what a worker of another mmptx reports.
    newer = bytes(message[:8]) + b"\x02\x00" + bytes(message[10:])
    with pytest.raises(W.WireError, match="format version 2 is not "
                       "supported \\(this build reads version 1\\)"):
        D.Job.from_wire(newer)
    with pytest.raises(D.FarmError, match="not a compile farm job of this "
                       "mmptx \\(it has no 'farm' metadata\\)"):
        D.Job.from_wire(W.dumps_job({}))
    with pytest.raises(D.FarmError, match="farm layout '9'"):
        D.Job.from_wire(W.dumps_job({"metadata": {"farm": "9"}}))
    with pytest.raises(D.FarmError, match="incomplete or malformed"):
        D.Job.from_wire(W.dumps_job({"source_kind": W.SOURCE_PTX,
                                     "metadata": {"farm": "1",
                                                  "job": "ptx"}}))
    with pytest.raises(TypeError, match="unknown Stack PTX option 'size'"):
        D.Job.packed(stack_options={"size": 3})


def test_a_corrupted_job_message_fails_the_batch(cluster):
    """A corrupted job message is a WireError on the driver: when given
    to the farm, and when a worker reads it."""
    job = D.Job.packed(num_inputs=2, sites_per_kernel=4)
    message = job.to_wire()
    bad = message[:-1] + bytes([message[-1] ^ 0x40])
    with pytest.raises(W.WireError, match="checksum mismatch"):
        D.Farm(bad)
    ray = pytest.importorskip("ray")
    with D.Farm(job, workers=1) as farm:
        farm._job_ref = ray.put(bad)  # in place of the real one
        farm._replace(0)
        assert ray.get(farm._actors[0].received.remote()) == \
            ("bytes", len(bad), None)
        with pytest.raises(W.WireError, match="checksum mismatch"):
            farm.compile([random_programs(2, seed=5)])


def test_build_packed_module():
    stubs = ["\tmov.f32 %y, %x0;", "\tadd.f32 %y, %x0, %x1;\n"] * 3
    ptx = mmptx.build_packed_module(stubs, num_inputs=2, sites_per_kernel=4,
                                    arch="sm_90", prefix="k")
    assert ".target sm_90" in ptx and "// Packed injects: 6 programs" in ptx
    assert ptx.count(".visible .entry k_") == 2 and "add.f32 %y" in ptx
    with pytest.raises(mmptx.CompileError, match="sites per kernel must be "
                       "at least 1"):
        mmptx.build_packed_module(stubs, sites_per_kernel=0)
    with pytest.raises(mmptx.CompileError, match="'1k' is not a PTX "
                       "identifier"):
        mmptx.build_packed_module(stubs, prefix="1k")
    with pytest.raises(mmptx.CompileError, match="unknown architecture "
                       "'gfx90a'"):
        mmptx.build_packed_module(stubs, arch="gfx90a")
    with pytest.raises(TypeError, match="takes a list of stubs"):
        mmptx.build_packed_module("one stub")


def test_cute_variants_on_the_farm(cluster):
    """examples/python/compile_farm.py's CuTe step: the pruned NVRTC template
    of the CuTe GEMM as an inject job, mutated L1 programs compiled on both
    nodes, byte-identical to a local batch."""
    import importlib.util
    import os
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples",
                        "python", "compile_farm.py")
    spec = importlib.util.spec_from_file_location("compile_farm", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    made, why = example.cute_job()
    if made is None:
        pytest.skip(why)
    job, words = made
    variants = example.mutations(words, 4, seed=3)
    want = job.compile_local(variants)
    assert all(r.ok for r in want), [r.error for r in want]
    with D.Farm(job, address=cluster.address, memo=0) as farm:
        got = farm.compile(variants)
    same(got, want)
