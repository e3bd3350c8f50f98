#!/usr/bin/env bash
# scripts/ghc.sh: newer GHCs beside Debian 12's GHC 9.0.2, each in a
# chroot made from nothing but Debian's package registry, so that anyone
# can make real eventlogs of every GHC evprof is checked on.
#
#   scripts/ghc.sh VERSION setup        debootstrap the suite and install
#                                       ghc ghc-prof (as root; a few minutes,
#                                       1.5 to 2 GB; nothing when it is there)
#   scripts/ghc.sh VERSION root         print the chroot's folder
#   scripts/ghc.sh VERSION run DIR CMD  run CMD (a shell command) inside the
#                                       chroot, in the host folder DIR (bound
#                                       inside): build there with ghc, run
#                                       there
#   scripts/ghc.sh VERSION check        exit 0 when the chroot's ghc answers
#                                       VERSION
#
# VERSION   suite             ghc
#   9.6     trixie (Debian 13)  9.6.6
#   9.10    sid (unstable)      9.10.3
#
# The folder is $EVPROF_GHC_ROOT_<major><minor> (EVPROF_GHC_ROOT_96,
# EVPROF_GHC_ROOT_910), default ~/.cache/evprof-clients/SUITE. Programs
# built in a chroot need its libc: run them inside it (`run`). Files and
# FIFOs under the bound folder are visible on both sides, which is how the
# tests follow a program live from the host. The mirror is the one of this
# machine's own apt sources (or $EVPROF_DEBIAN_MIRROR). sid's Release file
# can be past its Valid-Until date: the chroot (only) is told not to check
# it. Used by `make clients` (scripts/clients.sh) and by the tests that make
# 9.6 and 9.10 logs (they say SKIPPED when `check` fails).
set -u
version=${1:-}
case "$version" in
    9.6) suite=trixie; var=EVPROF_GHC_ROOT_96 ;;
    9.10) suite=sid; var=EVPROF_GHC_ROOT_910 ;;
    *) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
shift
name="ghc $version"
cache=${XDG_CACHE_HOME:-$HOME/.cache}
root=${!var:-$cache/evprof-clients/$suite}

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
    # GHCRTS is for the program a caller runs (evprof top -- a script
    # around `run`), not for this probe: ghc is a Haskell program too
    env -u GHCRTS chroot "$root" ghc --numeric-version 2>/dev/null | grep -q "^${version//./\\.}\."
}

apt_in() {  # apt-get inside the chroot
    chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@"
}

setup() {
    if check; then echo "$name: GHC $(env -u GHCRTS chroot "$root" ghc --numeric-version) in $root"; return 0; fi
    if [ "$(id -u)" != 0 ]; then echo "$name: setup needs root (debootstrap, chroot)" >&2; return 1; fi
    command -v debootstrap >/dev/null || {
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq debootstrap ||
            { echo "$name: cannot install debootstrap" >&2; return 1; }
    }
    local m; m=$(mirror)
    if [ ! -x "$root/usr/bin/apt-get" ]; then
        echo "$name: debootstrap $suite from $m into $root" >&2
        mkdir -p "$root"
        debootstrap --variant=minbase "$suite" "$root" "$m" >"$root.debootstrap.log" 2>&1 || {
            echo "$name: debootstrap failed (see $root.debootstrap.log)" >&2; return 1; }
    fi
    if [ "$suite" = sid ]; then
        # the chroot's apt only: sid's Release file can be past Valid-Until
        echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99evprof-valid-until"
    fi
    enter || { echo "$name: cannot mount /proc and /dev in $root" >&2; return 1; }
    echo "$name: installing ghc ghc-prof in the chroot" >&2
    apt_in update -qq >"$root.apt.log" 2>&1 &&
    apt_in install -y -qq --no-install-recommends ghc ghc-prof >>"$root.apt.log" 2>&1 || {
        echo "$name: apt-get install ghc ghc-prof failed in the chroot (see $root.apt.log)" >&2; return 1; }
    check || { echo "$name: the chroot's ghc is not $version" >&2; return 1; }
    echo "$name: GHC $(chroot "$root" ghc --numeric-version) in $root"
}

run() {  # run DIR CMD: DIR bound at /work.PID inside the chroot (its own
         # mount, so that several runs at once do not meet), CMD run there
    local dir=$1; shift
    check || { echo "$name: no GHC $version chroot at $root (scripts/ghc.sh $version setup)" >&2; return 77; }
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
    run) shift; [ $# -ge 2 ] || { echo "usage: $0 $version run DIR CMD" >&2; exit 2; }; run "$@" ;;
    *) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
