"""The search service of one session: its settings, its worker processes, and
the searches commands ask for (genmove, lz-analyze, perft).

The second of a session's three parts. It reads the game state
(:class:`~stargtp.protocol.server.state.GtpState`) and sends the workers snapshots of
it; it never parses a command line.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from stargtp.engine.errors import IllegalMove
from stargtp.engine.games import BUILT_IN
from stargtp.engine.players import check_plays, make_player
from stargtp.engine.search import Limits
from stargtp.protocol.registry import GtpError
from stargtp.protocol.server.state import GtpState
from stargtp.protocol.server.workers import (
    GameState,
    PerftRequest,
    SearchInterrupted,
    SearchReply,
    SearchRequest,
    WorkerError,
    WorkerPool,
)

log = logging.getLogger(__name__)

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

    game: str = BUILT_IN[0].name
    """The game a session starts with: the first built-in one (*Star), as
    ``stargtp serve --game`` defaults to."""
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
    status_space: bool = False
    """Answer an empty result ``= `` (with the space), not ``=``
    (``--status-space``, for controllers such as older HexGui builds)."""
    rules: tuple[tuple[str, bool], ...] = ()
    """Game options on or off (``--rule swap=on``), for every new board of a
    game that has them (``stargtp-rules``)."""
    read_files: bool = True
    """Whether file commands (``loadsgf``) may read files at all: true for the
    local controller on stdin, false over TCP unless ``file_dir`` is given."""
    file_dir: str | None = None
    """The one directory file commands may read (relative paths are taken from
    it); None: any path."""


class UnknownParameter(ValueError):
    """``stargtp-param`` names a setting that does not exist."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown parameter {name}")


class StreamSink(Protocol):
    """What a streaming search writes to and listens to (see
    :class:`stargtp.protocol.server.session.Stream`)."""

    started: bool

    def line(self, text: str) -> None: ...

    def input_waiting(self) -> bool: ...

    def on_stop(self, callback: Callable[[], None]) -> None: ...


def check_player(player: str, game: str) -> None:
    """GtpError unless ``player`` can play ``game``."""
    try:
        check_plays(player, game)
    except ValueError as exc:
        raise GtpError(str(exc)) from None


class SearchService:
    """The settings, worker pool and searches of one session."""

    def __init__(self, config: SessionConfig, state: GtpState) -> None:
        self.config = config
        self.state = state
        self.pool: WorkerPool | None = None
        self._warming: asyncio.Future[None] | None = None
        self._closed = False
        self._hurry = False
        self._interrupted = False
        """Set by an interrupt that arrives before the running command has
        reached its search; cleared when the next command starts."""

    # -- the session's signals ---------------------------------------------------

    @property
    def hurried(self) -> bool:
        """Whether ``# interrupt`` or the end of input asked the running search
        to answer now."""
        return self._hurry or self._interrupted


    def begin_command(self) -> None:
        """A new search command starts: an earlier interrupt no longer counts."""
        self._interrupted = False

    def interrupt(self) -> None:
        """``# interrupt``: the running search answers now with its best result."""
        self._interrupted = True
        if self.pool is not None:
            self.pool.interrupt()

    def stop_searching(self) -> None:
        """The client will send nothing more: the running search and every
        later one answer at once, so the session winds down promptly."""
        self._hurry = True
        self.interrupt()

    async def close(self) -> None:
        """Stop any search and free the worker processes."""
        self._closed = True
        pool, self.pool = self.pool, None
        if pool is not None:
            await pool.close()
        warming, self._warming = self._warming, None
        if warming is not None:
            await asyncio.gather(warming, return_exceptions=True)

    # -- workers ------------------------------------------------------------------

    def _pool(self) -> WorkerPool:
        if self._closed:
            raise GtpError("session closed")
        if self.pool is None:
            config = self.config
            self.pool = WorkerPool(config.player, dict(config.params), config.seed, config.workers)
        return self.pool

    def prepare_workers(self) -> None:
        """Start the worker processes in the background (at ``boardsize``,
        ``clear_board``, ``time_settings``...), so that the first ``genmove``
        of a game spends its time searching, not starting them. Does nothing
        without a running event loop or while a start is under way."""
        if self._closed or (self._warming is not None and not self._warming.done()):
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self._warming = asyncio.ensure_future(self._warm(self._pool(), self.state.snapshot()))

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
            log.info("stargtp: cannot start the search workers: %s", exc)

    # -- settings -----------------------------------------------------------------

    def parameters(self) -> dict[str, str]:
        """Every search setting by name: the per-move limits, then the player's
        own parameters (``stargtp-param``)."""
        config = self.config
        player = make_player(config.player, **dict(config.params)).params()
        player.pop("playouts", None)  # the per-move playout limit is the session's
        for managed in MANAGED_PARAMS:  # set by the session for every search
            player.pop(managed, None)
        playouts = self.config.playouts
        if playouts is None:
            playouts = self.player_playouts()
        values = {"player": config.player, "playouts": "none" if playouts is None else str(playouts),
                  "seconds": "none" if config.seconds is None else f"{config.seconds:g}"}
        values.update(player)
        return values

    async def set_parameter(self, name: str, value: str) -> None:
        """Change one search setting; ValueError (nothing changed) when the name
        or the value is refused. The worker pool is rebuilt for the next search,
        so the new value applies from the next move."""
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
            check_plays(value, self.state.position.game)  # ValueError: unknown or unfit
            config = replace(config, player=value, params=())
        else:
            if name not in self.parameters():
                raise UnknownParameter(name)
            params = dict(config.params)
            params[name] = value
            make_player(config.player, **params)  # ValueError for a bad value
            config = replace(config, params=tuple(params.items()))
        self.config = config
        pool, self.pool = self.pool, None
        if pool is not None:
            await pool.close()
            self.prepare_workers()

    # -- searches -----------------------------------------------------------------

    def player_playouts(self) -> int | None:
        """A ``playouts`` player parameter given explicitly (``--param
        playouts=N``): the player's own count, which applies when nothing else
        limits a move, instead of the game's default."""
        given = dict(self.config.params).get("playouts")
        return None if given is None else int(given)

    def move_limits(self, colour: int, searchers: int = 1) -> Limits:
        """Limits for the next move of ``colour``, for each of ``searchers``
        workers: the clock's budget when a clock is set, else ``--seconds``;
        at most ``--playouts`` too. With none of them, the player's
        ``playouts`` if given explicitly, else **the default**: the game's
        playouts for the board size (``rules.move_playouts``, docs/search.md's
        table), shared among the workers, so that more workers never make a
        move slower. The default and every timed search stop early once their
        move cannot change, but for a search in a byo-yomi period (its unused
        time is lost); a search limited by a playout count that was asked for
        runs it all, so that with a seed it repeats exactly."""
        position = self.state.position
        rules = position.rules
        clock = self.state.clock
        seconds = clock.move_budget(colour, rules.moves_left(position.size, len(position.history)))
        # A timed search stops early when its move cannot change, unless the
        # time it would save is lost anyway (a byo-yomi period).
        stop_early = seconds is not None and clock.keeps_unused_time(colour)
        if seconds is None:
            seconds = self.config.seconds
            stop_early = seconds is not None
        playouts = self.config.playouts
        if seconds is not None or playouts is not None:
            return Limits(playouts=playouts, seconds=seconds, stop_early=stop_early)
        given = self.player_playouts()
        if given is not None:
            return Limits(playouts=given)
        default = rules.move_playouts(position.size)
        if default is None:
            return Limits()  # the player's own count
        return Limits(playouts=-(-default // max(1, searchers)), stop_early=True)

    async def _search_move(self, colour: int, limits: Limits, started: float,
                           deterministic: bool) -> Any:
        """The searched move for ``colour`` (None: resign). A search whose
        worker fails or answers an illegal move is tried once more (the pool
        restarts a dead worker), within what is left of the move's time; a
        second failure is the command's error. No move is ever made up."""
        for attempt in (1, 2):
            if attempt == 2 and limits.seconds is not None:
                spent = time.monotonic() - started
                limits = replace(limits, seconds=max(limits.seconds - spent, 0.01))
            request = SearchRequest(self.state.snapshot(), colour, limits, self.state.komi,
                                    deterministic=deterministic)
            try:
                reply = await self._pool().search(request, hurry=self.hurried)
                return self._checked_move(reply, colour)
            except (WorkerError, IllegalMove) as exc:
                failure = exc
                log.info("stargtp: search failed (%s)%s", exc,
                         "; trying once more" if attempt == 1 else "")
        raise GtpError(f"search failed: {failure}")

    def _checked_move(self, reply: SearchReply, colour: int) -> Any:
        """The move of a search's reply (None: resign); IllegalMove when the
        search answered one that cannot be played."""
        position = self.state.position
        move = None if reply.move is None else position.parse_move(reply.move)
        if move is not None and not position.is_legal(move, colour):
            raise IllegalMove(f"the search answered the illegal move {reply.move}")
        return move

    async def _search_reporting(self, colour: int, limits: Limits, started: float, interval: float,
                                report: Callable[[SearchReply], None]) -> Any:
        """The move for ``colour``, searched within ``limits`` in chunks of
        ``interval`` seconds on the kept tree, with ``report(reply)`` after each
        chunk (genmove_analyze). A failure is the command's error at once: the
        reports already sent cannot be taken back for a second try."""
        playouts = limits.playouts
        forced = len(self.state.position.legal_moves()) <= 1
        done = 0
        try:
            while True:
                chunk: float | None = interval
                if limits.seconds is not None:
                    chunk = min(interval, max(limits.seconds - (time.monotonic() - started), 0.01))
                wanted = None if playouts is None else max(playouts - done, 1)
                if wanted is None and limits.seconds is None:
                    chunk = None  # the player's own limit: one search, one report
                request = SearchRequest(self.state.snapshot(), colour, Limits(playouts=wanted, seconds=chunk),
                                        self.state.komi, analysis=True)
                reply = await self._pool().search(request, hurry=self.hurried)
                done += reply.playouts
                report(reply)
                await asyncio.sleep(0)  # let the report go out
                out_of_time = limits.seconds is not None and time.monotonic() - started >= limits.seconds
                if (forced or chunk is None or reply.playouts == 0 or out_of_time or self.hurried
                        or (playouts is not None and done >= playouts)):
                    return self._checked_move(reply, colour)
        except (WorkerError, IllegalMove) as exc:
            raise GtpError(f"search failed: {exc}") from None

    async def generate_move(self, colour: int, play: bool, interval: float | None = None,
                            report: Callable[[SearchReply], None] | None = None) -> str:
        """genmove (``play``) and reg_genmove: a move, pass or ``resign``; with
        ``play`` the move is played. GtpError when the search fails twice.
        With ``report`` (genmove_analyze) the search runs in chunks of
        ``interval`` seconds, reporting after each."""
        state = self.state
        position = state.position
        if position.is_over():
            # Nothing can be played any more: *Star passes, Amazons resigns.
            move = position.rules.no_move(position, state.komi)
            return "resign" if move is None else position.format_move(move)
        started = time.monotonic()
        if report is None:
            # reg_genmove (not ``play``) searches in one worker; genmove in all.
            limits = self.move_limits(colour, self.config.workers if play else 1)
            move = await self._search_move(colour, limits, started, deterministic=not play)
        else:
            # The reports count the playouts of every worker together.
            limits = self.move_limits(colour)
            move = await self._search_reporting(colour, limits, started, interval or 1.0, report)
        if play:
            state.clock.record_usage(colour, time.monotonic() - started)
        if move is None:
            return "resign"
        if play:
            position.play(move, colour)
        return position.format_move(move)

    async def evaluate(self, limits: Limits, deterministic: bool) -> SearchReply:
        """stargtp-evaluate: one search of the position for the side to move
        within ``limits``, in the workers; the position is not changed.
        ``deterministic``: a fresh player with the session's seed in one
        worker, so that the same position always gets the same answer.
        ``# interrupt`` makes it answer at once with what it has. GtpError
        when the search fails."""
        state = self.state
        request = SearchRequest(state.snapshot(), state.position.to_move, limits, state.komi,
                                deterministic=deterministic)
        try:
            return await self._pool().search(request, hurry=self.hurried)
        except WorkerError as exc:
            raise GtpError(f"search failed: {exc}") from None

    async def analyze(self, colour: int, interval: float, stream: StreamSink,
                      report: Callable[[Any, int, SearchReply], str]) -> None:
        """lz-analyze: search the position for ``colour`` in chunks of
        ``interval`` seconds (the tree is kept between chunks), writing the
        line ``report(position, colour, reply)`` to ``stream`` after each,
        until the stream is stopped (any new input line, an interrupt, the
        end of input).

        At least one line is always sent: when the stop comes before the first
        interval ends, the line holds the statistics of that moment; when the
        game is over, a line with no search. A player that answers before the
        interval ends (``random``) waits it out, so lines never come faster
        than one per interval."""
        state = self.state
        position = state.position
        if position.is_over():
            stream.line(report(position, colour, SearchReply(None, 0, None, (), {})))
            return
        pool = self._pool()
        loop = asyncio.get_running_loop()
        stopped = False
        wake = asyncio.Event()

        def stop() -> None:
            nonlocal stopped
            stopped = True
            pool.interrupt()
            wake.set()

        stream.on_stop(stop)
        while True:
            if stream.input_waiting():  # a line came before the stream began
                stopped = True
            began = loop.time()
            request = SearchRequest(state.snapshot(), colour, Limits(seconds=interval),
                                    state.komi, analysis=True)
            reply = await pool.search(request, hurry=self._hurry or stopped)
            rest = interval - (loop.time() - began)
            if not stopped and not self._hurry and rest > 0:
                try:
                    await asyncio.wait_for(wake.wait(), rest)
                except TimeoutError:
                    pass
            if stopped and stream.started:
                break
            stream.line(report(position, colour, reply))
            if stopped or stream.input_waiting() or self._hurry:
                break

    async def perft(self, depth: int) -> int:
        """Move sequences of ``depth`` moves: small counts at once, big ones in
        a worker, where ``# interrupt`` can stop them."""
        position = self.state.position
        if depth <= 1 or _positions_expanded(len(position.legal_moves()), depth) <= CHEAP_PERFT_POSITIONS:
            return position.perft(depth)
        if self._hurry or self._interrupted:
            raise GtpError("perft interrupted")
        try:
            return await self._pool().perft(PerftRequest(self.state.snapshot(), depth))
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
