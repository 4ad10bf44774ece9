"""An installed wheel with no CUDA library anywhere: import works, and each
call that needs a library says clearly that it is missing."""

import sys

import mmptx
from mmptx.errors import NvrtcError, NvrtcErrorCode


def main(path):
    with open(path) as f:
        cuda = f.read()
    libs = mmptx.cuda_libraries()
    for name in ("nvrtc", "nvjitlink", "cuda"):
        assert not libs[name]["found"], (name, libs[name])
    annotated = mmptx.annotate(cuda, name="saxpy.cu")
    try:
        mmptx.nvrtc.compile(annotated, arch="sm_80", name="saxpy.cu")
    except NvrtcError as e:
        msg = str(e)
        print("nvrtc.compile: " + msg)
        assert e.code == NvrtcErrorCode.NOT_FOUND, e.code
        assert "NVRTC" in msg and "not found" in msg, msg
        assert "nvidia-cuda-nvrtc" in msg, msg
    else:
        raise AssertionError("nvrtc.compile worked without NVRTC")
    # No backend: no nvPTXCompiler in a wheel, no nvJitLink, no ptxas.
    backends = {b.name: b for b in mmptx.backends()}
    assert not backends["nvptxcompiler"].available
    for b in backends.values():
        assert not b.available, b
        print("backend %s: %s" % (b.name, b.reason))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
