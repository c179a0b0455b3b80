#!/usr/bin/env python3
"""Writes the fuzz targets' seed inputs, fuzz/seeds/<target>/<name>, deterministically.

Each seed follows its target's input format (see the comment at the top of each target) and
sits at an edge of it: message lengths around block boundaries, more equal-length messages
than the widest kernel has lanes, repeated messages, update/clone/reset programs, serialized
states RustCrypto accepts and refuses, two-column, tagged and escaped `--check` lines.

Run from the repository root: python3 fuzz/seeds/generate.py
"""
import os
import random
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join("fuzz", "seeds")
rnd = random.Random(23)
def data(n): return bytes(rnd.randrange(256) for _ in range(n))
def write(target, name, b):
    d = os.path.join(root, target); os.makedirs(d, exist_ok=True)
    open(os.path.join(d, name), 'wb').write(b)

# batch: f, then messages (length byte L: L*L//8 bytes; 0 repeats the previous message)
FUNCS = ['sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha512_224', 'sha512_256']
def messages(lens):
    out = b''
    for L in lens:
        out += bytes([L])
        if L:
            out += data(L * L // 8)
    return out
mixed = [1, 21, 22, 23, 0, 30, 31, 32, 33, 45, 0, 0, 64, 91, 8, 16, 24, 25]
for f, name in enumerate(FUNCS):
    write('batch', f'{name}-mixed-lengths', bytes([f]) + messages(mixed))
    # Seventeen messages of one length (more than the widest kernel's sixteen lanes).
    write('batch', f'{name}-17-equal', bytes([f]) + messages([23] * 17))
    write('batch', f'{name}-repeats', bytes([f]) + messages([32, 0, 0, 0, 0, 0, 0, 0, 0, 31]))
write('batch', 'sha256_pairs-5-nodes', bytes([7]) + data(5 * 64 + 3))

# hashers: f, v, then (op, len) steps: op % 8 in 0..=4 updates len*(1 + op%5) bytes,
# 5 clones, 6 resets, 7 finalizes and resets; the bytes left are a last update.
def program():
    p = b''
    for op, ln in [(0, 55), (5, 0), (1, 32), (7, 0), (4, 60), (6, 0), (2, 43), (5, 0),
                   (3, 64), (0, 1), (7, 0), (1, 63)]:
        p += bytes([op, ln])
        if op % 8 <= 4:
            p += data(ln * (1 + op % 5))
    return p + data(17)
for f, name in enumerate(FUNCS):
    for v in range(4):
        write('hashers', f'{name}-variant{v}', bytes([f, v]) + program())

# deserialize: f, a serialized state (chaining words, block count little-endian, buffer
# position, buffer), then bytes to hash on.
LAYOUT = [(20, 8, 64), (32, 8, 64), (32, 8, 64), (64, 16, 128), (64, 16, 128), (64, 16, 128),
          (64, 16, 128)]
for f, name in enumerate(FUNCS):
    words, count, block = LAYOUT[f]
    def state(blocks, pos, buffered, junk=False):
        b = data(words) + blocks.to_bytes(count, 'little') + bytes([pos])
        buf = bytearray(block)
        buf[:len(buffered)] = buffered
        if junk:
            buf[-1] = 1
        return b + bytes(buf)
    write('deserialize', f'{name}-empty', bytes([f]) + state(0, 0, b'') + b'abc')
    write('deserialize', f'{name}-partial', bytes([f]) + state(1, 5, data(5)) + data(70))
    write('deserialize', f'{name}-nearly-full',
          bytes([f]) + state(1 << 40, block - 1, data(block - 1)) + data(2 * block))
    top = (0x80 << (8 * (count - 1))) + 3
    write('deserialize', f'{name}-count-top-byte', bytes([f]) + state(top, 0, b'') + data(9))
    write('deserialize', f'{name}-position-too-large', bytes([f]) + state(2, block, b''))
    write('deserialize', f'{name}-bytes-past-position', bytes([f]) + state(2, 3, data(3), True))

# check_line: which (0 SHA1/40, 1 SHA256/64, 2 SHA512/128), then one line.
for which, (tag, n) in enumerate([(b'SHA1', 40), (b'SHA256', 64), (b'SHA512', 128)]):
    hx = data(n // 2).hex().encode()
    lines = {
        'two-columns': hx + b'  name',
        'binary': hx + b' *name',
        'leading-blanks': b' \t ' + hx + b'  a name with spaces',
        'escaped': b'\\' + hx + b'  a\\\\b\\nc\\r',
        'bad-escape': b'\\' + hx + b'  a\\tb',
        'tagged': tag + b' (name) = ' + hx,
        'tagged-escaped': b'\\' + tag + b' (a\\nb) = ' + hx,
        'tagged-two-parens': tag + b' (na)me) = ' + hx,
        'tagged-spaces': tag + b' (name)  =  ' + hx,
        'upper-hex': hx.upper() + b'  name',
        'one-space': hx + b' name',
        'no-name': hx + b'  ',
        'nul-in-name': hx + b'  na\x00me',
        'short-hex': hx[:-1] + b'  name',
    }
    for name, line in lines.items():
        write('check_line', f'{tag.decode().lower()}-{name}', bytes([which]) + line)

# pbkdf2: f, variant, iterations - 1 (mod 8), output length (two bytes, little-endian, mod
# 300), password length, then password and salt. A generator of its own, so the seeds above
# stay as they were.
kdf = random.Random(20)
DIGEST = [20, 28, 32, 48, 64, 28, 32]
BLOCK = [64, 64, 64, 128, 128, 128, 128]
for f, name in enumerate(FUNCS):
    d, b = DIGEST[f], BLOCK[f]
    cases = {
        'empty-output': (0, 3, 0, b'password', b'salt'),
        'one-byte': (1, 0, 1, b'password', b'salt'),
        'digest-less-one': (2, 1, d - 1, b'', b''),
        'one-digest': (3, 2, d, b'pass\x00word', b'sa\x00lt'),
        'digest-and-one': (0, 7, d + 1, bytes(kdf.randrange(256) for _ in range(b)), b'salt'),
        'two-digests': (1, 4, 2 * d, bytes(kdf.randrange(256) for _ in range(b + 1)), b'NaCl'),
        'three-digests-and-more': (5, 5, min(3 * d + 5, 299), b'p', bytes(range(b - 4))),
        'long-salt': (2, 6, 2 * d + 3, b'password', bytes(kdf.randrange(256) for _ in range(b + 9))),
    }
    for case, (v, c, n, password, salt) in cases.items():
        seed = bytes([f, v, c, n % 256, n // 256, len(password)]) + password + salt
        write('pbkdf2', f'{name}-{case}', seed)
