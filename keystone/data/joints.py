"""Where German compound words in the card names join (`joints.json`), validated on load: the
place a long name breaks best, before the dictionary's other syllables (keystone/render/hyphens.py)."""

from __future__ import annotations

import functools
import json
import re
from importlib import resources

from keystone.data.catalog import CatalogError

WORD = re.compile(r"[^\W\d_]{2,}(\|[^\W\d_]{2,})+")
"""A compound: letters only, each part at least two letters, parts joined by '|'."""


@functools.cache
def load_joints() -> dict[str, dict[str, tuple[int, ...]]]:
    """Per language, each compound (lower case) and the offsets where its parts join."""
    raw = json.loads(resources.files("keystone.data").joinpath("joints.json").read_text(encoding="utf-8"))
    found: dict[str, dict[str, tuple[int, ...]]] = {}
    for lang, entries in raw.items():
        if lang == "about":
            continue
        words: dict[str, tuple[int, ...]] = {}
        for entry in entries:
            if not isinstance(entry, str) or not WORD.fullmatch(entry):
                raise CatalogError(f"joints.json ({lang}): {entry!r} is not a compound written with '|' joints")
            parts = entry.split("|")
            offsets = tuple(sum(len(p) for p in parts[:k]) for k in range(1, len(parts)))
            word = "".join(parts).lower()
            if word in words:
                raise CatalogError(f"joints.json ({lang}): {entry!r} is listed twice")
            words[word] = offsets
        found[lang] = words
    return found
