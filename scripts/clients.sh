#!/usr/bin/env bash
# scripts/clients.sh BUILD: installs the real clients evprof's outputs are
# checked against, then runs every test that needs one of them (`make
# clients`). `make test` does not need them: there these tests say SKIPPED.
#
#   Debian:  ghc ghc-prof (real profiled programs, GHC's own .prof),
#            libghc-ghc-events-dev (the ghc-events reader),
#            chromium (the HTML page, speedscope's app),
#            golang-1.19-go (go tool pprof), graphviz, tmux (the curses
#            view in a terminal), groff (the man page), prometheus
#            (a real Prometheus scraping top --metrics, and promtool)
#   npm:     speedscope 1.25.0 (its built app, opened in Chromium), into
#            ~/.cache/speedscope-shot as ../shared/tools/speedscope-shot.sh
#            keeps it
#   GHC 9.6: Debian 13's ghc and ghc-prof (9.6.6) in a debootstrap chroot,
#            scripts/ghc96.sh setup (as root, from Debian's registry): the
#            tests that make and follow real 9.6 runs (ghc96_live,
#            ghc96_events' fresh runs)
#   git:     FlameGraph (flamegraph.pl, difffolded.pl; not packaged by
#            Debian) into ~/.cache/evprof-clients/FlameGraph, when
#            github.com is reachable; otherwise those checks say SKIPPED
#
# Exits non-zero when a client test fails, or when one says SKIPPED
# although its client should now be there.
set -u
cd "$(dirname "$0")/.."
build=${1:-build}

debs="ghc ghc-prof libghc-ghc-events-dev chromium golang-1.19-go graphviz tmux groff prometheus"
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
    if command -v npm >/dev/null; then
        mkdir -p "$ss"
        npm install --silent --no-audit --no-fund --prefix "$ss" speedscope@1.25.0 ||
            echo "clients: npm could not install speedscope" >&2
    else
        echo "clients: no npm: speedscope's app is not installed" >&2
    fi
fi

fg=$cache/evprof-clients/FlameGraph
if [ -z "${FLAMEGRAPH_DIR:-}" ]; then
    if [ ! -f "$fg/flamegraph.pl" ]; then
        mkdir -p "$(dirname "$fg")"
        timeout 60 git clone -q --depth 1 https://github.com/brendangregg/FlameGraph "$fg" 2>/dev/null ||
            echo "clients: could not clone FlameGraph (github.com unreachable?); its checks will say SKIPPED" >&2
    fi
    [ -f "$fg/flamegraph.pl" ] && export FLAMEGRAPH_DIR=$fg
fi

bash scripts/ghc96.sh setup || echo "clients: no GHC 9.6 chroot: its tests will say SKIPPED" >&2

bash scripts/deps.sh || exit 1
cmake -S . -B "$build" >/dev/null && cmake --build "$build" -j "$(nproc)" >/dev/null || exit 1

# the tests that run a real client (the rest of `make test` needs none)
tests="cli_html_browser cli_speedscope_browser cli_pprof_go cli_live_top_ghc cli_live_socket_ghc
       cli_live_top_tmux cli_runs_ghc_events cli_diff cli_install cli_escape cli_metrics
       cli_metrics_prometheus cli_ghc96_live cli_ghc96_events"
regex="^($(echo $tests | tr ' ' '|'))\$"
log=$build/clients-test.log
(cd "$build" && ctest --output-on-failure -R "$regex") 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
skipped=$(grep -c "Skipped\|SKIPPED" "$log")
if [ "$rc" != 0 ]; then
    echo "clients: a client test failed" >&2
    exit 1
fi
if [ "$skipped" != 0 ]; then
    echo "clients: $skipped skipped test(s) or check(s) above: a client is still missing" >&2
    exit 1
fi
echo "clients: every client test ran and passed"
