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
