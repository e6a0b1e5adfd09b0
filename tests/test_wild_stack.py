"""Ruling 38: a Wild card bought is always the top card of its habitat's face-up stack.

The rulebook sorts the Wild cards "by habitat, forming 4 face up stacks" and lets a player "take a
Wild card"; it does not say whether the buyer may pick the season from the stack. The engine lays
each stack in the catalogue's order (not shuffled) and a purchase takes its top card.
"""

from __future__ import annotations

from dataclasses import fields

import pytest

from keystone.cards import Habitat, Season
from keystone.data import load_catalog
from keystone.data.catalog import wild_id
from keystone.engine import public_view
from keystone.engine.actions import BuyWild
from tests.engine_helpers import cell_card, game, play

TOPS = {Habitat.FOREST: Season.FALL, Habitat.DESERT: Season.WINTER, Habitat.WETLAND: Season.SUMMER,
        Habitat.ARCTIC: Season.WINTER}
"""The season showing on each stack at the start: the habitat's second Wild card in wilds.json."""


@pytest.mark.parametrize("habitat", list(Habitat))
def test_ruling_a_wild_card_bought_is_the_top_of_its_habitats_stack(habitat: Habitat) -> None:
    listed = [w.id for w in load_catalog().wilds if w.habitats[0] == habitat]
    for seed in (1, 7, 99):  # laid in the catalogue's order whatever the seed: the top is never drawn by chance
        assert game(2, seed=seed).wild_stacks[habitat] == listed
    state = game(2)
    top = state.wild_stacks[habitat][-1]
    assert top == wild_id(habitat, TOPS[habitat])
    assert dict(public_view(state).wild_stacks)[habitat][-1] == top  # the face-up season the picture shows
    assert [f.name for f in fields(BuyWild)] == ["habitat", "cell"]  # a purchase names no season to choose
    state.seats[0].synergy = 30
    after, _ = play(state, f"wild {habitat.value} A1")
    assert (placed := cell_card(after, 0, "A1")) is not None and placed.card == top
    assert after.wild_stacks[habitat] == listed[:-1]  # the other season is now on top
    assert all(after.wild_stacks[h] == state.wild_stacks[h] for h in Habitat if h != habitat)
