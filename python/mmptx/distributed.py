"""A compile farm on Ray: PTX -> cubin on the CPUs of many machines.

    import mmptx, mmptx.distributed as D
    job = D.Job.packed(num_inputs=2, sites_per_kernel=128, arch="sm_80")
    with D.Farm(job, address="auto") as farm:      # or address=None: local
        results = farm.compile(packs, progress=True)   # CompileResults, in order
        for i, r in farm.as_completed(more_packs):     # as they complete
            ...

A :class:`Job` is the part of the work that is the same for every program:
the template PTX and its inject site (or the packed-module shape), the
Stack PTX instruction set, registers and requests, and the compiler
options. The farm ships it once, as one wire job message
(:meth:`Job.to_wire`, see :mod:`mmptx.wire`), to a pool of actors, one per
CPU the cluster offers, which read and set it up once; then each task's
programs travel as one wire programs message (a word array is its 8-byte
words, a stub or a PTX text its bytes) and its cubins come back as one
wire results message. What a task computes is exactly what
:meth:`Job.compile_local` computes on this machine with
:func:`mmptx.compile_batch`, so the cubins are byte-identical. A worker
whose mmptx reads another wire format version (or a corrupted message)
fails with :class:`mmptx.wire.WireError`, raised on the driver.

* Deduplication: the driver hashes each item; a program submitted twice
  is compiled once: its copies in a call say ``source == "duplicate"``,
  and what an earlier call compiled (the last ``memo`` results are
  remembered) ``"cached"``.
* ``cache_dir``: each worker's content-keyed cubin cache (a directory per
  node, or one on a shared file system for the whole farm).
* Back-pressure: at most ``max_in_flight`` tasks (default two per worker)
  are submitted at once; the driver never holds more than that many
  results it has not handed out.
* A worker that dies (its process killed, its node lost) is replaced and
  the tasks it held are submitted again; each result is handed out once.
* ``progress=True`` shows a tqdm bar; :meth:`Farm.cancel` (or leaving an
  :meth:`Farm.as_completed` loop) cancels the tasks not yet finished.

Ray is an optional dependency (``pip install mmptx[ray]``); importing this
module without it works, creating a :class:`Farm` raises ImportError.
"""

import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from . import backend as _backend
from . import inject as _inject
from . import stack as _stack
from . import wire as _wire
from .backend import CompileResult

__all__ = ["Job", "Farm", "FarmError", "LocalCluster"]

#: The layout of the farm's metadata in a job message; a worker refuses a
#: job of another layout.
FARM_LAYOUT = "1"

# A job's kind, as its wire source kind.
_SOURCE_KINDS = {"inject": _wire.SOURCE_INJECT, "packed": _wire.SOURCE_NONE,
                 "ptx": _wire.SOURCE_PTX}
_STACK, _STUB, _PTX = (_wire.PROGRAM_STACK, _wire.PROGRAM_STUB,
                       _wire.PROGRAM_PTX)


class FarmError(RuntimeError):
    """The farm could not do what was asked (no cluster, a task that kept
    killing its workers, a cancelled batch, a job message that is not a
    farm's)."""


def _np():
    import numpy

    return numpy


def _word_list(words):
    np = _np()
    a = np.ascontiguousarray(words, dtype=np.uint64)
    if a.ndim != 1:
        raise ValueError("a program is a 1-D array of uint64 words")
    return a.tolist()


class Job:
    """What every task of a farm shares, as plain data (``spec``), sent as
    one wire job message (:meth:`to_wire`, :meth:`from_wire`).

    Build one with :meth:`inject` (a program per task, spliced into a
    template's inject site), :meth:`packed` (a pack of programs per task,
    one packed module) or :meth:`ptx` (rendered PTX per task). ``arch``,
    ``backend``, ``opt_level``, ``lineinfo``, ``maxrregcount`` and
    ``options`` are :func:`mmptx.compile_batch`'s."""

    def __init__(self, kind, arch="sm_80", backend=None, opt_level=3,
                 lineinfo=False, maxrregcount=0, options=(), template=None,
                 site=None, other_stubs=None, registers=None, requests=None,
                 instruction_set=None, stack_options=None, num_inputs=2,
                 sites_per_kernel=128, prefix="mmptx_packed"):
        if kind not in _SOURCE_KINDS:
            raise ValueError(f"unknown job kind '{kind}'")
        # Every Stack PTX option by keyword: what the wire job holds.
        full = _stack.default_options()
        for k, v in dict(stack_options or {}).items():
            if v is None:  # the default, as for a Compiler
                continue
            if k not in full:
                raise TypeError(f"unknown Stack PTX option '{k}' (one of "
                                f"{', '.join(full)})")
            full[k] = type(full[k])(v)
        self.spec = dict(
            kind=kind, arch=arch, backend=backend, opt_level=int(opt_level),
            lineinfo=bool(lineinfo), maxrregcount=int(maxrregcount),
            options=list(options), template=template, site=site,
            other_stubs=dict(other_stubs or {}),
            registers=[list(r) for r in registers] if registers else None,
            requests=list(requests) if requests is not None else None,
            instruction_set=instruction_set, stack_options=full,
            num_inputs=int(num_inputs),
            sites_per_kernel=int(sites_per_kernel), prefix=prefix)
        self._ready = None

    def __eq__(self, other):
        return isinstance(other, Job) and self.spec == other.spec

    __hash__ = None

    # -- constructors -----------------------------------------------------

    @staticmethod
    def _iset_tables(iset):
        if iset is None or iset is _stack.default_instruction_set():
            return None
        n = iset._native
        return [[list(s) for s in n.stacks], [list(a) for a in n.arg_types],
                [[i[0], i[1], list(i[2]), list(i[3]), i[4]]
                 for i in n.instructions],
                [list(s) for s in n.specials]]

    @classmethod
    def inject(cls, template, site=None, registers=None, requests=None,
               instruction_set=None, stack_options=None, other_stubs=None,
               **compile_options):
        """A program per task: Stack PTX words compiled to a stub (or a
        stub given as text), rendered into ``site`` of ``template`` (a PTX
        text or :class:`mmptx.inject.Module`; default its only inject),
        compiled to a cubin. ``registers`` default to the site's variables
        (register name, type, kind); ``requests`` to its out and mod
        variables in order. ``other_stubs`` ({inject name: stub}) fills the
        template's other injects."""
        if isinstance(template, _inject.Module):
            template = template.ptx
        module = _inject.Module(template, name="<template>")
        if site is None:
            if len(module) - len(other_stubs or {}) != 1:
                raise ValueError("Job.inject: the template has injects "
                                 f"{module.keys()}: say which is the site")
            site = next(k for k in module.keys()
                        if k not in (other_stubs or {}))
        inj = module[site]
        if registers is None:
            registers = [(v.register, v.type, v.kind) for v in inj]
        else:
            registers = [(r[0], r[1], r[2] if len(r) > 2 else "in")
                         for r in registers]
        iset = instruction_set or _stack.default_instruction_set()
        registers = [(n, iset.stacks[s] if isinstance(s, int) else s, k)
                     for n, s, k in registers]
        if requests is None:
            requests = [i for i, r in enumerate(registers)
                        if r[2] in ("out", "mod")]
        names = [r[0] for r in registers]
        requests = [names.index(r) if isinstance(r, str) else int(r)
                    for r in requests]
        return cls("inject", template=template, site=site,
                   other_stubs=other_stubs, registers=registers,
                   requests=requests,
                   instruction_set=cls._iset_tables(instruction_set),
                   stack_options=stack_options, **compile_options)

    @classmethod
    def packed(cls, num_inputs=2, sites_per_kernel=128, prefix="mmptx_packed",
               instruction_set=None, stack_options=None, **compile_options):
        """A pack of programs per task, built into one module by
        :func:`mmptx.build_packed_module` (registers ``x0``... in, ``y``
        out, all F32; ``y`` requested)."""
        registers = [(f"x{j}", "F32", "in") for j in range(num_inputs)]
        registers.append(("y", "F32", "out"))
        return cls("packed", registers=registers, requests=[num_inputs],
                   instruction_set=cls._iset_tables(instruction_set),
                   stack_options=stack_options, num_inputs=num_inputs,
                   sites_per_kernel=sites_per_kernel, prefix=prefix,
                   **compile_options)

    @classmethod
    def ptx(cls, **compile_options):
        """Rendered PTX texts, compiled as they are."""
        return cls("ptx", **compile_options)

    # -- the wire job -----------------------------------------------------

    def _instruction_set(self):
        t = self.spec["instruction_set"]
        return _stack.InstructionSet(*t) if t else \
            _stack.default_instruction_set()

    def _injects(self):
        """The template's inject names, in inject order."""
        return self._setup()["module"].keys()

    def to_wire(self):
        """The job as one wire job message (:func:`mmptx.wire.dumps_job`).

        The template is an inject source (read trusted), a packed job has
        no source, a PTX job a PTX one with no text; registers, requests
        (the site's list at its inject's index, empty ones for the other
        injects), the instruction set, Stack PTX options, ``arch`` (the
        target) and ``backend`` with ``options`` are the job's own records.
        What only the farm needs is metadata: ``farm`` (the layout, "1"),
        ``job`` (the kind), ``opt_level``, ``lineinfo``, ``maxrregcount``;
        a packed job's ``num_inputs``, ``sites_per_kernel``, ``prefix``; an
        inject job's ``site`` and ``stub:<inject>`` for each of
        ``other_stubs``."""
        s = self.spec
        kind = s["kind"]
        meta = {"farm": FARM_LAYOUT, "job": kind,
                "opt_level": str(s["opt_level"]),
                "lineinfo": "1" if s["lineinfo"] else "0",
                "maxrregcount": str(s["maxrregcount"])}
        job = dict(source_kind=_SOURCE_KINDS[kind], target=s["arch"],
                   backend=s["backend"] or "", backend_options=s["options"],
                   instruction_set=s["instruction_set"],
                   stack_options=s["stack_options"], metadata=meta)
        if s["registers"] is not None:
            iset = self._instruction_set()
            job["registers"] = [(n, iset.stack_index(st), k)
                                for n, st, k in s["registers"]]
        if kind == "inject":
            job.update(source_name="<template>", source=s["template"],
                       trusted=True)
            injects = self._injects()
            job["requests"] = [s["requests"] if name == s["site"] else []
                               for name in injects]
            meta["site"] = s["site"]
            for name, stub in s["other_stubs"].items():
                meta["stub:" + name] = stub
        elif kind == "packed":
            job["requests"] = [s["requests"]]
            meta.update(num_inputs=str(s["num_inputs"]),
                        sites_per_kernel=str(s["sites_per_kernel"]),
                        prefix=s["prefix"])
        return _wire.dumps_job(job)

    @classmethod
    def from_wire(cls, data):
        """The job of a job message (:meth:`to_wire`'s). Raises
        :class:`mmptx.wire.WireError` for bytes that are not a valid
        message and :class:`FarmError` for a job that is not a farm's."""
        j = _wire.loads_job(bytes(data))
        meta = j["metadata"]
        if meta.get("farm") != FARM_LAYOUT:
            raise FarmError(
                "the job message is not a compile farm job of this mmptx "
                + (f"(farm layout '{meta['farm']}'; this one reads "
                   f"'{FARM_LAYOUT}')" if "farm" in meta
                   else "(it has no 'farm' metadata)"))
        kind = meta.get("job")
        if _SOURCE_KINDS.get(kind) != j["source_kind"]:
            raise FarmError(f"the job message's job kind '{kind}' does not "
                            f"match its source kind {j['source_kind']}")
        iset = j["instruction_set"]
        if iset is not None:
            iset = [[list(x) for x in iset[0]], [list(x) for x in iset[1]],
                    [[i[0], i[1], list(i[2]), list(i[3]), i[4]]
                     for i in iset[2]],
                    [list(x) for x in iset[3]]]
        try:
            args = dict(arch=j["target"], backend=j["backend"] or None,
                        opt_level=int(meta["opt_level"]),
                        lineinfo=meta["lineinfo"] == "1",
                        maxrregcount=int(meta["maxrregcount"]),
                        options=j["backend_options"], instruction_set=iset,
                        stack_options=j["stack_options"])
            if kind == "packed":
                args.update(num_inputs=int(meta["num_inputs"]),
                            sites_per_kernel=int(meta["sites_per_kernel"]),
                            prefix=meta["prefix"])
            elif kind == "inject":
                args.update(template=j["source"], site=meta["site"],
                            other_stubs={k[5:]: v for k, v in meta.items()
                                         if k.startswith("stub:")})
        except (KeyError, ValueError) as e:
            raise FarmError(f"the job message's farm metadata is incomplete "
                            f"or malformed: {e!r}") from None
        job = cls(kind, **args)
        if kind != "ptx":
            names = job._instruction_set().stacks
            job.spec["registers"] = [[n, names[st], k]
                                     for n, st, k in j["registers"]]
            reqs = j["requests"]
            if kind == "inject":
                injects = job._injects()
                if len(reqs) != len(injects) or job.spec["site"] not in \
                        injects:
                    raise FarmError(
                        f"the job message's site '{job.spec['site']}' and "
                        f"{len(reqs)} request lists do not fit the template's "
                        f"injects {injects}")
                reqs = reqs[injects.index(job.spec["site"])]
            else:
                reqs = reqs[0] if len(reqs) == 1 else None
                if reqs is None:
                    raise FarmError("a packed job message has one request "
                                    "list")
            job.spec["requests"] = list(reqs)
        return job

    # -- the items of a task ----------------------------------------------

    def encode(self, item):
        """``item`` as the programs of one variant of a wire programs
        message: [(kind, inject, words, routines, text)]: a word array as
        Stack PTX words, a stub as a stub, for the site's inject (a pack:
        a program per site, inject i for its i-th), a PTX text as PTX."""
        kind = self.spec["kind"]
        if kind == "ptx":
            if isinstance(item, bytes):
                item = item.decode("utf-8", "surrogateescape")
            if not isinstance(item, str):
                raise TypeError("a ptx job takes PTX texts")
            return [(_PTX, 0, [], [], item)]
        if kind == "packed":
            if isinstance(item, (str, bytes)) or not hasattr(item, "__len__"):
                raise TypeError("a packed job takes packs: sequences of "
                                "programs (word arrays or stubs)")
            return [self._encode_program(p, i) for i, p in enumerate(item)]
        return [self._encode_program(item, self._site_index())]

    def _site_index(self):
        if self._ready is None or "site" not in self._ready:
            self._setup()["site"] = self._injects().index(self.spec["site"])
        return self._ready["site"]

    @staticmethod
    def _encode_program(p, inject):
        if isinstance(p, str):
            return (_STUB, inject, [], [], p)
        return (_STACK, inject, _word_list(p), [], "")

    @staticmethod
    def key(encoded):
        """The content hash of an encoded item (the farm's dedup key): of
        its programs message."""
        h = hashlib.blake2b(digest_size=20)
        h.update(_wire.dumps_programs([(0, encoded)]))
        return h.hexdigest()

    # -- the work ---------------------------------------------------------

    def _setup(self):
        if self._ready is not None:
            return self._ready
        s = self.spec
        ready = {}
        if s["kind"] != "ptx":
            cc = _stack.Compiler(self._instruction_set(), **s["stack_options"])
            ready["compiler"] = cc
            ready["registers"] = cc.instruction_set.registers(
                [tuple(r) for r in s["registers"]])
        if s["kind"] == "inject":
            ready["module"] = _inject.Module(s["template"], name="<template>",
                                             trusted=True)
        self._ready = ready
        return ready

    def _stub(self, program):
        kind, _, words, _, text = program
        if kind == _STUB:
            return text
        if kind != _STACK:
            raise ValueError(f"a {self.spec['kind']} job takes Stack PTX "
                             f"words or stubs, not program kind {kind}")
        np = _np()
        r = self._setup()
        return r["compiler"].compile(np.array(words, dtype=np.uint64),
                                     r["registers"], self.spec["requests"])

    def render(self, encoded):
        """The PTX of one encoded item (see :meth:`encode`)."""
        s = self.spec
        if s["kind"] == "ptx":
            if len(encoded) != 1 or encoded[0][0] != _PTX:
                raise ValueError("a ptx job takes one PTX text a variant")
            return encoded[0][4]
        if s["kind"] == "packed":
            np = _np()
            r = self._setup()
            stubs = [None] * len(encoded)
            words = [(i, np.array(p[2], dtype=np.uint64))
                     for i, p in enumerate(encoded) if p[0] == _STACK]
            if words:
                compiled = r["compiler"].compile_batch(
                    [w for _, w in words], r["registers"], s["requests"])
                for (i, _), stub in zip(words, compiled):
                    stubs[i] = stub
            for i, p in enumerate(encoded):
                if p[0] != _STACK:
                    stubs[i] = self._stub(p)
            return _backend.build_packed_module(
                stubs, s["num_inputs"], s["sites_per_kernel"], s["arch"],
                s["prefix"])
        if len(encoded) != 1 or encoded[0][1] != self._site_index():
            raise ValueError(f"an inject job takes one program a variant, "
                             f"for inject {self._site_index()} "
                             f"('{s['site']}')")
        stubs = dict(s["other_stubs"])
        stubs[s["site"]] = self._stub(encoded[0])
        return self._setup()["module"].render(stubs)

    def _compile(self, encoded, names, jobs, cache_dir):
        """CompileResults of encoded items: render each (an item that does
        not render fails with its located message), one compile_batch."""
        s = self.spec
        ptx, failed = [], {}
        for i, e in enumerate(encoded):
            try:
                ptx.append(self.render(e))
            except Exception as err:  # a located error of the item itself
                failed[i] = f"{names[i]}: error: {err}"
        todo = [i for i in range(len(encoded)) if i not in failed]
        res = _backend.compile_batch(
            ptx, arch=s["arch"], backend=s["backend"], jobs=jobs,
            cache_dir=cache_dir, opt_level=s["opt_level"],
            lineinfo=s["lineinfo"], maxrregcount=s["maxrregcount"],
            options=s["options"], names=[names[i] for i in todo])
        out = [None] * len(encoded)
        for i, r in zip(todo, res):
            out[i] = r
        for i, msg in failed.items():
            out[i] = CompileResult(names[i], False, None, msg, "", "compiled",
                                   "", 0.0)
        return out

    def compile_message(self, programs, names=None, jobs=1, cache_dir=None):
        """Compiles a wire programs message (a variant per item, its id the
        item's index) to a wire results message (a result per variant,
        with its id). ``names``: one per variant, default ``<item#id>``.
        What a farm worker runs."""
        variants = _wire.loads_programs(programs)
        if names is None:
            names = ["<item#%d>" % v for v, _ in variants]
        elif len(names) != len(variants):
            raise FarmError(f"{len(names)} names for {len(variants)} "
                            "programs")
        res = self._compile([p for _, p in variants], names, jobs, cache_dir)
        return _wire.dumps_results([_wire._result_dict(r, id=v, name="")
                                    for (v, _), r in zip(variants, res)])

    def compile_local(self, items, names=None, jobs=0, cache_dir=None):
        """What a farm returns for ``items``, computed here with one
        :func:`mmptx.compile_batch` (the reference a farm's results are
        byte-identical to)."""
        items = list(items)
        names = _names(names, len(items))
        return self._compile([self.encode(x) for x in items], names, jobs,
                             cache_dir)


def _names(names, n):
    if names is None:
        return ["<item#%d>" % i for i in range(n)]
    names = [str(x) for x in names]
    if len(names) != n:
        raise ValueError(f"{len(names)} names for {n} items")
    return names


class _Worker:
    """A farm actor: the job message read and set up once, then a task per
    call. A job it cannot read fails each call with the reason (an actor
    whose constructor raises would look like a lost worker)."""

    def __init__(self, job_message, cache_dir):
        self.cache_dir = cache_dir
        self.job, self.error = None, None
        try:
            kind = _wire.message_kind(job_message)
        except Exception:
            kind = None
        self.sent = (type(job_message).__name__, len(job_message), kind)
        try:
            self.job = Job.from_wire(job_message)
            self.job._setup()
        except Exception as e:
            self.error = e

    def compile(self, programs, names):
        if self.error is not None:
            raise self.error
        return self.job.compile_message(programs, names, jobs=1,
                                        cache_dir=self.cache_dir)

    def received(self):
        """What this worker was sent: (type name, size, message kind or
        None when it is not a valid wire message)."""
        return self.sent

    def where(self):
        import ray

        return os.getpid(), ray.get_runtime_context().get_node_id()


def _ray():
    try:
        import ray
    except ImportError as e:
        raise ImportError("mmptx.distributed needs Ray: pip install "
                          "'ray[default]' (or mmptx[ray])") from e
    return ray


class Farm:
    """A pool of actors compiling a :class:`Job`'s items.

    ``job``: a :class:`Job`, or the bytes of its job message (from
    :meth:`Job.to_wire`, or written by the C++ or C wire API), read here
    first (:class:`mmptx.wire.WireError` if it is not a valid message).
    The message is put once into Ray's object store (``job_message``); each
    worker reads it.

    ``address``: a Ray cluster ("auto", "ray://host:10001", "host:6379");
    None starts a local one (or uses the Ray this process already
    initialised). ``workers``: actors in the pool (default: one per CPU
    the cluster offers, ``cpus_per_worker`` each). ``max_in_flight``: the
    most tasks submitted at once (default 2 per worker). ``chunk``: items
    per task (1). ``memo``: results remembered across calls for
    deduplication (most recent first; 0 turns it off). ``max_attempts``:
    how often a task is submitted before its items fail (a task that kills
    every worker it meets)."""

    def __init__(self, job, address=None, workers=None, cpus_per_worker=1.0,
                 max_in_flight=None, chunk=1, cache_dir=None, memo=4096,
                 max_attempts=3, init_options=None):
        ray = _ray()
        self._ray = ray
        if isinstance(job, Job):
            message = job.to_wire()
        else:
            message = bytes(job)
            job = Job.from_wire(message)
        if not ray.is_initialized():
            opts = dict(init_options or {})
            opts.setdefault("log_to_driver", False)
            opts.setdefault("include_dashboard", False)
            ray.init(address=address, **opts)
            self._owns_ray = True
        else:
            self._owns_ray = False
        self.job = job
        #: The job message the workers read.
        self.job_message = message
        self._job_ref = ray.put(message)
        if workers is None:
            cpus = int(ray.cluster_resources().get("CPU", 1))
            workers = max(1, int(cpus // cpus_per_worker))
        self._actor_cls = ray.remote(num_cpus=cpus_per_worker,
                                     max_restarts=0)(_Worker)
        self._cache_dir = cache_dir
        self._actors = [self._new_actor() for _ in range(int(workers))]
        self.max_in_flight = int(max_in_flight or 2 * len(self._actors))
        self.chunk = max(1, int(chunk))
        self.max_attempts = max(1, int(max_attempts))
        self._memo = {}
        self._memo_size = int(memo)
        self._cancelled = False
        self.stats = dict(tasks=0, items=0, unique=0, resubmitted=0,
                          replaced_workers=0, bytes_sent=0, bytes_back=0)

    def _new_actor(self):
        return self._actor_cls.remote(self._job_ref, self._cache_dir)

    @property
    def workers(self):
        return len(self._actors)

    def where(self):
        """(pid, node id) of each worker (waits until they are up)."""
        return self._ray.get([a.where.remote() for a in self._actors])

    def kill_worker(self, index):
        """Kills worker ``index``'s process (for tests of recovery); returns
        its pid. Its tasks are submitted again when it is found dead."""
        import signal

        pid, _ = self._ray.get(self._actors[index].where.remote())
        os.kill(pid, signal.SIGKILL)
        return pid

    def cancel(self):
        """Stops the batch being iterated: no more tasks are submitted and
        those in flight are cancelled."""
        self._cancelled = True

    def compile(self, items, names=None, progress=False):
        """The results of ``items``, in order (a list of CompileResult)."""
        items = list(items)
        out = [None] * len(items)
        for i, r in self.as_completed(items, names, progress):
            out[i] = r
        if self._cancelled:
            raise FarmError("the batch was cancelled")
        return out

    def as_completed(self, items, names=None, progress=False):
        """Yields (index, CompileResult) as tasks complete; each index
        once."""
        ray = self._ray
        items = list(items)
        # Default names are not sent: a worker makes them from the ids.
        sent_names = names is not None
        names = _names(names, len(items))
        self._cancelled = False
        # Deduplicate on the driver: one task per distinct item.
        keys, first, dups, pending = [], {}, {}, []
        for i, item in enumerate(items):
            enc = self.job.encode(item)
            k = Job.key(enc)
            keys.append(k)
            if k in first:
                dups.setdefault(first[k], []).append(i)
            else:
                first[k] = i
                if k in self._memo:
                    continue
                pending.append((i, enc))
        self.stats["items"] += len(items)
        self.stats["unique"] += len(first)
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=len(items), unit="item", desc="compile")

        def hand_out(i, res):
            done = [(i, res)]
            for j in dups.get(i, ()):
                done.append((j, CompileResult(names[j], res.ok, res.cubin,
                                              res.error, res.log, "duplicate",
                                              res.backend, 0.0)))
            if bar:
                bar.update(len(done))
            return done

        # Items remembered from earlier calls.
        for k, i in list(first.items()):
            r = self._memo.get(k)
            if r is not None:
                for x in hand_out(i, CompileResult(
                        names[i], r.ok, r.cubin, r.error, r.log, "cached",
                        r.backend, 0.0)):
                    yield x
        tasks = [pending[j:j + self.chunk]
                 for j in range(0, len(pending), self.chunk)]
        queue = [(t, 0) for t in reversed(tasks)]  # (task, attempts so far)
        inflight = {}  # ref -> (task, attempts, actor index)
        load = [0] * len(self._actors)
        try:
            while (queue or inflight) and not self._cancelled:
                while queue and len(inflight) < self.max_in_flight:
                    task, attempts = queue.pop()
                    a = min(range(len(load)), key=load.__getitem__)
                    programs = _wire.dumps_programs(task)
                    task_names = [names[i] for i, _ in task] \
                        if sent_names else None
                    ref = self._actors[a].compile.remote(programs,
                                                         task_names)
                    inflight[ref] = (task, attempts + 1, a, self._actors[a])
                    load[a] += 1
                    self.stats["tasks"] += 1
                    self.stats["bytes_sent"] += len(programs) + sum(
                        len(n.encode("utf-8", "surrogateescape"))
                        for n in task_names or ())
                ready, _ = ray.wait(list(inflight), num_returns=1)
                ref = ready[0]
                task, attempts, a, actor = inflight.pop(ref)
                load[a] -= 1
                try:
                    message = ray.get(ref)
                except ray.exceptions.RayTaskError as err:
                    # A bad option or backend raises in the worker what a
                    # local compile_batch raises (CompileError): raise it.
                    cause = getattr(err, "cause", None)
                    if isinstance(cause, Exception):
                        raise cause from None
                    raise
                except (ray.exceptions.RayActorError,
                        ray.exceptions.WorkerCrashedError,
                        ray.exceptions.ObjectLostError) as err:
                    if self._actors[a] is actor:
                        self._replace(a)
                    if attempts >= self.max_attempts:
                        for i, _ in task:
                            for x in hand_out(i, CompileResult(
                                    names[i], False, None,
                                    f"{names[i]}: error: the task failed "
                                    f"{attempts} times: {type(err).__name__}",
                                    "", "compiled", "", 0.0)):
                                yield x
                        continue
                    self.stats["resubmitted"] += 1
                    queue.append((task, attempts))
                    continue
                self.stats["bytes_back"] += len(message)
                results = _wire.loads_results(message)
                ids = [i for i, _ in task]
                if sorted(r["id"] for r in results) != sorted(ids):
                    raise FarmError(
                        f"a worker answered for items "
                        f"{sorted(r['id'] for r in results)}, not for the "
                        f"items {sorted(ids)} of its task")
                for r in results:
                    i = r["id"]
                    res = _wire._compile_result(r, names[i])
                    self._remember(keys[i], res)
                    for x in hand_out(i, res):
                        yield x
        finally:
            for ref in inflight:
                try:
                    ray.cancel(ref)
                except Exception:
                    pass
            if bar:
                bar.close()

    def _replace(self, a):
        """Worker ``a`` is dead: a new actor takes its place (the dead one's
        other tasks in flight fail too, and are submitted again then)."""
        try:
            self._ray.kill(self._actors[a], no_restart=True)
        except Exception:
            pass
        self._actors[a] = self._new_actor()
        self.stats["replaced_workers"] += 1

    def _remember(self, key, res):
        if self._memo_size <= 0:
            return
        self._memo[key] = res
        while len(self._memo) > self._memo_size:
            self._memo.pop(next(iter(self._memo)))

    def close(self):
        """Kills the actors (and shuts down the Ray this farm started)."""
        for a in self._actors:
            try:
                self._ray.kill(a)
            except Exception:
                pass
        self._actors = []
        if self._owns_ray:
            self._ray.shutdown()
            self._owns_ray = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalCluster:
    """A Ray cluster of ``nodes`` nodes on this machine, each a separate
    ``ray start --block`` process (the head first) with ``cpus_per_node``
    CPUs, in its own process group and temporary directory: for tests and
    measurements of a multi-node farm without more machines. ``address``
    is what :class:`Farm` (or ``ray.init``) takes. :meth:`stop` (or
    leaving the ``with`` block) stops exactly these processes.

        with LocalCluster(nodes=2) as c, Farm(job, address=c.address) as f:
            ...
    """

    def __init__(self, nodes=2, cpus_per_node=1, timeout=120,
                 object_store_bytes=80_000_000):
        if nodes < 1:
            raise ValueError("a cluster needs at least one node")
        _ray()
        self.tmp = tempfile.mkdtemp(prefix="mmr")  # short: socket paths
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.procs = []
        env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
        # A private test cluster: Ray's token authentication stays off
        # (`ray start` would turn it on when ~/.ray/auth_token exists, which
        # a local ray.init() writes, while a driver's ray.init(address=...)
        # leaves it off), unless RAY_AUTH_MODE says otherwise.
        env.setdefault("RAY_AUTH_MODE", "disabled")
        self._env = env
        common = ["--block", f"--num-cpus={cpus_per_node}", "--num-gpus=0",
                  "--disable-usage-stats", "--node-ip-address=127.0.0.1",
                  f"--object-store-memory={int(object_store_bytes)}"]
        try:
            self._start(["start", "--head", f"--port={self.port}",
                         f"--temp-dir={self.tmp}", "--include-dashboard=false",
                         f"--ray-client-server-port={_free_port()}",
                         f"--dashboard-agent-listen-port={_free_port()}"]
                        + common, env)
            self._wait_nodes(1, timeout)
            for _ in range(nodes - 1):
                self._start(["start", f"--address={self.address}",
                             f"--dashboard-agent-listen-port={_free_port()}"]
                            + common, env)
            self._wait_nodes(nodes, timeout)
        except BaseException:
            self.stop()
            raise

    @staticmethod
    def _ray_cmd():
        exe = shutil.which("ray", path=os.path.dirname(sys.executable))
        return [exe] if exe else [sys.executable, "-m", "ray.scripts.scripts"]

    def _start(self, args, env):
        log = open(os.path.join(self.tmp, f"node{len(self.procs)}.log"), "w")
        with log:
            self.procs.append(subprocess.Popen(
                self._ray_cmd() + args, stdout=log, stderr=subprocess.STDOUT,
                env=env, start_new_session=True))

    def _wait_nodes(self, n, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for p in self.procs:
                if p.poll() is not None:
                    raise FarmError("ray start exited: " + self.logs())
            out = subprocess.run(
                self._ray_cmd() + ["status", f"--address={self.address}"],
                capture_output=True, text=True, env=self._env)
            if out.returncode == 0 and out.stdout.count("node_") >= n:
                return
            time.sleep(1)
        raise FarmError(f"{n} Ray node(s) not up in {timeout} s: "
                        + self.logs())

    def logs(self):
        """The tail of each node's output (for error messages)."""
        text = []
        for f in sorted(os.listdir(self.tmp)):
            if f.endswith(".log"):
                with open(os.path.join(self.tmp, f)) as fh:
                    text.append(f + ": " + fh.read()[-2000:])
        return "\n".join(text)

    def stop(self):
        """Stops the nodes (their process groups) and removes the
        temporary directory."""
        for p in reversed(self.procs):
            for sig, wait in ((signal.SIGTERM, 3), (signal.SIGKILL, 5)):
                try:
                    os.killpg(p.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    p.wait(wait)
                    # The group may outlive its leader: stop the rest too.
                    os.killpg(p.pid, signal.SIGKILL)
                except (subprocess.TimeoutExpired, ProcessLookupError):
                    pass
        self.procs = []
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
