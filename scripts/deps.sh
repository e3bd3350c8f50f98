#!/usr/bin/env bash
# Installs the Debian packages evprof needs, only those missing.
# Required: the build and the tests. Optional: clang and its runtime, for
# the libFuzzer target (make fuzz); a failure to install them is a warning.
# As root it runs apt-get (one `apt-get update`, only when something is
# missing); otherwise it prints what to install.
set -u

required="build-essential cmake libgraphviz-dev libcmocka-dev pkg-config python3
          protobuf-c-compiler libprotobuf-c-dev zlib1g-dev libcurl4-openssl-dev libncurses-dev"
optional="clang libclang-rt-14-dev"

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: not a Debian system; install by hand: $required (optional: $optional)" >&2
    exit 0
fi

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing_req=""
missing_opt=""
for p in $required; do installed "$p" || missing_req="$missing_req $p"; done
for p in $optional; do installed "$p" || missing_opt="$missing_opt $p"; done

if [ -z "$missing_req$missing_opt" ]; then
    exit 0
fi

if [ "$(id -u)" != 0 ]; then
    [ -n "$missing_req" ] && echo "deps: missing packages:$missing_req" >&2
    [ -n "$missing_opt" ] && echo "deps: missing optional packages (for make fuzz):$missing_opt" >&2
    echo "deps: run as root: apt-get install$missing_req$missing_opt" >&2
    [ -z "$missing_req" ]
    exit
fi

export DEBIAN_FRONTEND=noninteractive
# wait for another apt (e.g. a background install) instead of failing
apt_get() { apt-get -o DPkg::Lock::Timeout=600 "$@"; }

echo "deps: installing:$missing_req$missing_opt" >&2
apt_get update -qq || echo "deps: apt-get update failed; trying the cached lists" >&2
if [ -n "$missing_req" ]; then
    apt_get install -y -qq --no-install-recommends $missing_req || {
        echo "deps: could not install:$missing_req" >&2
        exit 1
    }
fi
if [ -n "$missing_opt" ]; then
    apt_get install -y -qq --no-install-recommends $missing_opt ||
        echo "deps: optional packages not installed:$missing_opt (make fuzz needs them)" >&2
fi
exit 0
