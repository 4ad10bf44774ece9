#!/usr/bin/env python3
"""Random expression images: Stack PTX on the CPU interpreter.

Builds three random nested expressions of sin/cos/add/mul over x, y and t
(one per colour channel), turns each into a Stack PTX program, compiles it
into a stub for an inject site `pixel` (and renders the PTX a GPU kernel
would run), then evaluates the programs over the pixel grid on the CPU
interpreter and writes a PNG with a small pure-Python writer (zlib).

    random_image.py [out.png] [--seed N] [--size N] [--t T]
"""

import argparse
import random
import struct
import zlib

import numpy as np

import mmptx
from mmptx import stack as S

# The site a colouring kernel would have: x, y, t in; v out.
KERNEL_PTX = """\
.version 8.0
.target sm_80
.address_size 64
.visible .entry colour()
{
\t{
\t// PTX_INJECT_START pixel
\t// _x0 i f32 F32 x
\t// _x1 i f32 F32 y
\t// _x2 i f32 F32 t
\t// _x3 o f32 F32 v
\t// PTX_INJECT_END
\t}
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default="random.png")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--size", type=int, default=128)
    ap.add_argument("--t", type=float, default=0.5)
    ap.add_argument("--depth", type=int, default=6)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    # KERNEL_PTX is a marker-only fragment: scan it for markers without the
    # PTX checks a full module gets.
    module = mmptx.inject.Module(KERNEL_PTX, name="colour.ptx", trusted=True)
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
        ptx = module.render({"pixel": stub})
        body = [ln.strip() for ln in stub.splitlines()]
        ops = [ln for ln in body
               if ln not in ("{", "}") and not ln.startswith((".reg", "mov"))]
        print(f"channel {ch}: {len(ops)} PTX instructions, "
              f"kernel PTX {len(ptx)} bytes")

    # Inputs per pixel as f32 bits: x, y in [-1, 1], t, and v (unused).
    n = args.size
    ys, xs = np.meshgrid(np.linspace(-1, 1, n, dtype=np.float32),
                         np.linspace(-1, 1, n, dtype=np.float32),
                         indexing="ij")
    inputs = np.stack([xs.ravel(), ys.ravel(),
                       np.full(n * n, args.t, np.float32),
                       np.zeros(n * n, np.float32)], axis=1)
    bits = np.ascontiguousarray(inputs).view(np.uint32).astype(np.uint64)
    channels = []
    for prog in programs:
        v = cc.interpret_rows(prog, regs, out_req, bits)
        v = v.astype(np.uint32).view(np.float32).reshape(n, n)
        v = np.nan_to_num(v, nan=0.0, posinf=1.0, neginf=-1.0)
        # Stretched to the channel's own range: nested sin/cos often span
        # only a small part of [-1, 1].
        lo, hi = float(v.min()), float(v.max())
        channels.append((v - lo) / (hi - lo) if hi > lo else v * 0 + 0.5)
    rgb = (np.stack(channels, axis=2) * 255).astype(np.uint8)
    write_png(args.out, rgb)
    print(f"wrote {args.out} ({n}x{n})")


if __name__ == "__main__":
    main()
