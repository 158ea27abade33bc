#!/usr/bin/env bash
# Runs a command with CuPy 14.2's real wheel on the fake CUDA layer built by
# build.sh (FAKECUDA_DIR, default /tmp/fakecuda): `python` is the venv's.
# Usage: bash tests/fakecuda/run.sh python -m pytest -m gpu tests/test_gpu.py
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${FAKECUDA_DIR:-/tmp/fakecuda}
[ -x "$dir/venv/bin/python" ] || { echo "fakecuda: run build.sh first ($dir)" >&2; exit 2; }
export LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}          # CuPy's kernels include its headers
export CUPY_CACHE_DIR=$dir/kernel-cache
export PYTHONPATH=$here/site:$(cd "$here/../.." && pwd)${PYTHONPATH:+:$PYTHONPATH}
export PATH=$dir/venv/bin:$PATH
export FAKECUDA=1
exec "$@"
