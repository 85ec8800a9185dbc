"""The Amazons position suite (tests/data/amazons_suite_8x8.json) and its
runner, examples/amazons_suite.py: every position and move in the suite is
legal and labelled, and a small seeded run gives exactly the same report."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from stargtp.engine.amazons.evaluation import queen_territory

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
import amazons_suite  # noqa: E402

SUITE = ROOT / "tests" / "data" / "amazons_suite_8x8.json"


def test_the_suite_parses_and_every_position_and_move_is_legal():
    suite = amazons_suite.load_suite(str(SUITE))
    assert len(suite) >= 100
    for entry in suite:
        assert entry.size == 8 and 16 <= len(entry.moves) <= 30
        position = entry.position()  # plays every move of the game: IllegalMove if one is not legal
        assert not position.is_over()
        legal = {position.format_move(move) for move in position.legal_moves()}
        assert set(entry.territory) == legal and entry.best in legal
        assert entry.good(entry.best)


def test_the_territory_labels_are_the_queen_territory_after_each_move():
    suite = amazons_suite.load_suite(str(SUITE))
    for entry in suite[:3]:
        position = entry.position()
        mover = position.to_move
        for move in position.legal_moves()[::17]:
            position.play(move)
            counts = queen_territory(position)
            position.undo()
            assert entry.territory[position.format_move(move)] == counts[mover] - counts[3 - mover]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "examples" / "amazons_suite.py"), *args],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)


def test_a_small_seeded_run_reports_exactly():
    done = run("--limit", "4", "--playouts", "60", "--seed", "3", "--verbose")
    assert done.returncode == 0, done.stderr
    assert done.stdout == EXPECTED_SMALL_RUN
    assert done.stderr.splitlines()[:4] == EXPECTED_LINES
    # A slice of the suite searches each position with the seed of the full run.
    sliced = run("--skip", "2", "--limit", "2", "--playouts", "60", "--seed", "3", "--verbose")
    assert sliced.stdout == ("2/2 within 1 square of the best, 0/2 the best move "
                             "(60 iterations a position)\n")
    assert sliced.stderr.splitlines()[:2] == EXPECTED_LINES[2:]


EXPECTED_SMALL_RUN = "3/4 within 1 square of the best, 0/4 the best move (60 iterations a position)\n"
EXPECTED_LINES = [
    "0: e8-e7/f7 (best g2-e2/h5, territory -3 against -1) miss",
    "1: d2-d5/d2 (best c8-d7/d8, territory 6 against 3) good",
    "2: c4-d5/d3 (best g6-h6/g6, territory -3 against -2) good",
    "3: g7-h7/e7 (best d7-e6/d7, territory 3 against 4) good",
]


@pytest.mark.parametrize("args, message", [
    (("--param", "regions"), "amazons_suite: expected NAME=VALUE, not 'regions'\n"),
    (("--param", "region_nodes=0"), "amazons_suite: region_nodes must be at least 1\n"),
    (("--suite", "/nonexistent/suite.json"), None),
])
def test_bad_arguments_give_one_line_and_status_2(args, message):
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("amazons_suite: ")
    if message is not None:
        assert done.stderr == message
