"""The quick start from an installed wheel, CUDA from NVIDIA's pip wheels:
annotate -> NVRTC -> inject -> Stack PTX -> cubin (nvJitLink), with no CUDA
toolkit, compiler or LLVM on the machine.

    python quickstart_nvrtc.py saxpy.cu
Prints what each step made; exits non-zero (an exception) when one fails.
"""

import sys

import mmptx
from mmptx import stack as S


def main(path):
    with open(path) as f:
        cuda = f.read()
    libs = mmptx.cuda_libraries()
    for name in ("nvrtc", "nvjitlink"):
        lib = libs[name]
        assert lib["found"], "%s not found: %s" % (name, lib["error"])
        # From NVIDIA's wheel in this environment, not from a toolkit.
        assert "/site-packages/nvidia/" in lib["file"], lib["file"]
        print("%s %s: %s" % (name, lib["version"], lib["file"]))

    annotated = mmptx.annotate(cuda, name="saxpy.cu")
    r = mmptx.nvrtc.compile(annotated, arch="sm_80", name="saxpy.cu")
    assert ".visible .entry saxpy" in r.ptx
    print("nvrtc: %d bytes of PTX" % len(r.ptx))

    module = mmptx.inject.Module(r.ptx, name="saxpy.ptx")
    site = module["f"]
    assert [v.name for v in site] == ["a", "xi", "yi"], [v.name for v in site]

    cc = S.Compiler(target_sm=80)
    iset = cc.instruction_set
    regs = iset.registers([(v.register, v.type, v.kind) for v in site])
    a, xi, yi = (S.input_(v.index) for v in site)
    fma = iset.ptx("fma.rn.f32")
    axpy = [yi, xi, a, fma]  # yi = a * xi + yi
    yi_req = [site["yi"].index]
    assert cc.interpret(axpy, regs, yi_req, [2.0, 3.0, 1.0]) == [7.0]
    stub = cc.compile(axpy, regs, yi_req)
    ptx = module.render({"f": stub})
    print("inject: %d bytes of PTX with the stub" % len(ptx))

    (res,) = mmptx.compile_batch([ptx], arch="sm_80", cache_dir=None)
    assert res.ok, res.error
    assert res.cubin[:4] == b"\x7fELF"
    assert res.backend.startswith("nvjitlink "), res.backend
    print("cubin: %d bytes (%s)" % (len(res.cubin), res.backend))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
