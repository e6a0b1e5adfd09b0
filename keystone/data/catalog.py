"""Load and validate the card data shipped in this package.

Every file is validated into the models of `keystone.engine.cards` on first load, so a typo in
the data fails loudly at start-up, naming the file and the entry, instead of mid-game.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from keystone.engine.cards import Card, Habitat, ObjectiveCard, Season, SkillToken

SPECIES_PER_NUMBER: Mapping[int, int] = MappingProxyType({1: 21, 2: 21, 3: 20, 4: 13, 5: 12})
"""How many Species cards the rulebook lists for each sequence number."""

WILDS_PER_HABITAT = 2
HABITAT_ORDER: tuple[Habitat, ...] = tuple(Habitat)


_M = TypeVar("_M", bound=BaseModel)
_N = TypeVar("_N", SkillToken, ObjectiveCard)


class CatalogError(ValueError):
    """A data file is missing, malformed, or breaks a rule of the card set."""


class _SpeciesEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    number: int
    habitats: list[Habitat]
    season: Season
    keystone: bool
    endangered: bool
    tag: bool


class _WildEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    habitats: list[Habitat]
    season: Season


def slug(text: str) -> str:
    """Card id from a name: lowercase, every run of non-alphanumerics becomes one hyphen."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def wild_id(habitat: Habitat, season: Season | None) -> str:
    """Wild ids name habitat then season, e.g. "wild-forest-spring"."""
    return f"wild-{habitat.value}" + (f"-{season.value}" if season is not None else "")


def _compact(text: str) -> str:
    """Lookup key tolerant of case, spaces, hyphens and other punctuation."""
    return re.sub(r"[^a-z0-9]+", "", text.lower())


@dataclass(frozen=True)
class Catalog:
    """Every card, skill token and objective card; immutable once loaded."""

    species: tuple[Card, ...]
    wilds: tuple[Card, ...]
    skills: Mapping[int, SkillToken]
    objectives: Mapping[int, ObjectiveCard]
    _by_id: Mapping[str, Card] = field(init=False, repr=False, compare=False)
    _by_key: Mapping[str, Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = self.species + self.wilds
        keys: dict[str, Card] = {}
        for card in cards:
            keys[_compact(card.id)] = card
            keys[_compact(card.name)] = card
        object.__setattr__(self, "_by_id", MappingProxyType({c.id: c for c in cards}))
        object.__setattr__(self, "_by_key", MappingProxyType(keys))

    def card(self, card_id: str) -> Card:
        """The card with this exact id; KeyError for an unknown id."""
        try:
            return self._by_id[card_id]
        except KeyError:
            raise KeyError(f"No card has the id {card_id!r}.") from None

    def find(self, text: str) -> Card | None:
        """Forgiving lookup by name or id; also "wild:desert" or "wild:desert:summer"."""
        wild = self._find_wild(text)
        if wild is not None:
            return wild
        return self._by_key.get(_compact(text))

    def _find_wild(self, text: str) -> Card | None:
        parts = [p for p in re.split(r"[\s:\-]+", text.strip().lower()) if p]
        if len(parts) not in (2, 3) or parts[0] != "wild":
            return None
        matches = [
            w
            for w in self.wilds
            if w.habitats[0].value == parts[1] and (len(parts) == 2 or w.season == parts[2])
        ]
        return matches[0] if matches else None

    def all_cards(self) -> tuple[Card, ...]:
        """Species (by number, then name) followed by the Wild cards."""
        return self.species + self.wilds


def _read(filename: str) -> list[Any]:
    try:
        text = resources.files("keystone.data").joinpath(filename).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, json.JSONDecodeError) as exc:
        raise CatalogError(f"{filename}: cannot be read as JSON ({exc}).") from exc
    if not isinstance(data, list):
        raise CatalogError(f"{filename}: the top level must be a list of entries.")
    return data


def _why(exc: ValidationError) -> str:
    """Pydantic's errors as one short sentence: field path and reason, without the noise."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"])
        parts.append(f"{where}: {err['msg']}" if where else err["msg"])
    return "; ".join(parts) + "."


def _label(entry: object, index: int) -> str:
    name = entry.get("name") or entry.get("number") if isinstance(entry, dict) else None
    return f"entry {index + 1}" + (f" ({name})" if name is not None else "")


def _validate(filename: str, raw: list[Any], model: type[_M]) -> list[_M]:
    out: list[_M] = []
    for index, entry in enumerate(raw):
        try:
            out.append(model.model_validate(entry))
        except ValidationError as exc:
            raise CatalogError(f"{filename}, {_label(entry, index)}: {_why(exc)}") from exc
    return out


def _species(raw: list[Any]) -> tuple[Card, ...]:
    entries = _validate("species.json", raw, _SpeciesEntry)
    cards = []
    for index, e in enumerate(entries):
        try:
            cards.append(Card(id=slug(e.name), wild=False, **e.model_dump()))
        except ValidationError as exc:
            raise CatalogError(f"species.json, entry {index + 1} ({e.name}): {_why(exc)}") from exc
    counts = Counter(c.number for c in cards)
    if dict(counts) != dict(SPECIES_PER_NUMBER):
        raise CatalogError(
            f"species.json: cards per number are {dict(sorted(counts.items()))}, "
            f"the rulebook has {dict(SPECIES_PER_NUMBER)}."
        )
    return tuple(sorted(cards, key=lambda c: (c.number or 0, c.name)))


def _wilds(raw: list[Any]) -> tuple[Card, ...]:
    entries = _validate("wilds.json", raw, _WildEntry)
    cards = []
    for index, e in enumerate(entries):
        try:
            ident = wild_id(e.habitats[0], e.season) if e.habitats else "wild"
            cards.append(Card(id=ident, wild=True, **e.model_dump()))
        except ValidationError as exc:
            raise CatalogError(f"wilds.json, entry {index + 1} ({e.name}): {_why(exc)}") from exc
    counts = Counter(c.habitats[0] for c in cards)
    if any(counts[h] != WILDS_PER_HABITAT for h in Habitat) or len(cards) != 4 * WILDS_PER_HABITAT:
        raise CatalogError(f"wilds.json: expected two Wild cards per habitat, found {dict(counts)}.")
    return tuple(sorted(cards, key=_wild_order))


def _wild_order(card: Card) -> tuple[int, int]:
    season = tuple(Season).index(card.season) if card.season is not None else -1
    return HABITAT_ORDER.index(card.habitats[0]), season


def _numbered(filename: str, items: list[_N]) -> Mapping[int, _N]:
    numbers = sorted(i.number for i in items)
    if numbers != list(range(1, 11)):
        raise CatalogError(f"{filename}: numbers must be exactly 1 to 10, found {numbers}.")
    return MappingProxyType({i.number: i for i in sorted(items, key=lambda i: i.number)})


def _check_unique(cards: Sequence[Card]) -> None:
    for what, values in (("name", [c.name for c in cards]), ("id", [c.id for c in cards])):
        dupes = sorted(v for v, n in Counter(values).items() if n > 1)
        if dupes:
            raise CatalogError(f"Card {what}s must be unique; repeated: {', '.join(dupes)}.")


def build_catalog(
    species: list[Any], wilds: list[Any], skills: list[Any], objectives: list[Any]
) -> Catalog:
    """Validate raw file contents into a Catalog; raises CatalogError naming file and entry."""
    species_cards = _species(species)
    wild_cards = _wilds(wilds)
    _check_unique(species_cards + wild_cards)
    return Catalog(
        species=species_cards,
        wilds=wild_cards,
        skills=_numbered("skills.json", _validate("skills.json", skills, SkillToken)),
        objectives=_numbered("objectives.json", _validate("objectives.json", objectives, ObjectiveCard)),
    )


@functools.cache
def load_catalog() -> Catalog:
    """The shipped catalog, read and validated once per process."""
    return build_catalog(
        _read("species.json"), _read("wilds.json"), _read("skills.json"), _read("objectives.json")
    )
