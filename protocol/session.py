"""One controller's session: its game, position, komi, clock and settings, and
the execution of its command lines.

Sessions share nothing mutable: each builds its own registry, position, clock
and (lazily, at the first search) its own pool of worker processes. The
transport hands raw lines to :meth:`Session.execute` one at a time, in order,
and never runs two commands of one session at once.
"""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import IllegalMove
from engine.games import new_position
from engine.search import Limits
from engine.search.interface import pass_move
from protocol import commands
from protocol.clock import Clock, estimate_moves_left
from protocol.framing import (
    BadLine,
    Line,
    TooLongLine,
    format_failure,
    format_success,
    parse_line,
    too_long_failure,
)
from protocol.registry import CommandRegistry, GtpError, failure_message
from protocol.workers import (
    GameState,
    PerftRequest,
    SearchInterrupted,
    SearchReply,
    SearchRequest,
    WorkerError,
    WorkerPool,
)

Log = Callable[[str], None]

CHEAP_PERFT_POSITIONS = 1000
"""perft runs on the loop only when it expands at most this many positions
(``legal moves ** (depth - 1)``); bigger counts go to a worker process, where
they can be interrupted and never block other sessions."""


MANAGED_PARAMS = {"komi": "komi is set with the komi command",
                  "ownership": "ownership is counted during lz-analyze only"}
"""Player parameters the session sets itself for each search."""


def default_player() -> str:
    """``auto``: the strongest search of whichever game the session plays."""
    return "auto"


@dataclass(frozen=True)
class SessionConfig:
    """The settings a session starts from (from ``stargtp serve`` options)."""

    game: str = "star"
    size: int | None = None
    """Board size; None for the game's default."""
    seed: int | None = None
    """Seeds the players (worker ``i`` gets ``seed + i``); None: unseeded."""
    player: str = field(default_factory=default_player)
    workers: int = 1
    playouts: int | None = None
    """Per-move playout limit (also under a clock)."""
    seconds: float | None = None
    """Per-move time limit when no clock is set."""
    params: tuple[tuple[str, str], ...] = ()
    """Player parameters, passed to ``make_player``."""


def _stderr_log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Session:
    """The state of one controller's conversation and the commands acting on it."""

    def __init__(self, config: SessionConfig = SessionConfig(), log: Log = _stderr_log) -> None:
        self.config = config
        self.log = log
        self.position: Any = new_position(config.game, config.size)
        self.komi = 0.0
        self.clock = Clock()
        self.quit_requested = False
        """Set by ``quit``: the transport sends the response, then ends the session."""
        self.registry = CommandRegistry()
        commands.install(self.registry, self)
        self._pool: WorkerPool | None = None
        self._closed = False
        self.stop_stream: Callable[[], None] | None = None
        """The hook for streaming commands (lz-analyze): while one runs, it puts
        here the callable that ends it; any new input line or an interrupt
        calls it (see :meth:`notify_input`)."""
        self.emit: Callable[[str], None] = lambda text: None
        """Writes response text straight to the client (set by the transport);
        only streaming commands use it, through :meth:`stream_line`."""
        self.input_waiting: Callable[[], bool] = lambda: False
        """True once the client has sent another line (or closed its input):
        set by the transport; streaming commands stop on it."""
        self._stream_head = "="
        self._streamed = False
        self._hurry = False
        # Set by an interrupt that arrives before the running command has
        # reached its search (it is cleared when the next command starts).
        self._interrupted = False

    # -- what transports call -------------------------------------------------

    def execute(self, line: Line) -> str | None | Awaitable[str]:
        """Run one raw line. Returns the framed response, None when the line gets
        no response (blank, comment), or an awaitable of the framed response for
        commands that run off the loop (the transport awaits it before the next
        line). Never raises."""
        if type(line) is TooLongLine:
            return too_long_failure(line)
        command = parse_line(line)
        if command is None:
            return None
        if type(command) is BadLine:
            return format_failure(command.id, command.message)
        entry = self.registry.get(command.name)
        if entry is None:
            return format_failure(command.id, "unknown command")
        if entry.is_async:
            self._interrupted = False
            self._stream_head = "=" if command.id is None else "=" + command.id
            self._streamed = False
            return self._execute_async(command.id, command.name, entry.handler(command.args))
        try:
            result = entry.handler(command.args)
        except Exception as error:
            return self._failure(command.id, command.name, error)
        return format_success(command.id, result)

    async def _execute_async(self, command_id: str | None, name: str, work: Awaitable[str]) -> str:
        try:
            result = await work
        except Exception as error:
            if self._streamed:  # already answered "=": just end the response
                self.log(f"stargtp: {name} stopped: {error}")
                return "\n"
            return self._failure(command_id, name, error)
        if self._streamed:
            return "\n"
        return format_success(command_id, result)

    def stream_line(self, text: str) -> None:
        """For streaming commands (lz-analyze): send one line of the running
        command's response now. The first call sends the ``=id`` head; the
        blank line that ends the response follows when the command returns.
        ``text`` must be one non-empty line."""
        if not self._streamed:
            self._streamed = True
            self.emit(self._stream_head + "\n")
        self.emit(text + "\n")

    def _failure(self, command_id: str | None, name: str, error: Exception) -> str:
        message = failure_message(error)
        if message is None:
            self.log(f"stargtp: internal error in {name}:\n{traceback.format_exc().rstrip()}")
            message = f"internal error: {type(error).__name__}: {error}"
        return format_failure(command_id, message)

    def interrupt(self) -> None:
        """``# interrupt`` arrived: the running command answers now with its best result."""
        self._interrupted = True
        if self._pool is not None:
            self._pool.interrupt()
        if self.stop_stream is not None:
            self.stop_stream()

    def stop_searching(self) -> None:
        """The client will send nothing more (a TCP client closed its side):
        the running search and every later one answer at once, so the session
        winds down promptly and frees its workers."""
        self._hurry = True
        self.interrupt()

    def notify_input(self) -> None:
        """A new line arrived while a command runs. Streaming commands end on it
        (the analysis convention); other commands ignore it."""
        if self.stop_stream is not None:
            self.stop_stream()

    async def close(self) -> None:
        """End the session: stop any search and free its worker processes."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    # -- game state -------------------------------------------------------------

    def new_game(self, game: str | None = None, size: int | None = None) -> None:
        """A cleared board; the position is unchanged if the game or size is refused."""
        game = self.position.game if game is None else game
        self.position = new_position(game, size)
        self.clock.set_control(self.clock.control)  # full clocks for the new game

    def adopt(self, position: Any) -> None:
        """Continue from ``position`` (a loaded record) with full clocks."""
        self.position = position
        self.clock.set_control(self.clock.control)

    def game_state(self) -> GameState:
        position = self.position
        moves = tuple((colour, position.format_move(move)) for colour, move in position.history)
        setup = None
        if hasattr(position, "is_standard_start") and not position.is_standard_start():
            board, to_move = position.initial_board
            setup = (tuple(board), to_move)
        return GameState(position.game, position.size, moves, setup)

    # -- search parameters -------------------------------------------------------

    def parameters(self) -> dict[str, str]:
        """Every search setting by name: the per-move limits, then the player's
        own parameters (``stargtp-param``)."""
        from engine.search import make_player

        config = self.config
        player = make_player(config.player, **dict(config.params)).params()
        # The per-move playout limit: the session's, else the player's default.
        playouts = player.pop("playouts", "none") if config.playouts is None else str(config.playouts)
        player.pop("playouts", None)
        for managed in MANAGED_PARAMS:  # set by the session for every search
            player.pop(managed, None)
        values = {"player": config.player, "playouts": playouts,
                  "seconds": "none" if config.seconds is None else f"{config.seconds:g}"}
        values.update(player)
        return values

    async def set_parameter(self, name: str, value: str) -> None:
        """Change one search setting; ValueError (nothing changed) when the name
        or the value is refused. The worker pool is rebuilt for the next search,
        so the new value applies from the next move."""
        from engine.search import make_player

        config = self.config
        if name in ("playouts", "seconds"):
            limit: float | None = None
            if value.lower() != "none":
                try:
                    limit = int(value) if name == "playouts" else float(value)
                except ValueError:
                    raise ValueError(f"{name} takes a positive number or none, not {value!r}") from None
                if not limit > 0 or limit != limit or limit == float("inf"):
                    raise ValueError(f"{name} takes a positive number or none, not {value!r}")
            config = replace(config, **{name: limit})
        elif name in MANAGED_PARAMS:
            raise ValueError(MANAGED_PARAMS[name])
        elif name == "player":
            make_player(value)  # ValueError for an unknown player
            config = replace(config, player=value, params=())
        else:
            params = dict(config.params)
            params[name] = value
            make_player(config.player, **params)  # ValueError for a bad name or value
            config = replace(config, params=tuple(params.items()))
        self.config = config
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    # -- searches ---------------------------------------------------------------

    def _pool_for_search(self) -> WorkerPool:
        if self._closed:
            raise GtpError("session closed")
        if self._pool is None:
            config = self.config
            self._pool = WorkerPool(config.player, dict(config.params), config.seed,
                                    config.workers, self.log)
        return self._pool

    def move_limits(self, colour: int) -> Limits:
        """Limits for the next move of ``colour``: the clock's budget when a
        clock is set, else the configured per-move limits."""
        position = self.position
        budget = self.clock.move_budget(
            colour, estimate_moves_left(position.game, position.size, len(position.history)))
        seconds = self.config.seconds if budget is None else budget
        return Limits(playouts=self.config.playouts, seconds=seconds)

    def _fallback_move(self, colour: int) -> Any:
        """A legal move when the search failed: the first one, else pass/resign."""
        position = self.position
        for move in position.legal_moves():
            if position.is_legal(move, colour):
                return move
        return pass_move(position, self.komi)

    async def analyze(self, colour: int, interval: float,
                      report: Callable[[Any, int, SearchReply], str]) -> None:
        """lz-analyze: search the position for ``colour`` in chunks of
        ``interval`` seconds (the tree is kept between chunks), streaming the
        line ``report(position, colour, reply)`` after each, until any new
        input line, an interrupt or the end of input. At least one line is
        sent unless the game is over."""
        position = self.position
        if position.is_over():
            return
        pool = self._pool_for_search()
        stopped = False

        def stop() -> None:
            nonlocal stopped
            stopped = True
            pool.interrupt()

        self.stop_stream = stop
        try:
            while True:
                request = SearchRequest(self.game_state(), colour, Limits(seconds=interval),
                                        self.komi, analysis=True)
                reply = await pool.search(request, hurry=self._hurry)
                if stopped:
                    break
                self.stream_line(report(position, colour, reply))
                if self.input_waiting() or self._hurry:
                    break
        finally:
            self.stop_stream = None

    async def generate_move(self, colour: int, play: bool) -> str:
        """genmove (``play``) and reg_genmove: never fails. Answers a move, pass
        or ``resign``; with ``play`` the move is played."""
        position = self.position
        if position.is_over():
            # Nothing can be played any more: *Star passes, Amazons resigns.
            move = pass_move(position, self.komi)
            return "resign" if move is None else position.format_move(move)
        request = SearchRequest(self.game_state(), colour, self.move_limits(colour),
                                self.komi, deterministic=not play)
        started = time.monotonic()
        try:
            pool = self._pool_for_search()
            reply = await pool.search(request, hurry=self._hurry or self._interrupted)
            move = None if reply.move is None else position.parse_move(reply.move)
            if move is not None and not position.is_legal(move, colour):
                raise IllegalMove(f"worker answered the illegal move {reply.move}")
        except (WorkerError, IllegalMove) as exc:
            self.log(f"stargtp: search failed ({exc}); answering a fallback move")
            move = self._fallback_move(colour)
        if play:
            self.clock.record_usage(colour, time.monotonic() - started)
        if move is None:
            return "resign"
        if play:
            position.play(move, colour)
        return position.format_move(move)

    async def perft(self, depth: int) -> int:
        position = self.position
        if depth <= 1 or _positions_expanded(len(position.legal_moves()), depth) <= CHEAP_PERFT_POSITIONS:
            return position.perft(depth)
        if self._hurry or self._interrupted:
            raise GtpError("perft interrupted")
        try:
            return await self._pool_for_search().perft(PerftRequest(self.game_state(), depth))
        except SearchInterrupted:
            raise GtpError("perft interrupted") from None
        except WorkerError as exc:
            raise GtpError(f"perft failed: {exc}") from None


def _positions_expanded(branching: int, depth: int) -> float:
    """``branching ** (depth - 1)`` without building a huge integer."""
    if branching <= 1:
        return 1.0
    exponent = depth - 1
    if exponent * branching.bit_length() > 64:
        return float("inf")
    return float(branching**exponent)
