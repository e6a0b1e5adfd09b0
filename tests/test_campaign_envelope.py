"""The sealed envelope's content, the catalog's expansion lookups and the special-rule hook."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from keystone.data import CatalogError, build_catalog, load_catalog
from keystone.data.catalog import _read
from keystone.engine import GameConfig, IllegalAction, apply_text, legal_actions, new_game
from keystone.engine.actions import UseSkill

CAT = load_catalog()
ENVELOPE = json.loads(resources.files("keystone.data").joinpath("envelope.json").read_text(encoding="utf-8"))


def _base_files() -> tuple[list[object], list[object], list[object], list[object]]:
    species, wilds, skills, objectives = (_read(f"{name}.json") for name in ("species", "wilds", "skills", "objectives"))
    return species, wilds, skills, objectives


def test_base_game_is_untouched_by_the_envelope() -> None:
    assert len(CAT.species) == 87
    assert sorted(CAT.skills) == list(range(1, 11))
    assert all(c.expansion is None for c in CAT.species)
    assert CAT.species_for([]) == CAT.species
    assert dict(CAT.skills_for([])) == dict(CAT.skills)


def test_envelope_adds_four_to_six_species_and_a_skill_token() -> None:
    extra = CAT.species_for(["envelope"])[len(CAT.species):]
    assert 4 <= len(extra) <= 6
    assert {c.expansion for c in extra} == {"envelope"}
    assert not {c.name for c in extra} & {c.name for c in CAT.species}
    pool = CAT.skills_for(["envelope"])
    assert set(pool) - set(CAT.skills) == {11}
    assert pool[11].expansion == "envelope"
    assert CAT.skill(11) is pool[11]
    assert CAT.expansions == ("envelope",)


def test_envelope_cards_are_found_by_id_and_name() -> None:
    for card in CAT.extra_species:
        assert CAT.card(card.id) is card
        assert CAT.find(card.name) is card


def test_unknown_expansion_is_refused_politely() -> None:
    with pytest.raises(ValueError, match="Unknown expansion 'moon'"):
        CAT.species_for(["moon"])
    with pytest.raises(ValueError, match="Unknown expansion"):
        new_game(GameConfig(players=1, expansions=["moon"]), 1, ["solo"])


def test_envelope_skill_number_may_not_reuse_a_base_number() -> None:
    bad = json.loads(json.dumps(ENVELOPE))
    bad["skills"][0]["number"] = 3
    with pytest.raises(CatalogError, match="envelope.json"):
        build_catalog(*_base_files(), bad)


def test_envelope_species_name_may_not_repeat_a_base_name() -> None:
    bad = json.loads(json.dumps(ENVELOPE))
    bad["species"][0]["name"] = "Coyote"
    with pytest.raises(CatalogError, match="Coyote"):
        build_catalog(*_base_files(), bad)


def test_catalog_without_an_envelope_has_no_expansions() -> None:
    cat = build_catalog(*_base_files())
    assert cat.extra_species == () and cat.expansions == ()
    with pytest.raises(KeyError):
        cat.skill(11)


def test_new_game_with_the_envelope_shuffles_its_cards_into_the_deck() -> None:
    state = new_game(GameConfig(players=1, expansions=["envelope"]), 5, ["solo"])
    in_play = set(state.deck) | {f.card for f in state.field if f is not None}
    assert {c.id for c in CAT.extra_species} <= in_play
    assert len(in_play) == 87 + len(CAT.extra_species)
    base = new_game(GameConfig(players=1), 5, ["solo"])
    assert len(set(base.deck) | {f.card for f in base.field if f is not None}) == 87


def test_envelope_skill_token_is_playable_on_both_sides() -> None:
    state = new_game(GameConfig(players=1, skills=[11], expansions=["envelope"]), 3, ["solo"])
    state, events = apply_text(state, "skill 11")
    assert any("skill 11" in e.text for e in events)
    while state.phase == "resolve":  # draw, place nothing, then the forced choices
        step = state.step
        assert step is not None
        text = {"draw_place": "draw", "place_held": "skip", "pile_held": "pile 1", "field_discard": "discard 1"}
        state, _ = apply_text(state, text[step.kind])
    assert state.skills[0].exhausted
    before = state.seats[0].synergy
    state, events = apply_text(state, "skill 0")
    while state.phase == "resolve":  # a lone forced choice resolves by itself; answer any other
        state, more = apply_text(state, "resolve 11" if state.step and state.step.kind == "choose_exhausted" else "skip")
        events += more
    assert any("exhausted skill 11" in e.text for e in events)
    assert state.seats[0].synergy == before + 1


def test_a_refusal_names_the_special_rule_behind_it() -> None:
    cfg = GameConfig(players=1, wilds_allowed=False, disabled_skills=[4], skills=[1, 2, 3, 4, 5],
                     rule_names={"wilds": "Leave No Trace", "skill:4": "Frozen Budget"})
    state = new_game(cfg, 2, ["solo"])
    with pytest.raises(IllegalAction, match=r"Wild cards are not allowed in this game \(special rule: Leave No Trace\)"):
        apply_text(state, "wild forest A1")
    with pytest.raises(IllegalAction, match=r"Skill 4 is disabled in this game \(special rule: Frozen Budget\)"):
        apply_text(state, "skill 4")
    assert UseSkill(4) not in legal_actions(state)


def test_wild_cost_refusal_names_its_rule_and_unnamed_rules_keep_the_plain_sentence() -> None:
    named = new_game(GameConfig(players=1, wild_cost=14, rule_names={"wild_cost": "Lean Times"}), 2, ["solo"])
    with pytest.raises(IllegalAction, match=r"costs 14 synergy and you have 5 \(special rule: Lean Times\)\.$"):
        apply_text(named, "wild desert B2")
    plain = new_game(GameConfig(players=1, wilds_allowed=False), 2, ["solo"])
    with pytest.raises(IllegalAction, match=r"^Wild cards are not allowed in this game\.$"):
        apply_text(plain, "wild desert B2")
