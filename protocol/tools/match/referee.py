"""Refereeing one game between two connected engines.

The referee keeps its own position with the rules core and validates every
move; the engines only propose moves. It keeps each player's clock (the
time-control model of :mod:`stargtp.protocol.clock`, the same the engine's own clock
uses) and flags a move that takes longer than the allowance plus the
tolerance. Every way an engine can fail -- an illegal or malformed move, a
timeout, a ``?`` answer to ``genmove``, dying, closing the pipe, a flood of
output -- is an *outcome*: that engine loses the game and the reason is
recorded (:mod:`stargtp.protocol.tools.match.records` lists the kinds).
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Any, Callable

from stargtp.engine.colour import BLACK, WHITE, colour_name, opponent
from stargtp.engine.errors import IllegalMove
from stargtp.engine.game import Position
from stargtp.protocol.clock import BYOYOMI, TimeControl, TimeLeft, gtp_seconds
from stargtp.protocol.controller import (ControllerError, EngineError, GtpController, ProtocolError, ResponseTimeout,
                                         TransportError)
from stargtp.protocol.tools.match.records import (CRASH, GENMOVE_ERROR, ILLEGAL_MOVE, MALFORMED_MOVE, PROTOCOL_ERROR,
                                                  REASON_AGREED, REASON_MOVE_LIMIT, REASON_RESIGN, REASON_SETTLED,
                                                  REJECTED_MOVE, SETUP_ERROR, START_FAILURE, TIMEOUT, board_outcome, clip,
                                                  complete_record, new_record)
from stargtp.protocol.tools.match.settings import GameJob, MatchSettings


@dataclass
class Seat:
    """An engine taking part in one game. ``controller`` is None when it could
    not be started; ``start_error`` then says why."""

    name: str
    controller: GtpController | None
    start_error: str | None = None
    identity: str | None = None
    """``name version`` as the engine reports them."""


class RefereeClock:
    """One player's clock in one game, as the referee keeps it: what is left,
    charged by the rules of its :class:`~stargtp.protocol.clock.TimeControl`."""

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.left: TimeLeft = control.start()

    def allowance(self) -> float:
        """Seconds the next move may take before the flag falls (inf: no clock)."""
        return self.control.allowance(self.left)

    def charge(self, seconds: float) -> None:
        """Account for a move that took ``seconds`` and was accepted (at most
        :meth:`allowance` plus the tolerance); an overrun within the tolerance
        is forgiven."""
        self.left = self.control.charge(self.left, seconds)

    def time_left_args(self, whole_seconds: bool = False) -> tuple[str, int]:
        """``(seconds, stones)`` for ``time_left``. The seconds are rounded
        down to the millisecond (``0.5``, ``12.345``, ``600``), or with
        ``whole_seconds`` to whole seconds, GTP's and GNU Go's form (where a
        clock under a second reads 0). Stones is 0 in main time; in byo-yomi
        it is the stones left in the block (Canadian) or the periods left
        (Japanese, as KGS sends it)."""
        return gtp_seconds(self.left.seconds, whole_seconds), self.left.stones


class _Fault(Exception):
    """Ends a game: the engine on ``colour`` loses for ``kind``."""

    def __init__(self, colour: int, kind: str, detail: str, response: str | None = None) -> None:
        super().__init__(detail)
        self.colour = colour
        self.kind = kind
        self.detail = detail
        self.response = response

    def outcome(self, seats: dict[int, Seat]) -> dict[str, Any]:
        """The game's outcome: the opponent wins, the fault is recorded."""
        return {"winner": opponent(self.colour), "reason": self.kind,
                "fault": {"engine": seats[self.colour].name, "colour": colour_name(self.colour),
                          "kind": self.kind, "detail": clip(self.detail, 400),
                          **({"response": clip(self.response)} if self.response is not None else {})}}


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


async def play_game(job: GameJob, seats: dict[int, Seat], settings: MatchSettings,
                    log: Callable[[str], None] = lambda line: None,
                    on_move: Callable[[int], None] = lambda count: None) -> dict[str, Any]:
    """Referee one game and return its record (a JSON-ready dict).

    ``seats`` maps BLACK and WHITE to the engines; their controllers must be
    connected (or None, which forfeits). Never raises for anything an engine
    does; controllers that went out of step are left broken for the caller
    to replace. ``on_move`` hears the number of moves played after each move
    (for a live display).
    """
    started = time.time()
    position = settings.new_position()
    clocks = {BLACK: RefereeClock(settings.time_control), WHITE: RefereeClock(settings.time_control)}
    moves: list[dict[str, Any]] = []
    names = {colour: seats[colour].name for colour in (BLACK, WHITE)}
    record = new_record(job, names, {colour: seats[colour].identity for colour in (BLACK, WHITE)},
                        settings, moves)
    outcome: dict[str, Any]
    try:
        await _setup(position, seats, settings, job, moves)
        outcome = await _play_moves(position, seats, clocks, settings, moves, on_move)
    except _Fault as fault:
        outcome = fault.outcome(seats)
        log(f"{job.key}: {seats[fault.colour].name} ({colour_name(fault.colour)}) loses by "
            f"{fault.kind}: {clip(fault.detail, 200)}")
    complete_record(record, outcome, names, started, time.time())
    for name in record["score_disagreements"]:
        log(f"{job.key}: {name} scores the game {record['engine_scores'][name]!r}, the referee {record['result']!r}")
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


async def _setup(position: Position, seats: dict[int, Seat], settings: MatchSettings, job: GameJob,
                 moves: list[dict[str, Any]]) -> None:
    """The game, board, rules, komi and clock for both engines, then the
    opening. The match's rules (``--rule``) go to an engine that lists
    ``stargtp-rules``; one that does not is trusted to have been started
    with them (docs/match.md), and hears nothing of rules when the match
    sets none."""
    control = settings.time_control
    for colour in (BLACK, WHITE):
        seat = seats[colour]
        if seat.controller is None:
            raise _Fault(colour, START_FAILURE, seat.start_error or "engine not available")
        knows_kgs = control.system == BYOYOMI and await _knows(seat, colour, "kgs-time_settings")
        knows_time = control.limited and await _knows(seat, colour, "time_settings")
        if await _knows(seat, colour, "game"):
            await _send(seat, colour, f"game {settings.game}")
        await _send(seat, colour, f"boardsize {settings.board_size}")
        await _send(seat, colour, "clear_board")
        if settings.game_rules and await _knows(seat, colour, "stargtp-rules"):
            for name, on in settings.game_rules:
                await _send(seat, colour, f"stargtp-rules {name} {'on' if on else 'off'}")
        await _send(seat, colour, f"komi {settings.komi:g}")
        if knows_time:
            for command in control.settings_commands(knows_kgs, settings.integer_times):
                await _send(seat, colour, command)
    for text in job.opening:
        mover = position.to_move
        move = position.parse_move(text)
        position.play(move)
        text = position.format_move(move)
        for colour in (BLACK, WHITE):
            await _send(seats[colour], colour, f"play {colour_name(mover)} {text}")
        moves.append({"colour": colour_name(mover), "move": text, "seconds": None})


async def _genmove(seat: Seat, colour: int, clock: RefereeClock,
                   settings: MatchSettings) -> tuple[str, float, float | None]:
    """Ask ``seat`` for its move under its clock: ``(answer, seconds taken,
    win rate)``, the clock charged. With resign adjudication, an engine that
    knows ``genmove_analyze`` is asked with it, for its win rate; else the
    win rate is None."""
    controller = seat.controller
    assert controller is not None
    allowance = clock.allowance()
    if math.isinf(allowance):
        limit = settings.move_timeout
    else:
        seconds, stones = clock.time_left_args(settings.integer_times)
        if await _knows(seat, colour, "time_left"):
            await _send(seat, colour, f"time_left {colour_name(colour)} {seconds} {stones}")
        limit = allowance + settings.time_tolerance
    analyse = settings.resign_adjudication is not None and await _knows(seat, colour, "genmove_analyze")
    command = f"genmove_analyze {colour_name(colour)} {ONE_REPORT}" if analyse else f"genmove {colour_name(colour)}"
    began = time.monotonic()
    try:
        answer = await controller.send(command, timeout=limit)
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
    if analyse:
        move, winrate = _analysed_move(answer, colour)
        return move, elapsed, winrate
    return answer.strip(), elapsed, None


ONE_REPORT = 360000
"""``genmove_analyze``'s interval (centiseconds, its largest): one report,
at the end of the search, so the win rate is the one the move rests on."""


def _analysed_move(answer: str, colour: int) -> tuple[str, float | None]:
    """The move (``play MOVE``, the last line) and the win rate of the best
    move of the last ``info`` line of a ``genmove_analyze`` answer."""
    lines = [line.strip() for line in answer.strip().splitlines() if line.strip()]
    if not lines or not lines[-1].startswith("play "):
        raise _Fault(colour, MALFORMED_MOVE, "genmove_analyze answered no 'play MOVE' line",
                     clip(answer.strip())) from None
    winrate = None
    for line in reversed(lines[:-1]):
        found = re.search(r"\bwinrate\s+([-+0-9.eE]+)", line)
        if line.startswith("info") and found:
            try:
                winrate = float(found.group(1))
            except ValueError:
                pass
            break
    return lines[-1][5:].strip(), winrate


async def _play_moves(position: Position, seats: dict[int, Seat], clocks: dict[int, RefereeClock],
                      settings: MatchSettings, moves: list[dict[str, Any]],
                      on_move: Callable[[int], None]) -> dict[str, Any]:
    winrates: dict[int, list[float | None]] = {BLACK: [], WHITE: []}
    while not position.is_over():
        adjudicated = adjudicate(position, settings, len(moves), winrates)
        if adjudicated is not None:
            return adjudicated
        colour = position.to_move
        text, elapsed, winrate = await _genmove(seats[colour], colour, clocks[colour], settings)
        winrates[colour].append(winrate)
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
        moves.append({"colour": colour_name(colour), "move": canonical, "seconds": round(elapsed, 4),
                      **({"winrate": winrate} if winrate is not None else {})})
        on_move(len(moves))
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
    outcome = board_outcome(position, settings.komi)
    if settings.check_scores:
        await _cross_check(outcome, seats)
    return outcome


def adjudicate(position: Position, settings: MatchSettings, moves: int,
               winrates: dict[int, list[float | None]]) -> dict[str, Any] | None:
    """The outcome of a game the referee ends before the rules do, or None:
    a loss both engines agree on (resign adjudication), the move limit (a
    draw), or a score that can no longer change (the game's ``settled``)."""
    if settings.resign_adjudication is not None:
        count, threshold = settings.resign_adjudication
        for loser in (BLACK, WHITE):
            theirs, mine = winrates[loser][-count:], winrates[opponent(loser)][-count:]
            if (len(theirs) == len(mine) == count and all(w is not None and w <= threshold for w in theirs)
                    and all(w is not None and w >= 1 - threshold for w in mine)):
                return {"winner": opponent(loser), "reason": REASON_AGREED,
                        "adjudication": f"for {count} moves each, {colour_name(loser)}'s engine gave itself a "
                                        f"win rate of at most {threshold:g} and its opponent's at least "
                                        f"{1 - threshold:g}"}
    if settings.max_moves is not None and moves >= settings.max_moves:
        return {"winner": None, "reason": REASON_MOVE_LIMIT, "result": "0",
                "adjudication": f"{settings.max_moves} moves played"}
    if settings.adjudicate_settled and position.rules.settled(position, settings.komi):
        breakdown = position.rules.score(position, settings.komi)
        return {"winner": breakdown.winner, "reason": REASON_SETTLED, "result": breakdown.gtp_result(),
                "score": breakdown.to_json(position), "adjudication": "the score can no longer change"}
    return None


async def _cross_check(outcome: dict[str, Any], seats: dict[int, Seat]) -> None:
    """Ask both engines for ``final_score`` and note those that disagree with
    the referee's result (whose result stands)."""
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
        engine_scores[seat.name] = clip(answer.strip(), 60)
        if not same_result(answer, outcome["result"]):
            disagreements.append(seat.name)
    outcome["engine_scores"] = engine_scores
    outcome["score_disagreements"] = disagreements


def same_result(claimed: str, actual: str) -> bool:
    """``B+3`` equals ``b+3.0``; for results without a margin the side decides.

    >>> same_result("b+3.0", "B+3"), same_result("W+", "W+12"), same_result("B+2", "B+3")
    (True, True, False)
    """
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
