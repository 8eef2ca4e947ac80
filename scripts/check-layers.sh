#!/usr/bin/env bash
# Checks the layering of ARCHITECTURE.md with `cargo tree`: the crates below link no MLIR or LLVM
# crate (melior, mlir-sys, llvm-sys, tblgen), directly or through any dependency, dev-dependencies
# included, so that their tests build and run without MLIR. `make lint` runs it.
#
# Usage: bash scripts/check-layers.sh        (exit 1 naming the crate and the path to the MLIR crate)
set -euo pipefail

CARGO="${CARGO:-cargo}"
MLIR_FREE=(arrayc-core arrayc-grammar arrayc-dialect arrayc-passes arrayc-runtime arrayc-exec arrayc-aot arrayc-aot-dist arrayc-lsp arrayc-dist)
FORBIDDEN='^(melior|melior-macro|mlir-sys|llvm-sys|tblgen)$'

status=0
for crate in "${MLIR_FREE[@]}"; do
    # One package per line (no tree prefix), over normal, build and dev edges; a failing
    # `cargo tree` stops the script (set -e), it never passes the check silently.
    tree=$("$CARGO" tree -q -p "$crate" -e normal,build,dev --prefix none --format '{p}')
    found=$(awk '{print $1}' <<<"$tree" | sort -u | grep -E "$FORBIDDEN" || true)
    if [ -n "$found" ]; then
        status=1
        for dep in $found; do
            printf 'check-layers: error: %s depends on %s, but it must link no MLIR or LLVM (ARCHITECTURE.md).\n' "$crate" "$dep" >&2
            printf '  the path: cargo tree -p %s -e normal,build,dev -i %s\n' "$crate" "$dep" >&2
        done
    fi
done
[ "$status" -eq 0 ] && printf 'check-layers: %d crates link no MLIR or LLVM\n' "${#MLIR_FREE[@]}"
exit "$status"
