#!/usr/bin/env bash
# Every symbol the library exports carries a module's prefix (issue 12):
# el_ (reader), ev_ (driver), prof_, cg_ (graph), gc_, heap_, ticky_, info_,
# tx_ (text and strings), speedscope_, pprof_, export_, diff_, html_, live_, phases_, and protobuf-c's
# generated perftools__ messages; nothing else may leak into a user's
# namespace. (__odr_asan.NAME: AddressSanitizer's one-definition-rule
# markers of the position-independent objects of a -DEVPROF_SANITIZE=ON
# build, not the library's own.)
set -u
dir=$(dirname "$1")
# the libraries this build makes (a stale libevprofcore.a of an older
# build tree is not one of them)
libs=$(ls "$dir"/libevprof.a "$dir"/libevprof-graph.a "$dir"/libevprof-export.a \
          "$dir"/libevprof.so "$dir"/libevprof-graph.so "$dir"/libevprof-export.so 2>/dev/null)
if [ -z "$libs" ] || ! command -v nm >/dev/null; then
    echo "SKIPPED: no library in $dir or no nm"
    exit 77
fi
bad=$(for l in $libs; do nm -g --defined-only "$l" 2>/dev/null; done |
      awk 'NF == 3 && $2 ~ /[TDRBCV]/ {print $3}' |
      grep -Ev '^(el|ev|prof|cg|gc|heap|ticky|info|tx|speedscope|pprof|export|diff|html|live|phases)_|^perftools__|^_(init|fini)$|^_edata$|^_end$|^__bss_start$|^__odr_asan\.' |
      sort -u)
if [ -n "$bad" ]; then
    echo "symbols without a module prefix:"
    echo "$bad"
    echo "symbols: 0 passed, 1 failed"
    exit 1
fi
echo "symbols: 1 passed, 0 failed"
