"""Actions and their short notation (`take 3 B2`, `skill 0`, `wild desert C1`, ...).

The notation is what the action log stores, what the terminal reads and what tests write.
Indices in the notation are 1-based, as players count them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

from keystone.cards import Habitat
from keystone.engine.board import cell_name, parse_cell
from keystone.engine.messages import Message, Param, Params, say
from keystone.engine.words import habitat_name
from keystone.i18n import DEFAULT, LANGUAGES, Language


class IllegalAction(ValueError):
    """An action that cannot be applied now; `str()` is a sentence a player can read in English,
    `sentence(lang)` the same in any language. Built from a `key` and plain `params` (see
    `keystone.engine.messages`), or from an English sentence alone, which every language then hears."""

    def __init__(self, sentence: str = "", *, key: str = "", params: Params | None = None) -> None:
        self.key = key
        self.params: Params = dict(params or {})
        super().__init__(sentence or say(key, self.params))

    @classmethod
    def said(cls, key: str, /, **params: Param) -> Self:
        """The refusal `key` with these parameters."""
        return cls(key=key, params=params)

    @classmethod
    def of(cls, why: Message) -> Self:
        return cls(key=why.key, params=why.params)

    def sentence(self, lang: Language = DEFAULT) -> str:
        return say(self.key, self.params, lang) if self.key else str(self)


class BadNotation(IllegalAction):
    """Text that is not an action at all."""


@dataclass(frozen=True, slots=True)
class Take:
    """Introduce: take Field slot `slot` (0-based) and place it on board cell `cell`."""

    slot: int
    cell: int

    def __str__(self) -> str:
        return f"take {self.slot + 1} {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class BuyWild:
    habitat: Habitat
    cell: int

    def __str__(self) -> str:
        return f"wild {self.habitat.value} {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class UseSkill:
    """Resolve one active token, or with `token` 0 every exhausted token."""

    token: int

    def __str__(self) -> str:
        return f"skill {self.token}"


@dataclass(frozen=True, slots=True)
class Resolve:
    """During the all-exhausted action: resolve this exhausted token next."""

    token: int

    def __str__(self) -> str:
        return f"resolve {self.token}"


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Place:
    """Place held card `index` (0-based) on board cell `cell`."""

    index: int
    cell: int

    def __str__(self) -> str:
        return f"place {self.index + 1} {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class Pile:
    """Put held card `index` (0-based) on top of the discard pile."""

    index: int

    def __str__(self) -> str:
        return f"pile {self.index + 1}"


@dataclass(frozen=True, slots=True)
class Move:
    source: int
    target: int

    def __str__(self) -> str:
        return f"move {cell_name(self.source)} {cell_name(self.target)}"


@dataclass(frozen=True, slots=True)
class Research:
    cell: int

    def __str__(self) -> str:
        return f"research {cell_name(self.cell)}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard Field slot `slot` (0-based)."""

    slot: int

    def __str__(self) -> str:
        return f"discard {self.slot + 1}"


@dataclass(frozen=True, slots=True)
class Skip:
    """Decline an optional effect (or stop moving)."""

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class EndTurn:
    def __str__(self) -> str:
        return "endturn"


@dataclass(frozen=True, slots=True)
class Pass:
    """Only legal when nothing else is (a seat with no legal action passes)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Resign:
    """A seat gives up and the game ends at once. Any seat may resign at any time, so it is never
    among `legal_actions` (which answer the decision at hand) and bots never choose it."""

    seat: int

    def __str__(self) -> str:
        return f"resign {self.seat + 1}"


Action = (Take | BuyWild | UseSkill | Resolve | Draw | Place | Pile | Move | Research | Discard | Skip | EndTurn
          | Pass | Resign)

_HABITAT_WORDS = {word: h for h in Habitat for lang in LANGUAGES
                  for word in (h.value, habitat_name(h, lang).casefold())}
"""A habitat as typed in any language the game speaks: "forest" or "wald" (what the refusal lists)."""


MAX_NUMBER_DIGITS = 3
"""No number in the notation needs more digits; a longer one is refused before `int` sees it."""


def _quoted(word: str, longest: int = 12) -> str:
    """A word echoed back in a refusal, cut short so a pasted essay cannot swamp the sentence."""
    return repr(word if len(word) <= longest else word[: longest - 1] + "…")


def _int(word: str, what: str) -> int:
    # Only ASCII digits: str.isdigit() also accepts "²" and "①", which int() then rejects.
    if not (word.isascii() and word.isdigit()) or len(word) > MAX_NUMBER_DIGITS:
        raise BadNotation.said(f"error.notation.number.{what}", word=_quoted(word))
    return int(word)


def _cell(word: str) -> int:
    cell = parse_cell(word)
    if cell is None:
        raise BadNotation.said("error.notation.cell", word=_quoted(word))
    return cell


def _index(word: str, what: str) -> int:
    value = _int(word, what)
    if value < 1:
        raise BadNotation.said(f"error.notation.from_one.{what}")
    return value - 1


def parse_action(text: str) -> Action:
    """Parse the notation; raises BadNotation with a readable sentence."""
    words = text.strip().lower().split()
    if not words:
        raise BadNotation.said("error.notation.empty")
    verb, args = words[0], words[1:]
    arity = {
        "take": 2, "wild": 2, "skill": 1, "resolve": 1, "draw": 0, "place": 2, "pile": 1,
        "move": 2, "research": 1, "discard": 1, "skip": 0, "endturn": 0, "pass": 0, "resign": 1,
    }
    if verb not in arity:
        raise BadNotation.said("error.notation.verb", word=_quoted(verb))
    if len(args) != arity[verb]:
        raise BadNotation.said("error.notation.arity", verb=verb, count=arity[verb], given=len(args))
    match verb:
        case "take":
            return Take(_index(args[0], "slot"), _cell(args[1]))
        case "wild":
            if args[0] not in _HABITAT_WORDS:
                raise BadNotation.said("error.notation.habitat", word=_quoted(args[0]))
            return BuyWild(_HABITAT_WORDS[args[0]], _cell(args[1]))
        case "skill":
            return UseSkill(_int(args[0], "skill"))
        case "resolve":
            return Resolve(_int(args[0], "skill"))
        case "draw":
            return Draw()
        case "place":
            return Place(_index(args[0], "card"), _cell(args[1]))
        case "pile":
            return Pile(_index(args[0], "card"))
        case "move":
            return Move(_cell(args[0]), _cell(args[1]))
        case "research":
            return Research(_cell(args[0]))
        case "discard":
            return Discard(_index(args[0], "slot"))
        case "skip":
            return Skip()
        case "endturn":
            return EndTurn()
        case "resign":
            return Resign(_index(args[0], "seat"))
    return Pass()
