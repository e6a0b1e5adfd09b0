"""End to end in two languages: a German server where a German and an English player play a game.
Each reads private answers in their own language, and everyone reads the channel in the server's."""

from __future__ import annotations

from pathlib import Path

from tests.discord_helpers import make_bot, public_of
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.models import FakeChannel, FakeMessage, FakeUser
from tests.fakediscord.server import FakeDiscord


def labels(message: FakeMessage) -> list[str]:
    return [str(c["label"]) for c in message.actionable() if c.get("type") == 2]


async def take_a_card(fake: FakeDiscord, channel: FakeChannel, user: FakeUser, command: str,
                      options: dict[str, str], end_turn: str) -> FakeMessage:
    """Take a card by the command as `user`'s client names it, end the turn if it waits for a Wild
    card (by the button labelled in the user's language), and return the turn's public message."""
    mark = fake.mark()
    result = await fake.slash(user, channel, command, options)
    if result.is_ephemeral:
        assert end_turn in labels(result.message), result.content
        await fake.click(user, result.message, label=end_turn)
    await fake.quiet()
    told = [m for m in fake.public_messages(channel) if m.id > mark]
    assert told, result.content
    return told[-1]


async def test_private_answers_in_each_persons_language_and_public_ones_in_the_servers(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_runner.start(make_bot(tmp_path / "ks.db"))
    fake.guild.locale = "de"
    alice, bob, table = fake.user("alice"), fake.user("bob"), fake.channel("table-1")
    bob.locale = "de"

    lobby = await fake.slash(alice, table, "keystone new", {"players": 2})
    assert not lobby.is_ephemeral
    assert lobby.content == "Alice hat eine Lobby für 2 Spieler geöffnet (zweite Edition). Tempo: " \
                            "täglich (24 Stunden pro Zug).\nAm Tisch (1/2): Alice.\nTipps: aus."
    assert labels(lobby.message) == ["Beitreten", "Verlassen", "Bot dazu", "Starten"]
    await fake.click(bob, lobby.message, label="Beitreten")
    started = await fake.click(alice, lobby.message, label="Starten")
    opening = public_of(started)
    assert opening.content.startswith("Das Spiel beginnt!") and "<@" in opening.content
    assert "du bist am Zug" in opening.content and "`/ansiedeln`" in opening.content
    assert "Jeder sieht sein geheimes Ziel mit `/keystone ziel`." in opening.content
    own = [m for m in await started.wait_for_messages(2) if m.is_ephemeral]
    assert own and own[0].content.startswith("Your secret objective (card"), "the host reads English"

    first = next(u for u in (alice, bob) if u.id in opening.pinged_user_ids)
    second = bob if first is alice else alice
    early = await fake.slash(second, table, "ansiedeln" if second is bob else "take",
                             {"karte": "6", "feld": "A1"} if second is bob else {"card": "6", "cell": "A1"})
    assert early.is_ephemeral
    assert early.content == ("Alice ist am Zug, nicht du." if second is bob else "It is Bob's turn, not yours.")

    for user in (first, second):
        german = user is bob
        told = await take_a_card(fake, table, user, "ansiedeln" if german else "take",
                                 {"karte": "6", "feld": "A1"} if german else {"card": "6", "cell": "A1"},
                                 "Zug beenden" if german else "End turn")
        assert "ist dran" in told.content or "entscheidet," in told.content, told.content

    secret = await fake.slash(bob, table, "keystone ziel")
    assert secret.is_ephemeral and secret.content.startswith("Dein geheimes Ziel (Karte")
    scores = await fake.slash(alice, table, "keystone score")
    assert scores.is_ephemeral and scores.content.startswith("Scores so far, without the secret objectives:")

    ended = await fake.slash(bob, table, "keystone aufgeben")
    assert not ended.is_ephemeral
    assert ended.content.startswith("Bob hat aufgegeben; das Spiel endet hier.\nEndstand: ")
    assert "Alice gewinnt!" in ended.content
