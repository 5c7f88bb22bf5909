#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""png_read.py FILE X Y [X Y ...] — prints the colour of each pixel (X, Y)
(0-based, from the top-left) of an 8-bit PNG as #rrggbb, one per line, and
first a line "size W H". The browser and LÖVE tests check their screenshots
with it. Reads non-interlaced 8-bit greyscale, RGB, grey+alpha and RGBA
files and palette files of 1, 2, 4 or 8 bits (what Chromium and LÖVE write) with the standard library's zlib;
exits 2 with a message naming the file for anything else."""
import struct
import sys
import zlib


def read_png(path):
    """Returns (width, height, channels, rows): rows[y] is a bytes object of
    width * channels samples, after undoing the per-row filters."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos, idat, ihdr, plte = 8, [], None, None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            plte = body
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if ihdr is None:
        raise ValueError(f"{path}: no IHDR chunk")
    w, h, depth, ctype, _, _, interlace = ihdr
    chans = {0: 1, 2: 3, 4: 2, 6: 4}.get(ctype)
    if ctype == 3 and depth in (1, 2, 4, 8) and plte and not interlace:
        return read_palette(path, w, h, depth, plte, zlib.decompress(b"".join(idat)))
    if depth != 8 or chans is None or interlace:
        raise ValueError(f"{path}: expected an 8-bit non-interlaced grey/RGB/RGBA PNG "
                         f"(depth {depth}, colour type {ctype}, interlace {interlace})")
    raw = zlib.decompress(b"".join(idat))
    stride = w * chans
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - chans] if i >= chans else 0
            b = prev[i]
            c = prev[i - chans] if i >= chans else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, chans, rows


def read_palette(path, w, h, depth, plte, raw):
    """A palette PNG as RGB rows (read_png's shape, 3 channels)."""
    stride = (w * depth + 7) // 8
    bpp = 1
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        out = bytearray()
        for x in range(w):
            bit = x * depth
            idx = (line[bit // 8] >> (8 - depth - bit % 8)) & ((1 << depth) - 1)
            if 3 * idx + 3 > len(plte):
                raise ValueError(f"{path}: palette index {idx} out of range")
            out += plte[3 * idx:3 * idx + 3]
        rows.append(bytes(out))
    return w, h, 3, rows


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        print("usage: png_read.py FILE X Y [X Y ...]", file=sys.stderr)
        return 2
    try:
        w, h, chans, rows = read_png(argv[1])
    except (OSError, ValueError, zlib.error) as e:
        print(f"png_read.py: {e}", file=sys.stderr)
        return 2
    print(f"size {w} {h}")
    for i in range(2, len(argv), 2):
        x, y = int(argv[i]), int(argv[i + 1])
        if not (0 <= x < w and 0 <= y < h):
            print("outside")
            continue
        px = rows[y][x * chans:(x + 1) * chans]
        rgb = (px[0], px[0], px[0]) if chans < 3 else (px[0], px[1], px[2])
        print("#%02x%02x%02x" % rgb)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
