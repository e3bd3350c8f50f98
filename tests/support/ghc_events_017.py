#!/usr/bin/env python3
"""`evprof dump`'s text (ghc-events show's, as its current version prints
it) in the form Debian 12's ghc-events 0.17 library prints it
(tests/support/ghc_events_show.hs): without the block markers' lines and
the blank line each is followed by (0.17's reader drops block markers),
and with a stack overflow's size left out ("(stack overflow, size 104)"
is "(stack overflow)" there). Everything else is left as it is.
Reads standard input, writes standard output."""
import re
import sys

lines = sys.stdin.read().split('\n')
out, i = [], 0
while i < len(lines):
    if re.match(r'^\d+: (cap \d+: )?event block: cap \d+, end time: \d+$', lines[i]):
        i += 2
        continue
    out.append(re.sub(r'\(stack overflow, size \d+\)$', '(stack overflow)', lines[i]))
    i += 1
sys.stdout.write('\n'.join(out))
