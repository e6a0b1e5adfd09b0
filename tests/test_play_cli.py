"""The terminal game: scripted through its input stream, from the first prompt to the score sheet."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from keystone.cli.play import main
from keystone.engine import GameConfig, GameState, apply, new_game, parse_action
from keystone.engine.bots import bot_seed, choose_action
from keystone.engine.results import final_scores

ROOT = Path(__file__).resolve().parent.parent


def run(argv: list[str], lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out)
    return code, out.getvalue()


def scripted_game(seed: int, names: list[str], bots: dict[int, str]) -> tuple[list[str], GameState]:
    """The lines people type (normal-bot moves) in a game where `bots` seats move by themselves."""
    state = new_game(GameConfig(players=len(names)), seed, names)
    typed: list[str] = []
    while state.phase != "over":
        level = bots.get(state.current)
        if level is not None:
            action = choose_action(state, level, bot_seed(seed, state))
        else:
            action = choose_action(state, "normal", state.version)
            typed.append(str(action))
        state, _ = apply(state, action)
    return typed, state


def replay_line(output: str) -> list[str]:
    line = next(x for x in output.splitlines() if x.startswith("To replay this game"))
    return line.split("moves: ", 1)[1].split("; ")


def test_a_scripted_hot_seat_game_plays_to_the_score_sheet() -> None:
    typed, final = scripted_game(12, ["Ana", "Ben"], {})
    lines = ["help", "board ben", "field", "score", "objective", "", "take 9 Z9", *typed]
    code, output = run(["--hotseat", "2", "--seed", "12", "--names", "Ana,Ben"], lines)
    assert code == 0
    assert replay_line(output) == typed
    assert "'z9' is not a cell" in output
    assert "Total" in output and output.rstrip().splitlines()[-1].startswith("To replay")
    totals = output.rsplit("Total", 1)[1].splitlines()[0].split()
    assert [int(t) for t in totals] == [s.total for s in final_scores(final)]


def test_a_game_against_the_easy_bot_reaches_the_end_through_stdin() -> None:
    typed, final = scripted_game(30, ["You", "Easy bot"], {1: "easy"})
    code, output = run(["--vs", "easy", "--seed", "30"], typed)
    assert code == 0
    assert len(replay_line(output)) == final.version
    totals = output.rsplit("Total", 1)[1].splitlines()[0].split()
    assert [int(t) for t in totals] == [s.total for s in final_scores(final)]
    assert "Easy bot took" in output


def test_an_illegal_move_gets_the_engines_sentence_and_changes_nothing() -> None:
    code, output = run(["--hotseat", "2", "--seed", "4"], ["endturn", "pass", "quit"])
    assert code == 0
    assert "Take your action first: take a card from the Field or use a skill." in output
    assert "You can only pass when you have no legal action, and you have one." in output
    assert output.rstrip().endswith("moves: none yet")


def test_the_opponent_question_is_asked_again_until_answered() -> None:
    code, output = run([], ["expert", "normal", "quit"])
    assert code == 0
    assert "'expert' is not one of easy, normal, hard, 1, 2, 3 or 4 (or quit)." in output
    assert "Normal bot" in output


def test_quit_at_the_first_question_leaves_without_a_game() -> None:
    code, output = run([], ["quit"])
    assert code == 1 and "No game chosen" in output and "is not one of" not in output


def test_running_out_of_input_leaves_the_game_unfinished() -> None:
    code, output = run(["--hotseat", "1", "--seed", "2"], ["take 6 A1"])
    assert code == 1
    assert "No more input" in output
    code, output = run([], [])
    assert code == 1 and "No game chosen" in output


def test_pictures_are_written_when_asked(tmp_path: Path) -> None:
    first = str(parse_action("take 6 A1"))
    code, _ = run(["--vs", "normal", "--seed", "8", "--images", str(tmp_path)], [first, "quit"])
    assert code == 0
    for name in ("table.png", "board-1.png", "board-2.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name


def test_both_entry_points_start_the_terminal_game() -> None:
    for command in ([sys.executable, "-m", "keystone", "play"], [sys.executable, "bot.py", "--local"]):
        done = subprocess.run([*command, "--vs", "easy", "--seed", "3"], input="board\nquit\n", cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "Game left unfinished" in done.stdout
        assert "You: 5 synergy" in done.stdout


def test_a_bots_drawn_cards_stay_hidden_and_a_persons_are_shown() -> None:
    from keystone.cli.play import Table, show_events
    from keystone.engine.events import Event

    out = io.StringIO()
    table = Table(new_game(GameConfig(), 1, ["You", "Hard bot"]), [None, "hard"], 1, out)
    drew = [Event("draw", 1, "Hard bot drew 3 card(s) from the deck."),
            Event("draw", 1, "You drew: Coyote, Aspen, Musk Ox.", private=True)]
    show_events(table, drew, actor=1)
    assert out.getvalue() == "Hard bot drew 3 card(s) from the deck.\n"
    show_events(table, drew, actor=0)
    assert out.getvalue().endswith("You drew: Coyote, Aspen, Musk Ox.\n")
