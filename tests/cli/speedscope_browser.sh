#!/usr/bin/env bash
# `evprof speedscope` output opened by the real speedscope app in headless
# Chromium: the page, after speedscope imported the file, lists one profile
# per capability ("capability 0 (1/2)") and shows no import error. A file
# speedscope cannot import is recognised as such (so the test can fail).
#
# Needs chromium and speedscope's built app (npm package speedscope, its
# dist/release folder) in $SPEEDSCOPE_DIST or where
# ../shared/tools/speedscope-shot.sh installs it; says SKIPPED (exit 77)
# otherwise.
#
# Usage: tests/cli/speedscope_browser.sh path/to/evprof   (from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/ghc

dist=${SPEEDSCOPE_DIST:-${XDG_CACHE_HOME:-$HOME/.cache}/speedscope-shot/node_modules/speedscope/dist/release}
if ! command -v chromium >/dev/null 2>&1; then
    echo "SKIPPED: chromium is not installed"
    exit 77
fi
if [ ! -f "$dist/index.html" ]; then
    echo "SKIPPED: no speedscope app at $dist (npm install speedscope, or set SPEEDSCOPE_DIST)"
    exit 77
fi

tmp=$(mktemp -d)
srv=
cleanup() { [ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

cp -r "$dist" "$tmp/www"
"$evprof" speedscope "$data"/par-N2-p.eventlog -o "$tmp/www/par.json"
check "evprof speedscope: exit 0" [ $? -eq 0 ]
printf '{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[]},"name":"x","profiles":[{"type":"sampled","name":"x","unit":"nanoseconds","startValue":0,"endValue":1,"samples":[[7]],"weights":[1]}]}' \
    >"$tmp/www/broken.json"

port=
for try in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 20000))
    (cd "$tmp/www" && exec "$PYTHON" -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
    srv=$!
    sleep 1
    if kill -0 "$srv" 2>/dev/null; then break; fi
    srv=
done
[ -n "$srv" ] || { echo "FAIL: cannot start a local HTTP server"; exit 1; }

# page.sh NAME: the DOM after speedscope loaded http://127.0.0.1:PORT/NAME
page() {
    timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$tmp/chrome-$1" --window-size=1400,800 --virtual-time-budget=10000 \
        --dump-dom "http://127.0.0.1:$port/index.html#profileURL=http%3A%2F%2F127.0.0.1%3A$port%2F$1" \
        2>/dev/null
}

# imported HTML NAME: speedscope shows the file NAME, without an error
imported() {
    grep -q "<title>$2 - speedscope</title>" "$1" && ! grep -qi 'something went wrong' "$1"
}

page par.json >"$tmp/par.html"
check "speedscope imports the file" imported "$tmp/par.html" "$data/par-N2-p.eventlog"
check "speedscope shows capability 0 as profile 1 of 2" \
    grep -q 'capability 0 <span[^>]*>(1/2)' "$tmp/par.html"
check "speedscope lists capability 1" grep -q 'par-N2-p.eventlog capability 1' "$tmp/par.html"

page broken.json >"$tmp/broken.html"
check "a file speedscope cannot import is seen as such" \
    bash -c "! grep -q '<title>x - speedscope</title>' '$tmp/broken.html' &&
             grep -qi 'something went wrong' '$tmp/broken.html'"

echo "speedscope_browser: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
