"""What a new user of ``stargtp match`` and ``stargtp report`` meets: the
progress line and the results table in an 80-column terminal, a first run
with a broken engine command, one numbering of the games everywhere, the
report page of a one-sided match, the help text, engine output shown in
messages, and ``stargtp report`` given a file that is no results file.

The engines are the scripted ones of tests/fake_engines (answers in
milliseconds); nothing here depends on speed.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from stargtp.protocol.controller import EngineSpec, GtpController, ProtocolError
from stargtp.protocol.tools.match import PROTOCOL_ERROR, EngineEntry, MatchSettings, format_summary, run_match
from stargtp.protocol.tools.match.report import PairingSummary, Progress, summarise
from stargtp.protocol.tools.match.results import read_results

ROOT = Path(__file__).resolve().parents[1]
FAKE_ENGINE = str(ROOT / "tests" / "fake_engines" / "fake_engine.py")
HANG_GUARD = 300
"""Seconds a subprocess may run before the test gives up on it: only a hang
ever comes near it."""


def fake(*options: str) -> str:
    return shlex.join([sys.executable, FAKE_ENGINE, *options])


def two_engines(black: str, white: str, **options) -> MatchSettings:
    options.setdefault("size", 3)
    engines = (EngineEntry("A", EngineSpec.parse(black)), EngineEntry("B", EngineSpec.parse(white)))
    return MatchSettings(engines=engines, **options)


def play(match: MatchSettings, **options):
    return asyncio.run(run_match(match, **options))


def cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from stargtp.protocol.cli import main

    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


class _Terminal(io.StringIO):
    """A progress stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _record(number: int, winner: str | None) -> dict:
    """A finished game of A vs B (round ``number - 1``), as the results file holds it."""
    black, white = ("A", "B") if number % 2 else ("B", "A")
    return {"type": "game", "key": f"A vs B #{number}", "number": number, "pairing": ["A", "B"],
            "round": number - 1, "black": black, "white": white, "winner_engine": winner,
            "result": "B+1" if winner == black else "W+1", "reason": "score",
            "moves": [{"colour": "black", "move": "pass", "seconds": 0.5}] * 30}


# -- 1. the progress line and the table in an 80-column terminal ---------------------------


def _redraws(text: str) -> list[str]:
    """What each redraw of a terminal progress stream left on its line."""
    return [part.split("\n")[-1] for part in text.split("\r\x1b[K")[1:]]


@pytest.mark.parametrize("columns", ["80", "40"])
def test_the_progress_line_fits_the_terminal(monkeypatch: pytest.MonkeyPatch, columns: str) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    stream = _Terminal()
    progress = Progress(two_engines("x", "y", games=4), 4, 3, stream)  # 3 resumed: no rate, nothing timed
    progress.update([_record(1, "A"), _record(2, "A"), _record(3, "B")])
    progress.game_started(4, "B", "A")
    progress.move_played(4, 30)
    lines = _redraws(stream.getvalue())
    assert all(len(line) <= int(columns) - 1 for line in lines), lines
    if columns == "80":
        assert lines == ["[3/4]  A 2-0-1 B  score 66.7% of 3 games  Elo +inf [-, -]  ETA -",
                         "[3/4]  A 2-0-1 B  Elo +inf [-, -]  ETA -  playing: #4 0 moves",
                         "[3/4]  A 2-0-1 B  Elo +inf [-, -]  ETA -  playing: #4 30 moves"]
    else:
        assert lines == ["[3/4]  A 2-0-1 B  Elo +inf [-, -]"] * 3
    assert "Started game 4 of 4 (B vs A)\n" in stream.getvalue()


def test_a_wide_terminal_shows_the_whole_progress_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    stream = _Terminal()
    progress = Progress(two_engines("x", "y", games=4), 4, 3, stream)
    progress.records = [_record(1, "A"), _record(2, "A"), _record(3, "B")]
    progress.move_played(4, 30)
    assert _redraws(stream.getvalue()) == [
        "[3/4]  A 2-0-1 B  score 66.7% of 3 games  Elo +inf [-, -] (pentanomial, 1 pair)  0.0 games/min  ETA -"
        "  playing: #4 30 moves"]


def test_fit_line_drops_the_least_important_parts_first() -> None:
    from stargtp.protocol.tools.match.report import fit_line

    parts = [(9, "", "[1/4]"), (4, "  ", "score"), (2, "  ", "rate"), (4, "  ", "more"), (6, "  ", "ETA -")]
    assert fit_line(parts, 100) == "[1/4]  score  rate  more  ETA -"
    assert fit_line(parts, 25) == "[1/4]  score  more  ETA -"
    assert fit_line(parts, 24) == "[1/4]  score  ETA -"
    assert fit_line(parts, 12) == "[1/4]  ETA -"
    assert fit_line(parts, 4) == "[1/4"


def _summaries() -> tuple[list[PairingSummary], MatchSettings]:
    match = two_engines("stargtp serve --player flat --playouts 200 --seed 1",
                        "stargtp serve --player random --seed 2", games=20)
    records = [_record(n, "A" if n != 7 else "B") for n in range(1, 21)]
    return summarise(records, match), match


def test_the_table_fits_80_columns_and_keeps_the_wide_layout_when_wider() -> None:
    summaries, match = _summaries()
    wide = format_summary(summaries, match)
    assert max(map(len, wide.splitlines())) == 122  # today's table
    assert format_summary(summaries, match, 200) == wide
    assert format_summary(summaries, match, 122) == wide
    narrow = format_summary(summaries, match, 80)
    assert max(map(len, narrow.splitlines())) <= 80
    assert narrow.splitlines()[4:] == [
        "pairing  games  W-D-L   score  win rate % [95%]   Elo [95%]",
        "-----------------------------------------------------------",
        "A vs B      20  19-0-1     19  95.0 [76.4, 99.1]  +512 [+311, +inf]",
        "  30.0 moves per game, s/move (1st / 2nd) 0.500 / 0.500",
        "",
        "Scores and intervals are from the first engine's side; Elo interval: pentanomial",
        "  model."]


def test_match_prints_the_narrow_table_in_80_columns(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "stargtp.protocol.cli", "match", "--size", "3", "--games", "2",
               "--black", fake("--seed", "1"), "--white", fake("--seed", "2"), "--results", str(tmp_path / "r.jsonl")]
    for columns, widest in (("80", 80), ("150", 122)):
        (tmp_path / "r.jsonl").unlink(missing_ok=True)
        run = subprocess.run(command, capture_output=True, text=True, timeout=HANG_GUARD, cwd=tmp_path,
                             env={**_environment(), "COLUMNS": columns})
        assert run.returncode == 0, run.stderr
        lines = run.stdout.splitlines()
        assert max(len(line) for line in lines if not line.startswith("  A =") and not line.startswith("  B =")) \
            == widest, run.stdout


def _environment() -> dict[str, str]:
    import os

    return {key: value for key, value in os.environ.items() if key != "COLUMNS"}


# -- 5. the help of --sgf-dir --------------------------------------------------------------


def test_the_sgf_dir_help_names_both_games() -> None:
    run = subprocess.run([sys.executable, "-m", "stargtp.protocol.cli", "match", "--help"], capture_output=True,
                         text=True, timeout=HANG_GUARD, env={**_environment(), "COLUMNS": "200"})
    line, = [line for line in run.stdout.splitlines() if line.strip().startswith("--sgf-dir DIR")]
    assert line.split("--sgf-dir DIR", 1)[1].strip() == (
        "save each game as its own SGF file in DIR, for games with SGF records (*Star and the Amazons; default "
        "with --results FILE: FILE's name without its suffix, plus -sgf)")


# -- 6. engine output in messages is escaped once ------------------------------------------


def test_an_answer_without_status_is_shown_escaped_once() -> None:
    async def ask() -> str:
        spec = EngineSpec.parse(fake("--mode", "nostatus", "--seed", "1"))
        async with await GtpController.open(spec, command_timeout=60) as engine:
            await engine.send("boardsize 3")
            with pytest.raises(ProtocolError) as error:
                await engine.send("genmove b")
            return str(error.value)

    message = asyncio.run(ask())
    assert re.fullmatch(r".+ answer does not start with '=' or '\?': '\d+ [A-Z0-9]+\\n'", message), message
    assert "\\\\" not in message


def test_a_fault_detail_shows_the_engine_output_escaped_once() -> None:
    record, = play(two_engines(fake("--mode", "nostatus", "--seed", "1"), fake("--seed", "2"), games=1)).records
    fault = record["fault"]
    assert fault["kind"] == PROTOCOL_ERROR and fault["engine"] == "A"
    assert re.fullmatch(r"A: answer does not start with '=' or '\?': '\d+ [A-Z0-9]+\\n'", fault["detail"]), fault
    assert "\\\\" not in fault["detail"]
