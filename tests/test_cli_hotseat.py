"""Hot-seat hand-overs in the terminal game: the screen is cleared between people (or, where the
output is not a terminal, said plainly that it could not be), and nothing private shows until the
next person has confirmed that they hold the keyboard."""

from __future__ import annotations

import io

from keystone.cli.play import main
from keystone.engine import GameConfig, GameState, apply, new_game
from keystone.engine.bots import choose_action

CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J"
"""Cursor home, clear the screen, clear the scrollback (xterm's and most terminals' codes)."""
NAMES = ["Zoë Ångström", "Дмитрий"]
SEED = 6
NOT_CLEARED = ("(This output is not a terminal, so the screen could not be cleared: everything above "
               "stays readable.)")


class Terminal(io.StringIO):
    """Standard output as a terminal reports itself."""

    def isatty(self) -> bool:
        return True


def one_turn(state: GameState) -> tuple[list[str], GameState]:
    """The moves a normal player types for the seat to act, until the turn passes to the next seat."""
    typed: list[str] = []
    turn = state.turn
    while state.turn == turn and state.phase != "over":
        action = choose_action(state, "normal", state.version)
        typed.append(str(action))
        state, _ = apply(state, action)
    return typed, state


def play(argv: list[str], lines: list[str], out: io.StringIO) -> str:
    assert main(argv, stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out) == 0
    return out.getvalue()


def objective_line(state: GameState, seat: int) -> str:
    return f"Your secret objective is card {state.seats[seat].objective}:"


def test_the_screen_is_cleared_when_the_keyboard_passes_and_the_public_story_is_told_again() -> None:
    start = new_game(GameConfig(players=2), SEED, NAMES)
    zoe_turn, after = one_turn(start)
    output = play(["--hotseat", "2", "--seed", str(SEED), "--names", ",".join(NAMES)],
                  ["", "objective", *zoe_turn, "", "objective", "quit"], Terminal())
    zoe, dmitry = objective_line(start, 0), objective_line(start, 1)
    assert output.count(CLEAR_SCREEN) == 1, "one hand-over between people (the first person clears nothing)"
    before, after_clear = output.split(CLEAR_SCREEN)
    assert zoe in before and "Pass the keyboard to Zoë Ångström, then press Enter." in before
    assert zoe not in after_clear, "Zoë's objective is gone from the screen and its scrollback"
    told = after_clear.split("Pass the keyboard to Дмитрий")[0]
    assert told.startswith("Zoë Ångström "), "what Zoë did in public is told again for the next person"
    assert "Your secret objective" not in told and "You drew" not in told
    assert after_clear.index("Pass the keyboard to Дмитрий, then press Enter.") < after_clear.index(dmitry)


def test_where_the_output_is_not_a_terminal_it_says_nothing_could_be_cleared() -> None:
    start = new_game(GameConfig(players=2), SEED, NAMES)
    zoe_turn, _ = one_turn(start)
    argv = ["--hotseat", "2", "--seed", str(SEED), "--names", ",".join(NAMES)]
    output = play(argv, ["", *zoe_turn, "", "quit"], io.StringIO())
    assert "\x1b" not in output, "no terminal codes in a file or a pipe"
    assert output.count(NOT_CLEARED) == 1
    assert output.index(NOT_CLEARED) < output.index("Pass the keyboard to Дмитрий")
    german = play([*argv, "--lang", "de"], ["", *zoe_turn, "", "quit"], io.StringIO())
    assert german.count("(Diese Ausgabe ist kein Terminal, also ließ sich der Bildschirm nicht löschen: "
                        "Alles darüber bleibt lesbar.)") == 1


def test_the_next_person_must_press_enter_before_anything_private_shows() -> None:
    start = new_game(GameConfig(players=2), SEED, NAMES)
    zoe_turn, _ = one_turn(start)
    argv = ["--hotseat", "2", "--seed", str(SEED), "--names", ",".join(NAMES)]
    output = play(argv, ["", *zoe_turn, "objective", "board", "", "quit"], Terminal())
    handed = output.split(CLEAR_SCREEN)[1]
    assert objective_line(start, 1) not in output and objective_line(start, 0) not in output
    again = "Press Enter once Дмитрий has the keyboard (or type quit to leave). "
    assert handed.count(again) == 2, "a typed line is not a confirmation: it may be the last player's"
    assert handed.index(again) < handed.index("Дмитрий: 6 synergy, 0 of 16 cells filled (to act).")
    german = play([*argv, "--lang", "de"], ["", *zoe_turn, "objective", "", "quit"], Terminal())
    assert "Drück Enter, sobald Дмитрий die Tastatur hat (oder tippe quit zum Verlassen). " in german


def test_quit_at_a_hand_over_leaves_the_game() -> None:
    start = new_game(GameConfig(players=2), SEED, NAMES)
    zoe_turn, _ = one_turn(start)
    output = play(["--hotseat", "2", "--seed", str(SEED), "--names", ",".join(NAMES)],
                  ["", *zoe_turn, "quit"], io.StringIO())
    assert output.rstrip().endswith("Pass the keyboard to Дмитрий, then press Enter. Game left.")


def test_one_person_against_bots_has_no_hand_over() -> None:
    output = play(["--vs", "easy", "--seed", "6", "--names", "李雷"], ["objective", "quit"], Terminal())
    assert CLEAR_SCREEN not in output and "Pass the keyboard" not in output and NOT_CLEARED not in output
