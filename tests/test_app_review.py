"""`/review` in the service, on a real SQLite store: a finished game's decisions judged beside the
hard bot's, each difference the engine's own evaluation of the two moves, kept so a second request
is answered at once; and the refusals, in English and German."""

from __future__ import annotations

import io
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from keystone.app import Actor, GameService, Where
from keystone.app import history as history_words
from keystone.app.review import Reviews, costly, habit, kind_of, pages
from keystone.app.reviewing import decision_points, evaluate, from_json, hard_choice
from keystone.engine import GameConfig, apply, is_over, new_game
from keystone.engine.bots import bot_seed, choose_action
from keystone.engine.results import final_scores, places
from keystone.i18n import tr
from keystone.store import GameRecord, SeatInfo, SeatResult, Store

ZOE, DIMA, OUTSIDER = 461_998_011_736_801_281, 461_998_011_736_801_282, 461_998_011_736_801_283
ROOM = Where(channel_id=1_084_417_555_201_114_118, guild_id=1_084_417_555_201_114_001)
SAMPLES, BUDGET = 2, 24
"""Fewer guesses and a smaller search than in play: the same code, a tenth of the time."""


async def finished_game(store: Store, seed: int = 4, finish: bool = True, users: tuple[int, int] = (ZOE, DIMA),
                        where: Where = ROOM) -> GameRecord:
    """Zoë (playing as the easy bot would) and Дмитрий's (as the normal bot) game, committed as the bot commits moves."""
    seats = [SeatInfo.human(users[0], "Zoë 🦊 **bold**"), SeatInfo.human(users[1], "Дмитрий 李")]
    state = new_game(GameConfig(players=2), seed, [s.name for s in seats])
    record = await store.create_game(guild_id=where.guild_id, channel_id=where.channel_id, kind="competitive",
                                     host_id=users[0], seats=seats, state=state)
    while not is_over(state) and (finish or state.turn < 6):
        action = choose_action(state, ("easy", "normal")[state.current], bot_seed(seed, state))
        new, _ = apply(state, action)
        results = None
        if is_over(new):
            sheets = final_scores(new)
            ranks = places(sheets)
            results = [SeatResult(position=i, score=s.total, place=ranks[i], won=ranks[i] == 1)
                       for i, s in enumerate(sheets)]
        await store.commit_action(record.id, state.version, state.current, str(action), new, results=results)
        state = new
    return await store.get_game(record.id)


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(tmp_path / "k.db", clock=time.time) as store:
        yield store


def quick_service(store: Store) -> GameService:
    service = GameService(store)
    service.review_samples, service.review_budget = SAMPLES, BUDGET
    return service


async def test_a_review_judges_each_decision_as_the_engine_does_and_is_kept(sqlite_store: Store) -> None:
    store = sqlite_store
    record = await finished_game(store)
    service = quick_service(store)
    began = time.monotonic()
    first = await service.review(ROOM, Actor(ZOE, "Zoë"), f"#{record.id}")
    took = time.monotonic() - began
    kept = await store.review(record.id, 0)
    assert kept is not None and "Zoë" not in kept, "a kept review holds data, no names"
    review = from_json(kept)
    assert review is not None and review.samples == SAMPLES and review.seconds > 0

    loaded = await store.load_game(record.id)
    start = new_game(loaded.state.config, loaded.state.seed, [s.name for s in loaded.state.seats])
    points, _ = decision_points(start, await store.log(record.id), 0)
    assert [(p.round, p.state.version) for p in points] == [(d.round, d.version) for d in review.decisions]
    differing = [(p, d) for p, d in zip(points, review.decisions, strict=True) if not d.same]
    assert differing, "this game has moves the hard bot would not have played"
    for point, decision in differing[:2]:
        best = hard_choice(point.state, BUDGET)
        assert decision.best.notation == str(best) and decision.actual.notation == str(point.actual)
        mine, bots = evaluate(point.state, [point.actual, best], SAMPLES)
        assert decision.difference == pytest.approx(bots - mine)

    words = first.private or ""
    assert first.public is None and len(words) <= 2000
    assert words.startswith(f"**Review of game {record.id}** (only you see it): you played as the hard bot would "
                            f"in {sum(d.same for d in review.decisions)} of your {len(review.decisions)} decisions.")
    # Then every decision in full, in order, beside the hard bot's: as many messages as the limit needs.
    assert first.private_more and all(len(page) <= 2000 for page in first.private_more)
    listed = "\n".join(first.private_more).splitlines()
    assert listed[0] == tr("en", "review.all", number=record.id) and len(listed) == len(review.decisions) + 1
    for line, decision in zip(listed[1:], review.decisions, strict=True):
        assert line.startswith(f"Round {decision.round}")
        assert ("the hard bot's move too" in line) if decision.same else ("; the hard bot: " in line)
    shown = costly(review)
    assert len(first.private_files) == len(shown) <= 3
    assert [d.difference for d in shown] == sorted((d.difference for d in shown), reverse=True)
    for (name, data, alt), decision in zip(first.private_files, shown, strict=True):
        assert Image.open(io.BytesIO(data)).size == (1100, 700)
        assert f"Round {decision.round}:" in alt and name.startswith("review-")
    found = habit(review)
    assert found is not None and (f"({found.count} times," if found.count > 1 else "(once,") in words
    assert found.points == pytest.approx(sum(d.difference for d in review.decisions
                                             if not d.same and d.difference > 0 and kind_of(d) == found.kind))

    began = time.monotonic()
    again = await quick_service(store).review(ROOM, Actor(ZOE, "Zoë"), str(record.id))
    assert time.monotonic() - began < took / 2, "a kept review is not computed again"
    assert again.private == first.private and again.private_files == first.private_files
    assert again.private_more == first.private_more
    assert await store.review(record.id, 0) == kept

    german = await service.review(ROOM, Actor(ZOE, "Zoë", locale="de"), str(record.id))
    assert (german.private or "").startswith(f"**Analyse der Partie {record.id}** (nur du siehst sie)")
    assert "Deine teuerste Gewohnheit" in (german.private or "") or tr("de", "review.habit.none") in (german.private or "")


async def test_only_a_seat_of_a_finished_game_gets_a_review(sqlite_store: Store) -> None:
    store = sqlite_store
    done = await finished_game(store, seed=5, finish=False)  # still running
    service = quick_service(store)
    cases = [
        (Actor(ZOE, "Zoë"), "zwölf", history_words.NOT_A_NUMBER),
        (Actor(OUTSIDER, "Ærøn"), str(done.id), tr("en", "review.not_yours", number=done.id)),
        (Actor(ZOE, "Zoë"), "987654", tr("en", "review.not_yours", number=987654)),
        (Actor(ZOE, "Zoë"), str(done.id), tr("en", "review.not_finished", number=done.id)),
        (Actor(DIMA, "Дмитрий", locale="de"), str(done.id), tr("de", "review.not_finished", number=done.id)),
    ]
    for actor, typed, said in cases:
        reply = await service.review(ROOM, actor, typed)
        assert reply.private == said and reply.public is None and not reply.private_files
    await store.abandon_game(done.id)
    reply = await service.review(ROOM, Actor(ZOE, "Zoë"), str(done.id))
    assert reply.private == tr("en", "review.abandoned", number=done.id)
    assert await store.review(done.id, 0) is None, "a refusal keeps nothing"
    assert Reviews.review_samples > SAMPLES


def test_pages_keep_lines_whole_and_within_the_limit() -> None:
    lines = ["Runde 1: du: ⚡" + "ä" * 40, "Round 2: " + "x" * 60, "Round 3: short", "y" * 150]
    split = pages(lines, limit=100)
    assert split == [lines[0], lines[1] + "\n" + lines[2], "y" * 100]
    assert pages([]) == [] and pages(["one"], limit=100) == ["one"]


def test_a_skill_move_is_shown_on_the_skill_tokens_with_the_better_one_framed() -> None:
    """Where the hard bot would use a skill, the picture shows the tokens instead of the Field: the
    better one framed in the highlight colour, at its own row (every exhausted one for skill 0)."""
    from keystone.engine import public_view
    from keystone.render.palette import HIGHLIGHT
    from keystone.render.review import RIGHT_X, render_review_turn

    state = new_game(GameConfig(players=2), 11, ["Zoë 🦊", "Дмитрий"])
    view = public_view(state)
    numbers = [s.number for s in view.skills]

    def framed_rows(skill: int) -> list[int]:
        data = render_review_turn(view, view.seats[0], "Round 1: about 3.2 points", (("You played", "x"),),
                                  skill=skill, chosen_skill=numbers[0])
        image = Image.open(io.BytesIO(data)).convert("RGB")
        return [y for y in range(image.height) if image.getpixel((RIGHT_X + 1, y)) == HIGHLIGHT]

    first, last = framed_rows(numbers[1]), framed_rows(numbers[-1])
    assert first and last and max(first) < min(last), "each token framed at its own row"
    assert not framed_rows(0), "no token is exhausted at the start, so 'all exhausted' frames none"
