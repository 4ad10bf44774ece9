#!/usr/bin/env python3
"""Runs the compile-throughput and own-part benchmarks in one run and prints
them side by side with the reference system's figures, as a Markdown report.

  python3 bench/report.py [--build build] [--sections prune,packed,inject,cold]
                          [--repetitions 5] [--cold-runs 21]
                          [--callgrind-creates 1000] [--out FILE]

Sections (each one benchmark binary of the build):
  prune   CPU ms per CuTe GEMM variant, unpruned and pruned, per backend
          (mmptx-bench-prune; needs NVRTC and the CUTLASS headers)
  packed  programs per CPU-second of the packed benchmark (2,048 random
          32-word programs, 16 kernels x 128 sites) in the default mode, with
          -Ofast-compile=mid and with the fast-compile vocabulary
          (mmptx-bench-pipeline)
  inject  checked and trusted create, checked and unchecked render of the
          768-byte one-site kernel (mmptx-bench-inject); the create also in
          instructions where valgrind is installed
  cold    the first create in a fresh process, median of --cold-runs
          (mmptx-bench-inject --cold-report)

A section whose benchmark reports an error (a backend or NVRTC missing) says
so in its place. The report starts with the machine, its load at the start
and at the end, and the commit, so that figures of one run can be compared.
Timings are what this machine gave; nothing here is a pass/fail threshold.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys

SECTIONS = ("prune", "packed", "inject", "cold")

# The reference system's figures (mm-ptx 1.1.1), as docs/Performance.md
# gives them: published, or derived where it says so.
REFERENCE_PROGRAMS_PER_THREAD = 3170
REFERENCE_RENDER_NS = 100
REFERENCE_CREATE_INSTR = 38000
REFERENCE_COLD_CREATE_US = 19

PACKED_MODES = ("default", "Ofast-compile=mid", "fast-compile")


class BenchError(Exception):
    pass


def run_json(binary, args):
    """Runs a Google Benchmark binary and returns its JSON report."""
    if not os.path.exists(binary):
        raise BenchError(f"{binary} is not built")
    cmd = [binary, "--benchmark_format=json"] + args
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    if res.returncode != 0:
        raise BenchError(f"{' '.join(cmd)} failed ({res.returncode}): "
                         f"{res.stderr.strip()[-500:]}")
    try:
        return json.loads(res.stdout)
    except json.JSONDecodeError as e:
        raise BenchError(f"{binary}: no JSON report ({e}): "
                         f"{res.stderr.strip()[-500:]}")


def rows(report):
    """The benchmark rows of a report (no aggregates), errors raised."""
    out = []
    for b in report.get("benchmarks", []):
        if b.get("error_occurred"):
            raise BenchError(f"{b['name']}: {b.get('error_message', '')}")
        if b.get("run_type", "iteration") == "iteration":
            out.append(b)
    return out


def median_by_name(report, key):
    """{row name: median of key over its repetitions}."""
    vals = {}
    for b in rows(report):
        vals.setdefault(b["run_name"], []).append(float(b[key]))
    return {k: statistics.median(v) for k, v in vals.items()}


def machine_header(build):
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^model name\s*:\s*(.+)$", f.read(), re.M)
            if m:
                cpu = m.group(1).strip()
    except OSError:
        pass
    commit = subprocess.run(
        ["git", "-C", os.path.dirname(os.path.abspath(__file__)), "rev-parse",
         "--short", "HEAD"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True).stdout.strip() or "unknown"
    now = datetime.datetime.now(datetime.timezone.utc)
    return [f"# mmptx benchmark report, {now:%Y-%m-%d %H:%M} UTC", "",
            f"- machine: {cpu}, {os.cpu_count()} logical CPUs, "
            f"{platform.system()} {platform.release()}",
            f"- commit: {commit}; build: {build}",
            f"- load average at the start: {os.getloadavg()[0]:.2f}", ""]


def section_prune(bin_dir, args):
    report = run_json(os.path.join(bin_dir, "mmptx-bench-prune"),
                      ["--benchmark_filter=BM_CuteVariant"])
    table = {}
    for b in rows(report):
        label = b.get("label", "")
        backend, _, state = label.rpartition(", ")
        table.setdefault(backend, {})[state] = b
    out = ["## CuTe GEMM variant to cubin, unpruned and pruned template", "",
           "CPU ms per variant (process and ptxas children); one thread.", "",
           "| backend | unpruned | pruned | pruned / unpruned |",
           "|---|---:|---:|---:|"]
    for backend, st in table.items():
        if "unpruned" not in st or "pruned" not in st:
            continue
        u = st["unpruned"]["cpu_ms_per_variant"]
        p = st["pruned"]["cpu_ms_per_variant"]
        out.append(f"| {backend} | {u:.1f} | {p:.1f} | {p / u:.2f} |")
    return out


def section_packed(bin_dir, args):
    # The mode names are literal in the benchmark's regex ('-', '=').
    modes = "|".join(PACKED_MODES)
    report = run_json(os.path.join(bin_dir, "mmptx-bench-pipeline"),
                      [f"--benchmark_filter=BM_Packed/({modes})/"])
    table = {}
    for b in rows(report):
        _, mode, backend = b["run_name"].split("/")[:3]
        table.setdefault(mode, {})[backend] = b["programs_per_cpu_s"]
    backends = ("nvptxcompiler", "nvjitlink", "ptxas")
    out = ["## Packed programs per CPU-second", "",
           "2,048 random 32-word f32 programs, 16 kernels x 128 sites; the "
           f"reference's published figure is about "
           f"{REFERENCE_PROGRAMS_PER_THREAD:,} per GH200 thread.", "",
           "| mode | " + " | ".join(backends) + " | best / reference |",
           "|---|" + "---:|" * (len(backends) + 1)]
    for mode in PACKED_MODES:
        if mode not in table:
            continue
        vals = [table[mode].get(b) for b in backends]
        cells = [f"{v:,.0f}" if v is not None else "-" for v in vals]
        best = max(v for v in vals if v is not None)
        out.append(f"| {mode} | " + " | ".join(cells) +
                   f" | {best / REFERENCE_PROGRAMS_PER_THREAD:.1f}x |")
    return out


def section_inject(bin_dir, args):
    report = run_json(
        os.path.join(bin_dir, "mmptx-bench-inject"),
        ["--benchmark_filter=BM_(Create|RenderBuffer)/2/",
         f"--benchmark_repetitions={args.repetitions}"])
    ns = {k: v for k, v in median_by_name(report, "cpu_time").items()}
    unit = {b["run_name"]: b["time_unit"] for b in rows(report)}
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6}

    def get(name):
        if name not in ns:
            raise BenchError(f"mmptx-bench-inject gave no row {name}")
        return ns[name] * scale[unit[name]]

    create_c, create_t = get("BM_Create/2/1"), get("BM_Create/2/0")
    render_c, render_t = get("BM_RenderBuffer/2/1"), get("BM_RenderBuffer/2/0")
    instr = create_instructions(bin_dir, args.callgrind_creates)
    return ["## Create and render of a small kernel", "",
            "bench/corpus/ptx_inject_simple_kernel.ptx (768 bytes, one site); "
            f"CPU time, median of {args.repetitions}. The reference's figures "
            "are derived (docs/Performance.md): a create of about "
            f"{REFERENCE_CREATE_INSTR:,} instructions, a render of about "
            f"{REFERENCE_RENDER_NS} ns.", "",
            "| operation | checked | trusted / unchecked | checked / trusted |",
            "|---|---:|---:|---:|",
            f"| create | {create_c:,.0f} ns | {create_t:,.0f} ns | "
            f"{create_c / create_t:.2f} |",
            f"| render | {render_c:,.1f} ns | {render_t:,.1f} ns | "
            f"{render_c / render_t:.2f} |",
            instr]


def create_instructions(bin_dir, creates):
    """The create row in instructions (callgrind), as a table row."""
    head = "| create, instructions (callgrind) | "
    if creates == 0:
        return head + "not measured (--callgrind-creates 0) | | |"
    if not shutil.which("valgrind"):
        return head + "not measured (valgrind not found) | | |"
    per = {}
    for mode in ("checked", "trusted"):
        res = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
             "--toggle-collect=mmptx::InjectModule::create*",
             os.path.join(bin_dir, "mmptx-bench-inject"), f"--calls={mode}",
             "ptx_inject_simple_kernel.ptx", str(creates)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        m = re.search(r"I\s+refs:\s+([\d,]+)", res.stderr)
        if res.returncode != 0 or not m:
            raise BenchError(f"callgrind of --calls={mode} failed: "
                             f"{res.stderr.strip()[-300:]}")
        per[mode] = int(m.group(1).replace(",", "")) / creates
    return (head + f"{per['checked']:,.0f} | {per['trusted']:,.0f} | "
            f"{per['checked'] / per['trusted']:.2f} |")


def section_cold(bin_dir, args):
    binary = os.path.join(bin_dir, "mmptx-bench-inject")
    if not os.path.exists(binary):
        raise BenchError(f"{binary} is not built")
    res = subprocess.run([binary, "--cold-report", str(args.cold_runs)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    if res.returncode != 0:
        raise BenchError(f"--cold-report failed: {res.stderr.strip()}")
    out = ["## The first create in a fresh process", "",
           f"Median of {args.cold_runs} fresh processes; the reference's "
           f"figure is {REFERENCE_COLD_CREATE_US} us for the small kernel.", "",
           "| file | mode | create | page faults |", "|---|---|---:|---:|"]
    for line in res.stdout.splitlines()[1:]:
        f = line.split()
        if len(f) == 5:
            out.append(f"| {f[0]} | {f[1]} | {float(f[2]):.1f} us | {f[3]} |")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build",
                    help="the build directory (default: build)")
    ap.add_argument("--sections", default=",".join(SECTIONS),
                    help="comma-separated, of " + ", ".join(SECTIONS))
    ap.add_argument("--repetitions", type=int, default=5,
                    help="repetitions of the create and render rows")
    ap.add_argument("--cold-runs", type=int, default=21,
                    help="fresh processes per first-create row")
    ap.add_argument("--callgrind-creates", type=int, default=1000,
                    help="creates per callgrind run of the instruction row "
                    "(0: no callgrind run)")
    ap.add_argument("--out", help="also write the report to this file")
    args = ap.parse_args(argv)
    sections = [s for s in args.sections.split(",") if s]
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        ap.error(f"unknown section '{unknown[0]}' (sections: "
                 f"{', '.join(SECTIONS)})")
    if args.repetitions < 1 or args.cold_runs < 1 or args.callgrind_creates < 0:
        ap.error("--repetitions and --cold-runs must be at least 1, "
                 "--callgrind-creates at least 0")
    bin_dir = os.path.join(args.build, "bin")
    lines = machine_header(args.build)
    failed = False
    for name in sections:
        try:
            lines += globals()["section_" + name](bin_dir, args)
        except BenchError as e:
            lines += [f"## {name}", "", f"not measured: {e}"]
            failed = True
        lines.append("")
    lines.append(f"Load average at the end: {os.getloadavg()[0]:.2f}.")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        # Whole or not at all: a report is never left half-written.
        tmp = args.out + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, args.out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
