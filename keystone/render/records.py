"""What text was drawn where: recorded for the tests (no word cut, none off its picture, none over
another, none too small), and carried along when a piece drawn apart is pasted into a picture.

Pictures are composed from pieces drawn once and kept (a price line, the time track) or drawn on a
canvas of their own (the turn picture's column): `captured` records a piece's texts while it is
drawn, and `replay` counts them as drawn on the picture it is pasted into, where it lands, so a test
sees the words of the picture as posted, whichever way its pixels got there."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from PIL import Image

_shrink: list[float] = [1.0]
"""How much the image being drawn is scaled down afterwards (card faces are drawn large)."""
_logs: list[list[float]] = []


@dataclass(frozen=True)
class Drawn:
    """One line of text as drawn: its words, shown size, the box its pixels cover and the size of
    the image it was drawn on (both in that image's pixels)."""

    text: str
    size: float
    box: tuple[int, int, int, int]
    image: tuple[int, int]
    canvas: Image.Image = field(compare=False, repr=False)
    """The image it was drawn on (kept, so two lines on one image are told from others)."""

    def overlaps(self, other: Drawn) -> bool:
        """Both lines were drawn on the same image and their boxes share pixels."""
        a, b = self.box, other.box
        return self.canvas is other.canvas and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    def inside(self) -> bool:
        """Every pixel of the text lies on its image."""
        x0, y0, x1, y1 = self.box
        return x0 >= 0 and y0 >= 0 and x1 <= self.image[0] and y1 <= self.image[1]


@dataclass
class Record:
    """What `record_texts` saw: every line drawn, and every text shortened to fit (with "...")."""

    drawn: list[Drawn] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)


_records: list[Record] = []


@contextmanager
def drawn_large(factor: float) -> Iterator[None]:
    """Text drawn inside is on an image that will be shrunk by `factor`, so its shown size is
    its drawn size divided by `factor` (what `record_sizes` records)."""
    _shrink.append(factor)
    try:
        yield
    finally:
        _shrink.pop()


@contextmanager
def record_sizes() -> Iterator[list[float]]:
    """Collect the shown size of every line of text drawn inside, so a test can check the floor."""
    log: list[float] = []
    _logs.append(log)
    try:
        yield log
    finally:
        _logs.remove(log)


@contextmanager
def record_texts() -> Iterator[Record]:
    """Collect every line of text drawn inside, with its box, and every text cut to fit, so a
    test can check that no words are lost or drawn off the picture."""
    record = Record()
    _records.append(record)
    try:
        yield record
    finally:
        _records.remove(record)


def cut(text: str) -> None:
    """`text` was shortened to fit (with "..."): logged for whoever records."""
    for record in _records:
        record.cut.append(text)


POSTED = "keystone.posted_size"
"""The key of `Image.info` that holds a picture's size as posted when it is not the image's own (an
indexed picture with a column of PNG filter bytes, `encode.framed`)."""


def posted_size(image: Image.Image) -> tuple[int, int]:
    size = image.info.get(POSTED, image.size)
    return int(size[0]), int(size[1])


def note(text: str, size: float, box: tuple[int, int, int, int], image: Image.Image) -> None:
    """A line of `text` drawn at `size` px covering `box` of `image`: logged for whoever records."""
    shown = size / _shrink[-1]
    for log in _logs:
        log.append(shown)
    for record in _records:
        record.drawn.append(Drawn(text, shown, box, posted_size(image), image))


@dataclass(frozen=True)
class Texts:
    """The texts of a piece drawn apart: each line (its words, shown size and box on the piece)
    and each text cut to fit."""

    lines: tuple[tuple[str, float, tuple[int, int, int, int]], ...] = ()
    cut: tuple[str, ...] = ()

    def moved(self, dx: int, dy: int) -> Texts:
        """The same texts with the piece's origin moved by (-dx, -dy): for a piece cropped at (dx, dy)."""
        lines = tuple((text, size, (x0 - dx, y0 - dy, x1 - dx, y1 - dy)) for text, size, (x0, y0, x1, y1) in self.lines)
        return Texts(lines, self.cut)


@contextmanager
def captured(piece: Image.Image) -> Iterator[list[Texts]]:
    """Record the texts drawn on `piece` inside, a piece drawn apart, for it alone (the picture it
    goes into gets them from `replay`): the list holds its `Texts` once the block ends. Texts drawn
    meanwhile on anything else (a tile drawn for the first time) are recorded as ever."""
    record, saved = Record(), (_records[:], _logs[:])
    out: list[Texts] = []
    _records[:], _logs[:] = [record], []
    try:
        yield out
    finally:
        _records[:], _logs[:] = saved
        mine = [d for d in record.drawn if d.canvas is piece]
        for other in (d for d in record.drawn if d.canvas is not piece):
            for log in _logs:
                log.append(other.size)
            for outer in _records:
                outer.drawn.append(other)
        out.append(Texts(tuple((d.text, d.size, d.box) for d in mine), tuple(record.cut)))


def replay(texts: Texts, image: Image.Image, xy: tuple[int, int]) -> None:
    """Count `texts` as drawn on `image`, their piece pasted with its top-left corner at `xy`."""
    if not (_records or _logs):
        return
    dx, dy = xy
    for text, shown, (x0, y0, x1, y1) in texts.lines:
        for log in _logs:
            log.append(shown)
        for record in _records:
            record.drawn.append(Drawn(text, shown, (x0 + dx, y0 + dy, x1 + dx, y1 + dy), posted_size(image), image))
    for record in _records:
        record.cut.extend(texts.cut)
