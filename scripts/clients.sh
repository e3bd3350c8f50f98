#!/usr/bin/env bash
# scripts/clients.sh BUILD: installs the real clients evprof's outputs are
# checked against, then runs every test that needs one of them (`make
# clients`: CTest's client label). `make test` does not need them: it
# leaves out the tests that are all client checks, and the others' client
# checks say SKIPPED where the client is missing.
#
#   Debian:  ghc ghc-prof (real profiled programs, GHC's own .prof),
#            cabal-install (top -- cabal run, tests/cli/live_launcher.sh),
#            libghc-ghc-events-dev (the ghc-events reader),
#            chromium (the HTML page, speedscope's app),
#            golang-1.19-go (go tool pprof), graphviz, tmux (the curses
#            view in a terminal), groff (the man page), prometheus
#            (a real Prometheus scraping top --metrics, and promtool)
#   npm:     speedscope 1.25.0 (its built app, opened in Chromium), into
#            ~/.cache/speedscope-shot as ../shared/tools/speedscope-shot.sh
#            keeps it (npm itself from Debian when it is missing)
#   GHC 9.6 and 9.10: Debian 13's ghc and ghc-prof (9.6.6) and Debian
#            unstable's (9.10.3), each in a debootstrap chroot,
#            scripts/ghc.sh VERSION setup (as root, from Debian's registry):
#            the tests that make and follow real 9.6 and 9.10 runs
#   git:     FlameGraph (flamegraph.pl, difffolded.pl; in no registry) into
#            ~/.cache/evprof-clients/FlameGraph, when github.com is
#            reachable (or $FLAMEGRAPH_DIR); otherwise its checks are
#            reported as "not checked (REASON)" and do not fail the target
#
# Exits non-zero when a client test fails, when a registry's client cannot
# be installed, or when a test or check of such a client says SKIPPED
# (scripts/clients-verdict.sh: the verdict on the ctest run). A machine
# that reaches only the package registries passes.
set -u
cd "$(dirname "$0")/.."
build=${1:-build}

debs="ghc ghc-prof libghc-ghc-events-dev cabal-install chromium golang-1.19-go graphviz tmux groff prometheus"
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
missing=""
for p in $debs; do installed "$p" || missing="$missing $p"; done
if [ -n "$missing" ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "clients: run as root: apt-get install$missing" >&2
        exit 1
    fi
    echo "clients: installing:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=600 update -qq || true
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing || {
        echo "clients: could not install:$missing" >&2
        exit 1
    }
fi

# go tool pprof: Debian puts golang-1.19's go under /usr/lib/go-1.19/bin
export PATH=$PATH:/usr/lib/go-1.19/bin

cache=${XDG_CACHE_HOME:-$HOME/.cache}
ss=$cache/speedscope-shot
if [ ! -f "$ss/node_modules/speedscope/dist/release/index.html" ]; then
    if ! command -v npm >/dev/null; then
        echo "clients: installing: npm" >&2
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
            --no-install-recommends npm || { echo "clients: could not install npm" >&2; exit 1; }
    fi
    mkdir -p "$ss"
    npm install --silent --no-audit --no-fund --prefix "$ss" speedscope@1.25.0 || {
        echo "clients: npm could not install speedscope 1.25.0" >&2
        exit 1
    }
fi

# FlameGraph is in no registry: used where it is, cloned where github.com
# answers, and otherwise not checked, with the reason
fg=$cache/evprof-clients/FlameGraph
fg_reason=""
if [ -z "${FLAMEGRAPH_DIR:-}" ]; then
    if [ ! -f "$fg/flamegraph.pl" ]; then
        mkdir -p "$(dirname "$fg")"
        if ! err=$(timeout 60 git clone -q --depth 1 https://github.com/brendangregg/FlameGraph \
                       "$fg" 2>&1); then
            rm -rf "$fg"
            fg_reason="FlameGraph is in no package registry and github.com could not be cloned from: $(printf '%s' "$err" | tail -1)"
            echo "clients: $fg_reason; its checks will be reported as not checked" >&2
        fi
    fi
    [ -f "$fg/flamegraph.pl" ] && export FLAMEGRAPH_DIR=$fg
elif [ ! -f "$FLAMEGRAPH_DIR/flamegraph.pl" ]; then
    fg_reason="no flamegraph.pl in FLAMEGRAPH_DIR=$FLAMEGRAPH_DIR"
fi

for v in 9.6 9.10; do
    bash scripts/ghc.sh $v setup ||
        { echo "clients: could not set up the GHC $v chroot (scripts/ghc.sh $v setup)" >&2; exit 1; }
done

bash scripts/deps.sh || exit 1
cmake -S . -B "$build" >/dev/null && cmake --build "$build" -j "$(nproc)" >/dev/null || exit 1

# the tests that run a real client: the client label (tests/CMakeLists.txt
# gives it; `make test` needs no client and runs the others)
log=$build/clients-test.log
(cd "$build" && ctest --output-on-failure -L '^client$') 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
if [ "$rc" != 0 ]; then
    echo "clients: a client test failed" >&2
    exit 1
fi
# every test's output, with the checks that could not run ("SKIPPED: ...")
bash scripts/clients-verdict.sh "$log" "$build/Testing/Temporary/LastTest.log" "$fg_reason"
