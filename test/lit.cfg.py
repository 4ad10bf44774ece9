# -*- Python -*-
# lit configuration for the mmptx regression suite.
import os
import shutil

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

llvm_config.with_environment('PATH', config.llvm_tools_dir, append_path=True)
llvm_config.with_environment('PATH', config.mmptx_tools_dir, append_path=True)
llvm_config.use_default_substitutions()

tools = ['mmptx-opt', 'mmptx-tblgen', 'mmptx-annotate', 'mmptx-compile',
         'mmptx-stack', 'mmptx-ast']
llvm_config.add_tool_substitutions(
    [ToolSubst(t, unresolved='ignore') for t in tools],
    [config.mmptx_tools_dir])

# Optional CUDA pieces: absent ones make the tests that need them UNSUPPORTED.
def add_cuda_tool(feature, path):
    if path and os.path.exists(path):
        config.available_features.add(feature)
        llvm_config.with_environment('PATH', os.path.dirname(path),
                                     append_path=True)
        config.substitutions.append(('%' + feature, path))

add_cuda_tool('nvcc', config.nvcc)
add_cuda_tool('ptxas', config.ptxas)
if config.have_nvrtc:
    config.available_features.add('nvrtc')
if config.have_nvjitlink:
    config.available_features.add('nvjitlink')
# A usable GPU needs the driver library, not just a device node.
if (os.path.exists('/dev/nvidiactl') or shutil.which('nvidia-smi')) and \
        any(os.path.exists(os.path.join(d, 'libcuda.so.1'))
            for d in ['/usr/lib/x86_64-linux-gnu', '/usr/lib64', '/usr/lib',
                      '/usr/local/cuda/compat', '/usr/lib/wsl/lib']):
    config.available_features.add('cuda-gpu')
for var in ['CUDA_HOME', 'HOME', 'TMPDIR']:
    if var in os.environ:
        config.environment[var] = os.environ[var]
