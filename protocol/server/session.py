"""One controller's session: its game, position, komi, clock and settings, and
the execution of its command lines.

Sessions share nothing mutable: each builds its own registry, position, clock
and (lazily, at the first search) its own pool of worker processes. The
transport hands raw lines to :meth:`Session.execute` one at a time, in order,
and never runs two commands of one session at once.
"""

from __future__ import annotations

import asyncio
import sys
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import IllegalMove
from engine.games import new_position
from engine.players import check_plays
from engine.search import Limits
from protocol.server import commands, files
from protocol.clock import Clock
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
from protocol.server.workers import (
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
    read_files: bool = True
    """Whether file commands (``loadsgf``) may read files at all: true for the
    local controller on stdin, false over TCP unless ``file_dir`` is given."""
    file_dir: str | None = None
    """The one directory file commands may read (relative paths are taken from
    it); None: any path."""


def _stderr_log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class UnknownParameter(ValueError):
    """``stargtp-param`` names a setting that does not exist."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown parameter {name}")


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
        self._warming: asyncio.Future[None] | None = None
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
        warming, self._warming = self._warming, None
        if warming is not None:
            await asyncio.gather(warming, return_exceptions=True)

    def prepare_workers(self) -> None:
        """Start the search's worker processes in the background (at
        ``boardsize``, ``clear_board``, ``time_settings``...), so that the first
        ``genmove`` of a game spends its time searching, not starting them.
        Does nothing without a running event loop or once workers are up."""
        if self._closed or (self._warming is not None and not self._warming.done()):
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self._warming = asyncio.ensure_future(self._warm(self._pool_for_search(), self.game_state()))

    async def workers_ready(self, give_up: Awaitable[Any] | None = None) -> None:
        """Wait until the workers started by :meth:`prepare_workers` are up
        (or failed to start, which is logged), or until ``give_up`` is done."""
        warming = self._warming
        if warming is None or warming.done():
            return
        waits: set[Any] = {warming}
        if give_up is not None:
            waits.add(asyncio.ensure_future(give_up))
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)

    async def _warm(self, pool: WorkerPool, state: GameState) -> None:
        try:
            await pool.start(state)
        except WorkerError as exc:  # the next search tries again, and reports it
            self.log(f"stargtp: cannot start the search workers: {exc}")

    # -- game state -------------------------------------------------------------

    def new_game(self, game: str | None = None, size: int | None = None) -> None:
        """A cleared board; the position is unchanged if the game or size is
        refused, or if the session's player cannot play the game."""
        game = self.position.game if game is None else game
        self.check_player(self.config.player, game)
        self.position = new_position(game, size)
        self.clock.set_control(self.clock.control)  # full clocks for the new game
        self.prepare_workers()

    def adopt(self, position: Any) -> None:
        """Continue from ``position`` (a loaded record) with full clocks.
        GtpError (nothing changed) if the player cannot play its game."""
        self.check_player(self.config.player, position.game)
        self.position = position
        self.clock.set_control(self.clock.control)
        self.prepare_workers()

    @staticmethod
    def check_player(player: str, game: str) -> None:
        """GtpError unless ``player`` can play ``game``."""
        try:
            check_plays(player, game)
        except ValueError as exc:
            raise GtpError(str(exc)) from None

    async def read_file(self, path: str) -> bytes:
        """The bytes of a file a file command names, read off the event loop
        under the session's file policy (:mod:`protocol.server.files`); GtpError
        ``cannot load file: reason`` if it is refused or unreadable."""
        config = self.config
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(None, files.load, path, config.read_files,
                                              config.file_dir)
        except files.FileRefused as exc:
            raise GtpError(f"cannot load file: {exc}") from None

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
        from engine.players import make_player

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
        from engine.players import make_player

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
            check_plays(value, self.position.game)  # ValueError for an unknown or unfit player
            config = replace(config, player=value, params=())
        else:
            if name not in self.parameters():
                raise UnknownParameter(name)
            params = dict(config.params)
            params[name] = value
            make_player(config.player, **params)  # ValueError for a bad value
            config = replace(config, params=tuple(params.items()))
        self.config = config
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()
            self.prepare_workers()

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
            colour, position.rules.moves_left(position.size, len(position.history)))
        seconds = self.config.seconds if budget is None else budget
        return Limits(playouts=self.config.playouts, seconds=seconds)

    async def _search_move(self, colour: int, limits: Limits, started: float,
                           deterministic: bool) -> Any:
        """The searched move for ``colour`` (None: resign). A search whose
        worker fails or answers an illegal move is tried once more (the pool
        restarts a dead worker), within what is left of the move's time; a
        second failure is the command's error. No move is ever made up."""
        position = self.position
        for attempt in (1, 2):
            if attempt == 2 and limits.seconds is not None:
                spent = time.monotonic() - started
                limits = replace(limits, seconds=max(limits.seconds - spent, 0.01))
            request = SearchRequest(self.game_state(), colour, limits, self.komi,
                                    deterministic=deterministic)
            try:
                reply = await self._pool_for_search().search(
                    request, hurry=self._hurry or self._interrupted)
                move = None if reply.move is None else position.parse_move(reply.move)
                if move is not None and not position.is_legal(move, colour):
                    raise IllegalMove(f"the search answered the illegal move {reply.move}")
                return move
            except (WorkerError, IllegalMove) as exc:
                failure = exc
                self.log(f"stargtp: search failed ({exc})"
                         + ("; trying once more" if attempt == 1 else ""))
        raise GtpError(f"search failed: {failure}")

    async def analyze(self, colour: int, interval: float,
                      report: Callable[[Any, int, SearchReply], str]) -> None:
        """lz-analyze: search the position for ``colour`` in chunks of
        ``interval`` seconds (the tree is kept between chunks), streaming the
        line ``report(position, colour, reply)`` after each, until any new
        input line, an interrupt or the end of input.

        At least one line is always sent: when the stop comes before the first
        interval ends, the line holds the statistics of that moment; when the
        game is over, a line with no search. A player that answers before the
        interval ends (``random``) waits it out, so lines never come faster
        than one per interval."""
        position = self.position
        if position.is_over():
            self.stream_line(report(position, colour, SearchReply(None, 0, None, (), {})))
            return
        pool = self._pool_for_search()
        loop = asyncio.get_running_loop()
        stopped = False
        wake = asyncio.Event()

        def stop() -> None:
            nonlocal stopped
            stopped = True
            pool.interrupt()
            wake.set()

        self.stop_stream = stop
        try:
            while True:
                if self.input_waiting():  # a line came before the stream began
                    stopped = True
                began = loop.time()
                request = SearchRequest(self.game_state(), colour, Limits(seconds=interval),
                                        self.komi, analysis=True)
                reply = await pool.search(request, hurry=self._hurry or stopped)
                rest = interval - (loop.time() - began)
                if not stopped and not self._hurry and rest > 0:
                    try:
                        await asyncio.wait_for(wake.wait(), rest)
                    except TimeoutError:
                        pass
                if stopped and self._streamed:
                    break
                self.stream_line(report(position, colour, reply))
                if stopped or self.input_waiting() or self._hurry:
                    break
        finally:
            self.stop_stream = None

    async def generate_move(self, colour: int, play: bool) -> str:
        """genmove (``play``) and reg_genmove: never fails. Answers a move, pass
        or ``resign``; with ``play`` the move is played."""
        position = self.position
        if position.is_over():
            # Nothing can be played any more: *Star passes, Amazons resigns.
            move = position.rules.no_move(position, self.komi)
            return "resign" if move is None else position.format_move(move)
        limits = self.move_limits(colour)
        started = time.monotonic()
        move = await self._search_move(colour, limits, started, deterministic=not play)
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
