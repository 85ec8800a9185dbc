"""GTP framing as pure functions: split a byte stream into lines, preprocess and
parse a line into a command, and format responses. Nothing here does I/O.

The rules are those of GTP version 2 (see docs/protocol.md):

>>> parse_line(b"12 play\\tB *10 # a comment\\r")
Command(id='12', name='play', args=('B', '*10'))
>>> parse_line(b"   # only a comment") is None
True
>>> format_success("12", "")
'=12\\n\\n'
>>> format_failure(None, "illegal move")
'? illegal move\\n\\n'
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_LINE_BYTES = 64 * 1024
"""Longest accepted line, in bytes, not counting the LF that ends it."""

INTERRUPT_LINE = b"# interrupt"
"""GoGui's interrupt line. It is a comment, so it must be recognised on the raw
bytes, before preprocessing strips it."""

# How many leading bytes of an over-long line are kept, to recover its id.
_TOO_LONG_PREFIX_BYTES = 256

# Every control character (Unicode category Cc: C0, DEL and C1) is dropped,
# except HT, which becomes a space, and LF, which never reaches here because it
# ends the line. One str.translate call does both steps.
_PREPROCESS_TABLE: dict[int, int | None] = {
    code: None for code in [*range(0x00, 0x20), *range(0x7F, 0xA0)]
}
_PREPROCESS_TABLE[ord("\t")] = ord(" ")


@dataclass(frozen=True, slots=True)
class Command:
    """One parsed command line."""

    id: str | None
    """The command id in canonical decimal (``"007"`` becomes ``"7"``), or None.
    Kept as text so that an id of any length round-trips exactly."""
    name: str
    """The command name, case-sensitive."""
    args: tuple[str, ...]
    """The arguments, split on whitespace."""


@dataclass(frozen=True, slots=True)
class BadLine:
    """A line that cannot be executed; it still gets a ``?`` response."""

    id: str | None
    message: str
    """The full error text, starting with ``syntax error``."""


@dataclass(frozen=True, slots=True)
class TooLongLine:
    """Stands for a line longer than :data:`MAX_LINE_BYTES`; only its start is kept."""

    prefix: bytes


Line = bytes | TooLongLine
"""What :class:`LineSplitter` yields: a raw line without its LF, or a marker."""


class LineSplitter:
    """Cuts a byte stream into lines at LF, with bounded memory.

    A line longer than :data:`MAX_LINE_BYTES` is discarded as it streams in and
    reported as one :class:`TooLongLine` when its LF (or the end of input)
    arrives, so a client cannot make the server buffer an endless line.

    >>> splitter = LineSplitter()
    >>> splitter.feed(b"name\\nvers"), splitter.feed(b"ion\\n"), splitter.finish()
    ([b'name'], [b'version'], [])
    """

    def __init__(self, max_line_bytes: int = MAX_LINE_BYTES) -> None:
        self.max_line_bytes = max_line_bytes
        self._partial = b""
        # While discarding an over-long line: the start we kept of it.
        self._discard_prefix: bytes | None = None

    def feed(self, data: bytes) -> list[Line]:
        """Add bytes; return the lines they complete, in order."""
        if self._discard_prefix is not None:
            end = data.find(b"\n")
            if end < 0:
                return []
            lines: list[Line] = [TooLongLine(self._discard_prefix)]
            self._discard_prefix = None
            data = data[end + 1 :]
        else:
            lines = []
        if self._partial:
            data = self._partial + data
        pieces = data.split(b"\n")
        self._partial = pieces.pop()
        limit = self.max_line_bytes
        for piece in pieces:
            lines.append(piece if len(piece) <= limit else TooLongLine(piece[:_TOO_LONG_PREFIX_BYTES]))
        if len(self._partial) > limit:
            self._discard_prefix = self._partial[:_TOO_LONG_PREFIX_BYTES]
            self._partial = b""
        return lines

    @property
    def holding(self) -> bool:
        """Whether part of a line has arrived (or an over-long line is being
        dropped) and waits for its LF."""
        return bool(self._partial) or self._discard_prefix is not None

    def finish(self) -> list[Line]:
        """End of input: an unterminated last line still counts as a line."""
        lines: list[Line] = []
        if self._discard_prefix is not None:
            lines.append(TooLongLine(self._discard_prefix))
        elif self._partial:
            lines.append(self._partial)
        self._partial = b""
        self._discard_prefix = None
        return lines


def is_interrupt(raw: bytes) -> bool:
    """Whether a raw line is GoGui's ``# interrupt`` (a CR before LF is allowed)."""
    return raw == INTERRUPT_LINE or raw == INTERRUPT_LINE + b"\r"


def preprocess(text: str) -> str:
    """Apply GTP's input steps: drop control characters but HT, cut the comment,
    turn HT into a space. Returns ``""`` for a line that gets no response.

    GTP's whitespace is space and tab only: a line of other Unicode spaces
    (U+00A0, U+3000, U+2028) is not blank, so it gets an answer.

    >>> preprocess("\\x00boardsize\\t4 # rings")
    'boardsize 4 '
    >>> preprocess("   ")
    ''
    >>> preprocess("\u00a0")
    '\xa0'
    """
    if not (text.isascii() and text.isprintable()):
        text = text.translate(_PREPROCESS_TABLE)
    hash_at = text.find("#")
    if hash_at >= 0:
        text = text[:hash_at]
    if not text.strip(" "):
        return ""
    return text


def split_words(text: str) -> list[str]:
    """Split a preprocessed line on spaces only (GTP's whitespace; tabs are
    spaces by now), never on other Unicode spaces.

    >>> split_words(" play\u00a0b  *10 ")
    ['play\xa0b', '*10']
    """
    return [word for word in text.split(" ") if word]


def _split_id(tokens: list[str]) -> tuple[str | None, list[str]]:
    """Take a leading non-negative integer off the tokens as the command id."""
    first = tokens[0]
    if first.isdigit() and first.isascii():
        return first.lstrip("0") or "0", tokens[1:]
    return None, tokens


def parse_line(raw: bytes) -> Command | BadLine | None:
    """Parse one raw line (without its LF).

    Returns None for lines that get no response (empty, blank, comment only), a
    :class:`BadLine` for lines that get an error whatever their command, and a
    :class:`Command` otherwise.

    >>> parse_line(b"007 known_command  name")
    Command(id='7', name='known_command', args=('name',))
    >>> parse_line(b"3 pl\\xffay")
    BadLine(id='3', message='syntax error: invalid UTF-8')
    """
    valid_utf8 = True
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", errors="replace")
        valid_utf8 = False
    text = preprocess(text)
    if not text:
        return None
    tokens = split_words(text)
    command_id, tokens = _split_id(tokens)
    # Bad bytes inside a comment are harmless; only the command part must decode.
    if not valid_utf8 and "\ufffd" in text:
        return BadLine(command_id, "syntax error: invalid UTF-8")
    if not tokens:
        return BadLine(command_id, "syntax error: missing command name")
    return Command(command_id, tokens[0], tuple(tokens[1:]))


def gets_response(line: Line) -> bool:
    """Whether a line read off a stream is a command that gets a response
    (every line but an empty, blank or comment-only one).

    >>> gets_response(b"name"), gets_response(b"  # a comment"), gets_response(b"\\r"), gets_response(b"\\xff")
    (True, False, False, True)
    """
    return type(line) is TooLongLine or parse_line(line) is not None


def too_long_failure(line: TooLongLine) -> str:
    """The response to an over-long line, echoing its id when one is readable.

    >>> too_long_failure(TooLongLine(b"5 play b " + b"x" * 200))
    '?5 syntax error: line too long\\n\\n'
    """
    text = preprocess(line.prefix.decode("utf-8", errors="replace"))
    tokens = split_words(text)
    command_id = None
    # The id counts only if it ends inside the kept prefix (a space follows it).
    if len(tokens) > 1 or (tokens and text.endswith(" ")):
        command_id, _ = _split_id(tokens)
    return format_failure(command_id, "syntax error: line too long")


def clean_result(text: str) -> str:
    """Make a result safe to frame: no trailing newlines, no empty inner lines
    (they would end the response early), so an empty line becomes ``.``.
    A leading newline is kept: it puts a multi-line result on its own lines.

    >>> clean_result("\\nrow 1\\n\\nrow 3\\n")
    '\\nrow 1\\n.\\nrow 3'
    """
    if "\n" not in text and "\r" not in text:
        return text
    lines = text.replace("\r", "").rstrip("\n").split("\n")
    return "\n".join(
        [lines[0]] + [line if line.strip() else "." for line in lines[1:]]
    )


def format_success(command_id: str | None, result: str, status_space: bool = False) -> str:
    """``=id result`` plus the blank line; ``=id`` alone when the result is
    empty or starts on the next line, ``=id `` with the space instead when
    ``status_space`` is set (``stargtp serve --status-space``: controllers
    that look for ``= `` to tell a success, as older HexGui builds do).

    >>> format_success(None, ""), format_success(None, "", status_space=True)
    ('=\\n\\n', '= \\n\\n')
    """
    result = clean_result(result)
    head = "=" if command_id is None else "=" + command_id
    if not result or result[0] == "\n":
        return head + (" " if status_space else "") + result + "\n\n"
    return head + " " + result + "\n\n"


def format_failure(command_id: str | None, message: str) -> str:
    """``?id message`` plus the blank line. The message is forced onto one line."""
    message = " ".join(message.split())
    head = "?" if command_id is None else "?" + command_id
    return head + " " + message + "\n\n" if message else head + "\n\n"
