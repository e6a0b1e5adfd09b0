"""Load and validate the card data shipped in this package.

Every file is validated into the models of `keystone.cards` on first load, so a typo in
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
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError

from keystone.cards import Card, Habitat, ObjectiveCard, Season, SkillToken

SPECIES_PER_NUMBER: Mapping[int, int] = MappingProxyType({1: 21, 2: 21, 3: 20, 4: 13, 5: 12})
"""How many Species cards the rulebook lists for each sequence number."""

WILDS_PER_HABITAT = 2
HABITAT_ORDER: tuple[Habitat, ...] = tuple(Habitat)


_M = TypeVar("_M", bound=BaseModel)
_N = TypeVar("_N", SkillToken, ObjectiveCard)


class CatalogError(ValueError):
    """A data file is missing, malformed, or breaks a rule of the card set."""


def _tidy(name: str) -> str:
    """A printed name: not blank, and no space at either end or twice in a row."""
    if not name.strip():
        raise ValueError("a card needs a name in every language; this one is blank")
    if name != name.strip() or "  " in name:
        raise ValueError(f"{name!r} has a stray space")
    return name


CardName = Annotated[str, AfterValidator(_tidy)]


class _SpeciesEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: CardName
    name_de: CardName
    number: int
    habitats: list[Habitat]
    season: Season
    keystone: bool
    endangered: bool
    tag: bool


class _WildEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: CardName
    name_de: CardName
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
    extra_species: tuple[Card, ...] = ()
    """Species of optional expansions (each card names its own); never in `species`."""
    extra_skills: Mapping[int, SkillToken] = field(default_factory=lambda: MappingProxyType({}))
    """Skill tokens of optional expansions, numbered after the base ten; never in `skills`."""
    _by_id: Mapping[str, Card] = field(init=False, repr=False, compare=False)
    _by_key: Mapping[str, Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = self.species + self.wilds + self.extra_species
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

    @property
    def expansions(self) -> tuple[str, ...]:
        """Names of the optional expansions this catalog holds, sorted."""
        names = {c.expansion for c in self.extra_species} | {t.expansion for t in self.extra_skills.values()}
        return tuple(sorted(n for n in names if n is not None))

    def _check_expansions(self, expansions: Sequence[str]) -> set[str]:
        unknown = sorted(set(expansions) - set(self.expansions))
        if unknown:
            known = ", ".join(self.expansions) or "none"
            raise ValueError(f"Unknown expansion {unknown[0]!r}; the expansions are: {known}.")
        return set(expansions)

    def species_for(self, expansions: Sequence[str]) -> tuple[Card, ...]:
        """The deck's species: the base 87 plus those of the chosen expansions (ValueError if unknown)."""
        chosen = self._check_expansions(expansions)
        return self.species + tuple(c for c in self.extra_species if c.expansion in chosen)

    def skills_for(self, expansions: Sequence[str]) -> Mapping[int, SkillToken]:
        """The skill pool: the base ten plus the chosen expansions' tokens, by number."""
        chosen = self._check_expansions(expansions)
        extra = {n: t for n, t in self.extra_skills.items() if t.expansion in chosen}
        return MappingProxyType({**self.skills, **extra})

    def skill(self, number: int) -> SkillToken:
        """Any skill token by number, base or expansion; KeyError for an unknown number."""
        token = self.skills.get(number) or self.extra_skills.get(number)
        if token is None:
            raise KeyError(f"No skill token has the number {number}.")
        return token


def _read_json(filename: str) -> Any:
    try:
        text = resources.files("keystone.data").joinpath(filename).read_text(encoding="utf-8")
        return json.loads(text)
    except (OSError, json.JSONDecodeError) as exc:
        raise CatalogError(f"{filename}: cannot be read as JSON ({exc}).") from exc


def _read(filename: str) -> list[Any]:
    data = _read_json(filename)
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
    for what, values in (("name", [c.name for c in cards]), ("German name", [c.name_de or "" for c in cards]),
                         ("id", [c.id for c in cards])):
        dupes = sorted(v for v, n in Counter(values).items() if n > 1)
        if dupes:
            raise CatalogError(f"Card {what}s must be unique; repeated: {', '.join(dupes)}.")


class _ExpansionFile(BaseModel):
    """An expansion's file: its name, new species and new skill tokens (numbered 11 and up)."""

    model_config = ConfigDict(extra="forbid")

    expansion: str
    species: list[_SpeciesEntry] = []
    skills: list[SkillToken] = []


def _expansion(raw: Any, base_skills: Mapping[int, SkillToken]) -> tuple[tuple[Card, ...], dict[int, SkillToken]]:
    """Validate an expansion file into its species and skill tokens, each marked with its name."""
    filename = "envelope.json"
    try:
        entry = _ExpansionFile.model_validate(raw)
        cards = tuple(Card(id=slug(e.name), wild=False, expansion=entry.expansion, **e.model_dump())
                      for e in entry.species)
        tokens = {t.number: t.model_copy(update={"expansion": entry.expansion}) for t in entry.skills}
    except ValidationError as exc:
        raise CatalogError(f"{filename}: {exc}") from exc
    clash = sorted(set(tokens) & set(base_skills))
    if clash or len(tokens) != len(entry.skills):
        raise CatalogError(f"{filename}: skill numbers must be new and distinct; {clash or 'repeated'}.")
    return tuple(sorted(cards, key=lambda c: (c.number or 0, c.name))), tokens


def build_catalog(
    species: list[Any], wilds: list[Any], skills: list[Any], objectives: list[Any], envelope: Any = None
) -> Catalog:
    """Validate raw file contents into a Catalog; raises CatalogError naming file and entry."""
    species_cards = _species(species)
    wild_cards = _wilds(wilds)
    skill_tokens = _numbered("skills.json", _validate("skills.json", skills, SkillToken))
    extra_species, extra_skills = _expansion(envelope, skill_tokens) if envelope is not None else ((), {})
    _check_unique(species_cards + wild_cards + extra_species)
    return Catalog(
        species=species_cards,
        wilds=wild_cards,
        skills=skill_tokens,
        objectives=_numbered("objectives.json", _validate("objectives.json", objectives, ObjectiveCard)),
        extra_species=extra_species,
        extra_skills=MappingProxyType(extra_skills),
    )


@functools.cache
def load_catalog() -> Catalog:
    """The shipped catalog (with the sealed envelope's cards kept apart), validated once per process."""
    return build_catalog(
        _read("species.json"),
        _read("wilds.json"),
        _read("skills.json"),
        _read("objectives.json"),
        _read_json("envelope.json"),
    )
