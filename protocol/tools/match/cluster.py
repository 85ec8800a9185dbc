"""Playing a match's games on a Dask cluster (``stargtp match --cluster``).

The coordinator (``stargtp match``) keeps everything it does without a
cluster: the schedule, the deal of games to worker slots, the results file
(written by it alone, in order of completion, fsync'd), resume, progress,
ratings and the SPRT stop (:mod:`stargtp.protocol.tools.match.runner`). Only the
games move: each one is a Dask task that starts (or reuses) both engines on
its worker, referees the game with today's referee and returns the record.

Fixed-playout matches replay exactly as with ``--concurrency K``: slot ``s``
keeps its engine processes on one worker from game to game, as a local slot
does, so the same engine process plays the same games in the same order
(the engines are started with ``{slot}`` = ``s`` as locally). A slot's games
are pinned to its worker (a loose restriction): when the worker dies, Dask
plays the game in progress again from the start on another worker, with
fresh engines, and the slot stays there. The coordinator hears of one result
per game, so a game is never counted twice.

A finished game is never played again: a slot submits its next game only
once the last one's record is in the results file, as a task of its own
that depends on nothing, and lets go of the finished one. A game that other
tasks depended on would be played again, with all the games before it, when
the worker holding its result died (Dask recomputes lost results that a
task still needs).

This module imports :mod:`distributed`: only the cluster path imports it
(``pip install 'stargtp[cluster]'``); the rest of the toolkit never does.
"""

from __future__ import annotations

import asyncio
import io
import logging
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence, TextIO

import dask
import distributed
from distributed import Client, LocalCluster, WorkerPlugin

from stargtp.protocol.tools.match.runner import EnginePool, GameSlot, check_engines
from stargtp.protocol.tools.match.settings import GameJob, MatchSettings

PLUGIN_NAME = "stargtp-engines"
"""The name of the worker plugin that keeps the engines of the slots."""

IDLE_SECONDS = 600.0
"""A worker closes a slot's engines when no game has used them for this
long: the slot of a coordinator that was killed (a finished match closes
its engines itself)."""

CONNECT_TIMEOUT = 30.0
"""Seconds to reach the scheduler."""


def parse_cluster(text: str) -> tuple[str, int | str]:
    """``("local", N)`` for ``local:N`` or ``("address", ADDRESS)`` for a
    scheduler's address (``tcp://HOST:PORT``, ``HOST:PORT``, ``tls://...``).
    ValueError for anything else. Needs no Dask, so the command line can
    check the option before the extra is imported.

    >>> parse_cluster("local:2"), parse_cluster("tcp://10.0.0.5:8786"), parse_cluster("node1:8786")
    (('local', 2), ('address', 'tcp://10.0.0.5:8786'), ('address', 'tcp://node1:8786'))
    """
    text = text.strip()
    if text.lower().startswith("local:"):
        count = text[6:]
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"expected local:N with N a whole number of at least 1, not {text!r}")
        return "local", int(count)
    scheme, sep, rest = text.rpartition("://")
    address = rest if sep else text
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536 or (sep and not scheme.isalnum()):
        raise ValueError(f"expected local:N or a scheduler address SCHEME://HOST:PORT or HOST:PORT, not {text!r}")
    return "address", text if sep else f"tcp://{text}"


# -- on the workers ----------------------------------------------------------------------------------------
@dataclass
class _Slot:
    pool: EnginePool
    used: float = field(default_factory=time.monotonic)


class EngineHost(WorkerPlugin):
    """A worker's engines: the :class:`EnginePool` of each slot it plays, kept
    from game to game on one event loop of its own (the engines'
    controllers belong to the loop that started them, and Dask runs tasks in
    threads)."""

    name = PLUGIN_NAME

    def setup(self, worker: distributed.Worker) -> None:
        self.loop = asyncio.new_event_loop()
        self.slots: dict[tuple[str, int], _Slot] = {}
        self.thread = threading.Thread(target=self.loop.run_forever, name="stargtp-engines", daemon=True)
        self.thread.start()

    def teardown(self, worker: distributed.Worker) -> None:
        try:
            self.run(self.close_match(None), timeout=30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)

    def run(self, coroutine: Any, timeout: float | None = None) -> Any:
        """Run ``coroutine`` on the engines' loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def play(self, match: str, settings: MatchSettings, slot: int, job: GameJob,
                   keep_stderr: bool, keep_debug: bool) -> dict[str, Any]:
        """Referee ``job`` with slot ``slot``'s engines of match ``match``:
        the record, the lines the referee logged, and the engines' stderr
        and traffic when asked for."""
        await self._close_idle()
        pool = self._pool(match, settings, slot)
        held = self.slots[match, slot]
        pool.stderr_sink = io.StringIO() if keep_stderr else None
        pool.debug_sink = io.StringIO() if keep_debug else None
        lines: list[str] = []
        try:
            record = await pool.play(job, lines.append, lambda moves: None)
        finally:
            held.used = time.monotonic()
        return {"record": record, "log": lines,
                "stderr": pool.stderr_sink.getvalue() if pool.stderr_sink is not None else "",
                "debug": pool.debug_sink.getvalue() if pool.debug_sink is not None else ""}

    async def check(self, match: str, settings: MatchSettings) -> str | None:
        """Start every engine once (:func:`check_engines`) in slot 0's pool,
        which keeps them for its first games, as a local run does; the
        problem, or None."""
        pool = self._pool(match, settings, 0)
        try:
            await check_engines(pool, settings)
        except ValueError as error:
            return str(error)
        return None

    async def close_match(self, match: str | None) -> None:
        """Close the engines of match ``match`` (of every match for None)."""
        for key in [key for key in self.slots if match is None or key[0] == match]:
            await self.slots.pop(key).pool.close()

    def _pool(self, match: str, settings: MatchSettings, slot: int) -> EnginePool:
        held = self.slots.get((match, slot))
        if held is None:
            held = self.slots[match, slot] = _Slot(EnginePool(settings, slot))
        held.used = time.monotonic()
        return held.pool

    async def _close_idle(self) -> None:
        now = time.monotonic()
        for key in [key for key, held in self.slots.items() if now - held.used > IDLE_SECONDS]:
            await self.slots.pop(key).pool.close()


def _host() -> EngineHost:
    worker = distributed.get_worker()
    host = worker.plugins.get(PLUGIN_NAME)
    if not isinstance(host, EngineHost):
        raise RuntimeError(f"the worker {worker.address} has no {PLUGIN_NAME} plugin")
    return host


def play_on_worker(match: str, settings: MatchSettings, slot: int, job: GameJob, keep_stderr: bool,
                   keep_debug: bool) -> dict[str, Any]:
    """The task of one game (runs on a worker): its record and what went
    with it, and the worker that played it."""
    answer = _host().run(_host().play(match, settings, slot, job, keep_stderr, keep_debug))
    answer["worker"] = distributed.get_worker().address
    return answer


def check_on_worker(match: str, settings: MatchSettings) -> str | None:
    """The task that starts every engine once on slot 0's worker."""
    return _host().run(_host().check(match, settings))


async def close_on_worker(match: str, dask_worker: distributed.Worker) -> None:
    """Run on every worker at the end of a match (``Client.run`` passes the
    worker): close the match's engines."""
    host = dask_worker.plugins.get(PLUGIN_NAME)
    if not isinstance(host, EngineHost):
        return
    await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(host.close_match(match), host.loop))


# -- on the coordinator ------------------------------------------------------------------------------------
class Cluster:
    """The coordinator's connection to a Dask cluster for one match run.
    Use :func:`connect`."""

    def __init__(self, client: Client, local: LocalCluster | None) -> None:
        self.client = client
        self.local = local
        self.match = uuid.uuid4().hex
        """This run's id: the workers keep its engines apart from others'."""
        self.homes: dict[int, str] = {}
        """The worker each slot plays on."""
        self.known: dict[str, int] = {}
        """The live workers and their threads, as the scheduler last said."""

    async def workers(self) -> dict[str, int]:
        """The live workers and their threads, asked of the scheduler now
        (the client's own copy lags behind)."""
        info = await self.client.scheduler.identity()
        self.known = {address: worker.get("nthreads", 1) for address, worker in info.get("workers", {}).items()}
        return self.known

    def threads(self) -> int:
        """How many games the cluster could play at once, when last asked."""
        return max(1, sum(self.known.values()))

    def slots(self, settings: MatchSettings, stderr_sink: TextIO | None,
              debug_sink: TextIO | None) -> Sequence[GameSlot]:
        """``settings.concurrency`` slots, spread over the workers by their
        threads."""
        places = [address for address, threads in sorted(self.known.items()) for _ in range(threads)]
        for slot in range(settings.concurrency):
            if places:
                self.homes[slot] = places[slot % len(places)]
        return [ClusterSlot(self, settings, slot, stderr_sink, debug_sink) for slot in range(settings.concurrency)]

    async def preflight(self, settings: MatchSettings) -> None:
        """Start every engine once before the first game, in slot 0 on its
        worker (a worker that dies meanwhile takes the engines with it: the
        slot's first game starts them again)."""
        problem = await self.client.submit(check_on_worker, self.match, settings, pure=False,
                                           key=f"stargtp-check-{self.match}", **self.placement(0))
        if problem is not None:
            raise ValueError(f"{problem} (on a cluster worker)")

    async def close(self) -> None:
        try:
            await self.client.run(close_on_worker, self.match)
        except Exception:  # noqa: BLE001 -- a worker that died meanwhile has no engines left to close
            pass
        await self.client.close()
        if self.local is not None:
            await self.local.close()

    def placement(self, slot: int) -> dict[str, Any]:
        """Dask's ``submit`` options that send slot ``slot``'s next game to
        its worker. The restriction is loose: when that worker has died, the
        scheduler gives the game to another one (no need to ask it first
        which workers live, a round trip per game)."""
        home = self.homes.get(slot)
        return {"workers": [home], "allow_other_workers": True} if home is not None else {}


class ClusterSlot:
    """A worker slot whose games are Dask tasks (the :class:`GameSlot` of
    the cluster path).

    :meth:`play` submits its game and waits for it: the runner asks for the
    slot's next game only after recording this one, so the slot has one game
    in flight at a time, in the order dealt, and no task ever depends on
    another. The finished game's future is dropped with its answer, so Dask
    forgets the result: nothing can make it recompute (replay) the game.
    That costs a round trip through the scheduler between two games of a
    slot (about 10 ms at low load, 90-260 ms measured on a loaded 2-core
    machine), the price of never playing a finished game twice."""

    def __init__(self, cluster: Cluster, settings: MatchSettings, slot: int, stderr_sink: TextIO | None,
                 debug_sink: TextIO | None) -> None:
        self.cluster = cluster
        self.settings = settings
        self.slot = slot
        self.stderr_sink = stderr_sink
        self.debug_sink = debug_sink
        self.playing: distributed.Future | None = None
        """The slot's game in flight, if any."""

    async def play(self, job: GameJob, log: Callable[[str], None],
                   on_move: Callable[[int], None]) -> dict[str, Any]:
        cluster = self.cluster
        self.playing = future = cluster.client.submit(
            play_on_worker, cluster.match, self.settings, self.slot, job, self.stderr_sink is not None,
            self.debug_sink is not None, key=f"stargtp-game-{cluster.match}-{uuid.uuid4().hex}", pure=False,
            **cluster.placement(self.slot))
        try:
            answer = await future
        except asyncio.CancelledError:
            await asyncio.shield(self.close())
            raise
        except distributed.KilledWorker as error:
            raise ValueError(f"{job.key}: Dask gave up on the game after its workers died: {error}") from None
        finally:
            self.playing = None
        del future  # the last reference: Dask releases the result
        cluster.homes[self.slot] = answer["worker"]  # where it ran: after a worker died, another
        for line in answer["log"]:
            log(line)
        for sink, text in ((self.stderr_sink, answer["stderr"]), (self.debug_sink, answer["debug"])):
            if sink is not None and text:
                sink.write(text)
                sink.flush()
        return answer["record"]

    async def close(self) -> None:
        """Cancel the game still in flight (the match was stopped). The
        engines live on the workers; :meth:`Cluster.close` ends them."""
        if self.playing is not None:
            future, self.playing = self.playing, None
            await self.cluster.client.cancel([future])


async def connect(kind: str, where: int | str) -> Cluster:
    """A :class:`Cluster` for ``parse_cluster``'s answer: a local cluster of
    N worker processes (one thread each), or the scheduler at an address.
    ValueError when the scheduler cannot be reached."""
    local = None
    # Dask's own news (workers joining and leaving) would drown the match's
    # progress on stderr; its warnings and errors still show.
    logging.getLogger("distributed").setLevel(logging.WARNING)
    try:
        if kind == "local":
            # Dask's statistical profiler samples the running task's thread
            # every 10 ms: a few percent of every game's time, for nothing a
            # match uses (docs/cluster.md says how to turn it off for
            # workers started by hand).
            with dask.config.set({"distributed.worker.profile.enabled": False}):
                local = await LocalCluster(n_workers=int(where), threads_per_worker=1, processes=True,
                                           host="127.0.0.1", asynchronous=True, dashboard_address=None,
                                           silence_logs=logging.WARNING)
            client = await Client(local, asynchronous=True, timeout=CONNECT_TIMEOUT)
        else:
            client = await Client(str(where), asynchronous=True, timeout=CONNECT_TIMEOUT)
    except (OSError, asyncio.TimeoutError) as error:
        if local is not None:
            await local.close()
        raise ValueError(f"cannot reach the Dask scheduler at {where}: {error}") from None
    try:
        await client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
    except (OSError, asyncio.TimeoutError, distributed.TimeoutError):
        await client.close()
        raise ValueError(f"the Dask scheduler at {where} has no workers (none joined in "
                         f"{CONNECT_TIMEOUT:g} s)") from None
    await client.register_plugin(EngineHost(), name=PLUGIN_NAME)
    cluster = Cluster(client, local)
    await cluster.workers()
    return cluster
