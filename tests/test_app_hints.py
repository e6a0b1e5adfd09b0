"""`/keystone hint` in the service, on a real SQLite file with time from a real epoch: every claim of a
hint (the card, the slot, the cell, the synergy paid and gained, the rows and columns it changes,
how much less the next choices are worth) is checked against the game after that move is applied;
the first choice is the hard bot's move; only the player to act may ask, and only where hints are
allowed (not in a rated game unless the host chose them); a game with a hint is not rated and says
so; German words."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from keystone.app import Actor, GameService, Where, hints
from keystone.app.bots import simple_action
from keystone.app.hints import choice_words, compute_hint, hint_seed, hint_words
from keystone.engine import GameConfig, GameState, apply, new_game, parse_action, player_view
from keystone.engine.bots.search import DEFAULT_BUDGET, ranked_actions, search_action
from keystone.engine.results import view_scores
from keystone.engine.table import take_cost
from keystone.i18n import decimal, tr
from keystone.store import Store
from tests.clock_helpers import T0, Time, deciding_here, posted

HERE = Where(channel_id=1184513463826616421, guild_id=1184513463826616000)
DM = Where(channel_id=1184513463826617777)
ANN = Actor(197038439483310086, "Ann-Kathrin Müller 🦊")
BOB = Actor(41771983423143937, "Дмитрий **Bold**")
JOE = Actor(302050872383242240, "Joë 🐻‍❄️")
BOB_DE = Actor(BOB.user_id, BOB.name, locale="de")


@pytest.fixture(autouse=True)
def unhurried(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search is not cut short by the time budget here, so a hint is the same on any machine."""
    monkeypatch.setattr(hints, "HINT_SECONDS", 3600.0)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    time = Time(T0)
    made = GameService(await Store.open(tmp_path / "k.db", clock=time), seeds=lambda: 7, clock=time)
    yield made
    await made.store.close()


async def start(service: GameService, hints_chosen: bool | None) -> None:
    assert (await service.new(HERE, ANN, players=2, hints=hints_chosen)).ok
    assert (await service.lobby(HERE, BOB, "join")).ok
    assert (await posted(service, await service.lobby(HERE, ANN, "start"))).ok


async def state_here(service: GameService) -> GameState:
    found = await service.state_here(HERE)
    assert found is not None
    return found[1]


def actor_of(seat: int) -> Actor:
    return (ANN, BOB)[seat]


def check_claims(state: GameState, hint: hints.Hint) -> int:
    """Every claim of `hint` against the real game after its move; returns how many claims were checked."""
    me = state.current
    checked = 0
    for choice in hint.choices:
        after, _ = apply(state, parse_action(choice.notation))
        assert choice.synergy_before == state.seats[me].synergy
        assert choice.synergy_after == after.seats[me].synergy
        sheet_before = view_scores(player_view(state, me))[me]
        sheet_after = view_scores(player_view(after, me))[me]
        assert (choice.score_before, choice.score_after) == (sheet_before.total, sheet_after.total)
        lines_before = (*sheet_before.rows, *sheet_before.columns)
        lines_after = (*sheet_after.rows, *sheet_after.columns)
        changed = [i for i in range(8) if lines_before[i].points != lines_after[i].points]
        assert [line.line for line in choice.lines] == changed
        for line in choice.lines:
            now = lines_after[line.line]
            assert (line.habitat, line.cards, line.before, line.after) == (
                now.habitat, now.cards, lines_before[line.line].points, now.points)
            checked += 1
        if choice.cell is not None:
            cell = "ABCD".index(choice.cell[0]) * 4 + int(choice.cell[1]) - 1
            placed = after.seats[me].board[cell]
            assert placed is not None and placed.card == choice.card
            if choice.verb == "research":
                before = state.seats[me].board[cell]
                assert before is not None and placed.research > before.research
            else:
                assert state.seats[me].board[cell] is None
            checked += 1
        if choice.source is not None:
            source = "ABCD".index(choice.source[0]) * 4 + int(choice.source[1]) - 1
            lifted = state.seats[me].board[source]
            assert lifted is not None and lifted.card == choice.card and after.seats[me].board[source] is None
            checked += 1
        if choice.verb == "discard":
            assert choice.slot is not None
            gone = state.field[choice.slot - 1]
            assert gone is not None and gone.card == choice.card
        if choice.verb == "take":
            assert choice.slot is not None
            slot = choice.slot - 1
            taken = state.field[slot]
            assert taken is not None and taken.card == choice.card
            assert choice.paid == take_cost(state, slot)
            assert after.seats[me].synergy == state.seats[me].synergy - choice.paid + choice.gained
            assert choice.gained >= taken.synergy
            checked += 4
        checked += 2
    return checked


async def test_a_hint_is_the_hard_bots_move_and_every_claim_holds_after_it(service: GameService) -> None:
    await start(service, hints_chosen=True)
    claims, gains, lines = 0, 0, 0
    for _ in range(8):
        state = await state_here(service)
        seat = await deciding_here(service, HERE)
        reply = await service.hint(HERE, actor_of(seat))
        assert reply.public is None and reply.private is not None and reply.private.startswith("**Hint**")
        view = player_view(state, state.current)
        hint = compute_hint(view, state.config, hint_seed(state), math.inf, "en")
        assert reply.private == hint.words
        # the first choice is what the hard bot plays; the others are its next candidates, ranked
        best = search_action(view, state.config, hint_seed(state), DEFAULT_BUDGET)
        ranked = ranked_actions(view, state.config, hint_seed(state), DEFAULT_BUDGET)
        assert hint.choices[0].notation == str(best) == str(ranked[0][0])
        assert [c.notation for c in hint.choices] == [str(a) for a, _ in ranked[:3]]
        assert [c.value for c in hint.choices] == [v for _, v in ranked[:3]]
        claims += check_claims(state, hint)
        # the words say what the claims say
        for i, choice in enumerate(hint.choices):
            words = choice_words(choice, "en")
            assert words in hint.words
            if choice.card is not None:
                assert choice.cell is not None and choice.cell in words
            if choice.slot is not None and choice.gained > 0:
                assert f"you gain {choice.gained} synergy now" in words
                gains += 1
            for line in choice.lines:
                assert f"+{line.after} at the end" in words or f"scores {line.after} instead" in words
                lines += 1
            if i:
                less = hint.choices[0].value - choice.value
                assert (f"worth about {decimal('en', less, 1)} points less" in hint.words) or less < 0.05
        assert (await service.act(HERE, actor_of(seat), hint.choices[0].notation)).ok
        while (now := await state_here(service)).turn == state.turn and now.phase != "over":
            assert (await service.act(HERE, actor_of(seat), str(simple_action(now)))).ok
    assert claims > 50 and gains and lines


async def test_only_the_player_to_act_may_ask(service: GameService) -> None:
    assert "no game" in ((await service.hint(HERE, ANN)).private or "").lower()
    assert (await service.new(HERE, ANN, players=2, hints=True)).ok
    assert (await service.hint(HERE, ANN)).private == tr("en", "game.not_running")
    assert (await service.lobby(HERE, BOB, "join")).ok
    assert (await posted(service, await service.lobby(HERE, ANN, "start"))).ok
    seat = await deciding_here(service, HERE)
    waiting = actor_of(1 - seat)
    refused = await service.hint(HERE, waiting)
    assert not refused.ok and refused.private is not None
    assert refused.private.startswith("Hints are for the player whose turn it is")
    assert actor_of(seat).name.split()[0] in refused.private
    outsider = await service.hint(HERE, JOE)
    assert not outsider.ok and outsider.private == tr("en", "seat.not_playing")
    running = await service.store.get_active_game(HERE.channel_id)
    assert running is not None and not running.hinted
    assert (await service.resign(HERE, ANN)).ok
    finished = await service.hint(HERE, BOB)
    assert not finished.ok and "no game" in (finished.private or "").lower()


async def test_a_rated_game_refuses_hints_unless_the_host_chose_them(service: GameService) -> None:
    await start(service, hints_chosen=None)
    seat = await deciding_here(service, HERE)
    refused = await service.hint(HERE, actor_of(seat))
    assert not refused.ok and refused.private == tr("en", "hint.not_allowed")
    record = await service.store.get_active_game(HERE.channel_id)
    assert record is not None and record.hints is None and not record.hinted


async def test_a_rated_game_is_rated_when_nobody_asked(service: GameService) -> None:
    await start(service, hints_chosen=False)
    assert not (await service.hint(HERE, actor_of(await deciding_here(service, HERE)))).ok
    ended = await service.resign(HERE, BOB)
    assert ended.ok and tr("en", "game.hinted_unrated") not in (ended.public or "")
    assert await service.store.user_rating(ANN.user_id) is not None


async def test_a_hinted_game_is_not_rated_and_says_so(service: GameService) -> None:
    await start(service, hints_chosen=True)
    seat = await deciding_here(service, HERE)
    assert ((await service.hint(HERE, actor_of(seat))).private or "").startswith("**Hint**")
    record = await service.store.get_active_game(HERE.channel_id)
    assert record is not None and record.hints is True and record.hinted
    ended = await service.resign(HERE, BOB)
    assert ended.ok and tr("en", "game.hinted_unrated") in (ended.public or "")
    assert await service.store.user_rating(ANN.user_id) is None
    assert await service.store.user_rating(BOB.user_id) is None


async def test_solo_games_allow_hints_by_default_in_german(service: GameService) -> None:
    assert (await service.new(DM, BOB_DE, players=1)).ok
    found = await service.state_here(DM)
    assert found is not None and found[0].hints is None
    reply = await service.hint(DM, BOB_DE)
    assert reply.public is None and reply.private is not None
    state = found[1]
    hint = compute_hint(player_view(state, state.current), state.config, hint_seed(state), math.inf, "de")
    assert reply.private == hint.words == hint_words(hint, "de")
    assert reply.private.startswith("**Tipp** (der Zug des starken Bots): ")
    assert "Eichel" in reply.private and "Synergy" not in reply.private and "synergy" not in reply.private
    first = hint.choices[0]
    if first.slot is not None:
        assert f"von Platz {first.slot} der Auslage" in reply.private
    check_claims(state, hint)
    # a solo game is never rated, so asking changes nothing there but the mark
    assert (await service.store.get_game(found[0].id)).hinted


async def test_a_hint_is_asked_again_for_free(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    await start(service, hints_chosen=True)
    seat = await deciding_here(service, HERE)
    first = await service.hint(HERE, actor_of(seat))
    calls: list[object] = []
    monkeypatch.setattr(hints, "compute_hint", lambda *a, **k: calls.append(a))
    again = await service.hint(HERE, actor_of(seat))
    assert again.private == first.private and not calls


def test_claims_hold_in_every_kind_of_decision() -> None:
    """Hints all through games (skills' steps too: placing a drawn card, moving, discarding), each
    claim against the real game after its move; the hint sees only the player's view."""
    verbs: set[str] = set()
    for seed, players in ((11, 2), (5, 1)):
        state = new_game(GameConfig(players=players), seed, ["Zoë", "Ødegård", "李"][:players])
        while state.phase != "over":
            view = player_view(state, state.current)
            hint = compute_hint(view, state.config, hint_seed(state), math.inf, "en", budget=6)
            assert hint.choices and check_claims(state, hint)
            assert all(choice_words(c, "en") in hint.words for c in hint.choices)
            verbs |= {c.verb for c in hint.choices}
            state, _ = apply(state, parse_action(hint.choices[0].notation))
    assert {"take", "place", "discard", "skill"} <= verbs


async def test_a_bots_turn_has_no_hint(service: GameService) -> None:
    """A person away is played by a bot: while that turn is due, nobody gets a hint for it."""
    await start(service, hints_chosen=True)
    seat = await deciding_here(service, HERE)
    running = await service.store.get_active_game(HERE.channel_id)
    assert running is not None
    await service.store.set_away(running.id, seat, True)
    refused = await service.hint(HERE, actor_of(1 - seat))
    assert refused.private == tr("en", "hint.bot_turn")
