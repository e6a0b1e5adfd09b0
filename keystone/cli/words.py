"""`python -m keystone words --lang de [--out FILE]`: every sentence of a language, filled with
real-looking values, beside its English, for a translator's review in one file.

Each catalogue entry is shown as a player reads it: the engine's events and refusals through the
engine's own `say` (cards as the sentence names them, amounts with their unit); every other entry with
sample values by placeholder name (names with accents, both plural forms: a `.one` entry with 1, an
`.other` entry with 2 and 5). A developer tool: its own few words stay English.
"""

from __future__ import annotations

import argparse
import string
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from keystone.cli.options import Parser, add_language, asked_language, parse
from keystone.data import load_catalog
from keystone.engine.messages import Params, say
from keystone.engine.words import icon_label
from keystone.i18n import COMMANDS, DEFAULT, Language, catalogue, day_text, decimal, domains, trn

ENGINE_DOMAIN = "events"
"""The engine's messages: said through `keystone.engine.messages.say`, as the game says them."""


def _card(name: str) -> str:
    return next(c.id for c in load_catalog().all_cards() if c.name == name)


def engine_params(count: int) -> dict[str, object]:
    """Plain engine parameters (ids and numbers), as the engine keeps them."""
    return {"seat": "Jürgen", "card": _card("American Black Bear"), "cards": [_card("Coyote"), _card("Musk Ox")],
            "cost": 5, "paid": 1, "collected": 2, "gained": 3, "returned": 1, "rule": "Leave No Trace",
            "habitat": "wetland", "icon": "endangered", "target": "wild", "skill": 3, "side": "active",
            "of_skill": 3, "why": "move", "step": "research", "slot": 2, "slots": 6, "cell": "B2", "source": "A1",
            "time": 3, "given": count + 1, "have": 2, "word": "'z9'", "verb": "take", "number": 7,
            "options": "1, 3", "count": count}


def sample(lang: Language, count: int) -> dict[str, object]:
    """Values for every other entry's placeholders, by name (what is not listed shows as ‹name›)."""
    points = trn(lang, "reply.point.count", count)
    return {
        "name": "Zoë", "names": "Zoë, Jürgen", "who": "Zoë", "seat": "Jürgen", "seat1": 1, "seat2": 2,
        "seat3": 3, "seat4": 4, "winner": "Zoë", "winners": "Zoë, Jürgen", "host": "Zoë", "voter": "Jürgen",
        "opponent": "Jürgen", "user_id": 197038439483310086, "you": "Zoë",
        "bot": "Normaler Bot" if lang == "de" else "Normal bot",
        "count": count, "number": 7, "amount": count, "value": count, "total": 4, "met": 2, "last": 20, "most": 60,
        "won": 3, "stars": trn(lang, "stats.stars", count), "points": points, "score": points, "best": 78,
        "mean": decimal(lang, 61.44, 1), "day": day_text(lang, "2026-12-01"), "other": day_text(lang, "2026-11-30"),
        "card": load_catalog().card(_card("American Black Bear")).name_in(lang),
        "cards": trn(lang, "card.count", count),
        "cell": "B2", "slot": 2, "cost": 5, "synergy": 4, "filled": 9, "seed": 12345, "path": "spiel.json",
        "out": "wiedergabe.gif", "size": 512, "megabytes": 9, "title": "Bären zählen", "time": 3, "round": 4,
        "symbol": icon_label("endangered", lang), "habitat": icon_label("wetland", lang),
        "season": icon_label("fall", lang), "icon": icon_label("tag", lang), "skill": 3, "word": "'wald'",
        "thread": "<#42>", "link": "https://discord.com/channels/1/2/3", "players": 3, "seated": 2, "left": count,
        "goals": "A, C", "games": trn(lang, "card.count", count), "language": "Deutsch" if lang == "de" else "English",
        "answer": "'vielleicht'", "reason": "Netzwerk", "options": "1, 3", "pattern": "L", "row": "B", "column": 3,
        "line": "B", "label": "Wald", "hint": "…", "what": "Ökosystem", "why": "…", "said": "…", "result": "…",
        "scores": "Zoë 61, Jürgen 58", "moves": trn(lang, "card.count", count), "wild_cost": 5, "state": "…",
        "goal1": 2, "goal2": 5, "goal3": 9, "goal4": 14, "start": 1, "game_id": 12, "rules": "…", "pace": "…",
        "gained": "", "rule": "", "target": "…", "turn": 4, "turns": count, "where": "…", "back": "…", "new": "…",
        **{command: f"`/{command}`" for command in ("take", "skip", "pile", "place", "draw", "discard", "move",
                                                     "research", "resolve", "resolve_all", "endturn", "resign",
                                                     "abandon", "show_board", "daily", "wild", "flip", "undo")},
    }


def filled(lang: Language, domain: str, key: str, text: str, count: int) -> str:
    if domain == ENGINE_DOMAIN:
        plural = key.endswith((".one", ".other"))
        wanted = _fields(text) | {"skill"} | ({"count"} if plural else set()) - ({"count"} if not plural else set())
        params: Params = {k: v for k, v in engine_params(count).items() if k in wanted}  # type: ignore[misc]
        try:
            return say(key.removesuffix(".one").removesuffix(".other"), params, lang)
        except (KeyError, ValueError, TypeError):
            pass
    values = sample(lang, count)
    if "mit {points}" in text or "with {points}" in text:
        values["points"] = trn(lang, "reply.point.with", count)  # as the code says it after "with"
    return text.format(**{f: values.get(f, f"‹{f}›") for f in _fields(text)})


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def review(lang: Language) -> str:
    """Every entry of every catalogue: key, English, then `lang`, filled; both counts for a plural."""
    lines: list[str] = []
    for domain in (*domains(), COMMANDS):
        english, other = catalogue(DEFAULT, domain), catalogue(lang, domain)
        lines += ["", f"## {domain}.po ({len(other)} entries)"]
        for key, text in other.items():
            counts = [1] if key.endswith(".one") else [2, 5] if key.endswith(".other") else [2]
            lines.append(f"\n{key}")
            for count in counts:
                said = filled(lang, domain, key, text, count)
                if lang != DEFAULT:
                    lines.append(f"  en: {filled(DEFAULT, domain, key, english.get(key, ''), count)}")
                lines.append(f"  {lang}: {said}")
    return "\n".join(lines).lstrip() + "\n"


def parser(lang: Language) -> argparse.ArgumentParser:
    made = Parser(prog="python -m keystone words",
                  description="Every sentence of a language, filled with sample values, beside its English.")
    made.add_argument("--out", type=Path, help="write the review here instead of standard output")
    add_language(made, lang)
    return made


def main(argv: Sequence[str] | None = None, write: Callable[[str], object] | None = None) -> int:
    """`--lang de` reviews German beside English; English alone by default."""
    args = parse(parser(asked_language(argv)), argv)
    if isinstance(args, int):
        return args
    text = review(args.lang)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    else:
        (write or sys.stdout.write)(text)
    return 0
