#!/bin/bash
# The README's example outputs are evprof's current output. Each block
#
#   <!-- golden: ARGS -->            (or golden-stderr: standard error)
#       $ evprof ARGS                (the command shown; 4-space indented)
#       output lines...
#   <!-- /golden -->
#
# is compared with `evprof ARGS` run from the project root: line for line
# after the indent, where a line `...` stands for any lines (none or more).
# Run from the project root:  bash tests/cli/readme.sh build/evprof [README.md]
evprof=${1:-build/evprof}
readme=${2:-README.md}
PYTHON=${PYTHON:-python3}   # tests/cli/checks.bash
command -v "$PYTHON" >/dev/null || { echo "SKIPPED: needs python3"; exit 77; }

"$PYTHON" - "$evprof" "$readme" <<'PY'
import re, subprocess, sys

evprof, readme = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"^<!-- golden(-stderr)?: (.*?) -->\n(.*?)^<!-- /golden -->$",
                    text, re.S | re.M)
failed = 0
if not blocks:
    print(f"FAIL: no <!-- golden: ... --> block in {readme}")
    sys.exit(1)
for stderr, args, body in blocks:
    lines = []
    for line in body.split("\n")[:-1]:
        if line and not line.startswith("    "):
            print(f"FAIL: [{args}]: line not indented by 4: {line!r}")
            failed += 1
        lines.append(line[4:])
    shown = "$ evprof " + args + (" >/dev/null" if stderr else "")
    if not lines or lines[0] != shown:
        print(f"FAIL: [{args}]: the block must start with {shown!r}")
        failed += 1
        continue
    lines = lines[1:]
    while lines and lines[-1] == "":
        lines.pop()
    run = subprocess.run([evprof] + args.split(), capture_output=True)
    got = (run.stderr if stderr else run.stdout).decode("utf-8", "replace")
    pattern = "".join(r"(?:[^\n]*\n)*?" if l == "..." else re.escape(l) + r"\n"
                      for l in lines)
    if re.fullmatch(pattern, got, re.S):
        continue
    # not a match: show where the literal lines stop agreeing
    print(f"FAIL: {readme}: the block of `evprof {args}` is not its output")
    want = [l for l in lines]
    out = got.split("\n")
    i = j = 0
    while i < len(want) and j < len(out):
        if want[i] == "...":
            i += 1
            if i < len(want):
                while j < len(out) and out[j] != want[i]:
                    j += 1
            else:
                j = len(out)
            continue
        if want[i] != out[j]:
            print(f"  README: {want[i]!r}\n  evprof: {out[j]!r}")
            break
        i += 1
        j += 1
    else:
        print("  the README shows more or fewer lines than evprof prints")
    failed += 1
print(f"readme: {len(blocks)} blocks, {failed} failed")
sys.exit(1 if failed else 0)
PY
