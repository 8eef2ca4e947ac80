#!/usr/bin/env bash
# Idempotent set-up of everything arrayc's build and tests need on Debian 12 (bookworm), run as root
# (or through sudo): the Debian packages below (apt), the Python packages below (pip),
# and a check that the Rust toolchain (cargo, from rustup) is installed.
# When everything is present it only checks (no `apt-get update`, no network) and prints one line.
# `scripts/check-fresh.sh` proves this list complete on a fresh Debian 12 root file system.
#
# Usage: bash scripts/setup.sh        (`make demo` and `make test` run it first)
# Environment: PYTHON (default python3) is the interpreter the example tests run with, and the one
# the Python packages below are installed for. arrayc asks the same interpreter ($PYTHON, default
# python3; codegen/src/cuda_toolkit.rs) where the nvidia-cuda-nvcc-cu12 wheel's libdevice is, so
# `arrayc emit --stage=ptx` needs no variable after this script; set PYTHON when running arrayc too
# if it named another interpreter here.
set -euo pipefail

PYTHON="${PYTHON:-python3}"
LLVM_PREFIX=/usr/lib/llvm-22

# Every Debian package the build and the tests need, each with the reason. The LLVM/MLIR 22
# packages come from bookworm-security (a stock Debian 12 apt source).
APT_PACKAGES=(
    llvm-22-dev         # llvm-config, LLVM headers and libraries: llvm-sys, mlir-sys, the JIT
    libmlir-22-dev      # MLIR headers and the MLIR C API libraries: melior, mlir-sys
    mlir-22-tools       # mlir-tblgen and mlir-opt: melior's dialect bindings (tblgen crate)
    llvm-22-tools       # lit, FileCheck and not: the lit suite (lit-tests/)
    libclang-22-dev     # libclang-22.so: bindgen, which mlir-sys and tblgen run at build time
    libpolly-22-dev     # libPolly.a: `llvm-config --libs` names Polly, so every MLIR link needs it
    libzstd-dev         # LLVM's link dependencies (`llvm-config --system-libs`) ...
    libz3-dev           #   ... z3,
    libxml2-dev         #   ... libxml2,
    zlib1g-dev          #   ... and zlib
    build-essential     # cc, c++ and ar: C++ parts of the tblgen crate and other -sys crates
    cmake               # highs-sys builds the HiGHS solver (`--fuse ilp`) from source with it
    pkg-config          # how -sys crates find system libraries (and the mpi crate finds OpenMPI)
    libopenmpi-dev      # MPI for distributed runs (`--distributed`): the mpi crate (rsmpi) links OpenMPI
    openmpi-bin         # mpirun: the launcher of distributed runs and of their tests
    ca-certificates     # HTTPS to crates.io (cargo) and PyPI (pip)
    python3             # lit, the example tests (pytest) and the NumPy references
    python3-pip         # installs the Python packages below for $PYTHON
    neovim              # a real editor for the language server's test (tests/lsp/test_neovim.py; 27 MB)
)

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

# Run a command as root: directly when we are root, else through sudo when it exists.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "need root to run '$*' (run this script as root, or install sudo)"
    fi
}

installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

# --- Debian packages -------------------------------------------------------------------------
command -v dpkg-query >/dev/null 2>&1 || die "this script expects a Debian-based system (dpkg/apt not found)"

missing=()
for p in "${APT_PACKAGES[@]}"; do
    installed "$p" || missing+=("$p")
done

if [ "${#missing[@]}" -gt 0 ]; then
    say "installing missing packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -q
    # The LLVM 22 packages come from bookworm-security here; say so clearly if apt cannot see them.
    for p in "${missing[@]}"; do
        case "$p" in
            *-22-*|*-22)
                cand="$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ {print $2}')"
                if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
                    die "apt has no candidate for $p. arrayc needs the LLVM/MLIR 22
  packages of APT_PACKAGES in scripts/setup.sh. Enable an apt source that provides them,
  e.g. bookworm-security, or apt.llvm.org:
    deb http://apt.llvm.org/bookworm/ llvm-toolchain-bookworm-22 main
  then run this script again. ('apt-cache policy llvm-22-dev' shows where apt looks.)"
                fi
                ;;
        esac
    done
    as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

for tool in lit FileCheck not mlir-opt mlir-tblgen llvm-config; do
    [ -x "$LLVM_PREFIX/bin/$tool" ] || die "$LLVM_PREFIX/bin/$tool is missing although the LLVM 22 packages are installed"
done
for lib in libclang-22.so libPolly.a libMLIR.so; do
    [ -e "$LLVM_PREFIX/lib/$lib" ] || die "$LLVM_PREFIX/lib/$lib is missing although the LLVM 22 packages are installed"
done

# --- Python packages for the tests ----------------------------------------------------------------
# Every Python package the tests need, each with the reason, and the modules that prove them present.
PIP_PACKAGES=(
    numpy               # the NumPy references of tests/examples and the benchmarks
    pytest              # runs tests/examples and tests/lsp
    pytest-lsp          # a real LSP client over stdio for the language server's tests (tests/lsp)
    nvidia-cuda-nvcc-cu12  # ptxas and libdevice (no driver, no GPU needed): the GPU tests check every
                           # kernel's PTX with ptxas; libdevice resolves the kernels' math functions
)
PIP_MODULES="numpy, pytest, pytest_lsp, nvidia.cuda_nvcc"
command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found (install python3)"
if ! "$PYTHON" -c "import $PIP_MODULES" >/dev/null 2>&1; then
    say "installing ${PIP_PACKAGES[*]} for $PYTHON"
    # Debian's system Python is "externally managed" (PEP 668): pip refuses it unless told
    # --break-system-packages (these packages do not conflict with Debian's own).
    pip_flags=(-q)
    if "$PYTHON" -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))'; then
        pip_flags+=(--break-system-packages)
    fi
    "$PYTHON" -m pip install "${pip_flags[@]}" "${PIP_PACKAGES[@]}" || die "pip could not install ${PIP_PACKAGES[*]} for $PYTHON"
    "$PYTHON" -c "import $PIP_MODULES" || die "$PIP_MODULES still not importable by $PYTHON"
fi

# --- Rust ---------------------------------------------------------------------------------------
if ! command -v cargo >/dev/null 2>&1 && [ ! -x "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" ]; then
    die "cargo (the Rust toolchain) was not found. Install it with rustup:
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y
    . \"\$HOME/.cargo/env\"
  (a recent stable Rust is enough), then run this again."
fi
# `make test` checks formatting and lints: rustup's default profile has both components, its
# minimal profile has neither.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
for component in rustfmt clippy; do
    sub=${component/rustfmt/fmt}
    if ! cargo "$sub" --version >/dev/null 2>&1; then
        command -v rustup >/dev/null 2>&1 || die "cargo $sub is missing and rustup was not found; install the $component component of your Rust toolchain"
        say "installing the $component component (rustup component add $component)"
        rustup component add "$component" || die "rustup could not add the $component component"
    fi
done

if [ "${#missing[@]}" -gt 0 ]; then
    say "done: LLVM/MLIR 22, libclang, Polly, ${PIP_PACKAGES[*]} and cargo are ready"
else
    say "all prerequisites present (LLVM/MLIR 22 in $LLVM_PREFIX, ${PIP_PACKAGES[*]}, cargo)"
fi
