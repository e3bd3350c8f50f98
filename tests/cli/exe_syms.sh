#!/usr/bin/env bash
# -hi bands named by the executable's symbols (heap --exe, html, pprof
# --heap, top): on real GHC 9.6.6 (profiled) and 9.10.3 runs
# (tests/data/exe: each log with its executable's symbol table), every
# band named is the `_info` symbol that binutils' nm finds at its address
# plus sizeof(StgInfoTable), Z-decoded; the log's own program (./parse,
# not there) is not used, and evprof says why; another build is refused;
# the .hp keeps GHC's addresses; a file that is no executable, truncated,
# a folder or a FIFO is an error of --exe. With tests/exe/fake_ghc (a
# program with GHC-like symbols writing an -hi log of itself; CTest gives
# its path): the default, the program the log names, relative to the
# log's folder, and why it is not used when it is missing, not an ELF
# file or another build.
#
# Usage: tests/cli/exe_syms.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/exe
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
py=${PYTHON:-python3}
top=': (con_info, ghc-prim, symbol)'

has() { grep -qF -- "$2" "$1"; }
hasnt() { ! grep -qF -- "$2" "$1"; }

for v in 96 910; do
    log=$data/parse$v-hi.eventlog syms=$data/parse$v.syms
    size=$([ $v = 96 ] && echo 32 || echo 16)   # profiled RTS: 32
    # the default: ./parse, taken from the log's folder, is not there
    "$evprof" heap "$log" >"$tmp/def.out" 2>"$tmp/def.err"
    check "$v: default runs" [ $? = 0 ]
    check "$v: default says why not" has "$tmp/def.err" "the program the log names, ./parse, is not used ($data/parse): it cannot be opened: No such file or directory; --exe PROG"
    check "$v: default keeps addresses" hasnt "$tmp/def.out" "(symbol)"
    "$evprof" heap --no-exe "$log" >"$tmp/no.out" 2>"$tmp/no.err"
    check "$v: --no-exe: the same bands" cmp -s "$tmp/def.out" "$tmp/no.out"
    check "$v: --no-exe: nothing to say of the program" hasnt "$tmp/no.err" "not used"

    "$evprof" heap --exe "$syms" "$log" >"$tmp/x.out" 2>"$tmp/x.err"
    check "$v: --exe runs" [ $? = 0 ]
    check "$v: the largest band named" has "$tmp/x.out" "GHC.Types.$top"
    check "$v: stg_STACK named" has "$tmp/x.out" "stg_STACK_info (rts symbol)"
    check "$v: the note" grep -qE "info-table bands have no IPE entry \(event 169\): [0-9]+ named by the symbols of $syms \(marked '\(symbol\)'\), [0-9]+ shown as addresses" "$tmp/x.err"
    check "$v: the summary's note" grep -qE "^note: [0-9]+ info-table bands have no IPE entry \(event 169\): [0-9]+ named by the executable's symbols" "$tmp/x.out"
    # every band named is nm's symbol at its address + sizeof(StgInfoTable)
    "$evprof" heap --exe "$syms" -f json "$log" >"$tmp/x.json" 2>/dev/null
    if command -v nm >/dev/null; then
        nm "$syms" >"$tmp/nm.txt"
        "$py" - "$tmp/x.json" "$tmp/nm.txt" "$size" >"$tmp/nm.res" 2>&1 <<'PY'
import json, re, sys
rows = json.load(open(sys.argv[1]))['rows']
size = int(sys.argv[3])
syms = {}
for line in open(sys.argv[2]):
    p = line.split()
    if len(p) == 3 and p[2].endswith('_info'):
        syms[int(p[0], 16)] = p[2]
low = {'z': 'z', 'a': '&', 'b': '|', 'c': '^', 'd': '$', 'e': '=', 'g': '>', 'h': '#', 'i': '.',
       'l': '<', 'm': '-', 'n': '!', 'p': '+', 'q': "'", 'r': '\\', 's': '/', 't': '*', 'u': '_',
       'v': '%'}
up = {'L': '(', 'R': ')', 'M': '[', 'N': ']', 'C': ':', 'Z': 'Z'}
def zdec(s):
    out, i = '', 0
    while i < len(s):
        c = s[i]
        if c in 'zZ':
            d = s[i + 1]
            m = re.match(r'(\d+)([TH])', s[i + 1:]) if c == 'Z' else None
            h = re.match(r'([0-9][0-9a-f]*)U', s[i + 1:]) if c == 'z' else None
            if m:
                n = int(m.group(1))
                out += '()' if n == 0 else ('(' + ',' * (n - 1) + ')' if m.group(2) == 'T' else
                                            '(# #)' if n == 1 else '(#' + ',' * (n - 1) + '#)')
                i += 1 + len(m.group(0))
            elif h:
                out += chr(int(h.group(1), 16))
                i += 1 + len(h.group(0))
            else:
                out += (low if c == 'z' else up).get(d, d)
                i += 2
        else:
            out += c
            i += 1
    return out
def title(sym):
    if sym.startswith('stg_') or sym.startswith('__stg_'):
        return sym + ' (rts symbol)'
    for fl in ('con_info', 'static_info', 'info'):
        if sym.endswith('_' + fl):
            parts = sym[:-len(fl) - 1].split('_')
            if len(parts) == 2:
                return '%s.%s (%s, symbol)' % (zdec(parts[0]), zdec(parts[1]), fl)
            if len(parts) == 3:
                return '%s.%s (%s, %s, symbol)' % (zdec(parts[1]), zdec(parts[2]), fl,
                                                   zdec(parts[0]))
    return sym + ' (symbol)'
named, expect, bad = set(), set(), []
for r in rows:
    a = r.get('address')
    if a is None:
        continue
    s = syms.get(int(a, 16) + size)
    if r['band'].endswith('symbol)'):
        named.add(a)
        if s is None or title(s) != r['band']:
            bad.append((a, r['band'], s))
    elif r['band'] == a and s is not None:
        bad.append((a, 'left an address', s))
print(len(set(r['address'] for r in rows if 'address' in r)), len(named), len(bad))
assert not bad, bad[:5]
assert len(named) >= 20, len(named)
PY
        check "$v: every name is nm's symbol at address + $size, Z-decoded ($(head -c 60 "$tmp/nm.res"))" [ $? = 0 ]
    else
        echo "SKIPPED: $v: nm (binutils) is missing: names not compared with nm's"
    fi
    # the .hp keeps GHC's addresses
    "$evprof" heap --exe "$syms" -f hp "$log" -o "$tmp/x.hp" 2>/dev/null
    "$evprof" heap --no-exe -f hp "$log" -o "$tmp/no.hp" 2>/dev/null
    check "$v: the .hp keeps addresses" cmp -s "$tmp/x.hp" "$tmp/no.hp"
    "$evprof" heap --exe "$syms" -f csv "$log" >"$tmp/x.csv" 2>/dev/null
    check "$v: CSV named" has "$tmp/x.csv" ",\"GHC.Types.$top\","
    check "$v: JSON keeps the address" grep -qE "\"band\": \"GHC.Types.: \(con_info, ghc-prim, symbol\)\", \"address\": \"0x[0-9a-f]+\"" "$tmp/x.json"
    # html, pprof --heap, top: the same names
    "$evprof" html --exe "$syms" "$log" -o "$tmp/x.html" 2>"$tmp/html.err"
    check "$v: html named" has "$tmp/x.html" "GHC.Types.$top"
    check "$v: html says so" has "$tmp/html.err" "named by the symbols of $syms"
    "$evprof" pprof --heap --exe "$syms" "$log" -o "$tmp/x.pb.gz" 2>/dev/null
    check "$v: pprof --heap named" sh -c "gzip -dc '$tmp/x.pb.gz' | grep -qaF 'GHC.Types.$top'"
    "$evprof" top --plain --exe "$syms" "$log" >"$tmp/top.out" 2>"$tmp/top.err"
    check "$v: top named" has "$tmp/top.out" "GHC.Types.$top"
    check "$v: top says so" has "$tmp/top.err" "named by the symbols of $syms"
done

# another build: refused, said, addresses kept
"$evprof" heap --exe $data/parse910.syms $data/parse96-hi.eventlog >"$tmp/o.out" 2>"$tmp/o.err"
check "another build: runs" [ $? = 0 ]
check "another build: refused" grep -qE "^evprof: $data/parse96-hi.eventlog: --exe $data/parse910.syms is not used: only [0-9] of the [0-9]+ band addresses of the first census are its info tables: another build" "$tmp/o.err"
check "another build: addresses" hasnt "$tmp/o.out" "(symbol)"
check "--exe and --no-exe" sh -c "'$evprof' heap --exe x --no-exe $data/parse96-hi.eventlog 2>/dev/null; [ \$? = 2 ]"

# hostile --exe: an error, exit 1, before any output
bad_exe() {  # WHAT FILE MESSAGE
    "$evprof" heap --exe "$2" $data/parse96-hi.eventlog >"$tmp/b.out" 2>"$tmp/b.err"
    local rc=$?
    check "--exe $1: exit 1 ($rc)" [ $rc = 1 ]
    check "--exe $1: says it ($(head -c 120 "$tmp/b.err"))" \
        sh -c 'grep -qF "evprof: --exe $2: " "$1" && grep -qF -- "$3" "$1"' - "$tmp/b.err" "$2" "$3"
    check "--exe $1: no output" [ ! -s "$tmp/b.out" ]
}
printf 'not a program\n' >"$tmp/text"
bad_exe "a text file" "$tmp/text" "not an ELF file"
head -c 3000 $data/parse96.syms >"$tmp/cut"
bad_exe "cut" "$tmp/cut" "past the end of the file"
head -c 40 $data/parse96.syms >"$tmp/cut40"
bad_exe "cut in its header" "$tmp/cut40" "truncated: its ELF header needs 64 bytes, the file has 40"
bad_exe "a folder" "$tmp" "not a regular file"
bad_exe "missing" "$tmp/none" "No such file or directory"
mkfifo "$tmp/fifo"
bad_exe "a FIFO (no wait)" "$tmp/fifo" "not a regular file"
bad_exe "an eventlog" "$data/parse96-hi.eventlog" "not an ELF file"

# the program the log names, as a run leaves it (fake_ghc)
fake=${EVPROF_FAKE_GHC:-}
if [ -z "$fake" ] || [ ! -x "$fake" ]; then
    echo "SKIPPED: tests/exe/fake_ghc not built (run through ctest)"
else
    mkdir "$tmp/run"
    cp "$fake" "$tmp/run/prog"
    (cd "$tmp/run" && ./prog run.eventlog)
    "$evprof" heap "$tmp/run/run.eventlog" >"$tmp/f.out" 2>"$tmp/f.err"
    check "fake: named by default" has "$tmp/f.out" "GHC.Types.$top"
    check "fake: named: a unit with a version" has "$tmp/f.out" "Data.Map.Internal.Bin (con_info, containers-0.6.7, symbol)"
    check "fake: IPE entries win" has "$tmp/f.out" "Add_con_info (CONSTR_1_0 :: Expr, Add, Main, Parse.hs:10:5)"
    check "fake: the note names the program" has "$tmp/f.err" "7 named by the symbols of $tmp/run/prog (marked '(symbol)'), 1 shown as addresses"
    mv "$tmp/run/prog" "$tmp/prog"
    printf 'echo\n' >"$tmp/run/prog"
    "$evprof" heap "$tmp/run/run.eventlog" >"$tmp/f.out" 2>"$tmp/f.err"
    check "fake: not an ELF file: said" has "$tmp/f.err" "the program the log names, ./prog, is not used ($tmp/run/prog): not an ELF file"
    rm "$tmp/run/prog"
    "$evprof" heap "$tmp/run/run.eventlog" >"$tmp/f.out" 2>"$tmp/f.err"
    check "fake: missing: said" has "$tmp/f.err" "is not used ($tmp/run/prog): it cannot be opened: No such file or directory"
    check "fake: missing: addresses" hasnt "$tmp/f.out" "(symbol)"
    "$evprof" heap --exe "$tmp/prog" "$tmp/run/run.eventlog" >"$tmp/f.out" 2>"$tmp/f.err"
    check "fake: --exe names it" has "$tmp/f.out" "GHC.Types.$top"
    mv "$tmp/prog" "$tmp/run/prog"
    (cd "$tmp/run" && ./prog run.eventlog shifted)
    "$evprof" heap "$tmp/run/run.eventlog" >"$tmp/f.out" 2>"$tmp/f.err"
    check "fake: another build: said" has "$tmp/f.err" "band addresses of the first census are its info tables: another build"
fi

echo "exe_syms: $passed passed, $failed failed"
[ "$failed" = 0 ]
