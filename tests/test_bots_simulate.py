"""`python -m keystone simulate --bot A --vs B`: bot matches as JSON, reproducible from the seed."""

from __future__ import annotations

import json

import pytest

from keystone.cli.simulate import main, seat_levels


def simulate(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(list(argv)) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    result.pop("seconds")
    return result


def test_a_bot_match_reports_win_rates_and_mean_scores(capsys: pytest.CaptureFixture[str]) -> None:
    result = simulate(capsys, "--games", "4", "--seed", "9", "--bot", "normal", "--vs", "easy")
    assert result["finished"] == 4 and result["invariant_violations"] == 0
    rates = result["win_rates"]
    means = result["mean_scores"]
    assert isinstance(rates, dict) and isinstance(means, dict)
    assert set(rates) == set(means) == {"normal", "easy"}
    assert sum(rates.values()) == pytest.approx(1.0)
    assert means["normal"] > means["easy"]
    assert simulate(capsys, "--games", "4", "--seed", "9", "--bot", "normal", "--vs", "easy") == result


def test_the_same_level_on_both_sides_keeps_two_entries(capsys: pytest.CaptureFixture[str]) -> None:
    rates = simulate(capsys, "--games", "2", "--bot", "easy", "--vs", "easy")["win_rates"]
    assert isinstance(rates, dict)
    assert set(rates) == {"easy", "easy (vs)"}


def test_seats_take_turns_being_the_bot() -> None:
    assert seat_levels(0, 2, "hard", "normal") == ["hard", "normal"]
    assert seat_levels(1, 2, "hard", "normal") == ["normal", "hard"]
    assert seat_levels(5, 3, "hard", None) == ["hard", "hard", "hard"]
