#!/usr/bin/env python3
"""Whether the GPU tests must run here, for lit (test/lit.cfg.py), pytest
(python/tests) and utils/gpu-smoke.sh.

`mmptx-run --probe --print-arch` says whether device 0 is usable. When it is
not, the machine may simply have no GPU (the GPU tests are then skipped), or
it may have one that the probe failed on (a driver too old for the cubins, a
device held by another process, a broken install): that is an error, said
with the probe's own reason, never a silent skip. A GPU is taken to be
present when an NVIDIA device node or the driver's /proc entry exists, or
when libcuda.so.1 loads and counts at least one device.

Environment:
  MMPTX_NO_GPU_TESTS=1         run without the GPU tests even on a machine
                               with a GPU (the failure becomes a warning)
  MMPTX_GPU_EVIDENCE_PATHS     ':'-separated paths whose existence means a
                               GPU is present, instead of the device nodes
                               and libcuda (for tests of this script)

Run as a script: `gpuprobe.py MMPTX-RUN` prints the arch and exits 0, exits
77 when there is no GPU, and 1 (with the reason) when a GPU is present but
the probe fails.
"""

import os
import subprocess
import sys

DEVICE_PATHS = ['/dev/nvidia0', '/proc/driver/nvidia/version']

# Counts devices through the real driver, in a child process so that the
# caller (lit, pytest) never initialises CUDA itself.
_COUNT_DEVICES = r"""
import ctypes, sys
try:
    lib = ctypes.CDLL('libcuda.so.1')
except OSError:
    sys.exit(0)
n = ctypes.c_int(0)
if lib.cuInit(0) == 0 and lib.cuDeviceGetCount(ctypes.byref(n)) == 0:
    print(n.value)
"""


def device_evidence():
    """A reason to believe that this machine has an NVIDIA GPU, or None."""
    override = os.environ.get('MMPTX_GPU_EVIDENCE_PATHS')
    paths = override.split(os.pathsep) if override is not None \
        else DEVICE_PATHS
    for path in paths:
        if path and os.path.exists(path):
            return path + ' exists'
    if override is not None:
        return None
    env = dict(os.environ)
    env.pop('MMPTX_LIBCUDA', None)
    try:
        r = subprocess.run([sys.executable, '-c', _COUNT_DEVICES], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           timeout=60, universal_newlines=True)
        count = int(r.stdout.strip() or '0')
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return None
    return ('libcuda.so.1 counts %d device(s)' % count) if count > 0 else None


def probe(mmptx_run):
    """(arch, reason): device 0's sm_XY through the real driver, or None and
    why not."""
    if not mmptx_run or not os.path.exists(mmptx_run):
        return None, 'mmptx-run is not built (%s)' % mmptx_run
    env = dict(os.environ)
    env.pop('MMPTX_LIBCUDA', None)  # the real driver, never a fake
    try:
        r = subprocess.run([mmptx_run, '--probe', '--print-arch'], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=120, universal_newlines=True)
    except subprocess.TimeoutExpired:
        return None, '`mmptx-run --probe` did not finish in 120 s'
    except OSError as e:
        return None, 'cannot run %s: %s' % (mmptx_run, e)
    arch = r.stdout.strip()
    if r.returncode == 0 and arch.startswith('sm_'):
        return arch, ''
    why = ' '.join(r.stderr.split()) or 'no output'
    return None, '`mmptx-run --probe` exited %d: %s' % (r.returncode, why)


def decide(mmptx_run):
    """(arch, level, message): arch when the GPU tests run; otherwise level
    'note' (no GPU here), 'warning' (a GPU, but MMPTX_NO_GPU_TESTS is set)
    or 'error' (a GPU whose probe failed)."""
    arch, why = probe(mmptx_run)
    if arch:
        return arch, 'note', 'cuda-gpu: device 0 is ' + arch
    evidence = device_evidence()
    if not evidence:
        return None, 'note', ('cuda-gpu: no GPU here, the GPU tests are '
                              'skipped (%s)' % why)
    msg = ('a GPU seems present (%s) but the cuda-gpu probe failed: %s'
           % (evidence, why))
    if os.environ.get('MMPTX_NO_GPU_TESTS'):
        return None, 'warning', (msg + '; the GPU tests are skipped since '
                                 'MMPTX_NO_GPU_TESTS is set')
    return None, 'error', (msg + ' (fix the driver or device, or set '
                           'MMPTX_NO_GPU_TESTS=1 to run without the GPU '
                           'tests)')


def main(argv):
    if len(argv) != 2:
        sys.stderr.write('usage: gpuprobe.py MMPTX-RUN\n')
        return 2
    arch, level, msg = decide(argv[1])
    if arch:
        print(arch)
        return 0
    sys.stderr.write('gpuprobe: %s: %s\n' % (level, msg))
    return 1 if level == 'error' else 77


if __name__ == '__main__':
    sys.exit(main(sys.argv))
