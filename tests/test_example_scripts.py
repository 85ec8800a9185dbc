"""The leaf-batch examples run as they are: examples/screen_players.py (a
seeded fixed-playout screen: the same games and the same line for the same
seed) and examples/bench_leaf_playouts.py (one line per configuration, the
first the baseline at x1.00). Their figures are measurements: only their
form is checked here, never a speed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          timeout=600)


def test_screen_players_is_seeded_and_reports_the_score():
    args = ("--game", "hex", "--size", "4", "--games", "4", "--a", "leaf_playouts=4", "--a-playouts", "40",
            "--b", "leaf_playouts=1", "--b-playouts", "40", "--seed", "3")
    first, second = run("screen_players.py", *args), run("screen_players.py", *args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    games = [re.sub(r" \(\d+ s\)$", "", line) for line in first.stderr.splitlines()]
    assert games == [re.sub(r" \(\d+ s\)$", "", line) for line in second.stderr.splitlines()]
    assert [line.split(":")[0] for line in games] == ["game 1", "game 2", "game 3", "game 4"]
    assert [("A black" in line) for line in games] == [True, False, True, False]  # colours alternate
    score = float(games[-1].split("A ")[-1].split(" of")[0])
    line = first.stdout.strip()
    assert line.startswith(f"hex 4: A (leaf_playouts=4, 40) against B (leaf_playouts=1, 40): A {score:g} - "
                           f"{4 - score:g}, {100 * score / 4:.1f}% [")
    assert re.fullmatch(r".*\], Elo [+-](\d+|inf) \[[+-](\d+|inf), [+-](\d+|inf)\]", line)


def test_bench_leaf_playouts_reports_each_configuration_against_the_first():
    done = run("bench_leaf_playouts.py", "--game", "y", "--size", "4", "--k", "1", "4", "--playouts", "40",
               "--runs", "1")
    assert done.returncode == 0, done.stderr
    head, *rows = done.stdout.strip().splitlines()
    assert head.startswith("y 4, 40 playouts a run, 1 runs, load ")
    assert [row.split()[0] for row in rows] == ["leaf_playouts=1", "leaf_playouts=4"]
    assert " x1.00 " in rows[0]
    assert all(re.search(r"\d+ playouts/CPU s +x\d+\.\d\d +\(runs: \d+\)$", row) for row in rows)


def test_bench_star_tree_reports_each_leaf_batch_against_the_naive_baseline():
    done = run("bench_star_tree.py", "--size", "3", "--k", "1", "4", "--playouts", "40", "--runs", "1",
               "--seconds", "0.05")
    assert done.returncode == 0, done.stderr
    head, base, *rows = done.stdout.strip().splitlines()
    assert head.startswith("star 3, 40 playouts a search, 1 runs, load ")
    assert base.startswith("naive baseline ") and " x1.00 " in base
    assert [row.split()[0] for row in rows] == ["leaf_playouts=1", "leaf_playouts=4"]
    assert all(re.search(r"\d+ playouts/CPU s +x\d+\.\d\d +\(runs: \d+\)$", row) for row in rows)
    bad = run("bench_star_tree.py", "--size", "11")
    assert bad.returncode == 2 and bad.stdout == "" and "--size 2..10" in bad.stderr
