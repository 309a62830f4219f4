#!/usr/bin/env python3
"""Exit 0 when a PNG screenshot shows something: several colours and enough non-background pixels.

Standard library only (zlib): decodes 8-bit RGB/RGBA PNGs as Chromium writes them.
usage: png_not_blank.py FILE
"""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                sys.exit(f"{path}: unsupported PNG (depth {depth}, colour type {colour})")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                pick = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[x] = (line[x] + pick) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    width, height, channels, rows = pixels(sys.argv[1])
    colours, ink = set(), 0
    for row in rows[::4]:
        for x in range(0, width * channels, channels * 4):
            rgb = row[x:x + 3]
            colours.add(rgb)
            if sum(rgb) < 600:  # darker than near-white
                ink += 1
    sampled = len(rows[::4]) * len(range(0, width * channels, channels * 4))
    share = ink / sampled
    print(f"{sys.argv[1]}: {width}x{height}, {len(colours)} colours, {share:.1%} ink")
    if len(colours) < 8 or share < 0.01:
        sys.exit("the screenshot is blank")


if __name__ == "__main__":
    main()
