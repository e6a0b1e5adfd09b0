"""Rendering speed: draw and PNG-encode the pictures the bot posts on every turn.

Targets (median CPU time, warm caches; issue 24): the turn picture of a four-player game in
mid-play, posted once per turn, drawn and encoded in 6 ms and under 150 KB; a full board under
10 ms; the table under 10 ms. The verdict reads the cpu column, this process's own time: wall-clock
times suffer when other processes share the cores. bench_pictures.py sets these beside an older tree.
Run: python bench/bench_render.py
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from keystone.cli.render import play_demo, rulebook_view, sheets_for
from keystone.engine import GameConfig, apply, is_over, legal_actions, new_game, public_view
from keystone.engine.views import GameView
from keystone.render import (
    render_board,
    render_scoresheet,
    render_table,
    render_turn,
    text_board,
    text_table,
    warm_up,
)

RUNS = 40
TURN_MS, TURN_KB = 6, 150


def four_player_mid_game() -> GameView:
    """A four-player game after 24 turns of random legal moves: every board part-filled."""
    rng = random.Random(5)
    state = new_game(GameConfig(players=4, skills=[1, 2, 3, 4, 9]), 5, ["Ana", "Bo", "Cy", "Dee"])
    while state.turn < 24 and not is_over(state):
        state, _ = apply(state, rng.choice(legal_actions(state)))
    return public_view(state)


def measure(name: str, work: Callable[[], object], target_ms: float | None = None,
            target_kb: float | None = None) -> None:
    started = time.perf_counter()
    result = work()
    first = (time.perf_counter() - started) * 1000
    times, cpu = [], []
    for _ in range(RUNS):
        started, started_cpu = time.perf_counter(), time.process_time()
        work()
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    median = statistics.median(times)
    p90 = statistics.quantiles(times, n=10)[-1]
    size = f"{len(result) / 1024:6.1f} KB" if isinstance(result, bytes) else f"{len(str(result)):6d} ch"
    spent = statistics.median(cpu)
    verdict = ""
    if target_ms is not None:
        verdict = ("  ok" if spent <= target_ms else "  SLOW") + f" (target {target_ms:g} ms cpu)"
    if target_kb is not None and isinstance(result, bytes):
        verdict += ("  ok" if len(result) / 1024 < target_kb else "  LARGE") + f" (target {target_kb:g} KB)"
    print(f"{name:<24} first {first:6.1f} ms  median {median:5.1f} ms  p90 {p90:5.1f} ms  "
          f"cpu {statistics.median(cpu):5.1f} ms  {size}{verdict}")


def main() -> None:
    started = time.perf_counter()
    warm_up()
    print(f"warm_up (all card faces, palette) {(time.perf_counter() - started) * 1000:.0f} ms; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    history = play_demo(7)
    late = public_view(history[len(history) * 4 // 5])
    full = rulebook_view()
    end = public_view(history[-1])
    sheets = sheets_for(end)
    measure("full board (16 cards)", lambda: render_board(full, 0), 10)
    measure("table, late game", lambda: render_table(late), 10)
    four = four_player_mid_game()
    mover = (four.current - 1) % len(four.seats)
    measure("turn, 4 players mid-game", lambda: render_turn(four, mover), TURN_MS, TURN_KB)
    measure("turn, 2 players late", lambda: render_turn(late, late.current))
    measure("score sheet, 2 players", lambda: render_scoresheet(end, sheets))
    measure("text board", lambda: text_board(full, 0))
    measure("text table", lambda: text_table(late))


if __name__ == "__main__":
    main()
