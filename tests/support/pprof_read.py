"""Reads a gzip-compressed pprof profile (perftools.profiles.Profile) with
a small protobuf wire-format decoder of its own, for the tests: no protobuf
package needed, and nothing shared with evprof's encoder (protobuf-c).

    p = read(open('prog.pb.gz', 'rb').read())
    p['string_table'][0] == ''
    for s in p['sample']: s['location_id'], s['value']
"""
import gzip


def _varint(buf, i):
    shift = result = 0
    while True:
        if i >= len(buf):
            raise ValueError('varint cut short')
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, i
        shift += 7
        if shift > 63:
            raise ValueError('varint too long')


def _signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def _fields(buf):
    """(field number, wire type, value) of one message; value: int or bytes."""
    i = 0
    while i < len(buf):
        key, i = _varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(buf, i)
        elif wt == 2:
            n, i = _varint(buf, i)
            if i + n > len(buf):
                raise ValueError('field %d cut short' % num)
            v, i = buf[i:i + n], i + n
        elif wt == 1:
            v, i = int.from_bytes(buf[i:i + 8], 'little'), i + 8
        elif wt == 5:
            v, i = int.from_bytes(buf[i:i + 4], 'little'), i + 4
        else:
            raise ValueError('wire type %d' % wt)
        yield num, wt, v


def _packed(wt, v):
    """A repeated varint field: packed (bytes) or one value."""
    if wt != 2:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = _varint(v, i)
        out.append(x)
    return out


# message layouts: field number -> (name, kind, repeated)
_LAYOUT = {
    'Profile': {1: ('sample_type', 'ValueType', True), 2: ('sample', 'Sample', True),
                3: ('mapping', 'Mapping', True), 4: ('location', 'Location', True),
                5: ('function', 'Function', True), 6: ('string_table', 'string', True),
                7: ('drop_frames', 'int', False), 8: ('keep_frames', 'int', False),
                9: ('time_nanos', 'int', False), 10: ('duration_nanos', 'int', False),
                11: ('period_type', 'ValueType', False), 12: ('period', 'int', False),
                13: ('comment', 'int', True), 14: ('default_sample_type', 'int', False)},
    'ValueType': {1: ('type', 'int', False), 2: ('unit', 'int', False)},
    'Sample': {1: ('location_id', 'uint', True), 2: ('value', 'int', True),
               3: ('label', 'Label', True)},
    'Label': {1: ('key', 'int', False), 2: ('str', 'int', False), 3: ('num', 'int', False),
              4: ('num_unit', 'int', False)},
    'Mapping': {1: ('id', 'uint', False), 2: ('memory_start', 'uint', False),
                3: ('memory_limit', 'uint', False), 4: ('file_offset', 'uint', False),
                5: ('filename', 'int', False), 6: ('build_id', 'int', False),
                7: ('has_functions', 'uint', False), 8: ('has_filenames', 'uint', False),
                9: ('has_line_numbers', 'uint', False),
                10: ('has_inline_frames', 'uint', False)},
    'Location': {1: ('id', 'uint', False), 2: ('mapping_id', 'uint', False),
                 3: ('address', 'uint', False), 4: ('line', 'Line', True),
                 5: ('is_folded', 'uint', False)},
    'Line': {1: ('function_id', 'uint', False), 2: ('line', 'int', False)},
    'Function': {1: ('id', 'uint', False), 2: ('name', 'int', False),
                 3: ('system_name', 'int', False), 4: ('filename', 'int', False),
                 5: ('start_line', 'int', False)},
}


def _message(kind, buf):
    layout = _LAYOUT[kind]
    m = {}
    for name, k, rep in layout.values():
        m[name] = [] if rep else (0 if k in ('int', 'uint') else None)
    for num, wt, v in _fields(buf):
        if num not in layout:
            continue
        name, k, rep = layout[num]
        if k == 'string':
            val = [v.decode('utf-8')]
        elif k in ('int', 'uint'):
            val = [_signed(x) if k == 'int' else x for x in _packed(wt, v)]
        else:
            val = [_message(k, v)]
        if rep:
            m[name].extend(val)
        else:
            m[name] = val[-1]
    return m


def read(data):
    """A profile from gzip-compressed bytes (or plain protobuf bytes)."""
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    return _message('Profile', data)


def check(p):
    """The format's rules: string 0 is "", ids are unique and non-zero,
    every reference resolves, every sample has one value per type.
    Raises AssertionError."""
    st = p['string_table']
    assert st and st[0] == '', 'string_table[0] must be ""'
    ns = len(st)
    assert p['sample_type'], 'no sample types'
    for vt in p['sample_type'] + ([p['period_type']] if p['period_type'] else []):
        assert 0 <= vt['type'] < ns and 0 <= vt['unit'] < ns
    funcs = {}
    for f in p['function']:
        assert f['id'] and f['id'] not in funcs, 'function ids unique, non-zero'
        for k in ('name', 'system_name', 'filename'):
            assert 0 <= f[k] < ns
        funcs[f['id']] = f
    maps = {m['id'] for m in p['mapping']}
    locs = {}
    for l in p['location']:
        assert l['id'] and l['id'] not in locs, 'location ids unique, non-zero'
        assert l['mapping_id'] == 0 or l['mapping_id'] in maps
        for line in l['line']:
            assert line['function_id'] in funcs
        locs[l['id']] = l
    for s in p['sample']:
        assert len(s['value']) == len(p['sample_type']), 'one value per sample type'
        assert s['location_id'], 'a sample without locations'
        for i in s['location_id']:
            assert i in locs, 'sample names location %d' % i
    return True


def stacks(p):
    """{(frame names root first): [values summed]}"""
    st = p['string_table']
    fname = {f['id']: st[f['name']] for f in p['function']}
    lname = {l['id']: fname[l['line'][0]['function_id']] for l in p['location']}
    out = {}
    for s in p['sample']:
        key = tuple(lname[i] for i in reversed(s['location_id']))
        old = out.get(key, [0] * len(s['value']))
        out[key] = [a + b for a, b in zip(old, s['value'])]
    return out
