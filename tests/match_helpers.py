"""Helpers shared by the match runner's tests (test_match.py and
test_match_usability.py): the scripted engine's command line and a match's
settings and run."""

from __future__ import annotations

import asyncio
import shlex
import sys
from pathlib import Path

from stargtp.protocol.controller import EngineSpec
from stargtp.protocol.tools.match import EngineEntry, MatchSettings, run_match

ROOT = Path(__file__).resolve().parents[1]
FAKE_ENGINE = str(ROOT / "tests" / "fake_engines" / "fake_engine.py")
HANG_GUARD = 300
"""Seconds a subprocess may run before the test gives up on it: only a hang
ever comes near it."""


def fake(*options: str) -> str:
    """The command line of the scripted engine (tests/fake_engines)."""
    return shlex.join([sys.executable, FAKE_ENGINE, *options])


def settings(black: str, white: str, **options) -> MatchSettings:
    """A match of engine A (``black``'s command) against B, on 4 rings unless told."""
    options.setdefault("size", 4)
    engines = (EngineEntry("A", EngineSpec.parse(black)), EngineEntry("B", EngineSpec.parse(white)))
    return MatchSettings(engines=engines, **options)


def play(match: MatchSettings, **options):
    return asyncio.run(run_match(match, **options))
