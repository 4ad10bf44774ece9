#!/usr/bin/env python3
"""mmptx from Python: one kernel compiled once, many variants.

1. The CUDA kernel marks an inject site with the device header
   (mmptx/cuda/ptx_inject.h, found through mmptx.get_include()).
2. It is compiled to PTX once (nvcc when present, else the PTX it gives is
   used as embedded below).
3. mmptx.inject finds the site and its variables.
4. mmptx.stack compiles Stack PTX programs into stubs for the site (one at
   a time, or many in one batch), checks one on the CPU interpreter, and
   mmptx.inject renders a complete PTX module per variant.
5. With ptxas present, one variant is assembled into a cubin.
Files go to the directory given as the argument (default: a new temp dir).
Runs without a GPU.
"""

import os
import shutil
import subprocess
import sys
import tempfile

import mmptx
from mmptx import stack as S

CUDA = r"""
#include "mmptx/cuda/ptx_inject.h"
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float xi = x[i], yi = y[i];
  PTX_INJECT("f", PTX_IN(F32, a), PTX_IN(F32, xi), PTX_MOD(F32, yi));
  y[i] = yi;
}
"""

# What `nvcc -ptx -arch=sm_80` makes of CUDA (the site part verbatim).
EMBEDDED_PTX = """\
.version 9.0
.target sm_80
.address_size 64

.visible .entry saxpy(
\t.param .f32 saxpy_param_0,
\t.param .u64 saxpy_param_1,
\t.param .u64 saxpy_param_2,
\t.param .u32 saxpy_param_3
)
{
\t.reg .pred \t%p<2>;
\t.reg .f32 \t%f<6>;
\t.reg .b32 \t%r<6>;
\t.reg .b64 \t%rd<8>;

\tld.param.f32 \t%f1, [saxpy_param_0];
\tld.param.u64 \t%rd1, [saxpy_param_1];
\tld.param.u64 \t%rd2, [saxpy_param_2];
\tld.param.u32 \t%r2, [saxpy_param_3];
\tmov.u32 \t%r3, %ctaid.x;
\tmov.u32 \t%r4, %ntid.x;
\tmov.u32 \t%r5, %tid.x;
\tmad.lo.s32 \t%r1, %r3, %r4, %r5;
\tsetp.ge.s32 \t%p1, %r1, %r2;
\t@%p1 bra \t$L__BB0_2;

\tcvta.to.global.u64 \t%rd3, %rd2;
\tcvta.to.global.u64 \t%rd4, %rd1;
\tmul.wide.s32 \t%rd5, %r1, 4;
\tadd.s64 \t%rd6, %rd4, %rd5;
\tld.global.f32 \t%f4, [%rd6];
\tadd.s64 \t%rd7, %rd3, %rd5;
\tld.global.f32 \t%f2, [%rd7];
\t// begin inline asm
\t{
\t.reg .f32 %_x0;
\t.reg .f32 %_x1;
\t.reg .f32 %_x2;
\tmov.f32 %_x0, %f1;
\tmov.f32 %_x1, %f4;
\tmov.f32 %_x2, %f2;
\t// MMPTX_INJECT_BEGIN f 3
\t// MMPTX_INJECT_ARG 0 in f32 F32 a
\t// MMPTX_INJECT_ARG 1 in f32 F32 xi
\t// MMPTX_INJECT_ARG 2 mod f32 F32 yi
\t// MMPTX_INJECT_END f
\tmov.f32 %f2, %_x2;
\t}
\t// end inline asm
\tst.global.f32 \t[%rd7], %f2;

$L__BB0_2:
\tret;

}
"""


def compile_once(tmp):
    """CUDA -> PTX with nvcc, or the embedded PTX without it."""
    nvcc = shutil.which("nvcc")
    if not nvcc:
        print("nvcc not found: using the embedded PTX")
        return EMBEDDED_PTX
    cu = os.path.join(tmp, "saxpy.cu")
    with open(cu, "w") as f:
        f.write(CUDA)
    ptx = os.path.join(tmp, "saxpy.ptx")
    subprocess.run([nvcc, "-ptx", "-arch=sm_80", *mmptx.get_nvrtc_options(),
                    cu, "-o", ptx], check=True)
    with open(ptx) as f:
        return f.read()


def main():
    tmp = (sys.argv[1] if len(sys.argv) > 1
           else tempfile.mkdtemp(prefix="mmptx-quickstart-"))
    module = mmptx.inject.Module(compile_once(tmp), name="saxpy.ptx")
    site = module["f"]
    for v in site:
        print(f"inject f: {v.name:3} {v.kind:3} {v.type} -> {v.operand}")

    # The stub reads and writes the site's stable registers; Stack PTX
    # registers are named after them, in the site's variable order.
    cc = S.Compiler(target_sm=80)
    iset = cc.instruction_set
    regs = iset.registers([(v.register, v.type, v.kind) for v in site])
    a, xi, yi = (S.input_(v.index) for v in site)
    fma, mul, add = (iset.ptx(n) for n in ("fma.rn.f32", "mul.ftz.f32",
                                           "add.ftz.f32"))
    sin = iset.ptx("sin.approx.ftz.f32")
    variants = {
        "axpy": [yi, xi, a, fma],             # yi = a * xi + yi
        "scale": [xi, a, mul],                # yi = a * xi
        "wave": [yi, xi, sin, a, mul, add],   # yi = a * sin(xi) + yi
    }
    yi_req = [site["yi"].index]

    # The CPU interpreter is the reference for what the stub computes.
    got = cc.interpret(variants["axpy"], regs, yi_req, [2.0, 3.0, 1.0])
    print(f"axpy on the CPU: a=2, xi=3, yi=1 -> yi = {got[0]}")
    assert got == [7.0]

    # One stub at a time, or all in one call (no GIL, no per-stub Python).
    stubs = cc.compile_batch(list(variants.values()), regs, yi_req)
    assert stubs[0] == cc.compile(variants["axpy"], regs, yi_req)
    print("stub of axpy:\n" + stubs[0])

    for (name, _), stub in zip(variants.items(), stubs):
        ptx = module.render({"f": stub})
        path = os.path.join(tmp, f"saxpy-{name}.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        print(f"variant {name}: {len(ptx)} bytes of PTX -> {path}")

    ptxas = shutil.which("ptxas")
    if ptxas:
        cubin = os.path.join(tmp, "saxpy-axpy.cubin")
        subprocess.run([ptxas, "-arch=sm_80",
                        os.path.join(tmp, "saxpy-axpy.ptx"), "-o", cubin],
                       check=True)
        print(f"ptxas: {os.path.getsize(cubin)} bytes of cubin -> {cubin}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
