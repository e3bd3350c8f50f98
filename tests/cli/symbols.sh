#!/usr/bin/env bash
# What the libraries show their users (issue 12, issue 28):
# - every global symbol of the libraries, static ones included, carries a
#   module's prefix: el_ (reader), ev_ (driver), prof_, cg_ (graph), gc_,
#   heap_, ticky_, info_, tx_ (text and strings), speedscope_, pprof_,
#   export_, diff_, html_, live_, phases_, sched_, and protobuf-c's generated
#   perftools__ messages; nothing else may take a name from a user's
#   namespace. (__odr_asan.NAME: AddressSanitizer's one-definition-rule
#   markers of the position-independent objects of a -DEVPROF_SANITIZE=ON
#   build, not the library's own.)
# - `nm -D` on each shared library lists exactly what its public headers
#   declare, both ways: libevprof-graph.so graph.h, diff.h and html.h,
#   libevprof-export.so speedscope.h and pprof.h, libevprof.so every other
#   header of include/evprof/. The headers' declarations are read by the
#   compiler (GCC's -aux-info: every function a header declares, whatever
#   macro it carries) plus their `extern` variables, so a declaration
#   without EVPROF_API (include/evprof/export.h) is found missing and an
#   internal function exported by mistake is found extra.
set -u
dir=$(cd "$(dirname "$1")" && pwd)
src=$(pwd)
# the libraries this build makes (a stale libevprofcore.a of an older
# build tree is not one of them)
libs=$(ls "$dir"/libevprof.a "$dir"/libevprof-graph.a "$dir"/libevprof-export.a \
          "$dir"/libevprof.so "$dir"/libevprof-graph.so "$dir"/libevprof-export.so 2>/dev/null)
if [ -z "$libs" ] || ! command -v nm >/dev/null; then
    echo "SKIPPED: no library in $dir or no nm"
    exit 77
fi
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- prefixes ----------------------------------------------------------------
bad=$(for l in $libs; do nm -g --defined-only "$l" 2>/dev/null; done |
      awk 'NF == 3 && $2 ~ /[TDRBCV]/ {print $3}' |
      grep -Ev '^(el|ev|prof|cg|gc|heap|ticky|info|tx|speedscope|pprof|export|diff|html|live|phases|sched)_|^perftools__|^_(init|fini)$|^_edata$|^_end$|^__bss_start$|^__odr_asan\.' |
      sort -u)
if [ -n "$bad" ]; then
    echo "FAIL: symbols without a module prefix:"
    echo "$bad"
    failed=$((failed + 1))
else
    passed=$((passed + 1))
fi

# ---- the shared libraries against the headers ----------------------------------
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$dir/CMakeCache.txt" 2>/dev/null)
auxcc=
for c in "$cc" gcc; do
    [ -n "$c" ] || continue
    echo 'int x;' >"$tmp/probe.c"
    if "$c" -aux-info "$tmp/probe.aux" -fsyntax-only "$tmp/probe.c" 2>/dev/null; then
        auxcc=$c
        break
    fi
done
if [ -z "$auxcc" ]; then
    echo "symbols: the headers not checked (no compiler with -aux-info)"
elif ! ls "$dir"/libevprof.so >/dev/null 2>&1; then
    echo "symbols: the headers not checked (no shared library)"
else
    # declared HEADER...: the functions and variables the headers declare
    declared() {
        local h
        for h in "$@"; do
            printf '#include "evprof/%s"\n' "$h" >"$tmp/one.c"
            "$auxcc" -std=c11 -D_POSIX_C_SOURCE=200809L -I"$src/include" -I"$dir/include" \
                -aux-info "$tmp/one.aux" -fsyntax-only "$tmp/one.c" || echo "CANNOT-COMPILE-$h"
            # "/* .../include/evprof/h.h:12:NC */ extern int f (...);", static inlines left out
            grep -F "include/evprof/$h:" "$tmp/one.aux" | grep -v '\*/ static ' |
                sed -E 's/.*[ *]([A-Za-z_][A-Za-z_0-9]*) \(.*/\1/'
            # variables: extern declarations at the start of a line
            sed -nE 's/^(EVPROF_API )?extern [^(]*[ *]([A-Za-z_][A-Za-z_0-9]*)(\[[^]]*\])?;.*/\2/p' \
                "$src/include/evprof/$h"
        done | sort -u
    }
    exported() {
        nm -D --defined-only "$1" | awk 'NF == 3 && $2 ~ /[TDRBCVWiu]/ {print $3}' |
            grep -Ev '^(_init|_fini|_edata|_end|__bss_start)$|^__odr_asan\.' | sort -u
    }
    graph_h="graph.h diff.h html.h"
    export_h="speedscope.h pprof.h"
    core_h=$(cd "$src/include/evprof" && ls *.h | grep -vxF -e graph.h -e diff.h -e html.h \
             -e speedscope.h -e pprof.h)
    for lib in libevprof:core_h libevprof-graph:graph_h libevprof-export:export_h; do
        so=$dir/${lib%%:*}.so
        var=${lib#*:}
        [ -f "$so" ] || continue
        # shellcheck disable=SC2086
        declared ${!var} >"$tmp/declared"
        exported "$so" >"$tmp/exported"
        missing=$(comm -23 "$tmp/declared" "$tmp/exported")
        extra=$(comm -13 "$tmp/declared" "$tmp/exported")
        n=$(wc -l <"$tmp/exported")
        if [ -n "$missing$extra" ] || [ "$n" -eq 0 ]; then
            failed=$((failed + 1))
            echo "FAIL: $(basename "$so") exports $n symbols; the headers ($(echo ${!var})) declare $(wc -l <"$tmp/declared")"
            [ -n "$missing" ] && echo "  declared, not exported:" $missing
            [ -n "$extra" ] && echo "  exported, not declared:" $extra
        else
            passed=$((passed + 1))
            [ -n "${VERBOSE_CHECKS:-}" ] && echo "ok: $(basename "$so"): $n symbols, the headers' declarations"
        fi
    done
fi
echo "symbols: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
