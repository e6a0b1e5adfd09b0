"""The card data: rulebook names and counts, card facts, balance, validation and the CLI shape."""

from __future__ import annotations

import copy
import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keystone.cards import Card, Habitat, Pattern, Season, Symbol
from keystone.cli import cards as cards_cli
from keystone.cli import objectives as objectives_cli
from keystone.data import Catalog, CatalogError, build_catalog, load_catalog, slug
from keystone.data.catalog import _read
from keystone.engine.words import habitat_name

CAT = load_catalog()

# The rulebook's "Species Card Database", quoted line by line (names only).
RULEBOOK_SEQUENCES = """
Sequence 1: American Red Squirrel, Aspen, Bearberry, Black-Tailed Prairie Dog, Black Willow, Brown Lemming, Bumble Bee, Desert Kangaroo Rat, Giant Sequoia, Monarch Butterfly, Montezuma Bald Cypress, Northern Flying Squirrel, Northern Green Frog, Prairie Fringed Orchid, Red Mangrove, Saguaro Cactus, Sockeye Salmon, Sphinx Moth, Spruce-Fir Moss Spider, Sugar Maple, Vancouver Island Marmot
Sequence 2: Black-Footed Ferret, Black-Tailed Jackrabbit, Canada Goose, Collared Peccary, Cottontail Rabbit, Desert Tortoise, Dusky Grouse, Emperor Goose, Long-Tailed Weasel, Mallard, Mangrove Tree Crab, Nine-Banded Armadillo, North American Beaver, Northern Raccoon, Piping Plover, Ringed Seal, Rock Ptarmigan, Sidewinder Rattlesnake, Snowshoe Hare, Virginia Opossum, Wood Duck
Sequence 3: Alligator Snapping Turtle, Arctic Fox, Atlantic Salt Marsh Snake, Burrowing Owl, Coyote, Dall Sheep, Eastern Hellbender, Florida Manatee, Mountain Goat, Mule Deer, North American River Otter, Pronghorn Antelope, Red Fox, Ringtail Cat, Rocky Mountain Elk, Sandhill Crane, Snail Kite, Swallow-Tailed Kite, Whitetail Deer, Woodland Caribou
Sequence 4: Alaskan Moose, American Bison, American Black Bear, Bald Eagle, Bighorn Sheep, California Condor, Canada Lynx, Mexican Spotted Owl, Musk Ox, Ocelot, Peregrine Falcon, Snowy Owl, Turkey Vulture
Sequence 5: American Alligator, American Crocodile, Arctic Wolf, Florida Panther, Golden Eagle, Grizzly Bear, Mexican Gray Wolf, Mountain Lion, Northwestern Gray Wolf, Polar Bear, Red Wolf, Wolverine
"""


def parse_sequences(text: str) -> dict[int, list[str]]:
    """Names per number from "Sequence N: a, b, c" lines."""
    found = re.findall(r"^Sequence (\d): (.+)$", text, flags=re.MULTILINE)
    return {int(n): [name.strip() for name in names.split(",")] for n, names in found}


F, D, W, A = Habitat.FOREST, Habitat.DESERT, Habitat.WETLAND, Habitat.ARCTIC

# One row per line of the card-facts table:
# (name, number, habitats included, "exactly" or "includes", habitats excluded, season, icons)
# icons: a dict of attribute -> required value; attributes the facts leave free are absent.
CARD_FACTS: list[tuple[str, int, set[Habitat], bool, set[Habitat], Season | None, dict[str, bool]]] = [
    ("Saguaro Cactus", 1, {D}, False, set(), Season.SUMMER, {"keystone": True}),
    ("American Bison", 4, {F, D}, True, set(), None, {"keystone": True}),
    ("Mountain Lion", 5, {D}, False, set(), None, {"keystone": True}),
    ("American Black Bear", 4, {D}, False, set(), Season.SUMMER, {}),
    ("Montezuma Bald Cypress", 1, {W}, False, set(), Season.SUMMER, {"keystone": False}),
    ("Cottontail Rabbit", 2, {D, W}, False, set(), None, {"keystone": False}),
    ("Snail Kite", 3, {W}, False, {F, D}, Season.SUMMER, {"endangered": True, "keystone": False}),
    ("Peregrine Falcon", 4, {W, D}, False, set(), None, {"keystone": True}),
    ("Piping Plover", 2, {W}, False, set(), None, {"keystone": False}),
    ("Coyote", 3, {F, D, W}, False, set(), Season.SPRING, {"keystone": True}),
    ("Desert Tortoise", 2, {D}, True, set(), None, {"keystone": True, "endangered": True}),
    ("Mountain Goat", 3, {A}, False, set(), Season.SPRING, {"tag": True, "keystone": False}),
    ("Musk Ox", 4, {A}, False, {D}, Season.SPRING, {"tag": True, "keystone": False}),
    ("Swallow-Tailed Kite", 3, {W}, False, set(), None, {"tag": True, "keystone": False}),
    ("Prairie Fringed Orchid", 1, {D}, False, set(), None, {"keystone": False}),
    ("Red Wolf", 5, {F, D}, False, set(), None, {}),
    ("Bald Eagle", 4, {F, W, A}, True, set(), Season.WINTER, {}),
    ("Mexican Gray Wolf", 5, {F, D}, True, set(), Season.SUMMER, {"keystone": True, "endangered": True}),
]


@pytest.mark.parametrize("fact", CARD_FACTS, ids=[f[0] for f in CARD_FACTS])
def test_card_facts(
    fact: tuple[str, int, set[Habitat], bool, set[Habitat], Season | None, dict[str, bool]],
) -> None:
    name, number, included, exact, excluded, season, icons = fact
    card = CAT.find(name)
    assert card is not None and card.name == name
    assert card.number == number
    habitats = set(card.habitats)
    assert habitats == included if exact else habitats >= included
    assert not habitats & excluded
    if season is not None:
        assert card.season is season
    for attribute, value in icons.items():
        assert getattr(card, attribute) is value, attribute


def test_names_match_the_rulebook_exactly() -> None:
    expected = parse_sequences(RULEBOOK_SEQUENCES)
    for number, names in expected.items():
        assert sorted(c.name for c in CAT.species if c.number == number) == sorted(names)


@pytest.mark.skipif("KEYSTONE_RULEBOOK" not in os.environ, reason="set KEYSTONE_RULEBOOK to cross-check")
def test_quoted_lines_match_the_rulebook_file() -> None:
    text = Path(os.environ["KEYSTONE_RULEBOOK"]).read_text(encoding="utf-8")
    assert parse_sequences(text) == parse_sequences(RULEBOOK_SEQUENCES)


def test_counts_and_order() -> None:
    assert Counter(c.number for c in CAT.species) == {1: 21, 2: 21, 3: 20, 4: 13, 5: 12}
    assert list(CAT.species) == sorted(CAT.species, key=lambda c: (c.number or 0, c.name))
    assert [w.habitats[0] for w in CAT.wilds] == [F, F, D, D, W, W, A, A]
    assert CAT.all_cards() == CAT.species + CAT.wilds
    assert sorted(CAT.skills) == list(range(1, 11)) and sorted(CAT.objectives) == list(range(1, 11))


def test_ids_are_slugs_and_unique() -> None:
    assert CAT.card("american-red-squirrel").name == "American Red Squirrel"
    assert CAT.card("black-tailed-prairie-dog").name == "Black-Tailed Prairie Dog"
    assert all(c.id == slug(c.name) for c in CAT.species)
    assert {w.id for w in CAT.wilds} == {f"wild-{w.habitats[0].value}-{w.season}" for w in CAT.wilds}
    ids = [c.id for c in CAT.all_cards()]
    assert len(set(ids)) == len(ids) == 95
    with pytest.raises(KeyError):
        CAT.card("no-such-card")


def test_wilds_cover_each_season_twice() -> None:
    assert Counter(w.season for w in CAT.wilds) == {s: 2 for s in Season}
    assert all(w.wild and w.number is None and not (w.keystone or w.endangered or w.tag) for w in CAT.wilds)
    assert all(re.fullmatch(r"(Forest|Desert|Wetland|Arctic) Wild \((Spring|Summer|Fall|Winter)\)", w.name)
               for w in CAT.wilds)


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5])
def test_balance_per_number(number: int) -> None:
    cards = [c for c in CAT.species if c.number == number]
    habitats = Counter(h for c in cards for h in c.habitats)
    seasons = Counter(c.season for c in cards)
    assert all(habitats[h] >= 4 for h in Habitat), habitats
    assert all(seasons[s] >= 3 for s in Season), seasons
    # No season dominates: the largest group is at most twice the smallest.
    assert max(seasons.values()) <= 2 * min(seasons.values())


def test_deck_shape() -> None:
    assert all(1 <= len(c.habitats) <= 3 for c in CAT.species)
    assert sum(len(c.habitats) <= 2 for c in CAT.species) >= 0.85 * len(CAT.species)
    keystones = sum(c.keystone for c in CAT.species)
    assert 0.15 * 87 <= keystones < 0.4 * 87
    assert not any(c.endangered and c.tag for c in CAT.species)
    assert sum(c.endangered for c in CAT.species) >= 10 and sum(c.tag for c in CAT.species) >= 10


def symbol_frequency() -> Counter[Symbol]:
    return Counter(s for c in CAT.all_cards() for s in Symbol if c.has_symbol(s))


def test_objective_cards_from_the_rulebook() -> None:
    def goals(n: int) -> list[tuple[str, str]]:
        return [(g.pattern.value, g.symbol.value) for g in CAT.objectives[n].goals]

    assert goals(1) == [("l", "spring"), ("line2", "endangered"), ("line3", "tag"), ("count4", "summer")]
    assert goals(2) == [("l", "summer"), ("diagonal", "endangered"), ("line3", "tag"), ("count4", "fall")]


def test_objectives_spread_symbols_and_fit_difficulty() -> None:
    goals = [g for card in CAT.objectives.values() for g in card.goals]
    per_symbol = Counter(g.symbol for g in goals)
    assert all(per_symbol[s] >= 4 for s in Symbol), per_symbol
    frequency = symbol_frequency()
    rarest = min(frequency, key=lambda s: frequency[s])
    # The rarest symbol never has to appear four times; the hardest goals go to common symbols.
    assert all(g.symbol is not rarest for g in goals if g.pattern is Pattern.COUNT4)
    assert all(len({g.pattern for g in card.goals}) == 4 for card in CAT.objectives.values())


def test_skill_effects_follow_the_rulebook() -> None:
    def kinds(n: int, side: str) -> list[tuple[str, int, str | None]]:
        return [(e.kind, e.count, e.target) for e in getattr(CAT.skills[n], side).effects]

    assert kinds(1, "active") == [("draw_place", 3, None), ("field_discard", 2, None)]
    assert kinds(3, "exhausted") == [("research", 1, "endangered")]
    assert kinds(4, "active") == [("gain", 8, None), ("field_discard", 3, None)]
    assert kinds(4, "exhausted") == [("research", 1, "wild")]
    assert kinds(9, "active") == [("research", 2, "endangered"), ("field_discard", 2, None)]
    for n, season in zip(range(5, 9), Season, strict=True):
        assert kinds(n, "active") == [("research", 1, season.value), ("field_discard", 2, None)]
        assert kinds(n, "exhausted") == [("gain", 2, None)]
    assert kinds(10, "exhausted") == kinds(9, "exhausted") == [("move", 1, None)]


@given(card=st.sampled_from(CAT.all_cards()), data=st.data())
def test_find_tolerates_case_spaces_and_hyphens(card: Card, data: st.DataObject) -> None:
    text = data.draw(st.sampled_from([card.name, card.id]))
    flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    mangled = "".join(ch.upper() if f else ch.lower() for ch, f in zip(text, flips, strict=True))
    mangled = mangled.replace("-", data.draw(st.sampled_from(["-", " ", "  ", " - "])))
    assert CAT.find("  " + mangled + " ") == card


def test_find_wild_shorthand_and_misses() -> None:
    desert = CAT.find("wild:desert")
    assert desert is not None and desert.wild and desert.habitats == (D,)
    assert CAT.find("Wild:Desert:Winter") == CAT.card("wild-desert-winter")
    assert CAT.find("wild:desert:autumn") is None
    assert CAT.find("Unicorn") is None


def raw_files() -> dict[str, list[Any]]:
    return {name: _read(f"{name}.json") for name in ("species", "wilds", "skills", "objectives")}


def test_raw_files_build_the_shipped_catalog() -> None:
    built = build_catalog(**raw_files())
    assert isinstance(built, Catalog) and built.all_cards() == CAT.all_cards()


def _corrupt(file: str, change: Any) -> dict[str, list[Any]]:
    raw = copy.deepcopy(raw_files())
    change(raw[file])
    return raw


CORRUPTIONS: list[tuple[str, str, Any, str]] = [
    ("missing field", "species", lambda r: r[0].pop("season"), r"species\.json, entry 1 \(American Red"),
    ("bad habitat", "species", lambda r: r[3].update(habitats=["ocean"]), r"species\.json, entry 4"),
    ("both icons", "species", lambda r: r[5].update(endangered=True, tag=True),
     r"species\.json, entry 6 \(Brown Lemming\).*one icon slot"),
    ("no habitat", "species", lambda r: r[0].update(habitats=[]), r"species\.json, entry 1"),
    ("wrong count", "species", lambda r: r.pop(), r"species\.json: cards per number"),
    ("duplicate name", "species", lambda r: r[1].update(name=r[0]["name"]), r"unique; repeated: American"),
    ("no German name", "species", lambda r: r[2].pop("name_de"),
     r"species\.json, entry 3 \(Bearberry\): name_de: Field required"),
    ("blank German name", "species", lambda r: r[4].update(name_de="  "),
     r"entry 5 \(Black-Tailed Prairie Dog\): name_de: .*needs a name in every language"),
    ("stray space", "species", lambda r: r[6].update(name_de="Hummel "), r"entry 7 \(Bumble Bee\).*stray space"),
    ("same German name", "species", lambda r: r[1].update(name_de=r[0]["name_de"]),
     r"German names must be unique; repeated: Amerikanisches Rothörnchen"),
    ("wild without German", "wilds", lambda r: r[0].pop("name_de"), r"wilds\.json, entry 1 \(Forest Wild"),
    ("skill without German", "skills", lambda r: r[1]["exhausted"].pop("text_de"),
     r"skills\.json, entry 2 \(2\): exhausted\.text_de: Field required"),
    ("third forest wild", "wilds", lambda r: r[2].update(habitats=["forest"]), r"wilds\.json: expected two"),
    ("skill numbers", "skills", lambda r: r[9].update(number=11), r"skills\.json: numbers must be exactly"),
    ("long summary", "skills", lambda r: r[0]["active"].update(summary="x" * 41), r"skills\.json, entry 1"),
    ("same pattern", "objectives", lambda r: r[2]["goals"][0].update(pattern="count4"), r"objectives\.json"),
    ("objective gap", "objectives", lambda r: r.pop(4), r"objectives\.json: numbers must be exactly"),
]


@pytest.mark.parametrize(("label", "file", "change", "message"), CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_corrupt_data_raises_a_clear_error(label: str, file: str, change: Any, message: str) -> None:
    with pytest.raises(CatalogError, match=message):
        build_catalog(**_corrupt(file, change))


def test_every_card_has_its_german_name() -> None:
    cards = CAT.all_cards() + CAT.extra_species
    assert all(c.name_de for c in cards)
    assert CAT.card("american-bison").name_in("de") == "Amerikanischer Bison"
    assert CAT.card("snail-kite").name_in("de") == "Schneckenweih"
    assert [CAT.card(i).name_in("de") for i in ("coyote", "red-wolf")] == ["Kojote", "Rotwolf"]  # German rulebook
    assert CAT.card("wild-arctic-fall").name_in("de") == "Wildniskarte Arktis (Herbst)"
    assert CAT.card("american-bison").name_in("en") == "American Bison"
    assert Card(id="x", name="Made In Code", habitats=(Habitat.FOREST,), season=None, wild=True).name_in("de") == (
        "Made In Code")


def test_every_skill_side_reads_in_german() -> None:
    sides = [side for t in (*CAT.skills.values(), *CAT.extra_skills.values()) for side in (t.active, t.exhausted)]
    assert all(s.summary_in("de") != s.summary and s.text_in("de") != s.text for s in sides)
    assert CAT.skill(2).exhausted.summary_in("de") == "3 Eicheln nehmen"
    assert CAT.skill(2).exhausted.text_in("en") == "Take three synergy tokens from the supply."
    assert "Notizmarker" in CAT.skill(5).active.text_in("de") and "Frühling" in CAT.skill(5).active.text_in("de")


def test_unreadable_file_is_named() -> None:
    with pytest.raises(CatalogError, match=r"nonexistent\.json: cannot be read"):
        _read("nonexistent.json")


def test_cards_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert cards_cli.main(["--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 95
    keys = {"name", "number", "habitats", "season", "keystone", "endangered", "tag", "wild"}
    assert all(set(r) == keys for r in rows)
    assert [r["wild"] for r in rows] == [False] * 87 + [True] * 8
    assert all(r["number"] is None for r in rows[87:]) and all(isinstance(r["number"], int) for r in rows[:87])
    assert rows[0]["name"] == CAT.species[0].name


def test_cards_table_and_bad_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert cards_cli.main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 + 95 and "Name" in lines[0]
    season = CAT.species[0].season
    assert season is not None
    assert lines[0].index("Season") == lines[2].index(season.value.title())
    assert cards_cli.main(["--xml"]) == 2
    assert "Unrecognized arguments: --xml" in capsys.readouterr().err


def test_objectives_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert objectives_cli.main(["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == [str(n) for n in range(1, 11)]
    patterns, symbols = {p.value for p in Pattern}, {s.value for s in Symbol}
    for goals in data.values():
        assert len(goals) == 4
        assert all(set(g) == {"pattern", "symbol"} and g["pattern"] in patterns and g["symbol"] in symbols
                   for g in goals)


def test_objectives_listing(capsys: pytest.CaptureFixture[str]) -> None:
    assert objectives_cli.main([]) == 0
    out = capsys.readouterr().out
    assert out.count("Objective ") == 10 and out.count("  D. ") == 10
    assert objectives_cli.main(["extra"]) == 2


def test_the_card_and_objective_listings_speak_german_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert cards_cli.main(["--lang", "de"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Nr", "Name", "Biotope", "Jahreszeit", "Symbole"] and len(lines) == 2 + 95
    coyote = next(line for line in lines if "Kojote" in line)
    assert ", ".join(habitat_name(h, "de") for h in CAT.card("coyote").habitats) in coyote
    assert all(c.name_in("de") in "\n".join(lines) for c in CAT.all_cards())
    assert cards_cli.main(["--lang", "de", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["name"] == CAT.species[0].name  # machines read one language
    assert objectives_cli.main(["--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert out.count("Karte „Geheime Ziele“ ") == 10 and "Objective" not in out and "L-Form: " in out
    assert cards_cli.main(["--lang", "fr"]) == 2
    assert "invalid choice: 'fr'" in capsys.readouterr().err
