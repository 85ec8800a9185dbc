"""``examples/protocol_frontend.py``: a front end written only against the
protocol plays a whole game of every game the server lists against it,
prints each score and saves each record, without importing ``engine`` or
``protocol`` or naming a game."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from stargtp.engine.games import BUILT_IN
from tests.gtp_helpers import subprocess_env

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "examples" / "protocol_frontend.py"


def test_script_imports_neither_engine_nor_protocol() -> None:
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports"
            imported.add((node.module or "").split(".")[0])
    assert not imported & {"engine", "protocol", "stargtp"}, imported
    assert imported <= {
        "__future__", "argparse", "json", "pathlib", "random", "shlex", "subprocess", "sys",
    }, imported


def run_frontend(out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "examples/protocol_frontend.py", "--seed", "1", "--playouts", "20",
         "--out", str(out)],
        cwd=ROOT,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_frontend_plays_every_game(tmp_path: Path) -> None:
    done = run_frontend(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    played = re.findall(r"^=== (\w+), size (\d+): (\d+) points", done.stdout, re.M)
    # Each game on its smallest board of at least 36 points.
    assert played == [("star", "4", "50"), ("amazons", "6", "36"), ("hex", "6", "36"), ("y", "8", "36")]
    assert [name for name, _, _ in played] == [game.name for game in BUILT_IN]
    for game in BUILT_IN:
        record = (tmp_path / f"{game.name}.sgf").read_text(encoding="utf-8")
        assert record.startswith(f"(;GM[{game.sgf_number}]"), record
        assert re.search(r"^;[BW]\[[^\]]+\]", record, re.M), f"{game.name}: no move node in {record!r}"
        # A margin where the game has one (Hex and Y: the winner alone); or,
        # after a resignation, why there is no score.
        assert re.search(rf"^{game.name}: final_score (?:[BW]\+[0-9.]*|0|\? final_score: .+)$",
                         done.stdout, re.M), done.stdout


def test_frontend_is_reproducible(tmp_path: Path) -> None:
    first = run_frontend(tmp_path / "a")
    second = run_frontend(tmp_path / "b")
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    for game in BUILT_IN:
        assert (tmp_path / "a" / f"{game.name}.sgf").read_text() == (
            tmp_path / "b" / f"{game.name}.sgf"
        ).read_text()
