#!/bin/bash
# The GPU checks that need a GPU, in one short run (about 3 minutes on an H100 with 16 CPU cores):
# the tests' GPU cases (every example case and benchmark, and the scatter, filter, gather, scan,
# overlap and reduction tests, with --target gpu against NumPy) and benchmarks/gpu_check.py.
# Needs an arrayc binary ($ARRAYC, default target/release/arrayc), Python with NumPy, pytest
# (pytest-xdist and pytest-timeout when present) and the NVIDIA driver. The PTX tests need
# ptxas (pip install nvidia-cuda-nvcc-cu12); where it is missing they fail and say so.
# Logs go to $OUT (default /tmp/gpu-check).
set -u
cd "$(dirname "$0")/.."
export ARRAYC=${ARRAYC:-$PWD/target/release/arrayc} PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/gpu-check}
mkdir -p "$OUT"
ARRAYC_CACHE_DIR=$(mktemp -d)
export ARRAYC_CACHE_DIR
trap 'rm -rf "$ARRAYC_CACHE_DIR"' EXIT
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee "$OUT/gpu.txt"
parallel=()
python3 -c "import xdist" 2>/dev/null && parallel=(-n "$(nproc)")
python3 -c "import pytest_timeout" 2>/dev/null && parallel+=(--timeout 120)
set -o pipefail
(cd tests/examples && python3 -m pytest -q -rfEs "${parallel[@]}" test_gpu.py test_scatter.py test_filter.py \
    test_gather.py test_scan.py test_overlap.py test_reductions.py 2>&1 | tee "$OUT/pytest.log" | tail -30)
tests=$?
(cd benchmarks && python3 gpu_check.py "$@" 2>&1 | tee "$OUT/gpu_check.txt")
bench=$?
exit $((tests || bench))
