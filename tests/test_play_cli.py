"""The terminal game: scripted through its input stream, from the first prompt to the score sheet."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from keystone.app.text import RULES
from keystone.cli.gamefile import read_game
from keystone.cli.play import main
from keystone.data import load_catalog
from keystone.engine import GameConfig, GameState, apply, dump_state, new_game, parse_action
from keystone.engine.bots import bot_seed, choose_action
from keystone.engine.results import final_scores
from tests.processes import ctrl_c_reaches_it

ROOT = Path(__file__).resolve().parent.parent


def run(argv: list[str], lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out)
    return code, out.getvalue()


def scripted_game(seed: int, names: list[str], bots: dict[int, str]) -> tuple[list[str], GameState]:
    """The lines people type (normal-bot moves) in a game where `bots` seats move by themselves.

    With two or more people, each turn starts with an empty line: Enter, once the keyboard is passed.
    """
    state = new_game(GameConfig(players=len(names)), seed, names)
    hot_seat = len(names) - len(bots) > 1
    typed: list[str] = []
    turn = -1
    while state.phase != "over":
        level = bots.get(state.current)
        if level is not None:
            action = choose_action(state, level, bot_seed(seed, state))
        else:
            action = choose_action(state, "normal", state.version)
            if hot_seat and state.turn != turn:
                typed.append("")
            typed.append(str(action))
        turn = state.turn
        state, _ = apply(state, action)
    return typed, state


def saved_moves(path: Path) -> list[str]:
    moves: list[str] = json.loads(path.read_text(encoding="utf-8"))["moves"]
    return moves


def totals(output: str) -> list[int]:
    """The Total row of the last score sheet printed."""
    return [int(t) for t in output.rsplit("Total", 1)[1].splitlines()[0].split()]


def test_a_scripted_hot_seat_game_plays_to_the_score_sheet(tmp_path: Path) -> None:
    typed, final = scripted_game(12, ["Ana", "Ben"], {})
    assert typed[0] == ""
    lines = ["", "help", "board ben", "field", "score", "objective", "", "take 9 Z9", *typed[1:]]
    saved = tmp_path / "game.json"
    code, output = run(["--hotseat", "2", "--seed", "12", "--names", "Ana,Ben", "--save", str(saved)], lines)
    assert code == 0
    assert saved_moves(saved) == [t for t in typed if t]
    assert "'z9' is not a cell" in output
    assert output.rstrip().splitlines()[-1] == (f"The game is saved in {saved}; `python -m keystone play "
                                                f"--replay {saved}` shows it again.")
    assert totals(output) == [s.total for s in final_scores(final)]


def test_a_saved_game_replays_to_the_same_final_state(tmp_path: Path) -> None:
    typed, final = scripted_game(30, ["Player 1", "Easy bot"], {1: "easy"})
    saved = tmp_path / "game.json"
    code, played = run(["--vs", "easy", "--seed", "30", "--save", str(saved)], typed)
    assert code == 0 and "Easy bot took" in played
    assert len(saved_moves(saved)) == final.version
    assert dump_state(read_game(saved).replay()) == dump_state(final)
    code, replayed = run(["--replay", str(saved)], [])
    assert code == 0
    assert replayed.startswith(f"Replay of {saved}: Player 1, Easy bot, seed 30, {final.version} moves.")
    assert totals(replayed) == totals(played) == [s.total for s in final_scores(final)]
    assert "Round" in replayed and "Game over." in replayed


def test_an_unfinished_saved_game_replays_to_where_it_was_left(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    code, output = run(["--hotseat", "2", "--seed", "5", "--names", "Ana,Ben", "--save", str(saved)],
                       ["", "take 6 A1", "", "quit"])
    assert code == 0
    assert output.rstrip().endswith(f"Game left. It is saved in {saved}; `python -m keystone play --replay "
                                    f"{saved}` shows it.")
    code, replayed = run(["--replay", str(saved)], [])
    assert code == 0 and "Ana: " in replayed and "1 of 16 cells filled" in replayed
    assert "Scores so far, without the secret objectives:" in replayed and "Secret objective" not in replayed


def test_a_broken_save_file_is_refused_in_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "game.json"
    run(["--hotseat", "1", "--seed", "5", "--save", str(saved)], ["take 6 A1", "quit"])
    data = json.loads(saved.read_text(encoding="utf-8"))
    saved.write_text(json.dumps({**data, "moves": ["take 6 A1", "take 6 A1"]}), encoding="utf-8")
    assert main(["--replay", str(saved)], stdout=io.StringIO()) == 2
    said = capsys.readouterr().err
    assert said.startswith("Move 2 ('take 6 A1') cannot be played: Cell A1 already holds") and said.count("\n") == 1
    saved.write_text("not json", encoding="utf-8")
    assert main(["--replay", str(saved)], stdout=io.StringIO()) == 2
    assert capsys.readouterr().err.startswith(f"{saved} is not a saved Keystone game (")
    assert main(["--replay", str(saved), "--seed", "3"]) == 2
    assert capsys.readouterr().err.startswith("--replay shows a saved game as it was played, so it cannot take --seed")


def test_an_illegal_move_gets_the_engines_sentence_and_changes_nothing() -> None:
    code, output = run(["--hotseat", "2", "--seed", "4"], ["", "endturn", "pass", "quit"])
    assert code == 0
    assert "Take your action first: take a card from the Field or use a skill." in output
    assert "You can only pass when you have no legal action, and you have one." in output
    assert output.rstrip().endswith("Game left.")


def test_the_opponent_question_is_asked_again_until_answered() -> None:
    code, output = run([], ["expert", "normal", "quit"])
    assert code == 0
    assert "'expert' is not one of easy, normal, hard, 1, 2, 3 or 4 (or quit)." in output
    assert "Normal bot" in output


def test_quit_at_the_first_question_leaves_without_a_game() -> None:
    code, output = run([], ["quit"])
    assert code == 0 and "No game chosen" in output and "is not one of" not in output


def test_running_out_of_input_leaves_the_game_quietly() -> None:
    code, output = run(["--hotseat", "1", "--seed", "2"], ["take 6 A1"])
    assert (code, output.splitlines()[-1]) == (0, "Game left.")
    code, output = run(["--hotseat", "2", "--seed", "2"], [])  # at "pass the keyboard"
    assert (code, output.splitlines()[-1]) == (0, "Game left.")
    code, output = run([], [])
    assert code == 0 and "No game chosen" in output


def read_until(process: subprocess.Popen[bytes], ending: bytes) -> bytes:
    """Read the process's output until it ends with `ending` (a prompt, which has no newline)."""
    assert process.stdout is not None
    seen = b""
    while not seen.endswith(ending):
        chunk = os.read(process.stdout.fileno(), 4096)
        assert chunk, seen
        seen += chunk
    return seen


@pytest.mark.parametrize(("options", "prompt"), [(["--vs", "easy"], b"Player 1> "),
                                                 (["--hotseat", "2"], b"then press Enter. "),
                                                 ([], b"1-4)? ")])
def test_ctrl_c_at_a_prompt_leaves_in_one_line_with_status_130(options: list[str], prompt: bytes) -> None:
    process = subprocess.Popen([sys.executable, "-m", "keystone", "play", "--seed", "3", *options], cwd=ROOT,
                               preexec_fn=ctrl_c_reaches_it,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    read_until(process, prompt)
    process.send_signal(signal.SIGINT)
    process.wait(timeout=30)  # stdin stays open till it has left: an end of input first would mean "Game left."
    rest, errors = process.communicate(timeout=30)
    assert process.returncode == 130
    assert errors == b""
    assert rest.decode().strip() in ("Game left.", "No game chosen.")


def test_hot_seat_screens_hide_secret_objectives_until_asked() -> None:
    state = new_game(GameConfig(players=2), 6, ["Ana", "Ben"])
    code, output = run(["--hotseat", "2", "--seed", "6", "--names", "Ana,Ben"],
                       ["", "board", "board ben", "field", "take 6 A1", "", "objective", "quit"])
    assert code == 0
    assert "Pass the keyboard to Ana, then press Enter." in output
    assert "Pass the keyboard to Ben, then press Enter." in output
    assert "Secret objective" not in output  # the objective line under a board
    ben = state.seats[1].objective
    shown = [line for line in output.splitlines() if "secret objective is" in line]
    assert len(shown) == 1 and shown[0].startswith(f"Ben> Your secret objective is card {ben}:")


def test_a_single_person_sees_their_objective_and_no_keyboard_passing() -> None:
    state = new_game(GameConfig(players=2), 6, ["Player 1", "Easy bot"])
    code, output = run(["--vs", "easy", "--seed", "6"], ["quit"])
    assert code == 0
    assert f"Secret objective {state.seats[0].objective}:" in output
    assert f"Secret objective {state.seats[1].objective}:" not in output  # the bot's, dealt from the same ten
    assert "Pass the keyboard" not in output


def test_the_person_is_named_in_the_third_person_like_everyone_else() -> None:
    state = new_game(GameConfig(players=2), 9, ["Player 1", "Easy bot"])
    skill = state.skills[0].number
    code, output = run(["--vs", "easy", "--seed", "9"], [f"skill {skill}", "quit"])
    assert code == 0
    assert f"Player 1 uses skill {skill}:" in output
    assert "You uses" not in output and "You resolves" not in output
    assert main(["--vs", "easy", "--names", "you"]) == 2


def test_mid_game_scores_name_a_leader_not_a_winner() -> None:
    code, output = run(["--hotseat", "2", "--seed", "1", "--names", "Ana,Ben"], ["", "take 1 A1", "", "score"])
    assert code == 0
    assert "Scores so far, without the secret objectives:" in output
    assert "Ben leads with 2 points." in output
    assert "wins" not in output


def test_a_skill_with_nothing_to_act_on_says_why() -> None:
    state = new_game(GameConfig(players=2), 1, ["Player 1", "Easy bot"])
    research = next(k.number for k in state.skills
                    if load_catalog().skill(k.number).active.effects[0].kind == "research")
    code, output = run(["--vs", "easy", "--seed", "1"], [f"skill {research}", "quit"])
    assert code == 0
    assert f"Skill {research} has nothing to act on: Player 1's board has no unresearched" in output


def test_rules_show_discords_rules_topics() -> None:
    code, output = run(["--hotseat", "1", "--seed", "1"], ["rules turn", "rules", "rules tides", "quit"])
    assert code == 0
    assert f"turn: {RULES['turn']}" in output
    assert all(f"{topic}: {text}" in output for topic, text in RULES.items())
    assert "I have no rules topic called 'tides'. Topics: turn, introduce," in output
    assert "**" not in output


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
        assert done.stdout.endswith("Player 1> Game left.\n")
        assert "Player 1: 5 synergy" in done.stdout


def test_a_bots_drawn_cards_stay_hidden_and_a_persons_are_shown() -> None:
    from keystone.cli.play import Table, show_events
    from keystone.engine.events import Event

    out = io.StringIO()
    table = Table(new_game(GameConfig(), 1, ["Player 1", "Hard bot"]), [None, "hard"], 1, out)
    drew = [Event("draw", 1, "Hard bot drew 3 cards from the deck."),
            Event("draw", 1, "You drew: Coyote, Aspen, Musk Ox.", private=True)]
    show_events(table, drew, actor=1)
    assert out.getvalue() == "Hard bot drew 3 cards from the deck.\n"
    show_events(table, drew, actor=0)
    assert out.getvalue().endswith("You drew: Coyote, Aspen, Musk Ox.\n")


def test_bot_py_local_help_shows_the_terminal_games_options() -> None:
    done = subprocess.run([sys.executable, "bot.py", "--local", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--hotseat" in done.stdout and "--replay FILE" in done.stdout


def test_undo_takes_back_this_turns_action_and_is_saved_so_replay_agrees(tmp_path: Path) -> None:
    state = new_game(GameConfig(players=2), 9, ["Player 1", "Easy bot"])
    skill = state.skills[0].number
    saved = tmp_path / "game.json"
    code, output = run(["--vs", "easy", "--seed", "9", "--save", str(saved)],
                       ["help", f"skill {skill}", "undo", "undo", "quit"])
    assert code == 0
    assert "  undo                  take back your last action of this turn" in output
    assert f"Player 1> Taken back: Player 1 uses skill {skill}:" in output
    assert "Player 1> There is nothing to take back this turn." in output
    assert saved_moves(saved) == [f"skill {skill}", "undo"]
    replayed = read_game(saved).replay()
    assert replayed.version == 2 and replayed.phase == "main" and not any(k.exhausted for k in replayed.skills)


def test_undo_is_refused_in_the_engines_sentence_once_cards_were_drawn() -> None:
    code, output = run(["--hotseat", "1", "--seed", "0"], ["skill 1", "draw", "undo", "quit"])
    assert code == 0
    assert "Player 1 drew 3 cards from the deck." in output
    assert "Player 1> Cards were drawn since, so that action cannot be taken back." in output


def test_a_german_game_speaks_german_and_keeps_the_typed_notation() -> None:
    lines = ["vielleicht", "stark", "help", "objective", "rules wertung", "score", "board niemand", "take 9 Z9",
             "take 6 A1", "quit"]
    code, output = run(["--lang", "de", "--seed", "5", "--budget", "5"], lines)
    assert code == 0
    assert output.startswith("Gegen einen Bot spielen (leicht, normal, stark) oder an einer Tastatur")
    assert "'vielleicht' ist keins von leicht, normal, stark" in output
    assert "Keystone: Spieler 1, Starker Bot. Startwert 5. Tippe `help` für die Befehle." in output
    assert "take SLOT CELL        Karte SLOT der Auslage" in output and "Umschauen:" in output
    assert "Deine geheimen Ziele sind Karte" in output and "Erfüllte Ziele bringen 5, 10, 16 oder 24 Punkte." in output
    assert "Wertung: Am Ende wertet jede Reihe" in output and "Punktestand bisher" in output
    assert "Einen Spieler namens 'niemand' gibt es nicht; es spielen Spieler 1, Starker Bot." in output
    assert "'z9' ist kein Feld" in output
    rightmost = new_game(GameConfig(), 5, ["Spieler 1", "Starker Bot"]).field[5]
    assert rightmost is not None
    taken = load_catalog().card(rightmost.card)
    told = output.split("Spieler 1> ")[-2].splitlines()[0]  # what the take told, before the table is drawn again
    assert told == (f"Spieler 1 nimmt die Karte „{taken.name_in('de')}“ von Platz 6 der Auslage (Kosten: nichts) "
                    "und siedelt sie auf A1 an.")
    assert output.rstrip().endswith("Spiel verlassen.")
    english = run(["--seed", "5"], ["hard", "quit"])[1]
    assert "Keystone: Player 1, Hard bot. Seed 5. Type `help` for the commands." in english


def test_the_help_explains_the_options_in_the_language_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "de", "--help"]) == 0
    german = capsys.readouterr().out
    assert "Keystone im Terminal spielen." in german and "Plätze in einem Spiel gegen Bots" in german
    assert main(["--help"]) == 0
    assert "Play Keystone in the terminal." in capsys.readouterr().out


def test_options_that_cannot_work_are_refused_in_the_language_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "de", "--vs", "easy", "--names", "Du,Bo"]) == 2
    assert capsys.readouterr().err.startswith("„Du“ kann kein Name eines Platzes sein: Die Sätze des Spiels nennen")
    assert main(["--vs", "easy", "--names", "You,Bo"]) == 2
    assert capsys.readouterr().err.startswith("'You' cannot be a seat name: the game's sentences name every player")
