"""``examples/protocol_frontend.py``: a front end written only against the
protocol plays a whole *Star game and a whole Amazons game against the
server, prints both scores and saves both records, without importing
``engine`` or ``protocol``."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

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


def test_frontend_plays_both_games(tmp_path: Path) -> None:
    done = run_frontend(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr

    for game, head, move in (
        ("star", "(;GM[2004]", re.compile(r"^;[BW]\[[^\]]*\]", re.M)),
        ("amazons", "(;GM[18]", re.compile(r"^;[BW]\[[a-z]{6}\]", re.M)),
    ):
        record = (tmp_path / f"{game}.sgf").read_text(encoding="utf-8")
        assert record.startswith(head), record
        assert move.search(record), f"{game}: no move node in {record!r}"
        assert re.search(rf"^{game}: final_score (?:[BW]\+[0-9.]+|0)$", done.stdout, re.M), (
            done.stdout
        )


def test_frontend_is_reproducible(tmp_path: Path) -> None:
    first = run_frontend(tmp_path / "a")
    second = run_frontend(tmp_path / "b")
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    for game in ("star", "amazons"):
        assert (tmp_path / "a" / f"{game}.sgf").read_text() == (
            tmp_path / "b" / f"{game}.sgf"
        ).read_text()
