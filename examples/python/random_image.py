#!/usr/bin/env python3
"""Random expression images: Stack PTX on a GPU, or the CPU interpreter.

Builds three random nested expressions of sin/cos/add/mul over x, y and t
(one per colour channel), turns each into a Stack PTX program and compiles
it into a stub for the inject site `pixel` of a colouring kernel. With a GPU
(and a PTX backend) each channel's kernel is rendered, compiled to a cubin
in one batch and launched through mmptx.runtime into one device-resident
buffer; without one (or with --cpu) the programs run over the pixel grid on
the CPU interpreter. The picture is written as a PNG with a small
pure-Python writer (zlib).

    random_image.py [out.png] [--seed N] [--size N] [--t T] [--cpu]
"""

import argparse
import random
import struct
import zlib

import numpy as np

import mmptx
from mmptx import stack as S

# The colouring kernel: thread i computes pixel i of an n x n image, with x
# and y in [-1, 1], and stores the stub's v there.
KERNEL_PTX = """\
.version 8.0
.target sm_80
.address_size 64
.visible .entry colour(.param .u64 out, .param .u32 n, .param .f32 t)
{
\t.reg .pred %p;
\t.reg .b32 %r<9>;
\t.reg .f32 %f<8>;
\t.reg .b64 %rd<4>;
\t.reg .f32 %_x<4>;
\tld.param.u64 %rd1, [out];
\tld.param.u32 %r1, [n];
\tld.param.f32 %f5, [t];
\tmov.u32 %r2, %ctaid.x;
\tmov.u32 %r3, %ntid.x;
\tmov.u32 %r4, %tid.x;
\tmad.lo.u32 %r5, %r2, %r3, %r4;
\tmul.lo.u32 %r6, %r1, %r1;
\tsetp.ge.u32 %p, %r5, %r6;
\t@%p bra DONE;
\trem.u32 %r7, %r5, %r1;
\tdiv.u32 %r8, %r5, %r1;
\tcvt.rn.f32.u32 %f1, %r7;
\tcvt.rn.f32.u32 %f2, %r8;
\tcvt.rn.f32.u32 %f3, %r1;
\tsub.f32 %f3, %f3, 0f3F800000;
\tdiv.rn.f32 %f1, %f1, %f3;
\tdiv.rn.f32 %f2, %f2, %f3;
\tfma.rn.f32 %f1, %f1, 0f40000000, 0fBF800000;
\tfma.rn.f32 %f2, %f2, 0f40000000, 0fBF800000;
\t{
\tmov.f32 %_x0, %f1;
\tmov.f32 %_x1, %f2;
\tmov.f32 %_x2, %f5;
\t// PTX_INJECT_START pixel
\t// _x0 i f32 F32 x
\t// _x1 i f32 F32 y
\t// _x2 i f32 F32 t
\t// _x3 o f32 F32 v
\t// PTX_INJECT_END
\tmov.f32 %f6, %_x3;
\t}
\tcvta.to.global.u64 %rd1, %rd1;
\tmul.wide.u32 %rd2, %r5, 4;
\tadd.s64 %rd3, %rd1, %rd2;
\tst.global.f32 [%rd3], %f6;
DONE:
\tret;
}
"""


def random_expr(rng, iset, depth):
    """Postfix words of a random expression; operands are pushed first."""
    if depth == 0 or rng.random() < 0.1:
        leaf = rng.randrange(4)
        if leaf < 3:
            return [S.input_(leaf)]
        return [iset.constant("F32", round(rng.uniform(-3.0, 3.0), 2))]
    op = rng.choice(["sin", "cos", "add", "mul"])
    if op in ("sin", "cos"):
        inner = random_expr(rng, iset, depth - 1)
        # Scaled first so the picture has more than one period.
        return inner + [iset.constant("F32", round(rng.uniform(1, 4), 2)),
                        iset.ptx("mul.ftz.f32"),
                        iset.ptx(f"{op}.approx.ftz.f32")]
    return (random_expr(rng, iset, depth - 1) +
            random_expr(rng, iset, depth - 1) +
            [iset.ptx(f"{op}.ftz.f32")])


def write_png(path, rgb):
    """Writes an HxWx3 uint8 array as an 8-bit RGB PNG."""
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[row].tobytes() for row in range(h))

    def chunk(kind, data):
        c = kind + data
        return (struct.pack(">I", len(data)) + c +
                struct.pack(">I", zlib.crc32(c) & 0xFFFFFFFF))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def gpu_device(force_cpu):
    """The device to render on, or None (no driver, GPU or backend)."""
    if force_cpu or not any(b.available for b in mmptx.backends()):
        return None
    if mmptx.runtime.device_count() == 0:
        return None
    return mmptx.runtime.Device(0)


def render_gpu(dev, module, stubs, n, t):
    """Each channel's kernel: rendered, compiled in one batch, loaded and
    launched into one device buffer (n x n per channel)."""
    major, minor = dev.info[2:4]
    kernels = [module.render({"pixel": stub}) for stub in stubs]
    cubins = mmptx.compile_batch(kernels, arch=f"sm_{major}{minor}",
                                 check=True)
    out = dev.zeros((len(stubs), n, n), np.float32)
    block = 256
    grid = (n * n + block - 1) // block
    for ch, r in enumerate(cubins):
        k = dev.load(r.cubin).kernel("colour")
        k.launch(grid=grid, block=block,
                 args=[np.uint64(out.ptr + ch * n * n * 4), np.uint32(n),
                       np.float32(t)])
    return list(out.to_numpy())


def render_cpu(cc, programs, regs, out_req, n, t):
    """Each program over the pixel grid on the CPU interpreter."""
    # Inputs per pixel as f32 bits: x, y in [-1, 1], t, and v (unused).
    ys, xs = np.meshgrid(np.linspace(-1, 1, n, dtype=np.float32),
                         np.linspace(-1, 1, n, dtype=np.float32),
                         indexing="ij")
    inputs = np.stack([xs.ravel(), ys.ravel(),
                       np.full(n * n, t, np.float32),
                       np.zeros(n * n, np.float32)], axis=1)
    bits = np.ascontiguousarray(inputs).view(np.uint32).astype(np.uint64)
    channels = []
    for prog in programs:
        v = cc.interpret_rows(prog, regs, out_req, bits)
        channels.append(v.astype(np.uint32).view(np.float32).reshape(n, n))
    return channels


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default="random.png")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--size", type=int, default=128)
    ap.add_argument("--t", type=float, default=0.5)
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--cpu", action="store_true",
                    help="use the CPU interpreter even with a GPU")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    module = mmptx.inject.Module(KERNEL_PTX, name="colour.ptx")
    site = module["pixel"]
    cc = S.Compiler(target_sm=80)
    iset = cc.instruction_set
    regs = iset.registers([(v.register, v.type, v.kind) for v in site])
    out_req = [site["v"].index]
    programs = []
    while len(programs) < 3:
        words = random_expr(rng, iset, args.depth)
        if len(words) > 3:  # a lone leaf makes a flat channel
            programs.append(np.array(words, dtype=np.uint64))

    stubs = cc.compile_batch(programs, regs, out_req)
    for ch, stub in zip("rgb", stubs):
        body = [ln.strip() for ln in stub.splitlines()]
        ops = [ln for ln in body
               if ln not in ("{", "}") and not ln.startswith((".reg", "mov"))]
        print(f"channel {ch}: {len(ops)} PTX instructions")

    n = args.size
    dev = gpu_device(args.cpu)
    if dev is not None:
        print(f"rendering on {dev.info[1]}")
        channels = render_gpu(dev, module, stubs, n, args.t)
    else:
        print("rendering on the CPU interpreter")
        channels = render_cpu(cc, programs, regs, out_req, n, args.t)
    rgb = []
    for v in channels:
        v = np.nan_to_num(v, nan=0.0, posinf=1.0, neginf=-1.0)
        # Stretched to the channel's own range: nested sin/cos often span
        # only a small part of [-1, 1].
        lo, hi = float(v.min()), float(v.max())
        rgb.append((v - lo) / (hi - lo) if hi > lo else v * 0 + 0.5)
    rgb = (np.stack(rgb, axis=2) * 255).astype(np.uint8)
    write_png(args.out, rgb)
    print(f"wrote {args.out} ({n}x{n})")


if __name__ == "__main__":
    main()
