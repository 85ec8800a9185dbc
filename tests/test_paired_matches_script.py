"""examples/paired_matches.py: two matches on the same games compared game by
game, its sign test checked against a count over every outcome."""

from __future__ import annotations

import itertools
import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import paired_matches  # noqa: E402


def reference_sign_test(better: int, worse: int) -> float:
    """Every sequence of fair coin flips of the discordant games, counted: the
    share whose split is at least as far from even as this one."""
    games = better + worse
    far = abs(better - worse)
    extreme = sum(1 for flips in itertools.product((0, 1), repeat=games)
                  if abs(2 * sum(flips) - games) >= far)
    return float(Fraction(extreme, 2 ** games))


@pytest.mark.parametrize("better, worse", [(a, b) for a in range(9) for b in range(9) if a + b <= 10])
def test_the_sign_test_matches_a_count_of_every_outcome(better, worse):
    assert paired_matches.sign_test(better, worse) == pytest.approx(reference_sign_test(better, worse),
                                                                    rel=1e-12)


def test_known_values():
    assert paired_matches.sign_test(7, 2) == pytest.approx(0.1796875)  # 2 * 46 / 512
    assert paired_matches.sign_test(0, 0) == 1.0
    assert paired_matches.sign_test(5, 5) == 1.0


def record(number: int, black: str, white: str, winner: str | None, opening=("a1-a2/a3",)) -> dict:
    return {"type": "game", "key": f"x #{number}", "number": number, "game": "amazons", "black": black,
            "white": white, "winner_engine": winner, "opening": {"index": 0, "moves": list(opening)},
            "moves": []}


def write_results(path: Path, games: list[dict]) -> Path:
    header = {"type": "header", "format": "stargtp-match-results/2", "settings": {"game": "amazons"}}
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *games]))
    return path


def run(capsys, *args) -> tuple[int, str, str]:
    status = paired_matches.main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return status, out, err


def test_two_pairs_of_runs_are_counted_game_by_game(tmp_path, capsys):
    # Game by game, the engine "one" (black in odd games): first run / second run.
    before = write_results(tmp_path / "b.jsonl", [
        record(1, "one", "p", "one"), record(2, "p", "one", "p"), record(3, "one", "p", "p"),
        record(4, "p", "one", "one"), record(5, "one", "p", None)])
    after = write_results(tmp_path / "a.jsonl", [
        record(1, "one", "p", "one"), record(2, "p", "one", "one"), record(3, "one", "p", "p"),
        record(4, "p", "one", "p"), record(6, "p", "one", "one")])
    # won both; second only; lost both; first only; (5 and 6 in one file each)
    before2 = write_results(tmp_path / "b2.jsonl", [record(1, "one", "p", "p"), record(2, "p", "one", None)])
    after2 = write_results(tmp_path / "a2.jsonl", [record(1, "one", "p", "one"), record(2, "p", "one", "one")])
    status, out, err = run(capsys, "--engine", "one", before, after, before2, after2)
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "one: 6 games paired, 2 left out",
        "points: first run 2.5, second run 4",
        "scored more in the second run only 3, in the first only 1, as well in both 1, lost in both 1",
        f"sign test (exact, two-sided) of 3 against 1: p = {reference_sign_test(3, 1):.3f}",
    ]
    # The pairs' order matters: the runs swapped swap the counts.
    status, out, _ = run(capsys, "--engine", "one", after, before)
    assert out.splitlines()[2] == "scored more in the second run only 1, in the first only 1, " \
                                  "as well in both 1, lost in both 1"


@pytest.mark.parametrize("second, message", [
    ([record(1, "p", "one", "one")], "game 1: not the same opening and colours in both runs"),
    ([record(1, "one", "p", "one", opening=("b1-b2/b3",))], "game 1: not the same opening and colours"),
    ([record(1, "q", "p", "q")], "game 1: 'one' does not play in it"),
    ([record(2, "one", "p", "one")], "no game is in both runs"),
])
def test_runs_that_do_not_pair_get_one_line_and_status_2(tmp_path, capsys, second, message):
    first = write_results(tmp_path / "1.jsonl", [record(1, "one", "p", "p")])
    other = write_results(tmp_path / "2.jsonl", second)
    status, out, err = run(capsys, "--engine", "one", first, other)
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("paired_matches: ") and message in err


def test_a_missing_file_an_odd_count_and_a_file_of_something_else_are_refused(tmp_path, capsys):
    good = write_results(tmp_path / "1.jsonl", [record(1, "one", "p", "p")])
    status, out, err = run(capsys, "--engine", "one", good, tmp_path / "none.jsonl")
    assert status == 2 and out == "" and err.startswith(f"paired_matches: {tmp_path / 'none.jsonl'}: ")
    other = tmp_path / "notes.txt"
    other.write_text("not results\n")
    status, out, err = run(capsys, "--engine", "one", good, other)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and str(other) in err
    assert other.read_text() == "not results\n"
    with pytest.raises(SystemExit) as exit_:
        paired_matches.main(["--engine", "one", str(good)])
    assert exit_.value.code == 2
    assert "results files come in pairs" in capsys.readouterr().err
