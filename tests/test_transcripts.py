"""Golden transcripts (tests/transcripts/*.gtp): the exact bytes the server
answers, checked in process and against a real ``stargtp serve``."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from tests.gtp_helpers import (TRANSCRIPTS, config_for, converse, load_transcript, run_serve,
                               split_responses)

PATHS = sorted(TRANSCRIPTS.glob("*.gtp"))


def test_there_are_transcripts() -> None:
    assert {p.stem for p in PATHS} >= {"basics", "errors", "star", "genmove", "clock", "amazons"}


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_transcript_in_process(path: Path) -> None:
    transcript = load_transcript(path)
    config = config_for(transcript.options)
    output, _ = asyncio.run(converse(transcript.input, config))
    assert output == transcript.output
    split_responses(output)  # and the golden output is itself well framed


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_transcript_in_small_chunks(path: Path) -> None:
    """The same bytes arriving a few at a time (lines split anywhere)."""
    transcript = load_transcript(path)
    rng = random.Random(path.stem)
    chunks = []
    total = 0
    while total < len(transcript.input):
        chunks.append(rng.randint(1, 40) if rng.random() < 0.9 else rng.randint(1, 70000))
        total += chunks[-1]
    output, _ = asyncio.run(converse(transcript.input, config_for(transcript.options), chunks))
    assert output == transcript.output


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_transcript_against_subprocess(path: Path) -> None:
    transcript = load_transcript(path)
    assert run_serve(transcript.input, transcript.options) == transcript.output


def test_transcript_from_a_regular_file(tmp_path: Path) -> None:
    """stdin that is a file, not a pipe, is read by the thread fallback."""
    transcript = load_transcript(TRANSCRIPTS / "basics.gtp")
    path = tmp_path / "input.gtp"
    path.write_bytes(transcript.input)
    assert run_serve(b"", transcript.options, stdin_path=path) == transcript.output
