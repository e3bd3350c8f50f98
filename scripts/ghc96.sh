#!/usr/bin/env bash
# scripts/ghc96.sh: GHC 9.6 (Debian 13 "trixie"'s ghc and ghc-prof, 9.6.6)
# in a chroot beside Debian 12's GHC 9.0.2, from nothing but Debian's
# package registry, so that anyone can make real 9.6 eventlogs.
#
#   scripts/ghc96.sh setup        debootstrap trixie and install ghc ghc-prof
#                                 (as root; a few minutes, about 1.5 GB;
#                                 does nothing when it is already there)
#   scripts/ghc96.sh root         print the chroot's folder
#   scripts/ghc96.sh run DIR CMD  run CMD (a shell command) inside the
#                                 chroot, in the host folder DIR (bound
#                                 inside): build there with ghc, run there
#   scripts/ghc96.sh check        exit 0 when the chroot's ghc answers 9.6
#
# The folder is $EVPROF_GHC96_ROOT, default ~/.cache/evprof-clients/trixie.
# Programs built in the chroot need trixie's libc: run them inside it
# (`run`). Files and FIFOs under the bound folder are visible on both
# sides, which is how the tests follow a 9.6 program live from the host.
# The mirror is the one of this machine's own apt sources (or
# $EVPROF_DEBIAN_MIRROR). Used by `make clients` (scripts/clients.sh) and
# by the tests that make 9.6 logs (they say SKIPPED when `check` fails).
set -u
cache=${XDG_CACHE_HOME:-$HOME/.cache}
root=${EVPROF_GHC96_ROOT:-$cache/evprof-clients/trixie}

mirror() {
    if [ -n "${EVPROF_DEBIAN_MIRROR:-}" ]; then echo "$EVPROF_DEBIAN_MIRROR"; return; fi
    local u
    u=$(grep -hoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' \
            /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
            /etc/apt/sources.list.d/*.list 2>/dev/null | head -1 | awk '{print $2}')
    echo "${u:-http://deb.debian.org/debian}"
}

mounted() { mountpoint -q "$1" 2>/dev/null; }

enter() {  # mount what the chroot needs; idempotent
    mounted "$root/proc" || mount -t proc proc "$root/proc" || return 1
    mounted "$root/dev" || mount --rbind /dev "$root/dev" || return 1
    cp -f /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
}

check() {
    [ -x "$root/usr/bin/ghc" ] || return 1
    enter 2>/dev/null || return 1
    chroot "$root" ghc --numeric-version 2>/dev/null | grep -q '^9\.6\.'
}

setup() {
    if check; then echo "ghc96: GHC $(chroot "$root" ghc --numeric-version) in $root"; return 0; fi
    if [ "$(id -u)" != 0 ]; then echo "ghc96: setup needs root (debootstrap, chroot)" >&2; return 1; fi
    command -v debootstrap >/dev/null || {
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq debootstrap ||
            { echo "ghc96: cannot install debootstrap" >&2; return 1; }
    }
    local m; m=$(mirror)
    if [ ! -x "$root/usr/bin/apt-get" ]; then
        echo "ghc96: debootstrap trixie from $m into $root" >&2
        mkdir -p "$root"
        debootstrap --variant=minbase trixie "$root" "$m" >"$root.debootstrap.log" 2>&1 || {
            echo "ghc96: debootstrap failed (see $root.debootstrap.log)" >&2; return 1; }
    fi
    enter || { echo "ghc96: cannot mount /proc and /dev in $root" >&2; return 1; }
    echo "ghc96: installing ghc ghc-prof in the chroot" >&2
    chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq &&
    chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
        install -y -qq --no-install-recommends ghc ghc-prof >"$root.apt.log" 2>&1 || {
        echo "ghc96: apt-get install ghc ghc-prof failed in the chroot (see $root.apt.log)" >&2; return 1; }
    check || { echo "ghc96: the chroot's ghc is not 9.6" >&2; return 1; }
    echo "ghc96: GHC $(chroot "$root" ghc --numeric-version) in $root"
}

run() {  # run DIR CMD: DIR bound at /work.PID inside the chroot (its own
         # mount, so that several runs at once do not meet), CMD run there
    local dir=$1; shift
    check || { echo "ghc96: no GHC 9.6 chroot at $root (scripts/ghc96.sh setup)" >&2; return 77; }
    local at=/work.$$
    mkdir -p "$root$at"
    mount --bind "$dir" "$root$at" || return 1
    chroot "$root" /bin/sh -c "cd $at && $*"
    local rc=$?
    umount "$root$at" 2>/dev/null && rmdir "$root$at" 2>/dev/null
    return $rc
}

case "${1:-}" in
    setup) setup ;;
    root) echo "$root" ;;
    check) check ;;
    run) shift; [ $# -ge 2 ] || { echo "usage: $0 run DIR CMD" >&2; exit 2; }; run "$@" ;;
    *) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
