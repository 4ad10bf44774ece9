"""What several tests share: the axpy kernel (y[i] += a * x[i] for i < n,
any grid) that the runtime tests and the GPU smoke test
(utils/gpu-smoke-python.py) launch, whose entry `fake_axpy` the fake driver
runs on the host; and a fresh interpreter to run code in."""

import os
import subprocess
import sys
import textwrap

AXPY_PTX = """\
.version 8.0
.target sm_80
.address_size 64
.visible .entry {name}(.param .f32 a, .param .u64 x, .param .u64 y,
                       .param .u32 n)
{{
  .reg .pred %p;
  .reg .f32 %f<4>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<6>;
  ld.param.f32 %f1, [a];
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.u32 %r2, %r3, %r4, %r2;
  setp.ge.u32 %p, %r2, %r1;
  @%p ret;
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  ld.global.f32 %f3, [%rd5];
  fma.rn.f32 %f3, %f1, %f2, %f3;
  st.global.f32 [%rd5], %f3;
  ret;
}}
"""


def axpy_ptx(name="axpy"):
    """The kernel, its entry named `name`."""
    return AXPY_PTX.format(name=name)


def run_python(code, **env):
    """Runs ``code`` in a fresh interpreter with ``env`` added."""
    e = dict(os.environ)
    e.update(env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          env=e, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=300)
