#!/usr/bin/env bash
# Opens a page in headless Chromium from disk (file://, no server, no
# network) and writes the DOM after its scripts ran to OUT.dom and the
# browser's console lines to OUT.console. Exit 77 when chromium is missing.
#
# Usage: tests/support/html_browser.sh PAGE.html OUT [URL-FRAGMENT]
#        tests/support/html_browser.sh --screenshot PAGE.html OUT.png FRAGMENT WxH
set -u
if ! command -v chromium >/dev/null 2>&1; then
    echo "SKIPPED: chromium is not installed (Debian: apt-get install chromium)"
    exit 77
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run
       --disable-component-update --disable-sync --hide-scrollbars
       --user-data-dir="$profile" --virtual-time-budget=10000)
if [ "$1" = --screenshot ]; then
    page=$(realpath "$2")
    timeout 120 chromium "${flags[@]}" --window-size="$5" --screenshot="$3" \
        "file://$page#$4" >/dev/null 2>&1
    exit $?
fi
page=$(realpath "$1")
out=$2
frag=${3:-}
timeout 120 chromium "${flags[@]}" --window-size=1280,900 --enable-logging=stderr --v=0 \
    --dump-dom "file://$page${frag:+#$frag}" >"$out.dom" 2>"$out.stderr"
rc=$?
grep -a ':CONSOLE' "$out.stderr" >"$out.console" || true
exit $rc
