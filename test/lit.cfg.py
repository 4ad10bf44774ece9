# -*- Python -*-
# lit configuration for the mmptx regression suite.
import os
import shutil
import subprocess
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = 'MMPTX'
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = ['.ptx', '.cu', '.td', '.test', '.c', '.cpp']
config.excludes = ['Inputs', 'CMakeLists.txt', 'lib', 'lit.cfg.py',
                   'lit.site.cfg.py']
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mmptx_obj_root, 'test')

config.substitutions.append(('%mmptx_src_root', config.mmptx_src_root))
config.substitutions.append(('%mmptx_obj_root', config.mmptx_obj_root))
config.substitutions.append(('%mmptx_include', os.path.join(config.mmptx_src_root, 'include')))
config.substitutions.append(('%mmptx_gen_include', os.path.join(config.mmptx_obj_root, 'include')))
config.substitutions.append(('%corpus', os.path.join(config.mmptx_src_root, 'bench', 'corpus')))
config.substitutions.append(('%python', sys.executable))

llvm_config.with_environment('PATH', config.llvm_tools_dir, append_path=True)
llvm_config.with_environment('PATH', config.mmptx_tools_dir, append_path=True)
llvm_config.use_default_substitutions()

tools = ['mmptx-opt', 'mmptx-tblgen', 'mmptx-annotate', 'mmptx-compile',
         'mmptx-stack', 'mmptx-stack-import', 'mmptx-ast', 'mmptx-run',
         'mmptx-inject-capi', 'mmptx-example-cute-gemm', 'mmptx-wire',
         'mmptx-example-search']
llvm_config.add_tool_substitutions(
    [ToolSubst(t, unresolved='ignore') for t in tools],
    [config.mmptx_tools_dir])

# The benchmarks are built where Google Benchmark is installed.
if os.path.exists(os.path.join(config.mmptx_tools_dir, 'mmptx-bench-inject')):
    config.available_features.add('benchmarks')

# A CPython 3.12 or later that can build the stable-ABI wheel
# (test/Wheel/abi3-wheel.test): $MMPTX_ABI3_PYTHON, python3.13 or python3.12
# on PATH, or pyenv's; it needs nanobind, scikit-build-core, NumPy and
# auditwheel.
def find_abi3_python():
    import glob
    pyenv = os.environ.get('PYENV_ROOT') or os.path.expanduser('~/.pyenv')
    candidates = [os.environ.get('MMPTX_ABI3_PYTHON'),
                  shutil.which('python3.13'), shutil.which('python3.12')]
    candidates += sorted(glob.glob(os.path.join(
        pyenv, 'versions', '3.1[2-9]*', 'bin', 'python3')), reverse=True)
    probe = ('import sys, nanobind, scikit_build_core, numpy, auditwheel; '
             'sys.exit(sys.version_info < (3, 12))')
    for py in candidates:
        if not py:
            continue
        try:
            if subprocess.run([py, '-c', probe], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL,
                              timeout=60).returncode == 0:
                return py
        except (OSError, subprocess.TimeoutExpired):
            pass
    return None

abi3_python = find_abi3_python()
if abi3_python:
    config.available_features.add('python-abi3-build')
    config.substitutions.append(('%abi3_python', abi3_python))

# Optional CUDA pieces: absent ones make the tests that need them UNSUPPORTED.
def add_cuda_tool(feature, path):
    if path and os.path.exists(path):
        config.available_features.add(feature)
        llvm_config.with_environment('PATH', os.path.dirname(path),
                                     append_path=True)
        config.substitutions.append(('%' + feature, path))

add_cuda_tool('nvcc', config.nvcc)
add_cuda_tool('ptxas', config.ptxas)
# cuobjdump -sass (and the nvdisasm beside it), from NVIDIA's wheels.
add_cuda_tool('cuobjdump', getattr(config, 'cuobjdump', ''))
config.substitutions.append(('%compare_sass', '"%s" %s' % (
    sys.executable, os.path.join(config.mmptx_src_root, 'utils',
                                 'compare-sass.py'))))
# CuTe/CUTLASS headers (the nvidia-cutlass pip package).
if config.cutlass_include and os.path.exists(
        os.path.join(config.cutlass_include, 'cute', 'tensor.hpp')):
    config.available_features.add('cutlass')
    config.substitutions.append(('%cutlass_include', config.cutlass_include))
if config.have_nvrtc:
    config.available_features.add('nvrtc')
if config.have_nvjitlink:
    config.available_features.add('nvjitlink')
if config.have_nvptxcompiler:
    config.available_features.add('nvptxcompiler')
# The fake driver (unittests/Runtime/FakeCuda) runs mmptx-run's loader and
# error paths without a GPU.
fake_libcuda = os.path.join(config.mmptx_obj_root, 'unittests', 'Runtime',
                            'FakeCuda', 'libcuda.so.1')
if os.path.exists(fake_libcuda):
    config.available_features.add('fake-cuda')
    config.substitutions.append(('%fake_libcuda', fake_libcuda))
    config.substitutions.append(('%fake_legacy_libcuda', os.path.join(
        os.path.dirname(os.path.dirname(fake_libcuda)), 'FakeCudaLegacy',
        'libcuda.so.1')))
if config.cuda_stub_libcuda and os.path.exists(config.cuda_stub_libcuda):
    config.available_features.add('cuda-stub')
    config.substitutions.append(('%cuda_stub_libcuda', config.cuda_stub_libcuda))
config.substitutions.append(('%cc', config.c_compiler))
config.substitutions.append(('%cxx', config.cxx_compiler))
# A sanitizer build's libraries need the sanitizer runtime to link.
if config.sanitizer:
    config.available_features.add('sanitizer')
if shutil.which('pkg-config'):
    config.available_features.add('pkg-config')
for var in ['LD_LIBRARY_PATH']:
    if var in os.environ:
        config.environment[var] = os.environ[var]

# `cuda-gpu`: the runtime itself says a device is usable (the real driver
# loads, cuInit succeeds, device 0 gives a primary context and memory).
# %gpu_arch is its sm_XY, for ptxas. A machine with a GPU whose probe fails
# is an error with the probe's reason (utils/gpuprobe.py), never a silent
# UNSUPPORTED; MMPTX_NO_GPU_TESTS=1 makes it a warning.
import sys
sys.path.insert(0, os.path.join(config.mmptx_src_root, 'utils'))
import gpuprobe

# %lit runs lit itself, for tests of configurations.
import lit as lit_module
lit_script = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(lit_module.__file__))), 'lit.py')
if os.path.exists(lit_script):
    config.available_features.add('lit-script')
    config.substitutions.append(('%lit', '"%s" "%s"' % (sys.executable,
                                                       lit_script)))

gpu_arch, gpu_level, gpu_message = gpuprobe.decide(
    os.path.join(config.mmptx_tools_dir, 'mmptx-run'))
if gpu_arch:
    config.available_features.add('cuda-gpu')
    config.substitutions.append(('%gpu_arch', gpu_arch))
if gpu_level == 'error':
    lit_config.fatal(gpu_message)
elif gpu_level == 'warning':
    lit_config.warning(gpu_message)
else:
    lit_config.note(gpu_message)
for var in ['CUDA_HOME', 'HOME', 'TMPDIR']:
    if var in os.environ:
        config.environment[var] = os.environ[var]

# `unshare-mount`: a private mount namespace can be made (root, or a user
# namespace allowed), so a test can hide the CUDA libraries' directories
# and see what a machine without them gets.
def probe_unshare():
    unshare = shutil.which('unshare')
    if not unshare:
        return False
    try:
        r = subprocess.run([unshare, '-m', 'true'], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0

if probe_unshare():
    config.available_features.add('unshare-mount')
for var in ['MMPTX_NVRTC_PATH', 'MMPTX_NVJITLINK_PATH', 'MMPTX_CUDA_SEARCH_ROOTS',
            'CUDA_PATH']:
    config.environment.pop(var, None)

# The Python extension, where `pip install .` built it in this build tree
# (scikit-build-core's build-dir, build/python/<wheel tag>/).
import glob as _glob
_ext = sorted(_glob.glob(os.path.join(config.mmptx_obj_root, 'python', '*',
                                      'python', 'mmptx', '_mmptx*.so')))
if _ext:
    config.available_features.add('mmptx-python-ext')
    config.substitutions.append(('%mmptx_python_ext', _ext[0]))
