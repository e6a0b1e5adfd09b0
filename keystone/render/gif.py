"""A streaming animated-GIF writer for frames on one fixed palette.

GIF, not APNG: Discord animates a GIF attachment in every client but shows only an APNG's first
frame. Pillow's own GIF save holds every frame until it writes the file, so here each frame is
compared with the one before, only the rectangle that changed is encoded (Pillow's LZW encoder,
through its public getheader/getdata) and written, and the frame is dropped: memory holds two
frames and the output. The frames already share one 256-colour palette, so nothing is quantized
and no colour changes. Deterministic: the same frames give the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Iterable

from PIL import GifImagePlugin, Image, ImageChops

KEEP = 1
"""GIF disposal 1: each frame stays under the next, which draws only the rectangle that changed."""


def _changed(before: Image.Image, after: Image.Image) -> tuple[int, int, int, int]:
    """The smallest rectangle holding every pixel whose palette index changed (1 x 1 if none did)."""
    old = Image.frombytes("L", before.size, before.tobytes())
    new = Image.frombytes("L", after.size, after.tobytes())
    return ImageChops.difference(old, new).getbbox() or (0, 0, 1, 1)


def _unused_index(part: Image.Image) -> int | None:
    """A palette index this part does not use, to mark its unchanged pixels transparent."""
    counts = part.histogram()
    return next((i for i, n in enumerate(counts[:256]) if n == 0), None)


def _see_through(before: Image.Image, part: Image.Image, box: tuple[int, int, int, int]) -> dict[str, int]:
    """Unchanged pixels of `part` become one unused index marked transparent: long runs of one
    index compress far better than the picture they leave in place."""
    clear = _unused_index(part)
    if clear is None:
        return {}
    old = Image.frombytes("L", part.size, before.crop(box).tobytes())
    new = Image.frombytes("L", part.size, part.tobytes())
    same = ImageChops.difference(old, new).point([255] + [0] * 255, "1")
    part.paste(clear, mask=same)
    return {"transparency": clear}


def _header(first: Image.Image, palette: list[int], loops: int) -> bytes:
    """The GIF header, the global palette (all 256 colours, in order) and the loop count."""
    carrier = Image.new("P", first.size)
    carrier.putpalette(palette[:768])
    parts, _ = GifImagePlugin.getheader(carrier, info={"loop": loops, "optimize": False})
    return b"".join(parts)


def write_gif(frames: Iterable[Image.Image], count: int, durations: list[int], palette: list[int],
              loops: int = 0) -> bytes:
    """A GIF of `count` 'P' frames (all one size, all on `palette`, 768 values), each shown for its
    duration in milliseconds (GIF keeps hundredths); `loops` 0 plays forever."""
    if count < 1 or len(durations) != count:
        raise ValueError("An animation needs at least one frame and one duration per frame.")
    out = io.BytesIO()
    previous: Image.Image | None = None
    written = 0
    for frame, duration in zip(frames, durations, strict=False):
        if frame.mode != "P":
            raise ValueError("Every frame must be an indexed ('P') image on the shared palette.")
        if previous is None:
            out.write(_header(frame, palette, loops))
            box = (0, 0, frame.width, frame.height)
        elif frame.size != previous.size:
            raise ValueError("Every frame of an animation must be the same size.")
        else:
            box = _changed(previous, frame)
        part = frame.crop(box)
        clear = {} if previous is None else _see_through(previous, part, box)
        out.write(b"".join(GifImagePlugin.getdata(part, box[:2], duration=duration, disposal=KEEP, **clear)))
        previous = frame
        written += 1
    if written != count:
        raise ValueError(f"The animation was announced with {count} frames but {written} came.")
    out.write(b";")
    return out.getvalue()
