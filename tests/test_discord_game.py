"""End to end: the real discord.py client, with the Keystone cog, against the fake Discord server."""

from __future__ import annotations

from pathlib import Path

import pytest

from keystone.engine.bots import LEVELS
from keystone.engine.campaign import LAST_ASSIGNMENT
from tests.discord_helpers import cheap_turn, make_bot, public_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.harness import InteractionResult
from tests.fakediscord.models import FakeChannel, FakeMessage, FakeUser
from tests.fakediscord.server import FakeDiscord

SECRET_MARK = "secret objective (card"




async def open_game(fake: FakeDiscord, channel: FakeChannel, host: FakeUser, guest: FakeUser,
                    **options: object) -> InteractionResult:
    """Lobby by slash command, the guest joins with the button, the host starts with the button."""
    lobby = await fake.slash(host, channel, "keystone new", {"players": 2, **options})
    assert not lobby.is_ephemeral and "Seated (1/2)" in lobby.content
    joined = await fake.click(guest, lobby.message, label="Join")
    assert "Seated (2/2)" in joined.message.content
    started = await fake.click(host, lobby.message, label="Start")
    # a slow start (the first picture drawn) is deferred, and its owed public message goes to the channel
    public = next((m for m in started.messages if not m.is_ephemeral), None) or fake.public_messages(channel)[-1]
    assert host.id in public.pinged_user_ids
    return started




def first_button(message: FakeMessage) -> str:
    return str(next(c for c in message.actionable() if c.get("type") == 2)["custom_id"])


def has_button(message: FakeMessage, label: str) -> bool:
    return any(c.get("label") == label for c in message.actionable())



@pytest.mark.slow
async def test_two_users_play_a_whole_game_to_the_score_sheet(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    channel = fake.channel("table-1")
    started = await open_game(fake, channel, alice, bob)
    last = public_of(started)
    assert any(a.filename == "field.png" and a.data.startswith(b"\x89PNG") for a in last.attachments)
    users = {alice.id: alice, bob.id: bob}
    mover = alice
    for _ in range(200):
        if "Final scores" in last.content:
            break
        last = await cheap_turn(fake, channel, mover, last)
        assert [a.filename for a in last.attachments] in (["turn.png"], ["scores.png"])
        pinged = last.pinged_user_ids
        assert len(pinged) <= 1
        mover = users[next(iter(pinged))] if pinged else mover
    else:
        pytest.fail("the game did not end")
    assert any(a.filename == "scores.png" and a.data.startswith(b"\x89PNG") for a in last.attachments)
    assert "wins" in last.content or "share first place" in last.content
    for message in fake.public_messages(channel):
        assert SECRET_MARK not in message.content
    after = await fake.slash(carol, channel, "keystone new", {"players": 2})
    assert not after.is_ephemeral, "a finished game frees the channel"


async def test_a_hint_is_asked_privately_on_your_turn(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-1")
    await open_game(fake, channel, alice, bob, hints=True)
    mover, waiting = alice, bob
    before = len(fake.public_messages(channel))
    hint = await fake.slash(mover, channel, "keystone hint", {})
    assert hint.is_ephemeral and hint.content.startswith("**Hint** (the hard bot's move): ")
    assert "Next best: " in hint.content and SECRET_MARK not in hint.content
    refused = await fake.slash(waiting, channel, "keystone hint", {})
    assert refused.is_ephemeral and refused.content.startswith("Hints are for the player whose turn it is")
    assert len(fake.public_messages(channel)) == before, "a hint is never posted publicly"


async def test_third_user_is_refused_privately(fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    channel = fake.channel("table-1")
    started = await open_game(fake, channel, alice, bob)
    before = len(fake.public_messages(channel))
    for attempt in (
        await fake.slash(carol, channel, "take", {"card": "6", "cell": "A1"}),
        await fake.slash(carol, channel, "keystone objective"),
        await fake.click(carol, public_of(started), first_button(public_of(started))),
        await fake.slash(bob, channel, "take", {"card": "6", "cell": "A1"}),
    ):
        assert attempt.is_ephemeral and attempt.content
    assert "alice's turn" in (await fake.slash(bob, channel, "endturn")).content.lower()
    assert len(fake.public_messages(channel)) == before


async def test_objective_only_privately_to_its_owner(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-1")
    started = await open_game(fake, channel, alice, bob)
    private = [m for m in await started.wait_for_messages(2) if m.is_ephemeral]
    assert private and SECRET_MARK in private[0].content
    mine = await fake.slash(bob, channel, "keystone objective")
    assert mine.is_ephemeral and SECRET_MARK in mine.content
    for message in fake.public_messages(channel):
        assert SECRET_MARK not in message.content


async def test_autocomplete_shows_slots_cells_and_skills(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-1")
    await open_game(fake, channel, alice, bob)
    cards = await fake.autocomplete(alice, channel, "take", {"card": ""}, focused="card")
    assert cards and all(" - " in c["name"] and "costs" in c["name"] for c in cards)
    cells = await fake.autocomplete(alice, channel, "take", {"card": "6", "cell": "b"}, focused="cell")
    assert [c["value"] for c in cells] == ["B1", "B2", "B3", "B4"]
    await fake.slash(alice, channel, "take", {"card": cards[-1]["value"], "cell": "B2"})
    cells = await fake.autocomplete(alice, channel, "take", {"card": "6", "cell": "b"}, focused="cell")
    # B2 is now filled on alice's board (or it is bob's turn and his board is shown: B2 empty there).
    skills = await fake.autocomplete(alice, channel, "skill", {"token": ""})
    assert all(s["value"].isdigit() for s in skills)


async def test_restart_keeps_the_game_and_old_buttons_work(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "ks.db"
    first = await bot_runner.start(make_bot(db))
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-1")
    started = await open_game(fake, channel, alice, bob)
    older = public_of(started)
    last = await cheap_turn(fake, channel, alice, older)
    await bot_runner.stop(first)
    await bot_runner.start(make_bot(db))
    stale = await fake.click(alice, older, first_button(older))
    assert stale.is_ephemeral and "moved on" in stale.content
    assert any(a.filename == "field.png" for a in stale.message.attachments)
    mover = bob if bob.id in last.pinged_user_ids else alice
    pressed = await fake.click(mover, last, first_button(last))
    assert "moved on" not in pressed.content, pressed.content
    assert not pressed.is_ephemeral or pressed.message.actionable(), "a step of the turn, or the turn told"


async def test_skill_steps_come_privately_and_the_turn_is_told_once(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-1")
    await open_game(fake, channel, alice, bob)
    before = len(fake.public_messages(channel))
    skills = await fake.autocomplete(alice, channel, "skill", {"token": ""})
    assert skills and all(" - " in s["name"] for s in skills)
    result = await fake.slash(alice, channel, "skill", {"token": skills[0]["value"]})
    steps = 0
    while result.is_ephemeral and result.message.actionable():  # the last step ends with "your turn is told"
        step = result.message
        if has_button(step, "End turn"):
            result = await fake.click(alice, step, label="End turn")
        else:
            select = next((c for c in step.actionable() if c.get("type") == 3), None)
            if select is not None:
                result = await fake.select(alice, step, select["custom_id"], [select["options"][0]["value"]])
            else:
                result = await fake.click(alice, step, first_button(step))
        await fake.quiet()
        steps += 1
        assert steps < 20
    told = fake.public_messages(channel)[before:]
    assert len(told) == 1 and bob.id in told[0].pinged_user_ids, f"the whole turn in one public message: {result}"
    assert [a.filename for a in told[0].attachments] == ["turn.png"]
    log = await fake.slash(alice, channel, "keystone log")
    assert log.is_ephemeral and f"skill {skills[0]['value']}" in log.content


async def test_solo_game_in_a_direct_message(fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice = fake.user("alice")
    dm = fake.dm_channel(alice)
    started = await fake.slash(alice, dm, "keystone new")
    public = public_of(started)
    assert any(a.filename == "field.png" for a in public.attachments)
    taken = await cheap_turn(fake, dm, alice, public)
    assert [a.filename for a in taken.attachments] in (["turn.png"], ["scores.png"])


async def test_bot_seat_and_abandon(fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-2")
    lobby = await fake.slash(alice, channel, "keystone new", {"players": 2})
    assert "Seated (2/2)" in (await fake.click(alice, lobby.message, label="Add bot")).message.content
    last = public_of(await fake.click(alice, lobby.message, label="Start"))
    assert alice.id in last.pinged_user_ids
    last = await cheap_turn(fake, channel, alice, last)
    if has_button(last, "End turn"):
        last = await cheap_turn(fake, channel, alice, last)
    assert "Bot 1" in last.content and alice.id in last.pinged_user_ids, "the bot played and handed back"
    refused = await fake.slash(bob, channel, "keystone abandon")
    assert refused.is_ephemeral
    done = await fake.slash(alice, channel, "keystone abandon")
    assert not done.is_ephemeral and "abandoned" in done.content


async def test_new_offers_each_option_by_name_and_passes_its_value_on(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    [keystone] = [c for c in fake.global_commands if c["name"] == "keystone"]
    [new] = [o for o in keystone["options"] if o["name"] == "new"]
    options = {o["name"]: o for o in new["options"]}
    offered = {name: [(c["name"], c["value"]) for c in o.get("choices", [])] for name, o in options.items()}
    assert offered["rules"] == [("Second edition", "second-edition"), ("First-edition variant", "first-edition")]
    assert offered["mode"] == [("Competitive", "competitive"), ("Co-op (one shared board)", "coop")]
    assert offered["opponent"] == [(level.capitalize(), level) for level in LEVELS]
    assert options["assignment"]["max_value"] == LAST_ASSIGNMENT
    lobby = await fake.slash(fake.user("alice"), fake.channel("table-2"), "keystone new",
                             {"rules": "first-edition", "opponent": "hard"})
    assert "(first-edition). A hard bot takes a seat." in lobby.content
