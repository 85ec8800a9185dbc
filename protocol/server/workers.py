"""Search off the event loop: a session's pool of worker processes.

Each worker process holds one engine player (``make_player``) and its own copy
of the game, which it keeps in step from the move history sent with every
request: moves travel, never trees, so the player may keep its tree between
moves. A request is answered by every worker (root parallelism); their answers
are merged by :func:`merge_results`.

Stopping is cooperative: a shared stop flag (:class:`StopFlag`, one byte of
shared memory and no lock), polled through the player's ``should_stop``, makes every worker answer at once with its best move so far
(``# interrupt``). Closing the pool sets it too and terminates any worker that
is not back within half a second, so a client that disconnects mid-search
frees its processes promptly.

Workers start with the "forkserver" method where it exists ("spawn"
elsewhere): never fork a process that runs an asyncio loop and threads.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from stargtp.engine.games import registered_games
from stargtp.engine.search import Limits

Log = Callable[[str], None]

CLOSE_GRACE_SECONDS = 0.5
"""How long a closing pool waits for a worker to come back before terminating it."""

SEARCH_GRACE_SECONDS = 5.0
"""How long past its time limit a search may run before the pool stops it."""

MIN_SEARCH_SECONDS = 0.01
"""The least time a timed search gets, even when starting its workers took
all of its budget: it still answers with a considered move."""

STOP_GRACE_SECONDS = 2.0
"""How long a stopped search may take to answer before its worker is killed."""

DETERMINISTIC_SEED = 0
"""The seed of the fresh player that answers a deterministic request (reg_genmove)
when the session has no seed of its own."""


# -- messages ---------------------------------------------------------------
# Moves are sent as text in the game's notation: picklable, independent of the
# engine's internal move type, and checked again by the session on return.


@dataclass(frozen=True)
class GameState:
    """Everything a worker needs to rebuild the session's position."""

    game: str
    size: int
    moves: tuple[tuple[int, str], ...]
    """(colour, move text) in the order played."""
    setup: tuple | None = None
    """``(board, to_move)`` the moves start from when that is not the game's
    usual start (an Amazons record loaded with ``loadsgf``)."""
    options: tuple[tuple[str, bool], ...] = ()
    """The game's options (``rules.options_of``: Hex's swap rule) as
    ``(name, value)`` pairs; empty for a game without options."""

    @property
    def start(self) -> tuple:
        """What the moves start from: game, size, set-up and options."""
        return (self.game, self.size, self.setup, self.options)


@dataclass(frozen=True)
class SearchRequest:
    state: GameState
    colour: int
    """The colour to move for; it may differ from the position's side to move."""
    limits: Limits
    komi: float = 0.0
    analysis: bool = False
    """For lz-analyze: also report per-move variations and, where the player
    can, ownership."""
    deterministic: bool = False
    """Answer with a fresh player with a fixed seed: the same request always
    gets the same answer (under a playout limit)."""


@dataclass(frozen=True)
class PrepareRequest:
    """Build the position of ``state`` now (geometry tables and all), so the
    first search does not spend its time on it. Answered with None."""

    state: GameState


@dataclass(frozen=True)
class PerftRequest:
    state: GameState
    depth: int


@dataclass(frozen=True)
class SearchReply:
    move: str | None
    """Move text, or None to resign."""
    playouts: int = 0
    winrate: float | None = None
    pv: tuple[str, ...] = ()
    root: dict[str, tuple[int, float]] = field(default_factory=dict)
    """Move text -> (visits, wins) at the root, when the player reports them."""
    variations: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Move text -> its expected continuation (analysis)."""
    ownership: tuple[tuple[str, float], ...] = ()
    """(point text, share of playouts black owned it) (analysis)."""


@dataclass(frozen=True)
class PerftReply:
    count: int


@dataclass(frozen=True)
class WorkerFailed:
    message: str
    """What went wrong, on one line (``ValueError: ...``)."""
    detail: str = ""
    """The worker's traceback, for the server's log."""


@dataclass(frozen=True)
class _Envelope:
    """A request or reply tagged with its number, so that a late reply to an
    abandoned request is recognised and dropped."""

    number: int
    body: Any


class WorkerError(Exception):
    """A worker failed, died or did not answer; the session retries once, then
    answers the command with this error."""


class SearchInterrupted(Exception):
    """A request that cannot stop early (perft) was interrupted."""


# -- the worker process -------------------------------------------------------


class _WorkerGame:
    """The worker's own position, kept in step with the session's history."""

    def __init__(self) -> None:
        self.position: Any = None
        self.start: tuple | None = None
        self.moves: list[tuple[int, str]] = []

    def sync(self, state: GameState) -> Any:
        from stargtp.engine.games import find_game

        position = self.position
        if position is None or self.start != state.start:
            rules = find_game(state.game)
            if state.setup is None:
                position = rules.new_position(state.size, dict(state.options))
            else:
                position = rules.from_setup(*state.setup)
            self.position = position
            self.start = state.start
            self.moves = []
        wanted = state.moves
        common = 0
        for have, want in zip(self.moves, wanted):
            if have != want:
                break
            common += 1
        try:
            while len(self.moves) > common:
                position.undo()
                self.moves.pop()
            for colour, text in wanted[common:]:
                position.play(position.parse_move(text), colour)
                self.moves.append((colour, text))
        except Exception:
            self.position = None  # rebuild from scratch on the next request
            raise
        return position


def _search(player: Any, game: _WorkerGame, request: SearchRequest, stop: Any,
            seed: int | None, player_name: str, params: dict[str, str]) -> SearchReply:
    from stargtp.engine.players import make_player

    position = game.sync(request.state)
    if request.deterministic:
        player = make_player(player_name, seed=DETERMINISTIC_SEED if seed is None else seed, **params)
    if "komi" in player.params():
        player.set_param("komi", repr(float(request.komi)))
    if "ownership" in player.params():
        player.set_param("ownership", "on" if request.analysis else "off")
    board = position
    if position.to_move != request.colour:
        # genmove may ask for either colour: search a copy with that side to move.
        board = position.copy()
        board.to_move = request.colour
    result = player.genmove(board, request.limits, stop.is_set)
    move = None if result.move is None else board.format_move(result.move)
    pv = tuple(board.format_move(m) for m in (result.pv or ()))
    root = {board.format_move(m): (int(v), float(w)) for m, (v, w) in (result.root or {}).items()}
    if not request.analysis:
        return SearchReply(move, int(result.playouts or 0), result.winrate, pv, root)
    variations = {board.format_move(m): tuple(board.format_move(x) for x in line)
                  for m, line in (result.variations or {}).items()}
    ownership = tuple((board.format_move(point), float(share)) for point, share in result.ownership or ())
    return SearchReply(move, int(result.playouts or 0), result.winrate, pv, root, variations, ownership)


def worker_main(conn: multiprocessing.connection.Connection, stop: Any, player_name: str,
                seed: int | None, params: dict[str, str], games: list | None = None) -> None:
    """Body of a worker process: answer requests until the pipe closes.
    ``games``: the games the server registered at run time, beyond the
    built-in ones (the worker knows only those otherwise)."""
    # Ctrl-C in a terminal reaches the whole process group; the server decides
    # when workers end, so they ignore it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The server's stdout carries only protocol responses: whatever a worker
    # might print goes to stderr instead.
    try:
        sys.stdout.flush()
        os.dup2(2, 1)
    except OSError:
        pass
    sys.stdout = sys.stderr
    from stargtp.engine.games import adopt_games
    from stargtp.engine.players import make_player

    try:
        adopt_games(games or [])
        player = make_player(player_name, seed=seed, **params)
    except Exception as exc:  # reported to the session, which logs it
        conn.send(_Envelope(0, WorkerFailed(f"cannot make player: {exc}")))
        return
    conn.send(_Envelope(0, None))  # ready
    game = _WorkerGame()
    while True:
        try:
            envelope = conn.recv()
        except (EOFError, OSError):
            return
        if envelope is None:
            return
        request = envelope.body
        try:
            if isinstance(request, SearchRequest):
                reply: Any = _search(player, game, request, stop, seed, player_name, params)
            elif isinstance(request, PerftRequest):
                reply = PerftReply(game.sync(request.state).perft(request.depth))
            elif isinstance(request, PrepareRequest):
                game.sync(request.state)
                reply = None
            else:
                reply = WorkerFailed(f"unknown request {type(request).__name__}")
        except Exception as exc:
            reply = WorkerFailed(f"{type(exc).__name__}: {exc}", traceback.format_exc())
        try:
            conn.send(_Envelope(envelope.number, reply))
        except (BrokenPipeError, OSError):
            return


# -- the session side ------------------------------------------------------------


PRELOAD = ["stargtp.engine.games", "stargtp.engine.search", "stargtp.protocol.server.workers"]
"""What the forkserver imports once, so that a new worker costs a fork, not a
Python start-up with every engine import."""

_start_lock = threading.Lock()


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        _ensure_forkserver()
        return context
    return multiprocessing.get_context("spawn")


def _ensure_forkserver() -> None:
    """Start the forkserver, if it is not running, without the working
    directory on its ``sys.path``.

    multiprocessing starts it as ``python -c ...``, which puts the current
    folder first on ``sys.path``, and (up to Python 3.11) imports the preload
    modules before anything else: a folder holding a package named like ours
    would be imported instead of the installed one, in the forkserver and in
    every worker forked from it. ``PYTHONSAFEPATH`` (Python 3.11) tells that
    interpreter not to prepend the folder; it is set only while the server
    starts, so that the engines a match starts keep Python's usual path.
    Spawned processes need nothing: they take the parent's ``sys.path``
    before they import anything of ours."""
    import multiprocessing.forkserver

    with _start_lock:
        saved = os.environ.get("PYTHONSAFEPATH")
        os.environ["PYTHONSAFEPATH"] = "1"
        try:
            multiprocessing.forkserver.ensure_running()
        finally:
            if saved is None:
                del os.environ["PYTHONSAFEPATH"]
            else:
                os.environ["PYTHONSAFEPATH"] = saved


def start_process_server() -> None:
    """Start the forkserver now (blocking: run it in a thread), so that the
    first worker of the first session costs a fork, not a Python start-up
    with every engine import. Does nothing where workers are spawned."""
    _context()


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, process: Any, conn: multiprocessing.connection.Connection) -> None:
        self.process = process
        self.conn = conn

    @property
    def pid(self) -> int | None:
        return self.process.pid

    async def receive(self, timeout: float | None = None) -> Any:
        """The next message, waiting on the loop; WorkerError if the worker
        died, TimeoutError if nothing came within ``timeout``."""
        loop = asyncio.get_running_loop()
        if not self.conn.poll():
            ready = loop.create_future()
            fd = self.conn.fileno()
            loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
            try:
                await asyncio.wait_for(ready, timeout)
            finally:
                loop.remove_reader(fd)
        try:
            return self.conn.recv()
        except (EOFError, OSError) as exc:
            raise WorkerError(f"worker {self.pid} died") from exc

    async def wait_exit(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the process to end; True if it did."""
        loop = asyncio.get_running_loop()
        gone = loop.create_future()
        sentinel = self.process.sentinel
        loop.add_reader(sentinel, lambda: gone.done() or gone.set_result(None))
        try:
            await asyncio.wait_for(gone, timeout)
            return True
        except TimeoutError:
            return False
        finally:
            loop.remove_reader(sentinel)

    async def shut_down(self, grace: float) -> None:
        """Ask the worker to exit; terminate, then kill, if it will not."""
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        if not await self.wait_exit(grace):
            self.process.terminate()
            if not await self.wait_exit(grace):
                self.process.kill()
                await self.wait_exit(grace)
        self.conn.close()
        try:
            self.process.close()
        except ValueError:
            pass  # not reaped yet; the forkserver or multiprocessing reaps it later


def _end_orphan(spawn: asyncio.Future[_Worker]) -> None:
    """Done-callback for a worker started for a pool that no longer wants it."""
    if spawn.cancelled() or spawn.exception() is not None:
        return
    worker = spawn.result()
    worker.process.terminate()
    worker.conn.close()


class StopFlag:
    """The pool's stop flag, shared with its worker processes: one byte of
    shared memory, read and written without a lock. A multiprocessing Event
    guards its flag with a process-shared lock that every ``is_set`` takes,
    so a worker killed while polling it (a crash, the OOM killer, SIGKILL)
    could leave the lock held, and the server's next ``clear`` would block
    its event loop forever; a lone byte has nothing to leave held."""

    __slots__ = ("_value",)

    def __init__(self, context: multiprocessing.context.BaseContext) -> None:
        self._value = context.RawValue("b", 0)

    def set(self) -> None:
        self._value.value = 1

    def clear(self) -> None:
        self._value.value = 0

    def is_set(self) -> bool:
        return self._value.value != 0


class WorkerPool:
    """The worker processes of one session, started at the first request."""

    def __init__(self, player: str, params: dict[str, str], seed: int | None,
                 workers: int = 1, log: Log | None = None) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.player = player
        self.params = dict(params)
        self.seed = seed
        self.size = workers
        self.log = log or logging.getLogger(__name__).info
        self._context = _context()
        self._stop = StopFlag(self._context)
        self._workers: list[_Worker | None] = [None] * workers
        self._number = 0
        self._closed = False
        self._starting: asyncio.Future[None] | None = None

    @property
    def pids(self) -> list[int]:
        """Process ids of the running workers (for tests and diagnostics)."""
        return [w.pid for w in self._workers if w is not None and w.pid is not None]

    def interrupt(self) -> None:
        """Make every running search answer now with its best move."""
        self._stop.set()

    def _worker_seed(self, index: int) -> int | None:
        return None if self.seed is None else self.seed + index

    def _spawn(self, index: int) -> _Worker:
        """Start worker ``index`` (blocking: called in a thread)."""
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=worker_main,
            args=(child, self._stop, self.player, self._worker_seed(index), self.params,
                  registered_games()),
            name=f"stargtp-worker-{index}",
            daemon=True,
        )
        process.start()
        child.close()
        return _Worker(process, parent)

    async def start(self, state: GameState | None = None) -> None:
        """Start any worker that is not running, so that the next search does not
        wait for it; new workers also build the position of ``state``.
        Concurrent calls share one start-up. Raises WorkerError."""
        await self._ensure_started(state)

    async def _ensure_started(self, state: GameState | None = None) -> list[_Worker]:
        if self._closed:
            raise WorkerError("the pool is closed")
        if self._starting is None or self._starting.done():
            if all(w is not None for w in self._workers):
                return [w for w in self._workers if w is not None]
            self._starting = asyncio.ensure_future(self._start_missing(state))
        # Shielded: one waiter going away (a cancelled search) must not cancel
        # the start-up the others share.
        await asyncio.shield(self._starting)
        return [w for w in self._workers if w is not None]

    async def _start_missing(self, state: GameState | None) -> None:
        missing = [i for i, w in enumerate(self._workers) if w is None]
        if missing:
            loop = asyncio.get_running_loop()
            # Starting a process blocks, so it happens in a thread. The spawns are
            # shielded: if this session goes away meanwhile, each one still
            # finishes, and its worker is then ended instead of leaked.
            spawns = [loop.run_in_executor(None, self._spawn, i) for i in missing]
            try:
                started = await asyncio.gather(*(asyncio.shield(s) for s in spawns))
            except asyncio.CancelledError:
                for spawn in spawns:
                    spawn.add_done_callback(_end_orphan)
                raise
            except OSError as exc:  # no processes left, say
                for spawn in spawns:
                    spawn.add_done_callback(_end_orphan)
                raise WorkerError(f"cannot start a worker: {exc}") from exc
            for index, worker in zip(missing, started):
                self._workers[index] = worker
            for index, worker in zip(missing, started):
                try:
                    hello = await worker.receive(timeout=60.0)
                except (WorkerError, TimeoutError) as exc:
                    await self._discard(index)
                    raise WorkerError(f"worker {index} did not start: {exc}") from exc
                if isinstance(hello.body, WorkerFailed):
                    await self._discard(index)
                    raise WorkerError(hello.body.message)
            if state is not None:  # before any search can reach these workers
                await asyncio.gather(*(self._ask(i, PrepareRequest(state), 60.0, stoppable=False)
                                       for i in missing))

    async def _discard(self, index: int) -> None:
        worker = self._workers[index]
        self._workers[index] = None
        if worker is not None:
            await worker.shut_down(CLOSE_GRACE_SECONDS)

    async def _ask(self, index: int, body: Any, time_limit: float | None,
                   stoppable: bool) -> Any:
        """Send one request to worker ``index`` and wait for its reply.

        With a ``time_limit`` the worker is first told to stop, then killed, if
        it overruns. A worker that fails is discarded (restarted next time).
        """
        worker = self._workers[index]
        assert worker is not None
        self._number += 1
        number = self._number
        try:
            worker.conn.send(_Envelope(number, body))
            while True:
                try:
                    envelope = await worker.receive(time_limit)
                except TimeoutError:
                    if not stoppable:
                        raise
                    self._stop.set()
                    envelope = await worker.receive(STOP_GRACE_SECONDS)
                if envelope.number == number:
                    break  # an older number is a late reply to an abandoned request
        except (WorkerError, TimeoutError, OSError) as exc:
            await self._discard(index)
            raise WorkerError(f"worker {index}: {exc or type(exc).__name__}") from exc
        except asyncio.CancelledError:
            # The session is going away mid-request; the worker's state is unknown.
            self._stop.set()
            raise
        reply = envelope.body
        if isinstance(reply, WorkerFailed):
            if reply.detail:
                self.log(f"stargtp: worker {index} failed:\n{reply.detail.rstrip()}")
            raise WorkerError(reply.message)
        return reply

    async def search(self, request: SearchRequest, hurry: bool = False) -> SearchReply:
        """Every worker searches; the merged answer. Raises WorkerError. With
        ``hurry`` the search is stopped from the start: it answers at once."""
        # Set the stop flag first: an interrupt arriving while the workers
        # start must still stop this search.
        if hurry:
            self._stop.set()
        else:
            self._stop.clear()
        began = time.monotonic()
        workers = await self._ensure_started()
        seconds = request.limits.seconds
        if seconds is not None:
            # Time spent starting workers comes out of the move's own time.
            seconds = max(MIN_SEARCH_SECONDS, seconds - (time.monotonic() - began))
            request = replace(request, limits=replace(request.limits, seconds=seconds))
        time_limit = None if seconds is None else seconds + SEARCH_GRACE_SECONDS
        # A deterministic answer needs one worker: merging is order-independent
        # but the other workers' seeds would still change the vote.
        indices = [0] if request.deterministic else range(len(workers))
        outcomes = await asyncio.gather(
            *(self._ask(i, request, time_limit, stoppable=True) for i in indices),
            return_exceptions=True)
        replies = [o for o in outcomes if isinstance(o, SearchReply)]
        for outcome in outcomes:
            if isinstance(outcome, asyncio.CancelledError):
                raise outcome
            if isinstance(outcome, BaseException) and not isinstance(outcome, Exception):
                raise outcome
            if isinstance(outcome, Exception):
                self.log(f"stargtp: {outcome}")
        if not replies:
            failures = [o for o in outcomes if isinstance(o, Exception)]
            raise WorkerError(str(failures[0]) if failures else "no worker answered")
        return merge_results(replies)

    async def perft(self, request: PerftRequest) -> int:
        """Count move sequences in worker 0. Interrupting it (which perft cannot
        do by itself) kills the worker and raises SearchInterrupted."""
        self._stop.clear()
        await self._ensure_started()
        task = asyncio.ensure_future(self._ask(0, request, None, stoppable=False))
        stopped = asyncio.ensure_future(self._wait_stop())
        try:
            done, _ = await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopped.cancel()
        if task in done:
            return task.result().count
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await self._discard(0)
        raise SearchInterrupted("perft interrupted")

    async def _wait_stop(self) -> None:
        # The stop flag is a process-shared byte with no file descriptor to wait
        # on; polling it every few milliseconds is cheap and prompt enough.
        while not self._stop.is_set():
            await asyncio.sleep(0.005)

    async def close(self) -> None:
        """Stop any search and end every worker within about a second."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        starting, self._starting = self._starting, None
        if starting is not None and not starting.done():
            starting.cancel()
            await asyncio.gather(starting, return_exceptions=True)
        workers = [w for w in self._workers if w is not None]
        self._workers = [None] * self.size
        await asyncio.gather(*(w.shut_down(CLOSE_GRACE_SECONDS) for w in workers),
                             return_exceptions=True)


def merge_results(replies: list[SearchReply]) -> SearchReply:
    """Combine the answers of several workers searching the same position,
    with the engine's root-parallel merge (:func:`stargtp.engine.search.parallel.merge_results`):
    visits summed per move, the most visited move chosen. Moves are compared as
    text, which names a move uniquely in every game."""
    if len(replies) == 1:
        return replies[0]
    from stargtp.engine.search.base import SearchResult
    from stargtp.engine.search.parallel import merge_results as merge_search_results

    merged = merge_search_results([
        SearchResult(move=r.move, playouts=r.playouts, winrate=r.winrate, pv=list(r.pv), root=dict(r.root))
        for r in replies])
    # Analysis extras: each move's line from the first worker that has one, and
    # the ownership shares averaged over the workers that report them.
    variations: dict[str, tuple[str, ...]] = {}
    for reply in replies:
        for move, line in reply.variations.items():
            variations.setdefault(move, line)
    owners = [r.ownership for r in replies if r.ownership]
    ownership = tuple((point, sum(o[i][1] for o in owners) / len(owners))
                      for i, (point, _) in enumerate(owners[0])) if owners else ()
    return SearchReply(merged.move, merged.playouts, merged.winrate, tuple(merged.pv), dict(merged.root),
                       variations, ownership)
