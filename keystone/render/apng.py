"""A streaming animated-PNG writer for frames on one fixed palette.

Pillow's APNG encoder holds every frame until it writes the file (a 4-player replay is about 65
frames of 800 x 1000), so it needs the whole animation in memory twice. Here each frame is
compared with the one before, only the rectangle that changed is compressed and written, and then
the frame is dropped: memory holds two frames and the output. Deterministic: no timestamps, a fixed
zlib level, so the same frames give the same bytes.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Iterable

from PIL import Image, ImageChops

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 6
"""zlib level: 6 makes a replay about a sixth smaller than 3 for half as much time again."""


def _chunk(out: io.BytesIO, kind: bytes, data: bytes) -> None:
    out.write(struct.pack(">I", len(data)))
    out.write(kind)
    out.write(data)
    out.write(struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def _pixels(image: Image.Image) -> bytes:
    """The scanlines, each with filter type 0 (none: the usual choice for an indexed image), deflated."""
    width = image.width
    raw = image.tobytes()
    packer = zlib.compressobj(LEVEL)
    parts = [packer.compress(b"\x00" + raw[row * width:(row + 1) * width]) for row in range(image.height)]
    parts.append(packer.flush())
    return b"".join(parts)


def _changed(before: Image.Image, after: Image.Image) -> tuple[int, int, int, int]:
    """The smallest rectangle holding every pixel whose palette index changed (1 x 1 if none did)."""
    old = Image.frombytes("L", before.size, before.tobytes())
    new = Image.frombytes("L", after.size, after.tobytes())
    return ImageChops.difference(old, new).getbbox() or (0, 0, 1, 1)


def write_apng(frames: Iterable[Image.Image], count: int, durations: list[int], palette: list[int],
               loops: int = 0) -> bytes:
    """An APNG of `count` 'P' frames (all one size, all on `palette`, 768 values), each shown for its
    duration in milliseconds; `loops` 0 plays forever."""
    if count < 1 or len(durations) != count:
        raise ValueError("An animation needs at least one frame and one duration per frame.")
    out = io.BytesIO()
    out.write(SIGNATURE)
    previous: Image.Image | None = None
    sequence = 0
    written = 0
    for frame, duration in zip(frames, durations, strict=False):
        if frame.mode != "P":
            raise ValueError("Every frame must be an indexed ('P') image on the shared palette.")
        if previous is None:
            _chunk(out, b"IHDR", struct.pack(">IIBBBBB", frame.width, frame.height, 8, 3, 0, 0, 0))
            _chunk(out, b"PLTE", bytes(palette[:768]))
            _chunk(out, b"acTL", struct.pack(">II", count, loops))
            box = (0, 0, frame.width, frame.height)
        elif frame.size != previous.size:
            raise ValueError("Every frame of an animation must be the same size.")
        else:
            box = _changed(previous, frame)
        left, top, right, bottom = box
        control = struct.pack(">IIIIIHHBB", sequence, right - left, bottom - top, left, top, duration, 1000, 0, 0)
        _chunk(out, b"fcTL", control)
        sequence += 1
        data = _pixels(frame.crop(box))
        if previous is None:
            _chunk(out, b"IDAT", data)
        else:
            _chunk(out, b"fdAT", struct.pack(">I", sequence) + data)
            sequence += 1
        previous = frame
        written += 1
    if written != count:
        raise ValueError(f"The animation was announced with {count} frames but {written} came.")
    _chunk(out, b"IEND", b"")
    return out.getvalue()
