#!/usr/bin/env python3
"""Rendering many variants of one template from Python: a fresh str per
variant, all kept (as a list of renders for a batch holds them), against
one reused bytearray (``Module.render(stubs, out=buf)``). Prints CPU time
and minor page faults per variant. Usage: render_into.py [VARIANTS]
"""

import os
import resource
import sys
import time

from mmptx.inject import Module

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
TEMPLATES = {
    "anchor_gemm": os.path.join(ROOT, "bench", "corpus",
                                "anchor_gemm_kernel.ptx"),
    "cute_gemm": os.path.join(ROOT, "test", "RealWorld", "Inputs",
                              "cute_gemm.sm_80.lineinfo.ptx"),
}


def stubs_for(module, k):
    """One stub per inject; the mma stub differs between variants."""
    out = {}
    for inj in module:
        if inj.name == "mma":
            out[inj.name] = ("\t{\n\t.reg .f32 %_a0;\n\tfma.rn.f32 %_a0, "
                             "%_x1, %_x2, %_x0;\n\tadd.ftz.f32 %_x0, %_a0, "
                             f"0f3F8000{10 + k % 8};\n\t}}")
        elif inj.name == "epilogue":
            out[inj.name] = "\tadd.ftz.f32 %_x0, %_x1, %_x2;"
        else:
            out[inj.name] = "\tmul.ftz.f32 %_x0, %_x0, 0f3F800000;"
    return out


def measure(fn, n):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    t0 = time.process_time()
    kept = fn(n)
    cpu = time.process_time() - t0
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    del kept
    return cpu / n, faults / n


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    for name, path in TEMPLATES.items():
        with open(path) as f:
            m = Module(f.read(), name=name, trusted=True)
        variants = [stubs_for(m, k) for k in range(8)]

        def fresh(n):
            return [m.render(variants[k % 8]) for k in range(n)]

        def reused(n):
            buf = bytearray()
            for k in range(n):
                m.render(variants[k % 8], out=buf)
            return buf

        for label, fn in (("fresh str per variant", fresh),
                          ("reused bytearray", reused)):
            best = min((measure(fn, n) for _ in range(3)), key=lambda r: r[0])
            print(f"{name:12s} {label:22s} {best[0] * 1e6:8.1f} us CPU, "
                  f"{best[1]:6.1f} page faults per variant")


if __name__ == "__main__":
    main()
