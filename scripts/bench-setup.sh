#!/usr/bin/env bash
# Idempotent set-up of what `make bench` (benchmarks/harness.py) needs besides `scripts/setup.sh`:
# numexpr, JAX (CPU) and matplotlib for python3. When all three import it only checks and
# prints one line (no network).
#
# Usage: bash scripts/bench-setup.sh        (`make bench` runs it first)
# Environment: PYTHON (default python3) is the interpreter the harness runs with.
set -euo pipefail

PYTHON="${PYTHON:-python3}"

say() { printf 'bench-setup: %s\n' "$*"; }
die() { printf 'bench-setup: error: %s\n' "$*" >&2; exit 1; }

command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found (run scripts/setup.sh first)"

# module name -> pip requirement
declare -A PIP_NAME=([numexpr]=numexpr [jax]="jax[cpu]" [matplotlib]=matplotlib)
missing=()
for mod in numexpr jax matplotlib; do
    "$PYTHON" -c "import $mod" >/dev/null 2>&1 || missing+=("${PIP_NAME[$mod]}")
done

if [ "${#missing[@]}" -eq 0 ]; then
    say "numexpr, jax and matplotlib present for $PYTHON"
    exit 0
fi

say "installing for $PYTHON: ${missing[*]}"
# Debian's system Python is "externally managed" (PEP 668): plain pip refuses, then we retry
# with --break-system-packages, as scripts/setup.sh does for numpy and pytest.
if ! "$PYTHON" -m pip install -q "${missing[@]}"; then
    say "plain pip refused; retrying with --break-system-packages"
    "$PYTHON" -m pip install -q --break-system-packages "${missing[@]}"
fi
"$PYTHON" -c 'import numexpr, jax, matplotlib' || die "numexpr/jax/matplotlib still not importable by $PYTHON"
say "done: numexpr, jax and matplotlib are ready"
