"""A stand-in for Pyroscope's HTTP ingest endpoint, for tests/cli/pprof_push.sh.

    python3 pyroscope_receiver.py PORTFILE LOG [STATUS]

Listens on 127.0.0.1 (a free port, written to PORTFILE), answers every
request with STATUS (default 200) and appends one JSON line per request to
LOG: what it found wrong ("errors", empty when the request is what
Pyroscope's API wants) and what it received. The request must be
POST /ingest?name=..&from=..&until=..&format=pprof with a multipart form
whose "profile" part holds a gzip-compressed pprof profile that
tests/support/pprof_read.py reads and checks. The profile's bytes are
saved next to LOG as LOG.N.pb.gz.
"""
import email.parser
import email.policy
import json
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer

import pprof_read

portfile, log = sys.argv[1], sys.argv[2]
status = int(sys.argv[3]) if len(sys.argv) > 3 else 200
count = 0


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def handle_any(self):
        global count
        count += 1
        errors, got = [], {'method': self.command}
        url = urllib.parse.urlsplit(self.path)
        got['path'] = url.path
        query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        got['query'] = {k: v[0] for k, v in query.items()}
        if self.command != 'POST':
            errors.append('method %s' % self.command)
        if url.path != '/ingest':
            errors.append('path %s' % url.path)
        for k in ('name', 'from', 'until', 'format'):
            if len(query.get(k, [])) != 1:
                errors.append('query parameter %s missing or repeated' % k)
        try:
            if int(query['until'][0]) <= int(query['from'][0]):
                errors.append('until is not after from')
        except (KeyError, ValueError):
            errors.append('from/until are not Unix seconds')
        if query.get('format') != ['pprof']:
            errors.append('format is not pprof')
        length = int(self.headers.get('Content-Length') or 0)
        body = self.rfile.read(length)
        ctype = self.headers.get('Content-Type', '')
        got['content_type'] = ctype.split(';')[0]
        if not ctype.startswith('multipart/form-data') or 'boundary=' not in ctype:
            errors.append('content type %s' % ctype)
        else:
            msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                b'Content-Type: ' + ctype.encode() + b'\r\n\r\n' + body)
            parts = {p.get_param('name', header='content-disposition'): p
                     for p in msg.iter_parts()}
            got['parts'] = sorted(k for k in parts if k)
            if 'profile' not in parts:
                errors.append('no "profile" part')
            else:
                data = parts['profile'].get_payload(decode=True)
                if data[:2] != b'\x1f\x8b':
                    errors.append('the profile is not gzip-compressed')
                try:
                    p = pprof_read.read(data)
                    pprof_read.check(p)
                    got['samples'] = sum(s['value'][0] for s in p['sample'])
                    got['time_nanos'] = p['time_nanos']
                    got['duration_nanos'] = p['duration_nanos']
                    with open('%s.%d.pb.gz' % (log, count), 'wb') as f:
                        f.write(data)
                except Exception as e:      # anything wrong with the profile
                    errors.append('bad profile: %r' % e)
        with open(log, 'a') as f:
            f.write(json.dumps({'errors': errors, 'got': got}) + '\n')
        self.send_response(status)
        self.send_header('Content-Type', 'text/plain')
        self.end_headers()
        self.wfile.write(b'ok\n' if status < 300 else b'no\n')

    do_POST = do_GET = do_PUT = handle_any


server = HTTPServer(('127.0.0.1', 0), Handler)
with open(portfile + '.tmp', 'w') as f:
    f.write(str(server.server_address[1]))
import os
os.rename(portfile + '.tmp', portfile)
server.serve_forever()
