#!/usr/bin/env bash
# Proves the README's set-up from scratch: runs `make demo` and then `make test` in a fresh Debian 12
# root file system, so nothing this machine already has can hide a missing install step.
#
#   1. debootstrap a minimal Debian 12 (bookworm, variant minbase) plus `make`, the one prerequisite
#      the README names besides the Rust toolchain; the pristine result is kept as a tarball and
#      unpacked anew for every run (--rebuild-base makes it again);
#   2. give it the apt sources of a stock Debian 12 install (bookworm, bookworm-updates,
#      bookworm-security: the LLVM/MLIR 22 packages come from the last), and this machine's
#      network settings (name server, local certificate authorities);
#   3. bind-mount only the Rust toolchain (rustup's toolchains read-only, cargo's proxies read-only;
#      the crate registry inside is empty) and put a clean clone of the repository's HEAD inside;
#   4. run the README's two commands in it with chroot, as root, with a clean environment;
#   5. report success, or the first failure with the end of its log, and how long each step took.
#
# It takes about an hour on 2 cores (LLVM packages, a cold release build, the whole test suite), too
# slow for every CI run: run it whenever the build, the dependencies or the set-up change.
#
# Usage: sudo bash scripts/check-fresh.sh [--root DIR] [--keep] [--rebuild-base] [--clean]
#   --root DIR       where the fresh root goes (default /var/tmp/arrayc-fresh-root)
#   --keep           keep the root afterwards (it is always kept after a failure, for inspection)
#   --rebuild-base   debootstrap again instead of unpacking the cached base tarball
#   --clean          unmount and remove a root left by an earlier run, then exit
# Logs: DIR.logs/{debootstrap,demo,test}.log. Exit status: 0 when both commands pass.
set -euo pipefail

ROOT=/var/tmp/arrayc-fresh-root
KEEP=0
REBUILD_BASE=0
CLEAN_ONLY=0
MIRROR=http://deb.debian.org/debian
SUITE=bookworm
BASE_TAR=/var/cache/arrayc-check-fresh/$SUITE-minbase.tar

say() { printf 'check-fresh: %s\n' "$*"; }
die() { printf 'check-fresh: error: %s\n' "$*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
        --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT="$2"; shift 2 ;;
        --keep) KEEP=1; shift ;;
        --rebuild-base) REBUILD_BASE=1; shift ;;
        --clean) CLEAN_ONLY=1; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
done

[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap, mount and chroot need it)"
case "$ROOT" in /|"") die "refusing --root '$ROOT'" ;; esac
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOGS="$ROOT.logs"
RUSTUP_DIR="${RUSTUP_HOME:-$HOME/.rustup}"
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"

# Unmount everything below the root, deepest first. Removing the root while the toolchain is still
# bind-mounted would delete the host's toolchain, so removal checks that nothing is mounted.
unmount_all() {
    [ -d "$ROOT" ] || return 0
    local m
    for m in $(findmnt -rn -o TARGET | grep -F "$ROOT/" | sort -r); do
        umount -l "$m" 2>/dev/null || true
    done
}
remove_root() {
    unmount_all
    if findmnt -rn -o TARGET | grep -qF "$ROOT/"; then
        die "something is still mounted under $ROOT; not removing it (see findmnt)"
    fi
    rm -rf --one-file-system "$ROOT"
}

if [ "$CLEAN_ONLY" -eq 1 ]; then
    remove_root
    rm -rf "$LOGS"
    say "removed $ROOT"
    exit 0
fi

command -v git >/dev/null 2>&1 || die "git is needed to clone the repository"
[ -x "$CARGO_BIN/cargo" ] || die "no Rust toolchain at $CARGO_BIN (install it with rustup first)"
[ -d "$RUSTUP_DIR/toolchains" ] || die "no rustup toolchains at $RUSTUP_DIR"
if ! command -v debootstrap >/dev/null 2>&1; then
    say "installing debootstrap (apt)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
fi
if [ -n "$(git -C "$REPO" status --porcelain --untracked-files=no)" ]; then
    say "warning: the working tree has uncommitted changes; the check runs HEAD ($(git -C "$REPO" rev-parse --short HEAD)) only"
fi

[ -e "$ROOT" ] && remove_root
rm -rf "$LOGS"
mkdir -p "$LOGS" "$(dirname "$BASE_TAR")"
START=$SECONDS
elapsed() { local s=$((SECONDS - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

trap 'unmount_all' EXIT

# --- 1. the base system ------------------------------------------------------------------------
t=$SECONDS
if [ "$REBUILD_BASE" -eq 1 ] || [ ! -s "$BASE_TAR" ]; then
    say "debootstrap $SUITE (minbase + make) into $ROOT"
    if ! debootstrap --variant=minbase --include=make "$SUITE" "$ROOT" "$MIRROR" >"$LOGS/debootstrap.log" 2>&1; then
        tail -20 "$LOGS/debootstrap.log" >&2
        die "debootstrap failed (log: $LOGS/debootstrap.log)"
    fi
    tar -C "$ROOT" -cf "$BASE_TAR.tmp" . && mv "$BASE_TAR.tmp" "$BASE_TAR"
else
    say "unpacking the pristine base $BASE_TAR into $ROOT"
    mkdir -p "$ROOT"
    tar -C "$ROOT" -xf "$BASE_TAR"
fi
T_BASE=$(elapsed "$t")

# --- 2. a stock Debian 12 apt configuration; no services start inside -------------------------
cat >"$ROOT/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb http://deb.debian.org/debian-security $SUITE-security main
EOF
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
chmod +x "$ROOT/usr/sbin/policy-rc.d"
# The network settings of this machine, as any machine on its network would have them: the name
# server, and local certificate authorities (an HTTPS proxy's, say), which the ca-certificates
# package that the set-up installs adds to the root's trust store.
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
if compgen -G '/usr/local/share/ca-certificates/*' >/dev/null; then
    mkdir -p "$ROOT/usr/local/share/ca-certificates"
    cp -rL /usr/local/share/ca-certificates/. "$ROOT/usr/local/share/ca-certificates/"
fi

# --- 3. the toolchain and the repository --------------------------------------------------------
mount -t proc proc "$ROOT/proc"
mount --rbind /sys "$ROOT/sys" && mount --make-rslave "$ROOT/sys"
mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev"
mkdir -p "$ROOT/root/.rustup" "$ROOT/root/.cargo/bin"
mount --bind "$RUSTUP_DIR" "$ROOT/root/.rustup" && mount -o remount,bind,ro "$ROOT/root/.rustup"
mount --bind "$CARGO_BIN" "$ROOT/root/.cargo/bin" && mount -o remount,bind,ro "$ROOT/root/.cargo/bin"
git clone --quiet --no-hardlinks "$REPO" "$ROOT/root/arrayc"
COMMIT="$(git -C "$ROOT/root/arrayc" rev-parse --short HEAD)"

# --- 4. the README's two commands ---------------------------------------------------------------
run_in_root() { # NAME COMMAND
    chroot "$ROOT" /usr/bin/env -i HOME=/root TERM=dumb CI=true LANG=C.UTF-8 \
        PATH=/root/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/bash -c "cd /root/arrayc && $2" </dev/null >"$LOGS/$1.log" 2>&1
}
status=0
failed=""
t=$SECONDS
say "[$COMMIT] make demo (log: $LOGS/demo.log)"
run_in_root demo "make demo" || { status=1; failed=demo; }
T_DEMO=$(elapsed "$t")
T_TEST=skipped
if [ "$status" -eq 0 ]; then
    t=$SECONDS
    say "[$COMMIT] make test (log: $LOGS/test.log)"
    run_in_root test "make test" || { status=1; failed=test; }
    T_TEST=$(elapsed "$t")
fi

# --- 5. report -----------------------------------------------------------------------------------
say "times: base $T_BASE, make demo $T_DEMO, make test $T_TEST, total $(elapsed "$START")"
if [ -f "$LOGS/demo.log" ]; then
    say "set-up installed: $(grep -m1 '^setup: installing missing packages' "$LOGS/demo.log" | sed 's/^setup: installing missing packages: //' || true)"
fi
if [ "$status" -eq 0 ]; then
    cargo_passed=$(grep -E '^test result: ok' "$LOGS/test.log" | awk '{s += $4} END {print s + 0}')
    lit_passed=$(grep -oE 'Passed *: *[0-9]+' "$LOGS/test.log" | grep -oE '[0-9]+' | tail -1 || true)
    pytest_line=$(grep -E '^[0-9]+ passed' "$LOGS/test.log" | tail -1 || true)
    say "PASS at $COMMIT: make demo and make test in a fresh Debian 12 root ($cargo_passed cargo tests, ${lit_passed:-?} lit tests, pytest: ${pytest_line:-?})"
    if [ "$KEEP" -eq 0 ]; then
        trap - EXIT
        remove_root
    else
        say "kept $ROOT (remove it with: $0 --clean --root $ROOT)"
    fi
else
    say "FAIL at $COMMIT: make $failed failed in the fresh root. The end of $LOGS/$failed.log:"
    tail -40 "$LOGS/$failed.log" | sed 's/^/    /'
    say "kept $ROOT for inspection (chroot $ROOT /bin/bash; remove it with: $0 --clean --root $ROOT)"
fi
exit "$status"
