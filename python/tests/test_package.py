"""Package-level pieces: import, include paths for NVRTC."""

import os

import mmptx


def test_version_and_modules():
    assert mmptx.__version__
    assert mmptx._mmptx.inject and mmptx._mmptx.stack


def test_include_paths():
    inc = mmptx.get_include()
    assert os.path.isfile(mmptx.get_device_header())
    assert os.path.isfile(os.path.join(inc, "mmptx", "cuda",
                                       "PtxInjectTypes.h"))
    assert os.path.isfile(os.path.join(inc, "mmptx-c", "StackPtx.h"))
    assert mmptx.get_nvrtc_options() == ["-I" + inc]
    with open(mmptx.get_device_header()) as f:
        assert '#include "mmptx/cuda/PtxInjectTypes.h"' in f.read()
