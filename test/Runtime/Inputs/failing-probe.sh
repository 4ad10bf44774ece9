#!/bin/sh
# Stands in for `mmptx-run --probe` on a machine whose driver is too old.
echo "mmptx-run: error: cuInit: CUDA_ERROR_INSUFFICIENT_DRIVER (35): the driver is older than the runtime" >&2
exit 1
