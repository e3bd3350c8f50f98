#!/usr/bin/env bash
# The installed library as a user meets it. Installs the build tree that
# holds the given evprof (no rebuild) into a temporary prefix, then:
# - the layout: libraries (shared with SONAME, static), headers, version.h,
#   pkg-config and CMake files, the binary, the man page (valid roff that
#   names every subcommand of `evprof --help`);
# - evprof.h includes every public header but those of evprof-graph and
#   evprof-export (graph.h, speedscope.h, pprof.h) and compiles alone;
#   `pkg-config --libs evprof` names none of their dependencies (Graphviz,
#   protobuf-c, zlib, libcurl), and a program linked with it loads none;
# - examples/topcc.c built through pkg-config (shared and static) prints the
#   same ticks as `evprof report` on examples/nfib.eventlog;
# - a CMake project using find_package(evprof COMPONENTS graph export)
#   from the prefix, and one using add_subdirectory on the source tree with
#   only the core (which must not build the CLI, tests, bench, graph or
#   export), both build topcc and get the same output.
#
# Usage: tests/cli/install.sh path/to/build/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/build/evprof}
build=$(cd "$(dirname "$evprof")" && pwd)
src=$(pwd)
log=$src/examples/nfib.eventlog
for tool in cmake pkg-config; do
    command -v $tool >/dev/null || { echo "SKIPPED: no $tool"; exit 77; }
done
[ -f "$build/CMakeCache.txt" ] || { echo "SKIPPED: $build is not a CMake build tree"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() { local what=$1; shift; if "$@"; then ok; [ -n "${VERBOSE_CHECKS:-}" ] && echo "ok: $what"; else bad "$what"; fi; }

# The build's compiler and, for a sanitizer build, its flags (a program
# loading the instrumented library must be instrumented too).
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
[ -n "$cc" ] || cc=cc
cflags="-std=c11 -Wall -Wextra -Werror"
if grep -q '^EVPROF_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
    cflags="$cflags -fsanitize=address,undefined"
fi

prefix=$tmp/prefix
if ! cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    echo "FAIL: cmake --install $build"
    exit 1
fi

# ---- the layout ------------------------------------------------------------
pc=$(find "$prefix" -name evprof.pc)
pcdir=$(dirname "$pc")
libdir=$(dirname "$pcdir")
inc=$prefix/include
version=$("$evprof" --version | awk '{print $2}')
check "evprof.pc installed" [ -f "$pc" ]
for lib in evprof-graph evprof-export; do
    check "$lib.pc installed" [ -f "$pcdir/$lib.pc" ]
done
for lib in evprof evprof-graph evprof-export; do
    check "lib$lib.a installed" [ -f "$libdir/lib$lib.a" ]
    check "lib$lib.so installed" [ -L "$libdir/lib$lib.so" ]
    soname=$(readelf -d "$libdir/lib$lib.so" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
    check "lib$lib.so has a SONAME lib$lib.so.N ($soname)" \
        bash -c "[[ '$soname' == lib$lib.so.[0-9]* && -e '$libdir/$soname' ]]"
done
check "find_package files installed" \
    test -f "$libdir/cmake/evprof/evprofConfig.cmake" -a -f "$libdir/cmake/evprof/evprofConfigVersion.cmake"
check "the binary installed and runs" [ "$("$prefix/bin/evprof" --version)" = "evprof $version" ]
man=$prefix/share/man/man1/evprof.1
check "the man page installed" [ -f "$man" ]
if command -v groff >/dev/null; then
    check "evprof.1 renders without warnings" [ -z "$(groff -man -Tutf8 -ww -z "$man" 2>&1)" ]
fi
for cmd in $("$evprof" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF {print $1}'); do
    check "evprof.1 documents the command '$cmd'" grep -q "^\.B $cmd\$" "$man"
done

# ---- headers: the version and the umbrella ----------------------------------
for h in "$inc"/evprof/*.h; do
    name=$(basename "$h")
    case $name in evprof.h|graph.h|diff.h|html.h|speedscope.h|pprof.h) continue ;; esac
    check "evprof.h includes $name" grep -q "^#include \"evprof/$name\"" "$inc/evprof/evprof.h"
done
for name in graph.h speedscope.h pprof.h; do
    check "$name stays out of evprof.h" bash -c "! grep -q '^#include.*/$name' '$inc/evprof/evprof.h'"
done
cat >"$tmp/version.c" <<'EOF'
#include <stdio.h>
#include <evprof/evprof.h>
#include <evprof/evprof.h>
int main(void)
{
    printf("%d.%d.%d %s\n", EVPROF_VERSION_MAJOR, EVPROF_VERSION_MINOR,
           EVPROF_VERSION_PATCH, EVPROF_VERSION_STRING);
    return 0;
}
EOF
if $cc $cflags -pedantic "$tmp/version.c" -I"$inc" -o "$tmp/version"; then
    check "version.h says the version of the binary" [ "$("$tmp/version")" = "$version $version" ]
else
    bad "a program including evprof.h (twice) compiles with -pedantic -Werror"
fi

# ---- pkg-config -------------------------------------------------------------
export PKG_CONFIG_PATH=$pcdir
check "pkg-config --modversion evprof" [ "$(pkg-config --modversion evprof)" = "$version" ]
libs=$(pkg-config --libs evprof)
check "pkg-config --libs evprof names no dependency of graph or export ($libs)" \
    bash -c "! grep -Eq 'gvc|cgraph|cdt|protobuf|curl|-lz' <<<'$libs'"
check "pkg-config --static --libs evprof-graph adds Graphviz" \
    bash -c "pkg-config --static --libs evprof-graph | grep -q -- -lgvc"
check "pkg-config --static --libs evprof-export adds protobuf-c and libcurl" \
    bash -c "pkg-config --static --libs evprof-export | grep -- -lprotobuf-c | grep -q -- -lcurl"

# The example, built through pkg-config against the shared library.
# shellcheck disable=SC2046
if $cc $cflags "$src/examples/topcc.c" $(pkg-config --cflags --libs evprof) -o "$tmp/topcc"; then
    LD_LIBRARY_PATH=$libdir "$tmp/topcc" "$log" >"$tmp/self" 2>"$tmp/err"
    check "topcc: exit 0" [ $? -eq 0 ]
    LD_LIBRARY_PATH=$libdir "$tmp/topcc" -i "$log" >"$tmp/inherited"
    needed=$(LD_LIBRARY_PATH=$libdir ldd "$tmp/topcc")
    check "topcc loads the installed libevprof" grep -qF "$libdir/libevprof.so" <<<"$needed"
    check "topcc loads no Graphviz, protobuf-c or libcurl" \
        bash -c "! grep -Eq 'libgvc|libcgraph|libprotobuf|libcurl' <<<'$needed'"
else
    bad "examples/topcc.c builds with pkg-config --cflags --libs evprof"
fi

# What `evprof report` says: the summary's rows (label module src %time
# ticks) as topcc prints them, the total, and build's inherited ticks.
summary() {
    awk '/^COST CENTRE .* ticks$/ && !seen { seen = 1; getline; next }
         seen && NF == 0 { exit }
         seen { printf "%8s  %s.%s\n", $NF, $2, $1 }' "$1"
}
"$evprof" report "$log" >"$tmp/report"
summary "$tmp/report" >"$tmp/want-self"
total=$(sed -n 's/.*(\([0-9]*\) ticks @.*/\1/p' "$tmp/report")
build_inh=$(awk '$1 == "build" && $2 == "Main" && NF == 7 {print $NF}' "$tmp/report")
check "the report has a summary" [ -s "$tmp/want-self" ]
check "topcc's individual ticks equal the report's summary" cmp -s "$tmp/want-self" "$tmp/self"
check "topcc's top cost centre is the report's ($(head -1 "$tmp/want-self"))" \
    [ "$(head -1 "$tmp/self")" = "$(head -1 "$tmp/want-self")" ]
check "topcc -i: MAIN first with every tick ($total)" \
    [ "$(head -1 "$tmp/inherited")" = "$(printf '%8s  MAIN.MAIN' "$total")" ]
check "topcc -i: build's inherited ticks equal the report's ($build_inh)" \
    grep -qx "$(printf '%8s  Main.build' "$build_inh")" "$tmp/inherited"

# The same program linked with the static library: no libevprof at run time.
if $cc $cflags "$src/examples/topcc.c" -I"$inc" "$libdir/libevprof.a" -lm -o "$tmp/topcc-static"; then
    check "static topcc prints the same" cmp -s "$tmp/self" <("$tmp/topcc-static" "$log")
    check "static topcc needs no libevprof.so" bash -c "! ldd '$tmp/topcc-static' | grep -q libevprof"
else
    bad "examples/topcc.c builds with libevprof.a"
fi

# A cut log: the ticks of the events before the cut (as evprof's report of
# it says), where the log ends, exit 1.
cut=$(( $(wc -c <"$log") - 3001 ))
head -c $cut "$log" >"$tmp/cut.eventlog"
LD_LIBRARY_PATH=$libdir "$tmp/topcc" "$tmp/cut.eventlog" >"$tmp/cut-self" 2>"$tmp/err"
check "topcc on a cut log: exit 1" [ $? -eq 1 ]
check "topcc on a cut log: says where" grep -q "cut.eventlog: truncated at byte $cut" "$tmp/err"
"$evprof" report "$tmp/cut.eventlog" 2>/dev/null | summary /dev/stdin >"$tmp/want-cut"
check "topcc on a cut log: the ticks of evprof's report of it" \
    bash -c "[ -s '$tmp/cut-self' ] && cmp -s '$tmp/want-cut' '$tmp/cut-self'"

# ---- CMake: find_package from the prefix, add_subdirectory of the tree ------
cmake_flags=(-DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Debug)
if grep -q '^EVPROF_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
    cmake_flags+=(-DCMAKE_C_FLAGS=-fsanitize=address,undefined)
fi
mkdir -p "$tmp/find" "$tmp/sub"
cat >"$tmp/find/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.18)
project(usefind C)
find_package(evprof $version REQUIRED COMPONENTS graph export)
foreach(t evprof::evprof evprof::evprof-static evprof::graph evprof::graph-static
          evprof::export evprof::export-static)
  if(NOT TARGET \${t})
    message(FATAL_ERROR "find_package(evprof) gives no \${t}")
  endif()
endforeach()
add_executable(topcc $src/examples/topcc.c)
target_link_libraries(topcc PRIVATE evprof::evprof)
add_executable(topcc-static $src/examples/topcc.c)
target_link_libraries(topcc-static PRIVATE evprof::evprof-static)
EOF
cat >"$tmp/sub/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.18)
project(usesub C)
# only the core: the parent needs neither Graphviz nor protobuf-c nor libcurl
set(EVPROF_GRAPH OFF CACHE BOOL "")
set(EVPROF_EXPORT OFF CACHE BOOL "")
add_subdirectory($src evprof)
foreach(t evprof evprofcore test_prof gen_eventlog evprof::graph evprof::export)
  if(TARGET \${t})
    message(FATAL_ERROR "add_subdirectory(evprof) made the target \${t}")
  endif()
endforeach()
add_executable(topcc $src/examples/topcc.c)
target_link_libraries(topcc PRIVATE evprof::evprof-static)
EOF
for p in find sub; do
    extra=()
    [ $p = find ] && extra=(-DCMAKE_PREFIX_PATH="$prefix")
    if cmake -S "$tmp/$p" -B "$tmp/$p/build" "${cmake_flags[@]}" "${extra[@]}" >"$tmp/$p.log" 2>&1 &&
       cmake --build "$tmp/$p/build" -j2 >>"$tmp/$p.log" 2>&1; then
        for exe in "$tmp/$p/build"/topcc*; do
            check "$p: $(basename "$exe") prints what topcc printed" cmp -s "$tmp/self" <("$exe" "$log")
        done
    else
        tail -30 "$tmp/$p.log"
        bad "$p: the parent CMake project builds topcc"
    fi
done
check "find: evprof came from the prefix" \
    grep -qx "evprof_DIR:PATH=$libdir/cmake/evprof" "$tmp/find/build/CMakeCache.txt"

echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
