"""The match results file: one JSON object per line, appended as games finish.

The first line is a *header* (``{"type": "header", ...}``) holding the match
settings that decide what a game means (game, size, komi, engines, clock,
openings); every other line is one finished game (``{"type": "game", ...}``,
see docs/match.md for the fields). A game is identified by its ``key``
(pairing and round), so a re-run with the same file plays only the games that
are missing.

Crash safety: each record is written with one ``write`` call and ``fsync``'d
before the runner goes on, so a record on disk is complete unless the runner
died during that very write. Such a torn last line (no newline, or not valid
JSON) is cut off when the file is opened again, before anything is appended;
only a line that begins as this module's lines do, so a file that was never a
results file is refused, not cut. A damaged line anywhere else is not guessed
at: opening fails. An exclusive ``flock`` keeps two runners off one file.

The header is written with the first game, not before: a match that never
gets to finish a game (an engine that cannot start) leaves no file behind,
or, in a file that holds no game yet, no header that would bind a corrected
re-run to its settings; such a file takes the new match's header.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "r.jsonl")
>>> with ResultsFile.open(path, {"game": "star"}) as results:
...     results.append({"type": "game", "key": "A-B#0"})
>>> with ResultsFile.open(path, {"game": "star"}) as results:
...     [g["key"] for g in results.games]
['A-B#0']
"""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import dataclass, field
from typing import Any

FORMAT = "stargtp-match-results/2"
"""The ``format`` field of the header; bumped if the record layout changes."""
FORMAT_1 = "stargtp-match-results/1"
"""Files of versions before 0.2.0: game keys numbered from 0 within each pairing
(``"A vs B #0"``), no ``number`` field. Still read and resumed: the runner
numbers their records again (:func:`~stargtp.protocol.tools.match.settings.numbered`),
and resuming one marks its header with :data:`FORMAT`, so that an older
version refuses the file rather than misreading the new keys."""
FORMATS = (FORMAT_1, FORMAT)


class ResultsError(Exception):
    """The results file cannot be used: damaged, locked, or from another match."""


class NotResultsError(ResultsError):
    """The file is not a match results file at all (or is empty)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path


def _settings_difference(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    keys = sorted(set(old) | set(new))
    return [key for key in keys if old.get(key) != new.get(key)]


def read_results(path: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """Read a results file without changing it: ``(header, games)``.

    A torn last line is ignored; a damaged line elsewhere raises ResultsError.
    Later records with a key already seen are ignored (they cannot arise from
    this module, but a hand-merged file might contain them).
    """
    with open(path, "rb") as stream:
        data = stream.read()
    header, games, _ = _parse(data, path)
    return header, games


_RECORD_START = b'{"type":'
"""How every line this module writes begins."""


def _could_be_ours(line: bytes) -> bool:
    """Whether ``line`` can be (the start of) a line this module wrote. Only
    such a torn last line is cut off: the file may be something else
    entirely, given as the results file by mistake, and must stay intact."""
    return line.startswith(_RECORD_START) or (0 < len(line) and _RECORD_START.startswith(line))


def _not_results(path: str) -> ResultsError:
    return NotResultsError(path, f"{path} is not a match results file (its first line is no {FORMAT!r} "
                                 f"header); give a new file or one written by stargtp match")


def _parse(data: bytes, path: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]], int]:
    """Parse the file contents; also return the length of the intact prefix."""
    header: dict[str, Any] | None = None
    games: list[dict[str, Any]] = []
    seen: set[str] = set()
    position = 0
    line_number = 0
    while position < len(data):
        end = data.find(b"\n", position)
        line_number += 1
        last = end < 0 or data[end + 1:].strip() == b""
        line = data[position:] if end < 0 else data[position:end]
        try:
            if end < 0:
                raise ValueError("no end of line")
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError("not an object")
        except ValueError as error:
            if last and (_could_be_ours(line) or not line.strip()):
                return header, games, position  # torn: the write never finished
            if line_number == 1:
                raise _not_results(path) from None
            raise ResultsError(f"{path}:{line_number}: damaged record ({error}); "
                               f"fix or remove the line by hand") from None
        if line_number == 1 and record.get("type") not in ("header", "game"):
            raise _not_results(path)
        if record.get("type") == "header":
            if header is not None or games:
                raise ResultsError(f"{path}:{line_number}: a second header")
            header = record
        elif record.get("type") == "game":
            if header is None and line_number > 1:
                raise ResultsError(f"{path}:{line_number}: game record before the header")
            key = record.get("key")
            if not isinstance(key, str):
                raise ResultsError(f"{path}:{line_number}: game record without a key")
            if key not in seen:
                seen.add(key)
                games.append(record)
        else:
            raise ResultsError(f"{path}:{line_number}: unknown record type {record.get('type')!r}")
        position = end + 1
    return header, games, position


@dataclass
class ResultsFile:
    """An open, locked results file. Use :meth:`open`; close it when done."""

    path: str
    header: dict[str, Any]
    games: list[dict[str, Any]] = field(default_factory=list)
    """The intact game records already in the file, in file order."""
    repaired_bytes: int = 0
    """How many bytes of a torn last line were cut off on opening."""
    _fd: int = -1
    _header_pending: bool = False
    """The file holds no game yet: :meth:`append` writes :attr:`header` first,
    in place of whatever the file holds."""
    _created: bool = False
    """:meth:`open` created the file: :meth:`close` removes it if still empty."""
    _upgrade: bool = False
    """A :data:`FORMAT_1` file: the first :meth:`append` marks its header."""

    @classmethod
    def open(cls, path: str, settings: dict[str, Any]) -> "ResultsFile":
        """Open (creating if needed) and lock ``path`` for a match with
        ``settings``. A file that holds games must have been written for the
        same settings; its torn last line, if any, is cut off. The header is
        written with the first game (:meth:`append`)."""
        created = False
        try:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
                created = True
            except FileExistsError:
                fd = os.open(path, os.O_RDWR)
        except OSError as error:
            raise ResultsError(f"{path}: cannot open: {error.strerror or error}") from None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise ResultsError(f"{path}: another match runner is using this file") from None
            data = _read_all(fd)
            header, games, intact = _parse(data, path)
            repaired = len(data) - intact
            if repaired:
                os.ftruncate(fd, intact)
                os.fsync(fd)
            if header is None and games:
                raise ResultsError(f"{path}: game records without a header")
            if not games:  # nothing to keep: this match's header replaces any other
                header = {"type": "header", "format": FORMAT, "settings": settings}
                return cls(path=path, header=header, repaired_bytes=repaired, _fd=fd, _header_pending=True,
                           _created=created)
            assert header is not None
            if header.get("format") not in FORMATS:
                raise ResultsError(f"{path}: format {header.get('format')!r}, expected {FORMAT!r}")
            differing = _settings_difference(header.get("settings", {}), settings)
            if differing:
                raise ResultsError(f"{path} holds a different match (settings differ: "
                                   f"{', '.join(differing)}); use another results file")
            return cls(path=path, header=header, games=games, repaired_bytes=repaired, _fd=fd,
                       _upgrade=header.get("format") == FORMAT_1)
        except BaseException:
            os.close(fd)
            raise

    @property
    def old_numbering(self) -> bool:
        """Whether the file's games were numbered by a version before 0.2.0."""
        return self.header.get("format") == FORMAT_1

    def append(self, record: dict[str, Any]) -> None:
        """Write one game record durably (returns after fsync); the header
        first when the file holds no game yet."""
        if self._fd < 0:
            raise ResultsError(f"{self.path}: file is closed")
        if self._header_pending:
            os.ftruncate(self._fd, 0)
            _append_line(self._fd, self.header)
            _fsync_directory(self.path)
            self._header_pending = False
        if self._upgrade:
            _mark_format(self._fd)
            self._upgrade = False
        _append_line(self._fd, record)
        self.games.append(record)

    def close(self) -> None:
        """Release the file; remove it when :meth:`open` created it and no
        game got into it."""
        if self._fd >= 0:
            if self._created and self._header_pending:
                try:
                    os.unlink(self.path)  # while still locked
                except OSError:
                    pass
            os.close(self._fd)  # also releases the lock
            self._fd = -1

    def __enter__(self) -> "ResultsFile":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _append_line(fd: int, record: dict[str, Any]) -> None:
    line = (json.dumps(record, separators=(",", ":"), ensure_ascii=True, allow_nan=False) + "\n").encode()
    os.lseek(fd, 0, os.SEEK_END)
    written = 0
    while written < len(line):  # one write normally; the loop covers short writes
        written += os.write(fd, line[written:])
    os.fsync(fd)


def _mark_format(fd: int) -> None:
    """Change a :data:`FORMAT_1` header's format to :data:`FORMAT` in place
    (same length), so that an older version refuses the file."""
    os.lseek(fd, 0, os.SEEK_SET)
    first = os.read(fd, 1 << 16)
    first = first[:first.find(b"\n") + 1] if b"\n" in first else b""
    old = f'"format":"{FORMAT_1}"'.encode()
    at = first.find(old)
    if at >= 0:
        os.pwrite(fd, f'"format":"{FORMAT}"'.encode(), at)
        os.fsync(fd)


def _fsync_directory(path: str) -> None:
    """Make the new file's directory entry durable too."""
    try:
        dir_fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
