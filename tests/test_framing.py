"""The pure protocol core: line splitting, preprocessing, parsing, response
formatting, and the command registry."""

from __future__ import annotations

import asyncio
import doctest
import random

import pytest

from stargtp.engine.errors import BadSize, CannotUndo, GameError, IllegalMove
from stargtp.protocol import framing
from stargtp.protocol.framing import (BadLine, Command, LineSplitter, TooLongLine, clean_result,
                                      format_failure, format_success, is_interrupt, parse_line,
                                      preprocess, too_long_failure)
from stargtp.protocol.registry import CommandRegistry, GtpError, failure_message, syntax_error


def test_doctests() -> None:
    assert doctest.testmod(framing).failed == 0


# -- preprocessing -------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("name", "name"),
    ("", ""),
    ("   ", ""),
    ("\t\t", ""),
    ("# comment", ""),
    ("name # comment", "name "),
    ("name#comment", "name"),
    ("\tplay\tb\t*10", " play b *10"),
    ("na\x00m\x1fe\x7f", "name"),
    ("na\x85me\x9f", "name"),          # C1 controls are control characters too
    ("name\r", "name"),
    ("\x00", ""),
    ("n\u00e4me", "n\u00e4me"),        # other non-ASCII text is kept
    ("\ufffd", "\ufffd"),
    ("a\x00#b", "a"),                  # control characters go before the comment is cut
    ("#\tx", ""),
])
def test_preprocess(text: str, expected: str) -> None:
    assert preprocess(text) == expected


def test_preprocess_drops_exactly_the_control_characters() -> None:
    import unicodedata
    kept = {chr(c) for c in range(0x2000) if preprocess("a" + chr(c) + "a") == "a" + chr(c) + "a"}
    controls = {chr(c) for c in range(0x2000) if unicodedata.category(chr(c)) == "Cc"}
    assert kept == {chr(c) for c in range(0x2000)} - controls - {"\t", "#"}
    assert preprocess("a\ta") == "a a"


# -- parsing -------------------------------------------------------------------------


@pytest.mark.parametrize("raw, expected", [
    (b"name", Command(None, "name", ())),
    (b"1 name", Command("1", "name", ())),
    (b"007 name", Command("7", "name", ())),
    (b"0 name", Command("0", "name", ())),
    (b"000", BadLine("0", "syntax error: missing command name")),
    (b"  12\tplay  b\t*10  # why", Command("12", "play", ("b", "*10"))),
    (b"-1 name", Command(None, "-1", ("name",))),
    (b"+1 name", Command(None, "+1", ("name",))),
    (b"\xd9\xa1 name", Command(None, "\u0661", ("name",))),   # an Arabic-Indic digit is no id
    (b"1name", Command(None, "1name", ())),
    (b"Name", Command(None, "Name", ())),
    (b"", None),
    (b"   \t ", None),
    (b"# interrupt", None),
    (b"\r", None),
    (b"pl\xffay", BadLine(None, "syntax error: invalid UTF-8")),
    (b"4 pl\xc3", BadLine("4", "syntax error: invalid UTF-8")),
    (b"name # caf\xe9", Command(None, "name", ())),
    (b"# \xff", None),
    # GTP's whitespace is space and tab only: other Unicode spaces are text,
    # so a line holding only them is a command (and gets an answer).
    (b"play b \xe2\x80\xa8", Command(None, "play", ("b", "\u2028"))),
    (b"play\xc2\xa0b *10", Command(None, "play\u00a0b", ("*10",))),
    (b"\xc2\xa0", Command(None, "\u00a0", ())),
    (b"\xe3\x80\x80", Command(None, "\u3000", ())),
    (b"\xe2\x80\xa8", Command(None, "\u2028", ())),
    (b"7 \xe2\x80\xa8 ", Command("7", "\u2028", ())),
])
def test_parse_line(raw: bytes, expected: object) -> None:
    assert parse_line(raw) == expected


def test_huge_ids_round_trip_exactly() -> None:
    digits = "9" * 5000   # beyond Python's default int-to-str digit limit
    assert parse_line(f"{digits} name".encode()) == Command(digits, "name", ())
    assert parse_line(f"000{digits} name".encode()).id == digits


def test_interrupt_line_is_recognised_raw() -> None:
    assert is_interrupt(b"# interrupt")
    assert is_interrupt(b"# interrupt\r")
    assert not is_interrupt(b"#interrupt")
    assert not is_interrupt(b" # interrupt")
    assert not is_interrupt(b"# interrupt now")


# -- responses -----------------------------------------------------------------------


@pytest.mark.parametrize("command_id, result, expected", [
    (None, "", "=\n\n"),
    ("3", "", "=3\n\n"),
    (None, "2", "= 2\n\n"),
    ("12", "stargtp", "=12 stargtp\n\n"),
    (None, "a\nb", "= a\nb\n\n"),
    (None, "a\n\nb", "= a\n.\nb\n\n"),          # an empty line would end the response
    (None, "a\n  \nb", "= a\n.\nb\n\n"),
    (None, "\nrow\nrow", "=\nrow\nrow\n\n"),    # a leading newline starts the block on its own line
    ("5", "\nrow\n\n", "=5\nrow\n\n"),           # trailing newlines are dropped
    (None, "a\r\nb\r\n", "= a\nb\n\n"),
    (None, "\n", "=\n\n"),
])
def test_format_success(command_id: str | None, result: str, expected: str) -> None:
    assert format_success(command_id, result) == expected


@pytest.mark.parametrize("command_id, message, expected", [
    (None, "illegal move", "? illegal move\n\n"),
    ("8", "cannot undo", "?8 cannot undo\n\n"),
    (None, "two\nlines", "? two lines\n\n"),
    (None, "  spaced \t out ", "? spaced out\n\n"),
    ("1", "", "?1\n\n"),
])
def test_format_failure(command_id: str | None, message: str, expected: str) -> None:
    assert format_failure(command_id, message) == expected


def test_clean_result_never_leaves_an_empty_line() -> None:
    rng = random.Random(5)
    for _ in range(500):
        text = "".join(rng.choice(["a", " ", "\n", "\r", "b"]) for _ in range(rng.randint(0, 12)))
        cleaned = clean_result(text)
        assert not cleaned.endswith("\n")
        assert all(line.strip() for line in cleaned.split("\n")[1:])


@pytest.mark.parametrize("prefix, expected", [
    (b"5 play b xxxx", "?5 syntax error: line too long\n\n"),
    (b"5 ", "?5 syntax error: line too long\n\n"),
    (b"5", "? syntax error: line too long\n\n"),        # the id may go on past the prefix
    (b"99999", "? syntax error: line too long\n\n"),
    (b"play b xxx", "? syntax error: line too long\n\n"),
    (b"# comment", "? syntax error: line too long\n\n"),
    (b"\xff\xff", "? syntax error: line too long\n\n"),
])
def test_too_long_failure(prefix: bytes, expected: str) -> None:
    assert too_long_failure(TooLongLine(prefix)) == expected


# -- line splitting ---------------------------------------------------------------------


def reference_lines(stream: bytes, limit: int) -> list[bytes | str]:
    """Obviously correct: split the whole stream at once; 'long' for a line over the limit."""
    pieces = stream.split(b"\n")
    if pieces[-1] == b"":
        pieces.pop()
    return ["long" if len(p) > limit else p for p in pieces]


def split_in_chunks(stream: bytes, sizes: list[int], limit: int) -> list[bytes | str]:
    splitter = LineSplitter(limit)
    lines: list = []
    position = 0
    for size in sizes:
        lines += splitter.feed(stream[position:position + size])
        position += size
        assert len(splitter._partial) <= limit  # memory stays bounded
    lines += splitter.feed(stream[position:])
    lines += splitter.finish()
    return ["long" if isinstance(line, TooLongLine) else line for line in lines]


def test_splitter_matches_reference_at_every_cut() -> None:
    stream = b"a\nbb\n\n0123456789ABC\nc\n0123456789\n01234567890\nlast"
    for cut in range(len(stream) + 1):
        assert split_in_chunks(stream, [cut], 10) == reference_lines(stream, 10)


def test_splitter_matches_reference_on_random_streams() -> None:
    rng = random.Random(11)
    for _ in range(300):
        stream = b"".join(rng.choice([b"x", b"y", b"\n", b"\n\n", b"z" * rng.randint(5, 30)])
                          for _ in range(rng.randint(0, 40)))
        sizes = [rng.randint(0, 25) for _ in range(rng.randint(0, 30))]
        assert split_in_chunks(stream, sizes, 16) == reference_lines(stream, 16)


def test_splitter_keeps_the_start_of_an_overlong_line() -> None:
    splitter = LineSplitter(8)
    assert splitter.feed(b"12 play b") == []
    assert splitter.feed(b" more and more") == []
    (line,) = splitter.feed(b"!\nname\n")[:1]
    assert isinstance(line, TooLongLine) and line.prefix.startswith(b"12 play b")
    assert splitter.finish() == []


def test_splitter_default_limit_is_64_kib() -> None:
    splitter = LineSplitter()
    lines = splitter.feed(b"x" * 65536 + b"\n" + b"y" * 65537 + b"\n")
    assert lines[0] == b"x" * 65536
    assert isinstance(lines[1], TooLongLine)


# -- the registry ---------------------------------------------------------------------------


def test_registry_names_lookup_and_async_detection() -> None:
    registry = CommandRegistry()

    def sync_handler(args: tuple[str, ...]) -> str:
        return "x"

    async def async_handler(args: tuple[str, ...]) -> str:
        return "y"

    registry.register("zeta", sync_handler)
    registry.register("alpha-beta", async_handler)
    assert registry.names() == ["alpha-beta", "zeta"]
    assert "zeta" in registry and "Zeta" not in registry
    assert registry.get("nope") is None
    assert registry.get("zeta").is_async is False
    entry = registry.get("alpha-beta")
    assert entry.is_async is True
    assert asyncio.run(entry.handler(())) == "y"
    with pytest.raises(ValueError):
        registry.register("zeta", sync_handler)
    with pytest.raises(ValueError):
        registry.register("two words", sync_handler)
    with pytest.raises(ValueError):
        registry.register("", sync_handler)


def test_failure_messages_are_the_standard_texts() -> None:
    # An illegal move says why after the standard text controllers match on.
    assert failure_message(IllegalMove("S43 is occupied")) == "illegal move: S43 is occupied"
    assert failure_message(IllegalMove()) == "illegal move"
    assert failure_message(CannotUndo("no move")) == "cannot undo"
    assert failure_message(BadSize("11 rings")) == "unacceptable size"
    assert failure_message(GameError("the game 'x' is not available")) == "the game 'x' is not available"
    assert failure_message(GtpError("cannot score")) == "cannot score"
    assert failure_message(syntax_error("expected an integer")) == "syntax error: expected an integer"
    assert failure_message(KeyError("bug")) is None
