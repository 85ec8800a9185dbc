"""The match runner: referee engine-vs-engine games, record them, rate them.

``stargtp match`` (and :func:`run_match` under it) plays games between engines
that speak the protocol, subprocesses or TCP servers alike. The referee keeps
its own position with the rules core and validates every move; the engines
only propose moves. Every way an engine can fail -- an illegal or malformed
move, a timeout, a ``?`` answer to ``genmove``, dying, closing the pipe, a
flood of output -- is an *outcome*: that engine loses the game, the reason is
recorded, and a broken engine is restarted for the next game. Finished games
are appended to a JSON-lines results file (:mod:`protocol.tools.match.results`), so a
re-run with the same file resumes the match. Statistics come from
:mod:`protocol.stats`.

The layers, each usable on its own from Python:

* :class:`MatchSettings` -- what to play (game, engines, clock, openings ...).
* :func:`schedule` -- the list of :class:`GameJob` a match consists of.
* :func:`play_game` -- referee one game between two connected controllers.
* :func:`run_match` -- schedule, engines, concurrency, results file, SPRT.
* :func:`summarise` / :func:`format_summary` -- the results table.

See docs/match.md for a tutorial and the record format.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import itertools
import math
import os
import re
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Callable, TextIO

from engine.colour import BLACK, WHITE, colour_name, opponent
from engine.errors import GameError, IllegalMove
from engine.games import DEFAULT_SIZE, GAMES, new_position
from protocol.controller import (DEFAULT_COMMAND_TIMEOUT, DEFAULT_MAX_RESPONSE_BYTES, ControllerError,
                                 EngineError, EngineSpec, GtpController, ProtocolError, ResponseTimeout,
                                 TransportError)
from protocol.tools.match.results import ResultsError, ResultsFile
from protocol.stats import Estimate, Sprt, SprtResult, Tally, elo_estimate, wilson_interval

# -- faults ------------------------------------------------------------------
ILLEGAL_MOVE = "illegal_move"
"""``genmove`` answered a move the rules forbid here (e.g. an occupied cell)."""
MALFORMED_MOVE = "malformed_move"
"""``genmove`` answered text that is no move on this board."""
TIMEOUT = "timeout"
"""No complete answer in time: the clock (plus tolerance) or the command timeout."""
GENMOVE_ERROR = "genmove_error"
"""``genmove`` answered ``? ...``, which it never may."""
CRASH = "crash"
"""The engine died or closed its output (or the TCP connection)."""
PROTOCOL_ERROR = "protocol_error"
"""The output was not a well-formed answer: garbage framing, wrong id, too long."""
REJECTED_MOVE = "rejected_move"
"""The engine answered ``?`` to ``play`` with a move the referee found legal."""
SETUP_ERROR = "setup_error"
"""The engine failed a setup command (boardsize, clear_board, komi, opening ...)."""
START_FAILURE = "start_failure"
"""The engine could not be (re)started or reached for this game."""
FAULT_KINDS = (ILLEGAL_MOVE, MALFORMED_MOVE, TIMEOUT, GENMOVE_ERROR, CRASH, PROTOCOL_ERROR,
               REJECTED_MOVE, SETUP_ERROR, START_FAILURE)

# Result reasons besides the fault kinds.
REASON_SCORE = "score"
REASON_RESIGN = "resign"
REASON_NO_MOVES = "no_moves"

DEFAULT_TIME_TOLERANCE = 0.25
"""Seconds an answer may arrive after the clock ran out and still count. It
absorbs pipe, network and scheduling delays the engine cannot see."""
DEFAULT_MOVE_TIMEOUT = 60.0
"""Seconds a move may take when no clock is set (the hang detector)."""
DEFAULT_START_TIMEOUT = 30.0
"""Seconds a freshly started engine may take to answer its first command
(loading a network or a book can take a while; a loaded machine too)."""

PLAYOUTS_PLACEHOLDER = "{playouts}"
SLOT_PLACEHOLDER = "{slot}"
"""Replaced by the ``--playouts`` number in engine commands."""

_ENGINE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


# -- time control ----------------------------------------------------------------
@dataclass(frozen=True)
class TimeControl:
    """The referee's clock settings. All times in seconds.

    * absolute / Fischer: ``main`` plus ``increment`` added after each move;
    * Japanese byo-yomi: ``main``, then ``periods`` periods of ``byoyomi``
      seconds; a move that overruns its period uses up another;
    * Canadian: ``main``, then ``canadian_stones`` moves in each block of
      ``canadian_seconds``.
    No main time and no byo-yomi means no clock.
    """

    main: float = 0.0
    increment: float = 0.0
    byoyomi: float = 0.0
    periods: int = 0
    canadian_seconds: float = 0.0
    canadian_stones: int = 0

    @property
    def kind(self) -> str:
        if self.periods:
            return "byoyomi"
        if self.canadian_stones:
            return "canadian"
        if self.main > 0:
            return "fischer" if self.increment else "absolute"
        return "none"

    @classmethod
    def parse(cls, main: str | None = None, byoyomi: str | None = None,
              canadian: str | None = None) -> "TimeControl":
        """From the command-line texts ``MAIN[+INCREMENT]``, ``SECONDSxPERIODS``
        and ``SECONDS/STONES``; ValueError on bad text (the message starts with
        the form expected) or a bad combination."""

        def number(text: str) -> float:
            try:
                value = float(text)
            except ValueError:
                return math.nan
            return value if math.isfinite(value) else math.nan

        def whole(text: str) -> int:
            try:
                return int(text)
            except ValueError:
                return 0

        control = cls()
        if main is not None:
            main_text, sep, increment_text = main.partition("+")
            main_seconds = number(main_text)
            increment = number(increment_text) if sep else 0.0
            if not (main_seconds >= 0 and increment >= 0):
                raise ValueError(f"MAIN[+INC]: expected seconds, e.g. 60 or 60+0.5 (not negative), not {main!r}")
            control = replace(control, main=main_seconds, increment=increment)
        if byoyomi is not None:
            period_text, sep, periods_text = byoyomi.lower().partition("x")
            period, periods = number(period_text), whole(periods_text) if sep else 1
            if not (period > 0 and periods >= 1):
                raise ValueError(f"SECONDS[xPERIODS]: expected e.g. 10x3 (3 periods of 10 s; seconds > 0, "
                                 f"periods >= 1), not {byoyomi!r}")
            control = replace(control, byoyomi=period, periods=periods)
        if canadian is not None:
            block_text, sep, stones_text = canadian.partition("/")
            block, stones = number(block_text), whole(stones_text) if sep else 0
            if not (block > 0 and stones >= 1):
                raise ValueError(f"SECONDS/STONES: expected e.g. 30/5 (5 moves in every 30 s; seconds > 0, "
                                 f"stones >= 1), not {canadian!r}")
            control = replace(control, canadian_seconds=block, canadian_stones=stones)
        if control.periods and control.canadian_stones:
            raise ValueError("choose Japanese or Canadian byo-yomi, not both")
        if control.increment and (control.periods or control.canadian_stones):
            raise ValueError("an increment does not combine with byo-yomi")
        if control.kind == "none" and control.increment:
            raise ValueError("MAIN[+INC]: an increment needs a main time > 0")
        return control

    def describe(self) -> str:
        kind = self.kind
        if kind == "none":
            return "no clock"
        text = f"{self.main:g} s"
        if kind == "fischer":
            text += f" + {self.increment:g} s/move"
        elif kind == "byoyomi":
            text += f", byo-yomi {self.periods} x {self.byoyomi:g} s"
        elif kind == "canadian":
            text += f", then {self.canadian_stones} moves per {self.canadian_seconds:g} s"
        return text

    def settings_commands(self, knows_kgs: bool) -> list[str]:
        """What to tell an engine before a game. GTP times are whole seconds;
        they are rounded up so that a short clock is not announced as zero
        (``time_settings 0 0 0`` would read as no time at all). GTP cannot
        express an increment: Fischer clocks are announced as absolute time
        and ``time_left`` shows the increments as they are added."""
        kind = self.kind
        main = math.ceil(self.main)
        if kind in ("absolute", "fischer"):
            return [f"time_settings {max(main, 1)} 0 0"]
        if kind == "canadian":
            return [f"time_settings {main} {math.ceil(self.canadian_seconds)} {self.canadian_stones}"]
        if kind == "byoyomi":
            if knows_kgs:
                return [f"kgs-time_settings byoyomi {main} {math.ceil(self.byoyomi)} {self.periods}"]
            # Plain GTP has only Canadian byo-yomi; one stone per period is
            # the closest reading (it hides the extra periods from the engine).
            return [f"time_settings {main} {math.ceil(self.byoyomi)} 1"]
        return []

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "main": self.main, "increment": self.increment, "byoyomi": self.byoyomi,
                "periods": self.periods, "canadian_seconds": self.canadian_seconds,
                "canadian_stones": self.canadian_stones}


class RefereeClock:
    """One player's clock in one game, as the referee keeps it."""

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.main_left = control.main
        self.periods_left = control.periods
        self.block_left = control.canadian_seconds
        self.stones_left = control.canadian_stones
        self.in_byoyomi = control.main <= 0 and control.kind in ("byoyomi", "canadian")

    def allowance(self) -> float:
        """Seconds the next move may take before the flag falls (inf: no clock)."""
        control = self.control
        kind = control.kind
        if kind == "none":
            return math.inf
        if kind == "byoyomi":
            return self.main_left + self.periods_left * control.byoyomi
        if kind == "canadian":
            return self.main_left + (self.block_left if self.in_byoyomi else control.canadian_seconds)
        return self.main_left

    def charge(self, seconds: float) -> None:
        """Account for a move that took ``seconds`` and was accepted (at most
        :meth:`allowance` plus the tolerance); an overrun within the tolerance
        is forgiven."""
        control = self.control
        kind = control.kind
        if kind == "none":
            return
        if kind in ("absolute", "fischer"):
            self.main_left = max(self.main_left - seconds, 0.0) + control.increment
            return
        if not self.in_byoyomi:
            if seconds <= self.main_left:
                self.main_left -= seconds
                return
            seconds -= self.main_left
            self.main_left = 0.0
            self.in_byoyomi = True
        if kind == "byoyomi":
            used = max(math.ceil(seconds / control.byoyomi) - 1, 0)
            self.periods_left = max(self.periods_left - used, 1)
        else:
            self.block_left = max(self.block_left - seconds, 0.0)
            self.stones_left -= 1
            if self.stones_left == 0:
                self.block_left = control.canadian_seconds
                self.stones_left = control.canadian_stones

    def time_left_args(self) -> tuple[int, int]:
        """``(seconds, stones)`` for ``time_left``: whole seconds, rounded down.
        Stones is 0 in main time; in byo-yomi it is the stones left in the
        block (Canadian) or the periods left (Japanese, as KGS sends it)."""
        kind = self.control.kind
        if not self.in_byoyomi or kind in ("absolute", "fischer"):
            return int(self.main_left), 0
        if kind == "byoyomi":
            return int(self.control.byoyomi), self.periods_left
        return int(self.block_left), self.stones_left


# -- settings and schedule ---------------------------------------------------
@dataclass(frozen=True)
class EngineEntry:
    """A named engine of the match."""

    name: str
    spec: EngineSpec

    @classmethod
    def parse(cls, text: str, default_name: str | None = None) -> "EngineEntry":
        """``NAME=COMMAND`` / ``NAME=tcp:HOST:PORT``, or just the command when
        ``default_name`` is given. Names: letters, digits, ``_ . -``."""
        name, sep, rest = text.partition("=")
        if sep and _ENGINE_NAME.match(name):
            return cls(name, EngineSpec.parse(rest))
        if default_name is None:
            if sep and " " not in name.strip():
                raise ValueError(f"engine name {name!r}: use 1 to 40 letters, digits, '_', '.' or '-'")
            raise ValueError(f"expected NAME=COMMAND (or NAME=tcp:HOST:PORT), not {text!r}")
        return cls(default_name, EngineSpec.parse(text))


@dataclass(frozen=True)
class MatchSettings:
    """Everything that defines a match. Only ``engines`` is required.

    With two engines the match is a head-to-head; with more, every pair plays
    ``games`` games (round robin). The first engine of each pairing plays
    black in even rounds; colours alternate unless ``alternate`` is False.
    """

    engines: tuple[EngineEntry, ...]
    game: str = "star"
    size: int | None = None
    """Board size (rings for *Star); None for the game's default."""
    komi: float = 0.0
    games: int = 2
    """Games per pairing."""
    alternate: bool = True
    openings: tuple[tuple[str, ...], ...] = ()
    """Move lists, each played twice with colours swapped (when alternating)."""
    time_control: TimeControl = field(default_factory=TimeControl)
    time_tolerance: float = DEFAULT_TIME_TOLERANCE
    move_timeout: float = DEFAULT_MOVE_TIMEOUT
    command_timeout: float = DEFAULT_COMMAND_TIMEOUT
    start_timeout: float = DEFAULT_START_TIMEOUT
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    playouts: int | None = None
    """Fixed-playouts mode: no clock, and ``{playouts}`` in engine commands is
    replaced by this number (see :meth:`engine_spec`)."""
    concurrency: int = 1
    sprt: Sprt | None = None
    stats_model: str = "auto"
    """``trinomial``, ``pentanomial``, or ``auto`` (pentanomial when alternating)."""
    results_path: str | None = None
    check_scores: bool = True
    """Ask both engines for ``final_score`` after a scored game and log disagreements."""
    engine_stderr: str | None = None
    """File that collects the engines' stderr lines (default: discarded)."""
    sgf_dir: str | None = None
    """Amazons only: directory for one SGF file per game (see :func:`save_sgf`)."""

    def __post_init__(self) -> None:
        names = [engine.name for engine in self.engines]
        if len(names) < 2:
            raise ValueError("a match needs at least two engines")
        if len(set(names)) != len(names):
            raise ValueError(f"engine names must differ: {', '.join(names)}")
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r} (known: {', '.join(GAMES)})")
        if self.games < 1 or self.concurrency < 1:
            raise ValueError("games and concurrency must be at least 1")
        if self.sprt is not None and len(self.engines) != 2:
            raise ValueError("an SPRT needs exactly two engines")
        if self.stats_model not in ("auto", "trinomial", "pentanomial"):
            raise ValueError(f"unknown statistics model {self.stats_model!r}")
        if self.stats_model == "pentanomial" and not self.alternate:
            raise ValueError("pentanomial statistics need alternating colours (game pairs)")
        if self.sprt is not None and self.sprt.elo_model == "bayeselo" and self.model == "pentanomial":
            raise ValueError("the bayeselo SPRT needs trinomial statistics (--stats trinomial)")
        if self.playouts is not None and self.playouts < 1:
            raise ValueError("playouts must be at least 1")
        if self.playouts is not None and self.time_control.kind != "none":
            raise ValueError("fixed playouts and a clock exclude each other")
        if self.playouts is not None and not any(
                PLAYOUTS_PLACEHOLDER in word for engine in self.engines for word in engine.spec.argv or ()):
            raise ValueError(f"fixed playouts need {PLAYOUTS_PLACEHOLDER} in the engine commands, e.g. "
                             f"'stargtp serve --playouts {PLAYOUTS_PLACEHOLDER}'")
        if not (math.isfinite(self.time_tolerance) and self.time_tolerance >= 0):
            raise ValueError(f"the time tolerance must be a finite number of seconds >= 0, "
                             f"not {self.time_tolerance!r}")
        for value in (self.move_timeout, self.command_timeout, self.start_timeout):
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"timeouts must be a finite number of seconds > 0, not {value!r}")
        if not math.isfinite(self.komi):
            raise ValueError(f"komi must be a finite number, not {self.komi!r}")
        if self.max_response_bytes < 1:
            raise ValueError("max_response_bytes must be at least 1")
        try:
            new_position(self.game, self.board_size)
            for opening in self.openings:
                replay_opening(self.game, self.board_size, opening)
        except GameError as error:
            raise ValueError(str(error)) from None

    @property
    def board_size(self) -> int:
        return DEFAULT_SIZE[self.game] if self.size is None else self.size

    @property
    def model(self) -> str:
        """The sampling model the statistics use."""
        if self.stats_model == "auto":
            return "pentanomial" if self.alternate else "trinomial"
        return self.stats_model

    def pairings(self) -> list[tuple[str, str]]:
        return list(itertools.combinations([engine.name for engine in self.engines], 2))

    def engine(self, name: str) -> EngineEntry:
        return next(engine for engine in self.engines if engine.name == name)

    def engine_spec(self, name: str, slot: int = 0) -> EngineSpec:
        """How to start engine ``name`` in worker slot ``slot``: its command
        with ``{playouts}`` replaced in fixed-playouts mode (GTP has no
        standard command for a playout limit, so the limit travels on the
        engine's command line) and ``{slot}`` by the slot number, so that
        seeded engines of parallel slots do not all play the same games
        (``--seed 1{slot}``)."""
        spec = self.engine(name).spec
        if spec.argv is None:
            return spec
        argv = tuple(word.replace(SLOT_PLACEHOLDER, str(slot)) for word in spec.argv)
        if self.playouts is not None:
            argv = tuple(word.replace(PLAYOUTS_PLACEHOLDER, str(self.playouts)) for word in argv)
        return replace(spec, argv=argv)

    def identity(self) -> dict[str, Any]:
        """The settings that decide what a recorded game means; a results file
        can only be resumed by a match with the same identity. The number of
        games, concurrency, SPRT and timeouts may change between runs."""
        return {
            "game": self.game,
            "size": self.board_size,
            "komi": self.komi,
            "engines": {engine.name: engine.spec.text for engine in self.engines},
            "alternate": self.alternate,
            "openings": [list(opening) for opening in self.openings],
            "time_control": self.time_control.to_json(),
            "playouts": self.playouts,
        }


@dataclass(frozen=True)
class GameJob:
    """One scheduled game."""

    key: str
    """Unique within a match: ``"A vs B #3"``; the resume key."""
    first: str
    second: str
    round: int
    """0-based game number within the pairing."""
    black: str
    white: str
    opening_index: int | None
    opening: tuple[str, ...]


def schedule(settings: MatchSettings) -> list[GameJob]:
    """Every game of the match in playing order: round by round, each round
    visiting every pairing. Rounds ``2k`` and ``2k+1`` of a pairing share an
    opening and swap colours (when alternating)."""
    jobs = []
    for round_number in range(settings.games):
        for first, second in settings.pairings():
            swapped = settings.alternate and round_number % 2 == 1
            opening_index = None
            opening: tuple[str, ...] = ()
            if settings.openings:
                step = round_number // 2 if settings.alternate else round_number
                opening_index = step % len(settings.openings)
                opening = settings.openings[opening_index]
            jobs.append(GameJob(
                key=f"{first} vs {second} #{round_number}", first=first, second=second,
                round=round_number, black=second if swapped else first, white=first if swapped else second,
                opening_index=opening_index, opening=opening))
    return jobs


def replay_opening(game: str, size: int, moves: tuple[str, ...] | list[str]):
    """The position after ``moves``; IllegalMove for a bad one, GameError if
    the opening ends the game (nothing would be left to play)."""
    position = new_position(game, size)
    for text in moves:
        try:
            position.play(position.parse_move(text))
        except IllegalMove as error:
            raise IllegalMove(f"{text!r}: {error}") from None
    if position.is_over():
        raise GameError("the opening ends the game")
    return position


def read_openings(path: str, game: str, size: int) -> tuple[tuple[str, ...], ...]:
    """Openings from a text file: one per line, moves separated by spaces, in
    playing order from the game's first mover; ``#`` starts a comment. Each is
    checked with the rules and returned in canonical notation. ValueError
    names the line of a bad one."""
    openings = []
    with open(path, encoding="utf-8") as stream:
        for line_number, line in enumerate(stream, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            try:
                position = replay_opening(game, size, words)
            except GameError as error:
                raise ValueError(f"{path}:{line_number}: {error}") from None
            openings.append(tuple(position.format_move(move) for _, move in position.history))
    if not openings:
        raise ValueError(f"{path}: no openings")
    return tuple(openings)


# -- one game ------------------------------------------------------------------
@dataclass
class Seat:
    """An engine taking part in one game. ``controller`` is None when it could
    not be started; ``start_error`` then says why."""

    name: str
    controller: GtpController | None
    start_error: str | None = None
    identity: str | None = None
    """``name version`` as the engine reports them."""


class _Fault(Exception):
    """Ends a game: the engine on ``colour`` loses for ``kind``."""

    def __init__(self, colour: int, kind: str, detail: str, response: str | None = None) -> None:
        super().__init__(detail)
        self.colour = colour
        self.kind = kind
        self.detail = detail
        self.response = response


def _controller_fault(colour: int, error: ControllerError, seat: Seat) -> _Fault:
    if isinstance(error, ResponseTimeout):
        kind = TIMEOUT
    elif isinstance(error, TransportError):
        kind = CRASH
    elif isinstance(error, ProtocolError):
        kind = PROTOCOL_ERROR
    else:
        kind = SETUP_ERROR
    detail = str(error)
    if kind == CRASH and seat.controller is not None and seat.controller.stderr_tail():
        detail += " | stderr: " + seat.controller.stderr_tail()[-300:].strip()
    return _Fault(colour, kind, detail)


def _clip(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


async def play_game(job: GameJob, seats: dict[int, Seat], settings: MatchSettings,
                    log: Callable[[str], None] = lambda line: None) -> dict[str, Any]:
    """Referee one game and return its record (a JSON-ready dict).

    ``seats`` maps BLACK and WHITE to the engines; their controllers must be
    connected (or None, which forfeits). Never raises for anything an engine
    does; controllers that went out of step are left broken for the caller
    to replace.
    """
    started = time.time()
    position = new_position(settings.game, settings.board_size)
    clocks = {BLACK: RefereeClock(settings.time_control), WHITE: RefereeClock(settings.time_control)}
    moves: list[dict[str, Any]] = []
    record: dict[str, Any] = {
        "type": "game", "key": job.key, "pairing": [job.first, job.second], "round": job.round,
        "game": settings.game, "size": settings.board_size, "komi": settings.komi,
        "black": job.black, "white": job.white,
        "engines": {colour_name(c): {"name": seats[c].name, "target": settings.engine(seats[c].name).spec.text,
                                     "id": seats[c].identity} for c in (BLACK, WHITE)},
        "opening": None if job.opening_index is None else {"index": job.opening_index, "moves": list(job.opening)},
        "moves": moves,
    }
    outcome: dict[str, Any]
    try:
        await _setup(position, seats, settings, job, moves)
        outcome = await _play_moves(position, seats, clocks, settings, moves)
    except _Fault as fault:
        outcome = {"winner": opponent(fault.colour), "reason": fault.kind,
                   "fault": {"engine": seats[fault.colour].name, "colour": colour_name(fault.colour),
                             "kind": fault.kind, "detail": _clip(fault.detail, 400),
                             **({"response": _clip(fault.response)} if fault.response is not None else {})}}
        log(f"{job.key}: {seats[fault.colour].name} ({colour_name(fault.colour)}) loses by "
            f"{fault.kind}: {_clip(fault.detail, 200)}")
    winner = outcome["winner"]
    result = outcome.get("result")
    if result is None:
        # SGF's notation: R resign, T time, F forfeit (every other fault).
        suffix = {REASON_RESIGN: "R", TIMEOUT: "T"}.get(outcome["reason"], "F")
        result = f"{'B' if winner == BLACK else 'W'}+{suffix}"
    record.update({
        "result": result,
        "winner": None if winner is None else colour_name(winner),
        "winner_engine": None if winner is None else seats[winner].name,
        "reason": outcome["reason"],
        "fault": outcome.get("fault"),
        "score": outcome.get("score"),
        "engine_scores": outcome.get("engine_scores"),
        "score_disagreements": outcome.get("score_disagreements", []),
        "started": datetime.datetime.fromtimestamp(started, datetime.timezone.utc).isoformat(timespec="seconds"),
        "seconds": round(time.time() - started, 3),
    })
    for name in record["score_disagreements"]:
        log(f"{job.key}: {name} scores the game {record['engine_scores'][name]!r}, the referee {result!r}")
    return record


async def _send(seat: Seat, colour: int, command: str, timeout: float | None = None) -> str:
    """A setup-type command: any failure is a fault of this seat."""
    if seat.controller is None:
        raise _Fault(colour, START_FAILURE, seat.start_error or "engine not available")
    try:
        return await seat.controller.send(command, timeout=timeout)
    except EngineError as error:
        raise _Fault(colour, SETUP_ERROR, f"{command!r} answered {error.message!r}") from None
    except ControllerError as error:
        raise _controller_fault(colour, error, seat) from None


async def _knows(seat: Seat, colour: int, command: str) -> bool:
    assert seat.controller is not None
    try:
        return await seat.controller.known_command(command)
    except ControllerError as error:
        raise _controller_fault(colour, error, seat) from None


async def _setup(position, seats: dict[int, Seat], settings: MatchSettings, job: GameJob,
                 moves: list[dict[str, Any]]) -> None:
    for colour in (BLACK, WHITE):
        seat = seats[colour]
        if seat.controller is None:
            raise _Fault(colour, START_FAILURE, seat.start_error or "engine not available")
        knows_kgs = settings.time_control.kind == "byoyomi" and await _knows(seat, colour, "kgs-time_settings")
        knows_time = settings.time_control.kind != "none" and await _knows(seat, colour, "time_settings")
        if await _knows(seat, colour, "game"):
            await _send(seat, colour, f"game {settings.game}")
        await _send(seat, colour, f"boardsize {settings.board_size}")
        await _send(seat, colour, "clear_board")
        await _send(seat, colour, f"komi {settings.komi:g}")
        if knows_time:
            for command in settings.time_control.settings_commands(knows_kgs):
                await _send(seat, colour, command)
    for text in job.opening:
        mover = position.to_move
        move = position.parse_move(text)
        position.play(move)
        text = position.format_move(move)
        for colour in (BLACK, WHITE):
            await _send(seats[colour], colour, f"play {colour_name(mover)} {text}")
        moves.append({"colour": colour_name(mover), "move": text, "seconds": None})


async def _play_moves(position, seats: dict[int, Seat], clocks: dict[int, RefereeClock],
                      settings: MatchSettings, moves: list[dict[str, Any]]) -> dict[str, Any]:
    while not position.is_over():
        colour = position.to_move
        seat = seats[colour]
        controller = seat.controller
        assert controller is not None
        clock = clocks[colour]
        allowance = clock.allowance()
        if math.isinf(allowance):
            limit = settings.move_timeout
        else:
            seconds, stones = clock.time_left_args()
            if await _knows(seat, colour, "time_left"):
                await _send(seat, colour, f"time_left {colour_name(colour)} {seconds} {stones}")
            limit = allowance + settings.time_tolerance
        began = time.monotonic()
        try:
            answer = await controller.send(f"genmove {colour_name(colour)}", timeout=limit)
        except ResponseTimeout:
            if math.isinf(allowance):
                detail = f"no move within the move timeout of {limit:g} s"
            else:
                detail = (f"no move within {limit:.3f} s (clock {allowance:.3f} s + tolerance "
                          f"{settings.time_tolerance:g} s)")
            raise _Fault(colour, TIMEOUT, detail) from None
        except EngineError as error:
            raise _Fault(colour, GENMOVE_ERROR, f"genmove answered ? {error.message}", error.message) from None
        except ControllerError as error:
            raise _controller_fault(colour, error, seat) from None
        elapsed = time.monotonic() - began
        clock.charge(elapsed)
        text = answer.strip()
        if text.lower() == "resign":
            moves.append({"colour": colour_name(colour), "move": "resign", "seconds": round(elapsed, 4)})
            return {"winner": opponent(colour), "reason": REASON_RESIGN}
        try:
            move = position.parse_move(text)
        except IllegalMove as error:
            raise _Fault(colour, MALFORMED_MOVE, f"{text!r} is not a move here: {error}", text) from None
        if not position.is_legal(move, colour):
            raise _Fault(colour, ILLEGAL_MOVE, f"{position.format_move(move)} is not legal here", text)
        position.play(move, colour)
        canonical = position.format_move(move)
        moves.append({"colour": colour_name(colour), "move": canonical, "seconds": round(elapsed, 4)})
        other = opponent(colour)
        other_seat = seats[other]
        assert other_seat.controller is not None
        try:
            await other_seat.controller.send(f"play {colour_name(colour)} {canonical}")
        except EngineError as error:
            raise _Fault(other, REJECTED_MOVE, f"play {colour_name(colour)} {canonical} answered "
                                               f"{error.message!r}, but the move is legal") from None
        except ControllerError as error:
            raise _controller_fault(other, error, other_seat) from None
    return await _finish(position, seats, settings)


async def _finish(position, seats: dict[int, Seat], settings: MatchSettings) -> dict[str, Any]:
    """Score a game that ended on the board, and cross-check the engines."""
    if settings.game == "star":
        from engine.star.scoring import score

        breakdown = score(position, settings.komi)
        outcome: dict[str, Any] = {"winner": breakdown.winner, "reason": REASON_SCORE,
                                   "result": breakdown.gtp_result(), "score": _star_score_json(position, breakdown)}
    else:
        # The Amazons: the side to move has no move and loses; the scorer
        # adds the margin (the moves the winner still has).
        from engine.amazons.scoring import score as amazons_score

        winner = position.winner()
        outcome = {"winner": winner, "reason": REASON_NO_MOVES,
                   "result": "B+" if winner == BLACK else "W+"}
        breakdown = amazons_score(position)
        if breakdown.winner == winner:
            outcome["result"] = breakdown.gtp_result()
            outcome["score"] = {"margin": breakdown.margin, "margin_exact": breakdown.margin_exact,
                                "territory": {colour_name(c): n for c, n in breakdown.territory.items()},
                                "reason": breakdown.reason}
    if settings.check_scores:
        engine_scores: dict[str, str] = {}
        disagreements = []
        for colour in (BLACK, WHITE):
            seat = seats[colour]
            controller = seat.controller
            assert controller is not None
            try:
                if not await controller.known_command("final_score"):
                    continue
                answer = await controller.send("final_score")
            except EngineError as error:
                answer = f"? {error.message}"
            except ControllerError as error:
                answer = f"no answer: {error}"
            engine_scores[seat.name] = _clip(answer.strip(), 60)
            if not _same_result(answer, outcome["result"]):
                disagreements.append(seat.name)
        outcome["engine_scores"] = engine_scores
        outcome["score_disagreements"] = disagreements
    return outcome


def _same_result(claimed: str, actual: str) -> bool:
    """``B+3`` equals ``b+3.0``; for results without a margin the side decides."""
    def normal(text: str) -> tuple[str, float | None] | None:
        text = text.strip().upper()
        if text in ("0", "DRAW", "JIGO"):
            return ("0", 0.0)
        side, sep, margin = text.partition("+")
        if side not in ("B", "W") or not sep:
            return None
        try:
            return (side, float(margin)) if margin else (side, None)
        except ValueError:
            return (side, None)

    a, b = normal(claimed), normal(actual)
    if a is None or b is None:
        return False
    if a[1] is None or b[1] is None:
        return a[0] == b[0]
    return a == b


def _star_score_json(position, breakdown) -> dict[str, Any]:
    label = position.format_move
    colours = {BLACK: "black", WHITE: "white"}
    return {
        "margin": breakdown.margin,
        "komi": breakdown.komi,
        **{name: {"peris": breakdown.of(c).peris, "quarks": breakdown.of(c).quarks,
                  "quark_peri": breakdown.of(c).quark_peri, "stars": breakdown.of(c).stars,
                  "conventional": breakdown.conventional[c], "simplified": breakdown.simplified[c],
                  "schmittberger": breakdown.schmittberger[c]} for c, name in colours.items()},
        "stars": [{"colour": colours[star.colour], "pericells": [label(cell) for cell in star.pericells],
                   "quarks": star.quarks} for star in breakdown.stars],
        "dead_groups": len(breakdown.dead_groups),
    }


# -- SGF hook ------------------------------------------------------------------
def save_sgf(record: dict[str, Any], directory: str) -> str | None:
    """Write a game record as SGF beside the JSON records, for the games that
    have an SGF format (the Amazons, :func:`engine.amazons.sgf.write_sgf`).
    Returns the path written, or None for a game without one."""
    if record.get("game") != "amazons":
        return None
    from engine.amazons.sgf import write_sgf

    position = new_position(record["game"], record["size"])
    for move in record["moves"]:
        if move["move"] != "resign":
            position.play(position.parse_move(move["move"]), BLACK if move["colour"] == "black" else WHITE)
    # SGF's Amazons colours are the reverse of ours (its B moves first, our
    # White does): write_sgf swaps RE and the moves, the player names we swap.
    names = {colour: record["engines"][colour]["name"] for colour in ("black", "white")}
    text = write_sgf(position, record["result"], {"PB": names["white"], "PW": names["black"],
                                                  "GN": record["key"],
                                                  "GC": f"ended by {record['reason']}"})
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, re.sub(r"[^A-Za-z0-9_.-]+", "_", record["key"]) + ".sgf")
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(text)
    return path


# -- engines per worker ------------------------------------------------------
class EnginePool:
    """The engine processes (or connections) one worker slot owns: one per
    engine name, started on first use and replaced after it broke."""

    def __init__(self, settings: MatchSettings, slot: int, stderr_sink: TextIO | None = None) -> None:
        self.settings = settings
        self.slot = slot
        self.stderr_sink = stderr_sink
        self.controllers: dict[str, GtpController] = {}
        self.identities: dict[str, str] = {}
        self.restarts: Counter[str] = Counter()

    async def seat(self, name: str) -> Seat:
        controller = self.controllers.get(name)
        if controller is not None and controller.broken is None and controller.returncode is None:
            return Seat(name, controller, identity=self.identities.get(name))
        if controller is not None:
            await controller.close()
            del self.controllers[name]
            self.restarts[name] += 1
        try:
            controller = await self.start(name)
        except ControllerError as error:
            return Seat(name, None, start_error=str(error))
        return Seat(name, controller, identity=self.identities.get(name))

    async def start(self, name: str) -> GtpController:
        """Start (or connect to) engine ``name`` and ask who it is."""
        spec = self.settings.engine_spec(name, self.slot)
        sink = self.stderr_sink

        def on_line(line: str) -> None:
            if sink is not None:
                sink.write(f"[{name} slot {self.slot}] {line}\n")
                sink.flush()

        controller = await GtpController.open(spec, command_timeout=self.settings.command_timeout,
                                              max_response_bytes=self.settings.max_response_bytes,
                                              on_stderr_line=on_line if sink is not None else None,
                                              description=name)
        try:
            parts = []
            for command, timeout in (("name", self.settings.start_timeout), ("version", None)):
                try:
                    parts.append((await controller.send(command, timeout=timeout)).strip())
                except EngineError:
                    pass
            self.identities[name] = _clip(" ".join(p for p in parts if p), 80) or name
        except ControllerError:
            await controller.close()
            raise
        self.controllers[name] = controller
        return controller

    async def close(self) -> None:
        for controller in self.controllers.values():
            await controller.close()
        self.controllers.clear()


# -- statistics over records --------------------------------------------------
@dataclass(frozen=True)
class PairingSummary:
    """Statistics of one pairing, from ``first``'s side."""

    first: str
    second: str
    tally: Tally
    model: str
    win_rate: Estimate
    elo: Estimate
    average_moves: float
    seconds_per_move: dict[str, float]
    faults: dict[str, dict[str, int]]
    """engine name -> fault kind -> count."""
    disagreements: dict[str, int]
    sprt: SprtResult | None = None


def game_score(record: dict[str, Any], engine_name: str) -> float:
    """1, 1/2 or 0 for ``engine_name`` in a finished game."""
    winner = record.get("winner_engine")
    if winner is None:
        return 0.5
    return 1.0 if winner == engine_name else 0.0


def tally_of(records: list[dict[str, Any]], first: str, second: str, alternate: bool = True) -> Tally:
    """Trinomial counts of all games and pentanomial counts of the complete
    colour-swapped pairs (rounds 2k and 2k+1) of one pairing."""
    mine = [r for r in records if r.get("pairing") == [first, second]]
    scores = [game_score(r, first) for r in mine]
    pair_scores = []
    if alternate:
        by_round = {r["round"]: game_score(r, first) for r in mine}
        for round_number, points in by_round.items():
            if round_number % 2 == 0 and round_number + 1 in by_round:
                pair_scores.append(points + by_round[round_number + 1])
    return Tally.from_scores(scores, pair_scores)


def summarise(records: list[dict[str, Any]], settings: MatchSettings) -> list[PairingSummary]:
    """One :class:`PairingSummary` per pairing."""
    summaries = []
    for first, second in settings.pairings():
        mine = [r for r in records if r.get("pairing") == [first, second]]
        tally = tally_of(mine, first, second, settings.alternate)
        times: dict[str, list[float]] = {first: [], second: []}
        faults: dict[str, Counter[str]] = {first: Counter(), second: Counter()}
        disagreements: Counter[str] = Counter()
        for record in mine:
            for move in record["moves"]:
                if move.get("seconds") is not None:
                    times[record[move["colour"]]].append(move["seconds"])
            if record.get("fault"):
                faults[record["fault"]["engine"]][record["fault"]["kind"]] += 1
            for name in record.get("score_disagreements") or []:
                disagreements[name] += 1
        lengths = [len(r["moves"]) for r in mine]
        sprt = settings.sprt.evaluate(tally, settings.model) if settings.sprt is not None else None
        summaries.append(PairingSummary(
            first=first, second=second, tally=tally, model=settings.model,
            win_rate=wilson_interval(tally.points, tally.games),
            elo=elo_estimate(tally, settings.model),
            average_moves=sum(lengths) / len(lengths) if lengths else math.nan,
            seconds_per_move={n: (sum(t) / len(t) if t else math.nan) for n, t in times.items()},
            faults={n: dict(c) for n, c in faults.items() if c},
            disagreements=dict(disagreements), sprt=sprt))
    return summaries


def _elo_text(value: float) -> str:
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return "0" if round(value) == 0 else f"{value:+.0f}"


def _percent(value: float) -> str:
    return "-" if math.isnan(value) else f"{100 * value:.1f}"


def format_summary(summaries: list[PairingSummary], settings: MatchSettings) -> str:
    """The results table printed at the end of a match. Komi is named only
    when it is set: it means nothing in the Amazons, and 0 is the default."""
    komi = f"komi {settings.komi:g}, " if settings.komi else ""
    lines = [f"{settings.game}, size {settings.board_size}, {komi}"
             f"{settings.games} games per pairing, clock: " +
             (f"{settings.playouts} playouts per move" if settings.playouts else settings.time_control.describe()) +
             (f" (tolerance {settings.time_tolerance:g} s)" if settings.time_control.kind != "none" else "")]
    for engine in settings.engines:
        lines.append(f"  {engine.name} = {engine.spec.text}")
    header = (f"{'pairing':<20} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6} {'score':>6}  "
              f"{'win rate % [95%]':<20} {'Elo [95%]':<20} {'moves':>6}  s/move (1st / 2nd)")
    lines += ["", header, "-" * len(header)]
    for s in summaries:
        t = s.tally
        win_rate = f"{_percent(s.win_rate.value)} [{_percent(s.win_rate.low)}, {_percent(s.win_rate.high)}]"
        elo = f"{_elo_text(s.elo.value)} [{_elo_text(s.elo.low)}, {_elo_text(s.elo.high)}]"
        per_move = " / ".join("-" if math.isnan(v) else f"{v:.3f}" for v in s.seconds_per_move.values())
        moves = "-" if math.isnan(s.average_moves) else f"{s.average_moves:.1f}"
        lines.append(f"{s.first + ' vs ' + s.second:<20} {t.games:>5} {t.wins:>5} {t.draws:>5} {t.losses:>6} "
                     f"{t.points:>6g}  {win_rate:<20} {elo:<20} {moves:>6}  {per_move}")
    lines.append("")
    lines.append(f"Scores and intervals are from the first engine's side; Elo interval: "
                 f"{summaries[0].model if summaries else settings.model} model.")
    for s in summaries:
        for name, kinds in s.faults.items():
            listed = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
            lines.append(f"faults ({s.first} vs {s.second}): {name}: {listed}")
        for name, count in s.disagreements.items():
            lines.append(f"score disagreements ({s.first} vs {s.second}): {name}: {count}")
        if s.sprt is not None and settings.sprt is not None:
            sprt = settings.sprt
            verdict = {"H1": f"H1 accepted ({s.first} is stronger by about {sprt.elo1:g} Elo or more)",
                       "H0": f"H0 accepted ({s.first} is not stronger by {sprt.elo1:g} Elo)",
                       None: "no decision yet"}[s.sprt.decision]
            lines.append(f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g} "
                         f"({sprt.elo_model}, {s.model}): LLR {s.sprt.llr:.3f} "
                         f"[{s.sprt.lower:.3f}, {s.sprt.upper:.3f}]: {verdict}")
    if len(settings.engines) > 2:
        points: Counter[str] = Counter()
        played: Counter[str] = Counter()
        for s in summaries:
            points[s.first] += s.tally.points
            points[s.second] += s.tally.games - s.tally.points
            played[s.first] += s.tally.games
            played[s.second] += s.tally.games
        lines.append("")
        lines.append("standings: " + ", ".join(f"{name} {points[name]:g}/{played[name]}"
                                               for name, _ in points.most_common()))
    return "\n".join(lines)


# -- the match ---------------------------------------------------------------
@dataclass
class MatchResult:
    """What :func:`run_match` returns."""

    records: list[dict[str, Any]]
    """Every finished game of the match, resumed ones included."""
    summaries: list[PairingSummary]
    played: int
    """Games played by this run."""
    resumed: int
    """Games found already recorded."""
    sprt_stopped: bool = False


class Progress:
    """The live progress line on stderr."""

    def __init__(self, settings: MatchSettings, total: int, done: int, stream: TextIO | None) -> None:
        self.settings = settings
        self.total = total
        self.done = done
        self.resumed = done
        self.stream = stream
        self.started = time.monotonic()
        self.tty = bool(stream is not None and hasattr(stream, "isatty") and stream.isatty())

    def line(self, records: list[dict[str, Any]]) -> str:
        elapsed = time.monotonic() - self.started
        played = self.done - self.resumed
        rate = played / elapsed if elapsed > 0 and played else 0.0
        remaining = self.total - self.done
        eta = "-" if not rate else str(datetime.timedelta(seconds=round(remaining / rate)))
        parts = [f"[{self.done}/{self.total}]"]
        pairings = self.settings.pairings()
        if len(pairings) == 1:
            # Only the tally here: the line is redrawn after every game.
            (first, second), = pairings
            tally = tally_of(records, first, second, self.settings.alternate)
            model = self.settings.model
            elo = elo_estimate(tally, model)
            parts.append(f"{first} {tally.wins}-{tally.draws}-{tally.losses} {second}")
            parts.append(f"score {_percent(tally.points / tally.games if tally.games else math.nan)}%")
            parts.append(f"Elo {_elo_text(elo.value)} [{_elo_text(elo.low)}, {_elo_text(elo.high)}]")
            if self.settings.sprt is not None:
                sprt = self.settings.sprt.evaluate(tally, model)
                parts.append(f"LLR {sprt.llr:.2f} [{sprt.lower:.2f}, {sprt.upper:.2f}]")
        parts.append(f"{rate * 60:.1f} games/min")
        parts.append(f"ETA {eta}")
        return "  ".join(parts)

    def update(self, records: list[dict[str, Any]]) -> None:
        self.done = len(records)
        if self.stream is None:
            return
        line = self.line(records)
        self.stream.write(("\r\x1b[K" + line) if self.tty else line + "\n")
        self.stream.flush()

    def log(self, message: str) -> None:
        if self.stream is None:
            return
        self.stream.write(("\r\x1b[K" if self.tty else "") + message + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.stream is not None and self.tty:
            self.stream.write("\n")
            self.stream.flush()


async def run_match(settings: MatchSettings, *, progress: TextIO | None = None,
                    on_record: Callable[[dict[str, Any]], None] | None = None) -> MatchResult:
    """Play the match ``settings`` describe and return every record.

    With ``settings.results_path`` the games already in that file are kept
    and only the missing ones are played. ``progress`` (e.g. ``sys.stderr``)
    receives the progress line and fault messages. Raises ValueError when an
    engine cannot be started or reached before the first game or the engine
    stderr file cannot be opened, and :class:`protocol.tools.match.results.ResultsError`
    for an unusable results file.
    """
    results = ResultsFile.open(settings.results_path, settings.identity()) if settings.results_path else None
    try:
        stderr_sink = open(settings.engine_stderr, "a", encoding="utf-8") if settings.engine_stderr else None
    except OSError as error:
        if results is not None:
            results.close()
        raise ValueError(f"cannot open the engine stderr file {settings.engine_stderr}: "
                         f"{error.strerror or error}") from None
    pools = [EnginePool(settings, slot, stderr_sink) for slot in range(settings.concurrency)]
    try:
        records: list[dict[str, Any]] = list(results.games) if results is not None else []
        jobs = schedule(settings)
        wanted = {job.key for job in jobs}
        records = [r for r in records if r["key"] in wanted]  # a shorter re-run ignores the extra games
        resumed = len(records)
        done = {r["key"] for r in records}
        pending = [job for job in jobs if job.key not in done]
        reporter = Progress(settings, len(jobs), len(records), progress)
        if results is not None and results.repaired_bytes:
            reporter.log(f"{settings.results_path}: cut off a torn last record ({results.repaired_bytes} bytes)")
        if records:
            reporter.log(f"resuming: {len(records)} of {len(jobs)} games already recorded")
        if _sprt_decided(records, settings) or not pending:
            return MatchResult(records, summarise(records, settings), 0, resumed,
                               sprt_stopped=_sprt_decided(records, settings))
        await _preflight(pools[0], settings)
        stop = asyncio.Event()
        played = 0

        async def worker(pool: EnginePool, my_jobs: list[GameJob]) -> None:
            nonlocal played
            for job in my_jobs:
                if stop.is_set():
                    return
                seats = {BLACK: await pool.seat(job.black), WHITE: await pool.seat(job.white)}
                record = await play_game(job, seats, settings, reporter.log)
                restarts = {n: pool.restarts[n] for n in (job.black, job.white) if pool.restarts[n]}
                if restarts:
                    record["engine_restarts"] = restarts  # cumulative for this worker slot
                if stop.is_set():
                    return  # the match was decided while this game ran
                if results is not None:
                    results.append(record)
                records.append(record)
                played += 1
                if on_record is not None:
                    on_record(record)
                if settings.sgf_dir:
                    try:
                        save_sgf(record, settings.sgf_dir)
                    except (OSError, GameError) as error:
                        reporter.log(f"{job.key}: no SGF written: {error}")
                reporter.update(records)
                if _sprt_decided(records, settings):
                    stop.set()

        tasks = [asyncio.create_task(worker(pool, jobs_of_slot))
                 for pool, jobs_of_slot in zip(pools, deal(pending, settings))]
        try:
            stopper = asyncio.create_task(stop.wait())
            remaining = set(tasks)
            while remaining:
                finished, remaining = await asyncio.wait(remaining | {stopper}, return_when=asyncio.FIRST_COMPLETED)
                for task in finished:
                    if task is not stopper and task.exception() is not None:
                        raise task.exception()  # type: ignore[misc]
                remaining.discard(stopper)
                if stop.is_set():
                    break
            stopper.cancel()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        reporter.finish()
        return MatchResult(records, summarise(records, settings), played, resumed,
                           sprt_stopped=_sprt_decided(records, settings))
    finally:
        for pool in pools:
            await pool.close()
        if results is not None:
            results.close()
        if stderr_sink is not None:
            stderr_sink.close()


def deal(jobs: list[GameJob], settings: MatchSettings) -> list[list[GameJob]]:
    """Share the jobs out among the worker slots, the same way every time for
    the same jobs and concurrency (so fixed-playout matches replay). The two
    games of a colour-swapped pair go to one slot, back to back: pairs then
    complete steadily for the pentanomial statistics and the SPRT, and both
    games of a pair meet the same engine processes."""
    groups: dict[tuple[str, str, int], list[GameJob]] = {}
    for job in jobs:
        unit = job.round // 2 if settings.alternate else job.round
        groups.setdefault((job.first, job.second, unit), []).append(job)
    slots: list[list[GameJob]] = [[] for _ in range(settings.concurrency)]
    for index, group in enumerate(groups.values()):
        slots[index % settings.concurrency].extend(group)
    return slots


def _sprt_decided(records: list[dict[str, Any]], settings: MatchSettings) -> bool:
    if settings.sprt is None:
        return False
    (first, second), = settings.pairings()
    return settings.sprt.evaluate(tally_of(records, first, second, settings.alternate),
                                  settings.model).decision is not None


async def _preflight(pool: EnginePool, settings: MatchSettings) -> None:
    """Start every engine once before the first game, so a mistyped command
    or a dead server is a clear error rather than a match of forfeits."""
    for entry in settings.engines:
        try:
            controller = await pool.start(entry.name)
            version = (await controller.send("protocol_version")).strip()
        except (ControllerError, OSError) as error:
            raise ValueError(f"engine {entry.name} ({entry.spec.text}) is not usable: {error}") from None
        if version != "2":
            print(f"warning: engine {entry.name} says protocol_version {version!r}, not 2", file=sys.stderr)


# -- the command line ----------------------------------------------------------
# Every option is read as text and checked here, so that a bad value gives one
# line naming the option and the form it takes (``--games N: expected a whole
# number of at least 1, not '0'``) and exit status 2, never a traceback.
OPT_BLACK = "--black [NAME=]ENGINE"
OPT_WHITE = "--white [NAME=]ENGINE"
OPT_ENGINE = "--engine NAME=ENGINE"
OPT_SIZE = "--size N"
OPT_KOMI = "--komi K"
OPT_GAMES = "--games N"
OPT_OPENINGS = "--openings FILE"
OPT_TIME = "--time MAIN[+INC]"
OPT_BYOYOMI = "--byoyomi SECONDS[xPERIODS]"
OPT_CANADIAN = "--canadian SECONDS/STONES"
OPT_TOLERANCE = "--time-tolerance SECONDS"
OPT_PLAYOUTS = "--playouts N"
OPT_MOVE_TIMEOUT = "--move-timeout SECONDS"
OPT_COMMAND_TIMEOUT = "--command-timeout SECONDS"
OPT_START_TIMEOUT = "--start-timeout SECONDS"
OPT_CONCURRENCY = "--concurrency K"
OPT_RESULTS = "--results FILE"
OPT_SPRT = "--sprt ELO0 ELO1 ALPHA BETA"
OPT_ENGINE_STDERR = "--engine-stderr FILE"
OPT_MAX_RESPONSE = "--max-response-bytes N"
OPT_SGF_DIR = "--sgf-dir DIR"


def _one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Make argparse's own errors (an unknown ``--game``, ``--sprt`` with three
    numbers) one line too, like the checks of :func:`settings_from_args`,
    instead of the usage text followed by the message."""
    def error(message: str) -> None:
        parser.exit(2, f"{parser.prog}: {message}\n")

    parser.error = error  # type: ignore[method-assign, assignment]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``stargtp match``. Values are read as text and checked
    by :func:`settings_from_args`."""
    _one_line_errors(parser)
    engines = parser.add_argument_group("engines (commands to start, or tcp:HOST:PORT)")
    engines.add_argument("--black", metavar="[NAME=]ENGINE", help="first engine (named A unless NAME= is given); "
                         "plays black in even rounds")
    engines.add_argument("--white", metavar="[NAME=]ENGINE", help="second engine (named B unless NAME= is given)")
    engines.add_argument("--engine", metavar="NAME=ENGINE", action="append", default=[],
                         help="an engine by name; give two or more for a round robin (instead of --black/--white)")
    game = parser.add_argument_group("games")
    game.add_argument("--game", choices=GAMES, default="star")
    game.add_argument("--size", metavar="N", help="board size (rings for *Star); default per game")
    game.add_argument("--komi", metavar="K", help="komi, added to white's *Star score (default 0)")
    game.add_argument("--games", metavar="N", help="games per pairing (default 2)")
    game.add_argument("--no-alternate", dest="alternate", action="store_false",
                      help="the first engine always plays black")
    game.add_argument("--openings", metavar="FILE", help="opening move lists, one per line; each is played twice, "
                      "colours swapped")
    clock = parser.add_argument_group("time control")
    clock.add_argument("--time", metavar="MAIN[+INC]", help="main time and Fischer increment, seconds")
    clock.add_argument("--byoyomi", metavar="SECONDS[xPERIODS]", help="Japanese byo-yomi after main time")
    clock.add_argument("--canadian", metavar="SECONDS/STONES", help="Canadian byo-yomi after main time")
    clock.add_argument("--time-tolerance", metavar="SECONDS",
                       help=f"grace after the clock runs out (default {DEFAULT_TIME_TOLERANCE})")
    clock.add_argument("--playouts", metavar="N",
                       help="fixed-playouts mode: no clock; {playouts} in engine commands becomes N")
    clock.add_argument("--move-timeout", metavar="SECONDS",
                       help=f"longest move without a clock (default {DEFAULT_MOVE_TIMEOUT:g})")
    clock.add_argument("--command-timeout", metavar="SECONDS",
                       help=f"longest answer to any other command (default {DEFAULT_COMMAND_TIMEOUT:g})")
    clock.add_argument("--start-timeout", metavar="SECONDS",
                       help=f"longest wait for a started engine's first answer (default {DEFAULT_START_TIMEOUT:g})")
    run = parser.add_argument_group("running")
    run.add_argument("--concurrency", metavar="K", help="games played in parallel (default 1)")
    run.add_argument("--results", metavar="FILE", help="JSON-lines results file; re-run with it to resume")
    run.add_argument("--sprt", nargs=4, metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
                     help="stop early when the sequential test decides")
    run.add_argument("--sprt-model", choices=("logistic", "bayeselo"), default="logistic",
                     help="Elo model of the SPRT: fishtest's logistic (default) or cutechess-cli's bayeselo")
    run.add_argument("--stats", choices=("auto", "trinomial", "pentanomial"), default="auto",
                     help="sampling model: pentanomial counts colour-swapped game pairs (auto: when alternating)")
    run.add_argument("--no-score-check", dest="check_scores", action="store_false",
                     help="do not ask the engines for final_score")
    run.add_argument("--engine-stderr", metavar="FILE", help="collect the engines' stderr in FILE")
    run.add_argument("--max-response-bytes", metavar="N",
                     help=f"longest answer accepted (default {DEFAULT_MAX_RESPONSE_BYTES})")
    run.add_argument("--sgf-dir", metavar="DIR",
                     help="Amazons: save each game as SGF in DIR (default with --results FILE:"
                          " FILE's name without its suffix, plus -sgf)")
    run.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _whole_number(option: str, text: str | None, default: int | None, minimum: int | None) -> int | None:
    """``text`` as an integer of at least ``minimum`` (``default`` when None)."""
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or (minimum is not None and value < minimum):
        bound = "" if minimum is None else f" of at least {minimum}"
        raise ValueError(f"{option}: expected a whole number{bound}, not {text!r}")
    return value


def _number(option: str, text: str | None, default: float, *, minimum: float | None = None,
            positive: bool = False, unit: str = "") -> float:
    """``text`` as a finite float (``default`` when None), optionally > 0 or >= ``minimum``."""
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    bound = " > 0" if positive else f" >= {minimum:g}" if minimum is not None else ""
    if not math.isfinite(value) or (positive and value <= 0) or (minimum is not None and value < minimum):
        raise ValueError(f"{option}: expected a finite number{unit}{bound}, not {text!r}")
    return value


def _seconds(option: str, text: str | None, default: float, *, allow_zero: bool = False) -> float:
    return _number(option, text, default, minimum=0.0 if allow_zero else None, positive=not allow_zero,
                   unit=" of seconds")


def _file_to_write(option: str, path: str) -> None:
    """A file the match will create or append to: not a directory, in a
    directory that exists, readable and writable."""
    if os.path.isdir(path):
        raise ValueError(f"{option}: {path} is a directory, not a file")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise ValueError(f"{option}: cannot create {path}: there is no directory {parent}")
    if os.path.exists(path):
        if not os.access(path, os.R_OK | os.W_OK):
            raise ValueError(f"{option}: cannot read and write {path}: permission denied")
    elif not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{option}: cannot create {path}: permission denied in {parent}")


def _directory_to_fill(option: str, path: str) -> None:
    """A directory the match will create if needed and write files into."""
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise ValueError(f"{option}: {path} exists and is not a directory")
        if not os.access(path, os.W_OK | os.X_OK):
            raise ValueError(f"{option}: cannot write into {path}: permission denied")
        return
    ancestor = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(ancestor):
        ancestor = os.path.dirname(ancestor)
    if not os.path.isdir(ancestor):
        raise ValueError(f"{option}: cannot create {path}: {ancestor} is not a directory")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise ValueError(f"{option}: cannot create {path}: permission denied in {ancestor}")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist yet
        return os.path.abspath(a) == os.path.abspath(b)


def _engine_entries(args: argparse.Namespace) -> list[EngineEntry]:
    def entry(option: str, text: str, default_name: str | None) -> EngineEntry:
        try:
            return EngineEntry.parse(text, default_name)
        except ValueError as error:
            raise ValueError(f"{option}: {error}") from None

    if args.engine:
        if args.black or args.white:
            raise ValueError(f"{OPT_ENGINE}: use either --black/--white or --engine, not both")
        entries = [entry(OPT_ENGINE, text, None) for text in args.engine]
        if len(entries) < 2:
            raise ValueError(f"{OPT_ENGINE}: a round robin needs two or more engines, not {len(entries)}")
        option = OPT_ENGINE
    else:
        if not (args.black and args.white):
            raise ValueError(f"{OPT_BLACK}, {OPT_WHITE}: give both (or two or more {OPT_ENGINE})")
        entries = [entry(OPT_BLACK, args.black, "A"), entry(OPT_WHITE, args.white, "B")]
        option = f"{OPT_BLACK}, {OPT_WHITE}"
    names = [e.name for e in entries]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"{option}: engine names must differ; given more than once: {', '.join(repeated)}")
    return entries


def _time_control(args: argparse.Namespace) -> TimeControl:
    texts = {"main": args.time, "byoyomi": args.byoyomi, "canadian": args.canadian}
    for key, option in (("main", "--time"), ("byoyomi", "--byoyomi"), ("canadian", "--canadian")):
        if texts[key] is not None:
            try:
                TimeControl.parse(**{key: texts[key]})  # its message starts with the form
            except ValueError as error:
                raise ValueError(f"{option} {error}") from None
    if args.byoyomi is not None and args.canadian is not None:
        raise ValueError(f"{OPT_BYOYOMI}, {OPT_CANADIAN}: choose one kind of byo-yomi, not both")
    main = TimeControl.parse(main=args.time) if args.time is not None else TimeControl()
    byoyomi = args.byoyomi is not None or args.canadian is not None
    if args.time is not None and main.increment and byoyomi:
        raise ValueError(f"{OPT_TIME}: an increment does not combine with --byoyomi or --canadian")
    if args.time is not None and not main.main > 0 and not byoyomi:
        raise ValueError(f"{OPT_TIME}: a main time of 0 and no byo-yomi is no clock; give MAIN > 0 "
                         f"(or leave --time out for no clock)")
    try:
        return TimeControl.parse(args.time, args.byoyomi, args.canadian)
    except ValueError as error:
        raise ValueError(f"{OPT_TIME}: {error}") from None


def settings_from_args(args: argparse.Namespace) -> MatchSettings:
    """Build :class:`MatchSettings` from parsed options. ValueError, with a
    message that names the option and the form it takes, when they do not fit."""
    entries = _engine_entries(args)
    size = _whole_number(OPT_SIZE, args.size, None, None)
    size_value = DEFAULT_SIZE[args.game] if size is None else size
    try:
        new_position(args.game, size_value)
    except GameError as error:
        raise ValueError(f"{OPT_SIZE}: {error}" + (" (the default size)" if size is None else "")) from None
    komi = _number(OPT_KOMI, args.komi, 0.0)
    games = _whole_number(OPT_GAMES, args.games, 2, 1)
    concurrency = _whole_number(OPT_CONCURRENCY, args.concurrency, 1, 1)
    playouts = _whole_number(OPT_PLAYOUTS, args.playouts, None, 1)
    time_control = _time_control(args)
    if playouts is not None and time_control.kind != "none":
        raise ValueError(f"{OPT_PLAYOUTS}: fixed playouts and a clock (--time, --byoyomi, --canadian) "
                         f"exclude each other")
    if playouts is not None and not any(PLAYOUTS_PLACEHOLDER in word for entry in entries
                                        for word in entry.spec.argv or ()):
        raise ValueError(f"{OPT_PLAYOUTS}: fixed playouts need {PLAYOUTS_PLACEHOLDER} in the engine commands, "
                         f"e.g. 'stargtp serve --playouts {PLAYOUTS_PLACEHOLDER}'")
    tolerance = _seconds(OPT_TOLERANCE, args.time_tolerance, DEFAULT_TIME_TOLERANCE, allow_zero=True)
    move_timeout = _seconds(OPT_MOVE_TIMEOUT, args.move_timeout, DEFAULT_MOVE_TIMEOUT)
    command_timeout = _seconds(OPT_COMMAND_TIMEOUT, args.command_timeout, DEFAULT_COMMAND_TIMEOUT)
    start_timeout = _seconds(OPT_START_TIMEOUT, args.start_timeout, DEFAULT_START_TIMEOUT)
    max_response_bytes = _whole_number(OPT_MAX_RESPONSE, args.max_response_bytes, DEFAULT_MAX_RESPONSE_BYTES, 1)
    if args.stats == "pentanomial" and not args.alternate:
        raise ValueError("--stats pentanomial: needs alternating colours (game pairs); drop --no-alternate")
    sprt = None
    if args.sprt:
        numbers = [_number(OPT_SPRT, text, 0.0) for text in args.sprt]
        try:
            sprt = Sprt(*numbers, elo_model=args.sprt_model)
        except ValueError as error:
            raise ValueError(f"{OPT_SPRT}: {error}") from None
        if len(entries) != 2:
            raise ValueError(f"{OPT_SPRT}: an SPRT needs exactly two engines, not a round robin of {len(entries)}")
        if args.sprt_model == "bayeselo" and (args.stats == "pentanomial" or
                                              (args.stats == "auto" and args.alternate)):
            raise ValueError("--sprt-model bayeselo: needs trinomial statistics (--stats trinomial)")
    openings: tuple[tuple[str, ...], ...] = ()
    if args.openings:
        try:
            openings = read_openings(args.openings, args.game, size_value)
        except OSError as error:
            raise ValueError(f"{OPT_OPENINGS}: cannot read {args.openings}: "
                             f"{error.strerror or error}") from None
        except UnicodeDecodeError:
            raise ValueError(f"{OPT_OPENINGS}: {args.openings} is not UTF-8 text") from None
        except (ValueError, GameError) as error:
            raise ValueError(f"{OPT_OPENINGS}: {error}") from None
    if args.results:
        _file_to_write(OPT_RESULTS, args.results)
    if args.engine_stderr:
        _file_to_write(OPT_ENGINE_STDERR, args.engine_stderr)
        if args.results and _same_file(args.results, args.engine_stderr):
            raise ValueError(f"{OPT_ENGINE_STDERR}: {args.engine_stderr} is also the {OPT_RESULTS}; "
                             f"the engines' stderr would corrupt the results")
    sgf_dir = args.sgf_dir or default_sgf_dir(args.game, args.results)
    if sgf_dir:
        _directory_to_fill(OPT_SGF_DIR + ("" if args.sgf_dir else f" (default for {OPT_RESULTS})"), sgf_dir)
    return MatchSettings(
        engines=tuple(entries), game=args.game, size=size, komi=komi, games=games,
        alternate=args.alternate, openings=openings, time_control=time_control,
        time_tolerance=tolerance, move_timeout=move_timeout, command_timeout=command_timeout,
        start_timeout=start_timeout, max_response_bytes=max_response_bytes, playouts=playouts,
        concurrency=concurrency, sprt=sprt, stats_model=args.stats, results_path=args.results,
        check_scores=args.check_scores, engine_stderr=args.engine_stderr, sgf_dir=sgf_dir)


def default_sgf_dir(game: str, results_path: str | None) -> str | None:
    """Amazons games are saved as SGF beside the JSON records by default:
    ``games.jsonl`` -> ``games-sgf/``."""
    if game != "amazons" or not results_path:
        return None
    root, _ = os.path.splitext(results_path)
    return root + "-sgf"


def run(args: argparse.Namespace) -> int:
    """``stargtp match``: 0 when the match ran (faults are outcomes), 2 for bad
    settings or an unusable engine or results file, 130 when interrupted."""
    try:
        settings = settings_from_args(args)
    except ValueError as error:
        print(f"stargtp match: {error}", file=sys.stderr)
        return 2
    progress = None if args.quiet else sys.stderr
    try:
        result = asyncio.run(_run_interruptible(settings, progress))
    except ResultsError as error:
        print(f"stargtp match: {OPT_RESULTS}: {error}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as error:
        print(f"stargtp match: {error}", file=sys.stderr)
        return 2
    if result is None:
        print("stargtp match: interrupted; re-run with the same --results file to resume", file=sys.stderr)
        return 130
    if result.sprt_stopped:
        print("SPRT decided: stopped early", file=sys.stderr)
    print(format_summary(result.summaries, settings))
    sys.stdout.flush()
    return 0


async def _run_interruptible(settings: MatchSettings, progress: TextIO | None) -> MatchResult | None:
    """:func:`run_match`, cancelled cleanly (engines closed) by SIGINT/SIGTERM."""
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    assert task is not None
    interrupted = False

    def interrupt() -> None:
        nonlocal interrupted
        interrupted = True
        task.cancel()

    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, interrupt)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        return await run_match(settings, progress=progress)
    except asyncio.CancelledError:
        if interrupted:
            return None
        raise
