"""What ``stargtp demo`` and ``stargtp bench`` print: the demo's board with a
legend of every symbol drawn and how the game ended; bench's counts in words."""

import json
import random
import re

import pytest

from stargtp.engine.games import find_game, games
from stargtp.engine.star import Position
from stargtp.engine.star.diagram import text_picture
from stargtp.protocol.cli import main


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def demo_game(size: int, seed: int) -> Position:
    """The demo's game, played again: random legal moves until the end."""
    position = Position(size)
    rng = random.Random(seed)
    while not position.is_over():
        position.play(rng.choice(position.legal_moves()))
    return position


LEGEND_WORDS = {"X": "X black", "O": "O white", "[X]": "[X] last move", "[O]": "[O] last move"}


@pytest.mark.parametrize("size, seed", [(2, 1), (3, 1), (3, 3), (6, 1)])
def test_demo_prints_a_legend_of_every_symbol_and_that_the_game_is_over(size, seed, capsys):
    code, out, err = run_cli(["demo", "--size", str(size), "--seed", str(seed)], capsys)
    assert (code, err) == (0, "")
    lines = out.split("\n")
    position = demo_game(size, seed)
    board = text_picture(position)
    assert lines[:len(board)] == board
    legend, state = lines[len(board)], lines[len(board) + 1]
    drawn = set(" ".join(board).split())
    assert not any(re.fullmatch(r"[*STAR]\d\d", token) for token in drawn)  # a finished game: no empty cell
    for symbol, words in LEGEND_WORDS.items():
        assert (symbol in drawn) == (words in legend), (symbol, legend)
    dead = [mark for mark in ("x", "o") if mark in drawn]
    assert (f"{' '.join(dead)} dead stones" in legend) if dead else "dead" not in legend
    assert "labels" not in legend and "hint" not in legend
    assert state == f"game over (the board is full) after {len(position.history)} moves"
    assert "to move" not in out


def test_demo_legend_of_a_known_game(capsys):
    """Seed 3 on 3 rings (see above): both colours have dead stones."""
    code, out, _ = run_cli(["demo", "--size", "3", "--seed", "3"], capsys)
    assert code == 0
    assert "X black, O white, [O] last move, x o dead stones\ngame over (the board is full) after 30 moves\n" in out


def test_bench_counts_one_run_in_the_singular(capsys):
    code, out, err = run_cli(["bench", "--size", "2", "--seconds", "0.05", "--runs", "1"], capsys)
    assert code == 0, err
    assert ", 1 run of 0.05 s, " in out.split("\n")[0] and "1 runs" not in out


@pytest.mark.parametrize("game", games())
def test_bench_measures_every_game(game, capsys):
    """``stargtp bench --game G`` runs through the descriptor for every
    registered game and reports playouts and tree iterations."""
    code, out, err = run_cli(["bench", "--game", game, "--seconds", "0.05", "--runs", "1", "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert (report["game"], report["size"]) == (game, find_game(game).default_size)
    assert report["playouts_per_s"] > 0 and report["iterations_per_s"] > 0


def test_bench_text_names_the_search_rate_in_playouts(capsys):
    """The text report says what the search rate counts: playouts (a leaf
    batch counts each of its playouts), not tree iterations."""
    code, out, err = run_cli(["bench", "--game", "y", "--size", "5", "--seconds", "0.05", "--runs", "1"], capsys)
    assert code == 0, err
    labels = [line.split(":")[0] for line in out.splitlines()[1:]]
    assert labels == ["random playouts/s", "tree playouts/s", "load average after"]
