#!/usr/bin/env python3
"""Prometheus text exposition (version 0.0.4) for the metrics tests: a
strict reader of its own, and the checks promtool does not make.

  prom.py lint FILE...     every line a HELP, TYPE or sample; HELP then TYPE
                           before a family's samples, which are contiguous;
                           names and label names valid; label values valid
                           UTF-8 with only the three escapes and no control
                           character; no series twice; counters end in
                           _total; a histogram's buckets cumulative, +Inf
                           last and equal to _count. Exit 1 on a problem.
  prom.py get FILE NAME [LABEL=VALUE...]
                           the value of the one sample that matches

As a module: parse(text) -> {"families": {name: (type, help)},
"samples": [(name, {label: value}, float)]}; value(parsed, name, **labels).
"""
import math
import re
import sys

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*$")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*$")
TYPES = ("counter", "gauge", "histogram", "summary", "untyped")


class Bad(Exception):
    pass


def _labels(s, i, lineno):
    """Labels from s[i] == '{'; returns (dict, index after '}')."""
    out = {}
    i += 1
    while True:
        if s[i] == "}":
            return out, i + 1
        j = s.index("=", i)
        name = s[i:j]
        if not LABEL.match(name):
            raise Bad("line %d: bad label name %r" % (lineno, name))
        if s[j + 1] != '"':
            raise Bad("line %d: label %s: no quote" % (lineno, name))
        k = j + 2
        val = []
        while s[k] != '"':
            c = s[k]
            if c == "\\":
                n = s[k + 1]
                if n == "\\":
                    val.append("\\")
                elif n == '"':
                    val.append('"')
                elif n == "n":
                    val.append("\n")
                else:
                    raise Bad("line %d: bad escape \\%s" % (lineno, n))
                k += 2
                continue
            if ord(c) < 0x20 or ord(c) == 0x7F or 0x80 <= ord(c) <= 0x9F:
                raise Bad("line %d: control character U+%04X in a label value" % (lineno, ord(c)))
            val.append(c)
            k += 1
        if name in out:
            raise Bad("line %d: label %s twice" % (lineno, name))
        out[name] = "".join(val)
        i = k + 1
        if s[i] == ",":
            i += 1
        elif s[i] != "}":
            raise Bad("line %d: expected , or } after a label" % lineno)


def _value(v, lineno):
    if v in ("+Inf", "-Inf", "NaN"):
        return float(v.replace("Inf", "inf").replace("NaN", "nan"))
    if not re.match(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$", v):
        raise Bad("line %d: bad value %r" % (lineno, v))
    return float(v)


def parse(text):
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise Bad("not UTF-8: %s" % e)
    if text and not text.endswith("\n"):
        raise Bad("the last line has no line feed")
    fams = {}
    samples = []
    cur = None          # the family whose samples come now
    done = set()        # families whose samples are over
    helped = None
    for lineno, line in enumerate(text.split("\n")[:-1], 1):
        if line.startswith("# HELP "):
            name, _, help_ = line[7:].partition(" ")
            if not NAME.match(name):
                raise Bad("line %d: bad name %r" % (lineno, name))
            if name in fams or name in done:
                raise Bad("line %d: family %s twice" % (lineno, name))
            if re.search(r"\\[^\\n]", help_.replace("\\\\", "")):
                raise Bad("line %d: bad escape in HELP" % lineno)
            if cur:
                done.add(cur)
            helped, cur = name, None
            fams[name] = [None, help_]
            continue
        if line.startswith("# TYPE "):
            parts = line[7:].split(" ")
            if len(parts) != 2 or parts[1] not in TYPES:
                raise Bad("line %d: bad TYPE" % lineno)
            if parts[0] != helped:
                raise Bad("line %d: TYPE %s not right after its HELP" % (lineno, parts[0]))
            fams[parts[0]][0] = parts[1]
            cur, helped = parts[0], None
            continue
        if line.startswith("#"):
            continue        # a comment (evprof's, before the first frame)
        if not line.strip():
            raise Bad("line %d: a blank line evprof does not write" % lineno)
        m = re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", line)
        if not m:
            raise Bad("line %d: no metric name" % lineno)
        name = m.group(0)
        i = m.end()
        labels = {}
        if i < len(line) and line[i] == "{":
            labels, i = _labels(line, i, lineno)
        if line[i:i + 1] != " ":
            raise Bad("line %d: no space before the value" % lineno)
        rest = line[i + 1:].split(" ")
        if len(rest) != 1:
            raise Bad("line %d: a timestamp or junk after the value" % lineno)
        v = _value(rest[0], lineno)
        fam = name
        if cur and fams[cur][0] == "histogram":
            for suf in ("_bucket", "_sum", "_count"):
                if name == cur + suf:
                    fam = cur
        if fam != cur:
            raise Bad("line %d: sample %s outside its family (now %s)" % (lineno, name, cur))
        samples.append((name, labels, v))
    return {"families": {k: tuple(v) for k, v in fams.items()}, "samples": samples}


def lint(p):
    problems = []
    seen = set()
    for name, labels, v in p["samples"]:
        key = (name, tuple(sorted(labels.items())))
        if key in seen:
            problems.append("series twice: %s %s" % (name, labels))
        seen.add(key)
    for name, (typ, help_) in p["families"].items():
        if not help_:
            problems.append("%s: no HELP text" % name)
        if typ == "counter" and not name.endswith("_total"):
            problems.append("%s: a counter without _total" % name)
        if typ != "counter" and name.endswith("_total"):
            problems.append("%s: _total on a %s" % (name, typ))
        if typ == "histogram":
            groups = {}
            for sname, labels, v in p["samples"]:
                if sname.startswith(name + "_"):
                    rest = {k: x for k, x in labels.items() if k != "le"}
                    g = groups.setdefault(tuple(sorted(rest.items())), {"b": [], "c": None})
                    if sname == name + "_bucket":
                        g["b"].append((float(labels["le"].replace("Inf", "inf")), v))
                    elif sname == name + "_count":
                        g["c"] = v
            for g in groups.values():
                les = [b[0] for b in g["b"]]
                if les != sorted(les) or not les or les[-1] != math.inf:
                    problems.append("%s: buckets not in order or no +Inf" % name)
                counts = [b[1] for b in g["b"]]
                if counts != sorted(counts):
                    problems.append("%s: buckets not cumulative" % name)
                if not counts or counts[-1] != g["c"]:
                    problems.append("%s: +Inf != _count" % name)
        for sname, labels, v in p["samples"]:
            if sname == name and typ == "counter" and v < 0:
                problems.append("%s: negative counter" % name)
    return problems


def value(p, name, **labels):
    hits = [v for n, l, v in p["samples"]
            if n == name and all(l.get(k) == x for k, x in labels.items())]
    if len(hits) != 1:
        raise KeyError("%s %s: %d samples" % (name, labels, len(hits)))
    return hits[0]


def main(argv):
    if len(argv) >= 2 and argv[0] == "lint":
        bad = 0
        for f in argv[1:]:
            try:
                probs = lint(parse(open(f, "rb").read()))
            except Bad as e:
                probs = [str(e)]
            for pr in probs:
                print("%s: %s" % (f, pr))
            bad += len(probs)
        return 1 if bad else 0
    if len(argv) >= 3 and argv[0] == "get":
        p = parse(open(argv[1], "rb").read())
        labels = dict(a.split("=", 1) for a in argv[3:])
        v = value(p, argv[2], **labels)
        print(int(v) if v == int(v) else v)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
