"""`/learn` in the service, on a real SQLite file: the whole guided game by its buttons, with the bot
restarted in the middle (a new service on the same file) and one move other than the suggested one;
what each step says is checked against the engine's own game; a stale button, a server channel and
a DM with another game running are answered politely and change nothing; a lesson never counts in
stats."""

from __future__ import annotations

import re
from pathlib import Path

from keystone.app import Actor, GameService, Reply, Where, ids
from keystone.app.text import card_name
from keystone.data.lesson import load_lesson
from keystone.engine import apply, legal_actions, parse_action
from keystone.engine.actions import Take
from keystone.engine.results import final_scores
from keystone.engine.table import take_cost
from keystone.i18n import tr
from keystone.store import Store
from tests.clock_helpers import T0, Time

DM = Where(channel_id=1184513463826617777)
SERVER = Where(channel_id=1184513463826616421, guild_id=1184513463826616000)
ANN = Actor(197038439483310086, "Ann-Kathrin *Müller* 🦊 Ёж 李")


async def open_service(path: Path) -> GameService:
    time = Time(T0)
    return GameService(await Store.open(path, clock=time), seeds=lambda: 7, clock=time)


async def press(service: GameService, reply: Reply) -> Reply:
    """Press the reply's one button (the suggested move), as the ActButton does."""
    assert len(reply.controls) == 1
    match = ids.ACT.fullmatch(reply.controls[0].custom_id)
    assert match is not None
    return await service.act(DM, ANN, ids.notation_of(match["notation"]), game_id=int(match["game"]),
                             version=int(match["version"]))


def suggested(reply: Reply) -> str:
    match = ids.ACT.fullmatch(reply.controls[0].custom_id)
    assert match is not None
    return ids.notation_of(match["notation"])


async def test_the_whole_lesson_survives_a_restart_adapts_to_a_different_move_and_explains_the_sheet(
    tmp_path: Path,
) -> None:
    service = await open_service(tmp_path / "k.db")
    first = await service.learn(DM, ANN)
    assert first.public is not None and first.files and first.files[0][0] == "turn.png"
    found = await service.state_here(DM)
    assert found is not None
    state = found[1]
    assert suggested(first) == load_lesson().steps[0].move.lower()
    # The step's words quote the engine's price: one synergy on each card right of the slot.
    take = parse_action(suggested(first))
    assert isinstance(take, Take)
    assert f"{take_cost(state, take.slot)} synergy" in first.public
    right = [f.card for f in state.field[take.slot + 1:] if f is not None]
    assert all(card_name(card, "en") in first.public for card in right)

    # A different legal move: played, welcomed and explained; the lesson goes on.
    other = next(a for a in legal_actions(state) if str(a).startswith("take 1 "))
    expected_state, events = apply(state, other)
    deviated = await service.act(DM, ANN, str(other))
    assert deviated.public is not None
    assert deviated.public.startswith(tr("en", "learn.other"))
    assert f"{events[0].params['paid']} synergy" in deviated.public
    assert deviated.controls and suggested(deviated) in [str(a).lower() for a in legal_actions(expected_state)]

    # A stale button: the lesson as it stands, nothing changed.
    stale = await press(service, first)
    assert stale.public is not None and tr("en", "learn.moved_on") in stale.public
    assert suggested(stale) == suggested(deviated)

    reply = await press(service, deviated)
    reply = await press(service, reply)
    await service.store.close()

    # The bot restarts: a new service on the same file; `/learn` resumes where the lesson stood.
    service = await open_service(tmp_path / "k.db")
    resumed = await service.learn(DM, ANN)
    assert resumed.public is not None and resumed.public.startswith(tr("en", "learn.resumed"))
    assert resumed.controls[0].custom_id == reply.controls[0].custom_id
    reply = resumed
    for _ in range(60):
        if not reply.controls:
            break
        reply = await press(service, reply)
    assert reply.ended and reply.files[0][0] == "scores.png"
    record = (await service.store.finished_games_for_user(ANN.user_id))[0].record
    loaded = await service.store.load_game(record.id)
    sheet = final_scores(loaded.state)[0]
    assert reply.public is not None
    assert tr("en", "learn.sheet.total", points=sheet.total) in reply.public
    for line in (*sheet.rows, *sheet.columns):
        if line.habitat is not None:
            assert re.search(rf"{line.line}: .* = {line.points} points\.", reply.public)
    # Never in stats.
    assert await service.store.player_results(ANN.user_id) == []
    assert (await service.store.user_stats(ANN.user_id)).games == 0
    # In history, under its own name, to replay.
    listed = (await service.history(ANN)).private or ""
    assert f"· {tr('en', 'history.kind.lesson')} ·" in listed and f"· {tr('en', 'history.kind.solo')} ·" not in listed
    await service.store.close()


async def test_learn_is_refused_politely_in_a_server_and_beside_another_game(tmp_path: Path) -> None:
    service = await open_service(tmp_path / "k.db")
    refused = await service.learn(SERVER, ANN)
    assert refused.public is None and refused.private is not None and "/learn" in refused.private
    assert await service.store.get_active_game(SERVER.channel_id) is None
    assert (await service.new(DM, ANN, players=1)).ok
    busy = await service.learn(DM, ANN)
    assert busy.public is None and busy.private == tr("en", "learn.busy", learn="/learn", abandon="/keystone abandon")
    record = await service.store.get_active_game(DM.channel_id)
    assert record is not None and record.config.lesson is None
    await service.store.close()
