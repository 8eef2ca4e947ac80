#!/bin/bash
# The GPU checks that need a GPU, in one short run (about 6 to 8 minutes on an H100 with 16 CPU
# cores), each section timed:
# 1. benchmarks/stream_probe.py: the streaming probe (benchmarks/programs/stream.arr, n = 10^8)
#    against a CuPy ElementwiseKernel and the device copy, in the same run, and arrayc with the
#    launches of before issue 33 (--sync-baseline);
# 1b. benchmarks/sort_probe.py: the device sort against CuPy's and JAX's, n = 10^7;
# 2. the tests' GPU cases (every example case and benchmark, late kernel faults, and the scatter,
#    filter, gather, scan, overlap and reduction tests, with --target gpu against NumPy);
# 3. benchmarks/gpu_check.py: the 19 benchmarks at LARGE with --target cpu and --target gpu (and
#    --sync-baseline's column), and the suite's JAX functions on the GPU (issue 33's JAX column);
#    its arguments are this script's ("$@": names, --all, --repeats N, --no-cpu, --no-jax,
#    --budget SECONDS); it starts no benchmark after $GPU_CHECK_BUDGET seconds (default 240), or
#    once $GPU_CHECK_DEADLINE seconds of this script have passed, unless --budget says otherwise.
# Needs an arrayc binary ($ARRAYC, default target/release/arrayc), Python with NumPy, pytest
# (pytest-xdist and pytest-timeout when present), the NVIDIA driver, and for the peers JAX with
# its CUDA plugin and CuPy (each missing one is a loud note, not a failure). The PTX tests need
# ptxas (pip install nvidia-cuda-nvcc-cu12); where it is missing they fail and say so.
# Logs go to $OUT (default /tmp/gpu-check).
set -u -o pipefail
cd "$(dirname "$0")/.."
export ARRAYC=${ARRAYC:-$PWD/target/release/arrayc} PYTHONUNBUFFERED=1
# JAX (in gpu_check.py) takes GPU memory as it needs it, not 75% of it up front.
export XLA_PYTHON_CLIENT_PREALLOCATE=false
OUT=${OUT:-/tmp/gpu-check}
mkdir -p "$OUT"
ARRAYC_CACHE_DIR=$(mktemp -d)
export ARRAYC_CACHE_DIR
trap 'rm -rf "$ARRAYC_CACHE_DIR"' EXIT
START=$SECONDS
section_start=$SECONDS
section() {  # section NAME: the elapsed time of the previous section, then NAME's header
    [ -n "${1:-}" ] || { echo "== ($((SECONDS - section_start)) s; $((SECONDS - START)) s in all)"; return; }
    echo "== $1 ($((SECONDS - START)) s in)"
    section_start=$SECONDS
}
# A cap per section, so one hang cannot eat the device time (timeout(1) where present).
cap() { if command -v timeout >/dev/null; then timeout -k 10 "$@"; else shift; "$@"; fi; }

section "GPU"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee "$OUT/gpu.txt"
echo "CPUs: $(nproc); arrayc: $ARRAYC; python3: $(command -v python3)"
python3 -c "import jax; print('jax', jax.__version__)" 2>&1 | tail -1
python3 -c "import cupy; print('cupy', cupy.__version__)" 2>&1 | tail -1

section "stream_probe.py: arrayc vs CuPy vs the device copy, n = 10^8"
(cd benchmarks && cap 150 python3 stream_probe.py --sync-baseline 2>&1 | tee "$OUT/stream_probe.txt")
stream=$?
section

section "sort_probe.py: the device sort (bitonic network) vs CuPy and JAX, n = 10^7"
(cd benchmarks && cap 120 python3 sort_probe.py 2>&1 | tee "$OUT/sort_probe.txt")
sort=$?
section

section "pytest: the GPU cases"
parallel=()
python3 -c "import xdist" 2>/dev/null && parallel=(-n "$(nproc)")
python3 -c "import pytest_timeout" 2>/dev/null && parallel+=(--timeout 120)
# The PTX tests need the nvidia-cuda-nvcc-cu12 wheel (ptxas, libdevice); without it they would only
# fail for that reason. They need no GPU and run in `make test`.
if ! python3 -c "import nvidia.cuda_nvcc" 2>/dev/null; then
    echo "!!! NOTE: no nvidia-cuda-nvcc-cu12 wheel here: the PTX tests are deselected (they run in make test)"
    parallel+=(-k "not ptx and not libdevice")
fi
(cd tests/examples && cap 180 python3 -m pytest -q -rfEs "${parallel[@]}" test_gpu.py test_late_faults.py test_numpy_funcs.py test_scatter.py test_filter.py \
    test_gather.py test_scan.py test_overlap.py test_reductions.py 2>&1 | tee "$OUT/pytest.log" | tail -30)
tests=$?
section

# gpu_check starts no benchmark after $GPU_CHECK_BUDGET seconds of its own, or, with
# $GPU_CHECK_DEADLINE, after that many seconds of this script (default: a budget of 240 s).
if [ -n "${GPU_CHECK_DEADLINE:-}" ]; then
    BUDGET=$((GPU_CHECK_DEADLINE - (SECONDS - START)))
    [ "$BUDGET" -gt 0 ] || BUDGET=1
else
    BUDGET=${GPU_CHECK_BUDGET:-240}
fi
section "gpu_check.py: arrayc cpu / gpu and JAX-GPU at LARGE (budget $BUDGET s)"
(cd benchmarks && cap $((BUDGET + 150)) python3 gpu_check.py --sync-baseline --budget "$BUDGET" "$@" 2>&1 | tee "$OUT/gpu_check.txt")
bench=$?
section

echo "== done in $((SECONDS - START)) s: pytest exit $tests, gpu_check exit $bench, stream_probe exit $stream, sort_probe exit $sort; logs in $OUT"
exit $((tests || bench || stream || sort))
