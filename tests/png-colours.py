#!/usr/bin/env python3
"""png-colours.py: what a figure's pixels hold, for tests/plots.sh.

    png-colours.py FILE.png [#RRGGBB ...]

Reads the PNG (8-bit RGB or RGBA, not interlaced: what gnuplot's pngcairo
writes) with the standard library alone, and prints its size and how many
of its pixels are not the white background, then for each colour asked
for the number of pixels of that colour, within a small distance (the
middle of a line drawn with antialiasing is the colour itself, its edges
a blend with the background):

    size 1400x655 ink 61234
    #0072b2 5012

Exit status 1, with a line on stderr, for a file that is no such PNG.
"""
import struct
import sys
import zlib

NEAR = 24  # largest distance per channel still counted as the colour


def fail(msg):
    sys.stderr.write("png-colours.py: %s\n" % msg)
    sys.exit(1)


def read(path):
    """(width, height, rows): rows a list of bytes, RGB(A) per pixel."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s: not a PNG" % path)
    pos, idat, hdr = 8, [], None
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    if not hdr or not idat:
        fail("%s: no header or no image data" % path)
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail("%s: not 8-bit RGB or RGBA (depth %d, colour type %d)"
             % (path, depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        off = y * (stride + 1)
        ftype, line = raw[off], bytearray(raw[off + 1:off + 1 + stride])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ftype == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ftype == 3:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((a + prev[i]) >> 1)) & 255
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        elif ftype:
            fail("%s: filter type %d" % (path, ftype))
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    if len(sys.argv) < 2:
        fail("usage: png-colours.py FILE.png [#RRGGBB ...]")
    w, h, bpp, rows = read(sys.argv[1])
    want = []
    for c in sys.argv[2:]:
        if len(c) != 7 or c[0] != "#":
            fail("not a colour: %s" % c)
        want.append((c, int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)))
    counts = {}
    for line in rows:
        for i in range(0, len(line), bpp):
            px = line[i:i + 3]
            counts[px] = counts.get(px, 0) + 1
    ink = sum(n for px, n in counts.items() if px != b"\xff\xff\xff")
    print("size %dx%d ink %d" % (w, h, ink))
    for name, r, g, b in want:
        n = sum(k for px, k in counts.items()
                if abs(px[0] - r) <= NEAR and abs(px[1] - g) <= NEAR
                and abs(px[2] - b) <= NEAR)
        print("%s %d" % (name, n))


main()
