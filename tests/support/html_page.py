#!/usr/bin/env python3
"""Checks a page of `evprof html` without a browser.

    html_page.py PAGE [--max-bytes N] [--expect-label TEXT]...
                      [--expect-band TEXT]... [--expect-counter TEXT]...
                      [--max-nodes N] [--hostile]

Fails (exit 1, one line per problem) unless: the page is UTF-8; it has
exactly one <script type="application/json" id="evprof-data"> and one
other <script>, and no other script element, event-handler attribute or
element the log's text could have opened; the JSON block parses; no '<',
U+2028 or U+2029 appears raw inside it; no control byte but newline
appears in the file; the sizes are bounded as asked. --hostile checks
that the hostile labels of tests/data/escape/hostile.eventlog come out of
the JSON exactly as the log wrote them and nowhere as markup.
Standard library only."""
import html.parser
import json
import re
import sys

problems = []


def bad(msg):
    problems.append(msg)


class Walker(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.scripts = []       # (attrs, text)
        self.tags = set()
        self.handlers = []
        self._in_script = None
        self._text = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for k, _ in attrs:
            if k.startswith('on'):
                self.handlers.append((tag, k))
        if tag == 'script':
            self._in_script = dict(attrs)
            self._text = []

    def handle_endtag(self, tag):
        if tag == 'script' and self._in_script is not None:
            self.scripts.append((self._in_script, ''.join(self._text)))
            self._in_script = None

    def handle_data(self, data):
        if self._in_script is not None:
            self._text.append(data)


def main(argv):
    args = argv[1:]
    if not args:
        print(__doc__)
        return 2
    page = args.pop(0)
    opts = {'labels': [], 'bands': [], 'counters': []}
    max_bytes = max_nodes = None
    hostile = False
    while args:
        a = args.pop(0)
        if a == '--max-bytes':
            max_bytes = int(args.pop(0))
        elif a == '--max-nodes':
            max_nodes = int(args.pop(0))
        elif a == '--expect-label':
            opts['labels'].append(args.pop(0))
        elif a == '--expect-band':
            opts['bands'].append(args.pop(0))
        elif a == '--expect-counter':
            opts['counters'].append(args.pop(0))
        elif a == '--hostile':
            hostile = True
        else:
            print('unknown option ' + a)
            return 2

    raw = open(page, 'rb').read()
    if max_bytes is not None and len(raw) > max_bytes:
        bad('page is %d bytes, more than %d' % (len(raw), max_bytes))
    ctrl = sorted({b for b in raw if b < 0x20 and b != 0x0a} | ({0x7f} if 0x7f in raw else set()))
    if ctrl:
        bad('control bytes in the page: %s' % ctrl)
    try:
        text = raw.decode('utf-8')
    except UnicodeDecodeError as e:
        bad('not UTF-8: %s' % e)
        text = raw.decode('utf-8', 'replace')

    w = Walker()
    w.feed(text)
    w.close()
    data_blocks = [s for s in w.scripts if s[0].get('type') == 'application/json']
    code_blocks = [s for s in w.scripts if s[0].get('type') != 'application/json']
    if len(data_blocks) != 1 or data_blocks[0][0].get('id') != 'evprof-data':
        bad('expected one JSON block #evprof-data, found %d' % len(data_blocks))
    if len(code_blocks) != 1:
        bad('expected one script, found %d' % len(code_blocks))
    if w.handlers:
        bad('event-handler attributes in the markup: %s' % w.handlers[:5])
    for t in ('b', 'img', 'iframe', 'object', 'embed', 'base', 'form'):
        if t in w.tags:
            bad('element <%s> in the page' % t)
    if 'src' in ''.join(k for s in w.scripts for k in s[0]):
        bad('a script with src: the page must be self-contained')
    if re.search(r'''(href|src)\s*=\s*["']?(https?:)?//''', text):
        bad('a link to the network in the page')
    if not data_blocks:
        return report()
    block = data_blocks[0][1]
    for ch, name in (('<', "'<'"), ('\u2028', 'U+2028'), ('\u2029', 'U+2029')):
        if ch in block:
            bad('%s raw in the JSON block' % name)
    try:
        d = json.loads(block)
    except ValueError as e:
        bad('the JSON block does not parse: %s' % e)
        return report()

    prof = d.get('prof')
    if max_nodes is not None:
        if not prof:
            bad('no time profile in the JSON')
        elif len(prof['parent']) > max_nodes:
            bad('%d nodes sent, more than --max-nodes %d' % (len(prof['parent']), max_nodes))
    if prof:
        n = len(prof['parent'])
        for col in ('cc', 'ticks', 'inh'):
            if len(prof[col]) != n:
                bad('prof.%s has %d entries, parent %d' % (col, len(prof[col]), n))
        for i, p in enumerate(prof['parent']):
            if (i == 0) != (p < 0) or p >= i:
                bad('node %d has parent %d: not a tree in walk order' % (i, p))
                break
    labels = [c[0] for c in prof['ccs']] if prof else []
    for l in opts['labels']:
        if l not in labels:
            bad('cost centre %r not in the JSON' % l)
    bands = [b[0] for b in d['heap']['bands']] if d.get('heap') else []
    for b in opts['bands']:
        if b not in bands:
            bad('heap band %r not in the JSON' % b)
    counters = [c[0] for c in d['ticky']['counters']] if d.get('ticky') else []
    for c in opts['counters']:
        if c not in counters:
            bad('ticky counter %r not in the JSON' % c)
    if hostile:
        want = ['</script><b>"q"&\'', 'new\nline', 'car\rriage', 'esc\x1b[31mred\x1b[0m',
                'del\x7f;semi', 'bell\x07', 'tab\there']
        for l in want:
            if l not in labels:
                bad('hostile label %r did not come through the JSON' % l)
            if l not in bands:
                bad('hostile band %r did not come through the JSON' % l)
            if l not in counters:
                bad('hostile counter %r did not come through the JSON' % l)
        outside = text.replace(block, '')
        if '</script><b>' in outside or '<b>"q"' in outside:
            bad('a hostile label went into the markup unescaped')
    return report()


def report():
    for p in problems:
        print('FAIL: ' + p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
