"""Running a match: engines per worker slot, games in parallel, the results
file, resuming, and stopping when the SPRT decides.

:func:`run_match` plays the games of :func:`~stargtp.protocol.tools.match.settings.schedule`
that the results file does not hold yet, ``concurrency`` at a time. Each
worker slot owns an :class:`EnginePool`: its own engine processes (or
connections), restarted after one broke. Games are dealt to the slots the
same way every time (:func:`deal`), so fixed-playout matches replay.

A slot need not be local: :func:`run_match` takes ``slots``, any objects
with the :class:`GameSlot` methods, and the Dask path
(:mod:`stargtp.protocol.tools.match.cluster`) gives slots that play each game on a
worker of a cluster. Everything else (the schedule, the deal, resume, the
results file, progress, the SPRT stop) is this module's, for both.
"""

from __future__ import annotations

import asyncio
import datetime
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Protocol, Sequence, TextIO

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.errors import GameError
from stargtp.protocol.controller import ControllerError, EngineError, GtpController, ProtocolError
from stargtp.protocol.tools.match.records import RecordsFile, clip, save_sgf
from stargtp.protocol.tools.match.referee import Seat, play_game
from stargtp.protocol.tools.match.report import PairingSummary, Progress, sprt_decided, summarise
from stargtp.protocol.tools.match.results import ResultsFile
from stargtp.protocol.tools.match.settings import GameJob, MatchSettings, numbered, schedule


class EnginePool:
    """The engine processes (or connections) one worker slot owns: one per
    engine name, started on first use and replaced after it broke."""

    def __init__(self, settings: MatchSettings, slot: int, stderr_sink: TextIO | None = None,
                 debug_sink: TextIO | None = None) -> None:
        self.settings = settings
        self.slot = slot
        self.stderr_sink = stderr_sink
        self.debug_sink = debug_sink
        self.game_key: str | None = None
        """The game this slot is playing, for the debug log."""
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

        def on_line(line: str) -> None:
            sink = self.stderr_sink  # read at each line: a cluster worker swaps it per game
            if sink is not None:
                sink.write(f"[{name} slot {self.slot}] {line}\n")
                sink.flush()

        entry = self.settings.engine(name)
        place = {"cwd": entry.directory} if entry.directory is not None and spec.argv is not None else {}
        controller = await GtpController.open(spec, command_timeout=self.settings.command_timeout,
                                              max_response_bytes=self.settings.max_response_bytes,
                                              on_stderr_line=on_line if self.stderr_sink is not None else None,
                                              description=name, **place)
        if self.debug_sink is not None:
            controller.on_traffic = self._debug_logger(name)
        try:
            parts = []
            for command, timeout in (("name", self.settings.start_timeout), ("version", None)):
                try:
                    parts.append((await controller.send(command, timeout=timeout)).strip())
                except EngineError:
                    pass
            self.identities[name] = clip(" ".join(p for p in parts if p), 80) or name
            for option, value in entry.options:
                try:
                    await controller.send(f"stargtp-param {option} {value}")
                except EngineError as error:
                    raise ProtocolError(f"{name}: option {option} = {value}: {error.message}") from None
        except ControllerError:
            await controller.close()
            raise
        self.controllers[name] = controller
        return controller

    def _debug_logger(self, name: str) -> Callable[[str, str], None]:
        """Writes each line sent to (``>``) or received from (``<``) engine
        ``name``, with a UTC timestamp, the game and the slot."""

        def write(direction: str, text: str) -> None:
            sink = self.debug_sink  # read at each line: a cluster worker swaps it per game
            if sink is None:
                return
            stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")
            where = f"{stamp} [{self.game_key or '-'}] {name} (slot {self.slot}) {direction} "
            sink.write("".join(where + line + "\n" for line in text.split("\n")))
            sink.flush()

        return write

    async def play(self, job: GameJob, log: Callable[[str], None],
                   on_move: Callable[[int], None]) -> dict[str, Any]:
        """Referee game ``job`` between this slot's engines (started or
        restarted as needed) and return its record; ``engine_restarts``
        counts, for this slot, the restarts of the game's engines so far."""
        self.game_key = job.key
        seats = {BLACK: await self.seat(job.black), WHITE: await self.seat(job.white)}
        record = await play_game(job, seats, self.settings, log, on_move)
        self.game_key = None
        restarts = {n: self.restarts[n] for n in (job.black, job.white) if self.restarts[n]}
        if restarts:
            record["engine_restarts"] = restarts  # cumulative for this worker slot
        return record

    async def close(self) -> None:
        for controller in self.controllers.values():
            await controller.close()
        self.controllers.clear()


class GameSlot(Protocol):
    """What :func:`run_match` needs of a worker slot: play the games it is
    given, one after another (the next one is asked for only after the last
    one's record is written), and close. :class:`EnginePool` is the local
    one."""

    def play(self, job: GameJob, log: Callable[[str], None],
             on_move: Callable[[int], None]) -> Awaitable[dict[str, Any]]: ...

    def close(self) -> Awaitable[None]: ...


SlotMaker = Callable[[MatchSettings, "TextIO | None", "TextIO | None"], Sequence[GameSlot]]
"""Makes ``settings.concurrency`` slots, given the engine stderr and debug
sinks (each may be None)."""

Preflight = Callable[[MatchSettings], Awaitable[None]]
"""Starts every engine once before the first game; ValueError when one is
not usable."""


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


async def run_match(settings: MatchSettings, *, progress: TextIO | None = None,
                    on_record: Callable[[dict[str, Any]], None] | None = None,
                    report_every: int = 0, debug: str | None = None,
                    slots: SlotMaker | None = None, preflight: Preflight | None = None) -> MatchResult:
    """Play the match ``settings`` describe and return every record.

    With ``settings.results_path`` the games already in that file are kept
    and only the missing ones are played. ``progress`` (e.g. ``sys.stderr``)
    receives a line when each game starts and ends, the progress line and
    fault messages, and every ``report_every`` games the results table.
    ``debug`` names a file that logs every line exchanged with every engine.
    ``slots`` and ``preflight`` replace the local engine pools and their
    check before the first game (the Dask path gives its own).
    Raises ValueError when an engine cannot be started or reached before the
    first game or the engine stderr or debug file cannot be opened, and
    :class:`stargtp.protocol.tools.match.results.ResultsError`
    for an unusable results file.
    """
    results = ResultsFile.open(settings.results_path, settings.identity()) if settings.results_path else None
    sinks: list[TextIO] = []
    try:
        stderr_sink = _open_log(settings.engine_stderr, "engine stderr", sinks)
        debug_sink = _open_log(debug, "debug", sinks)
    except ValueError:
        if results is not None:
            results.close()
        raise
    if slots is None:
        pools: Sequence[GameSlot] = [EnginePool(settings, slot, stderr_sink, debug_sink)
                                     for slot in range(settings.concurrency)]
    else:
        pools = slots(settings, stderr_sink, debug_sink)
    if preflight is None:
        local = pools[0]
        assert isinstance(local, EnginePool)
        preflight = lambda settings: check_engines(local, settings)  # noqa: E731
    reporter = Progress(settings, len(schedule(settings)), 0, progress, report_every)
    try:
        return await _run(settings, results, pools, preflight, reporter, on_record)
    finally:
        for pool in pools:
            await pool.close()
        if results is not None:
            results.close()
        for sink in sinks:
            sink.close()


def _open_log(path: str | None, what: str, opened: list[TextIO]) -> TextIO | None:
    """A log file opened for appending (and added to ``opened``), or None
    without a path; ValueError (closing the others) when it cannot be opened."""
    if path is None:
        return None
    try:
        sink = open(path, "a", encoding="utf-8")
    except OSError as error:
        for other in opened:
            other.close()
        raise ValueError(f"cannot open the {what} file {path}: {error.strerror or error}") from None
    opened.append(sink)
    return sink


async def _run(settings: MatchSettings, results: ResultsFile | None, pools: Sequence[GameSlot],
               preflight: Preflight, reporter: Progress,
               on_record: Callable[[dict[str, Any]], None] | None) -> MatchResult:
    """:func:`run_match` with its files open and its pools made."""
    records: list[dict[str, Any]] = numbered(results.games, settings) if results is not None else []
    jobs = schedule(settings)
    wanted = {job.key for job in jobs}
    records = [r for r in records if r["key"] in wanted]  # a shorter re-run ignores the extra games
    resumed = len(records)
    done = {r["key"] for r in records}
    pending = [job for job in jobs if job.key not in done]
    reporter.done = reporter.resumed = len(records)
    reporter.records = records
    finished = sprt_decided(records, settings) or not pending
    if not finished:
        await preflight(settings)  # before saying anything of the results file: it may yet be removed
    if results is not None:
        reporter.log(f"results file: {settings.results_path}")
    if results is not None and results.repaired_bytes:
        reporter.log(f"{settings.results_path}: cut off a torn last record ({results.repaired_bytes} bytes)")
    if records:
        reporter.log(f"resuming: {len(records)} of {len(jobs)} games already recorded")
    if records and results is not None and results.old_numbering and settings.sgf_dir:
        _save_sgfs(records, settings.sgf_dir, reporter)  # the files of the old numbering had other names
    if finished:
        _records_file(settings, records)
        return MatchResult(records, summarise(records, settings), 0, resumed,
                           sprt_stopped=sprt_decided(records, settings))
    collection = _records_file(settings, records)
    stop = asyncio.Event()
    played = 0

    async def worker(pool: GameSlot, my_jobs: list[GameJob]) -> None:
        nonlocal played
        for job in my_jobs:
            if stop.is_set():
                return
            number = job.number
            reporter.game_started(number, job.black, job.white)
            record = await pool.play(job, reporter.log, lambda moves: reporter.move_played(number, moves))
            if stop.is_set():
                reporter.game_abandoned(number)
                return  # the match was decided while this game ran
            if results is not None:
                results.append(record)
            records.append(record)
            played += 1
            reporter.game_finished(number, record)
            if on_record is not None:
                on_record(record)
            if settings.sgf_dir:
                _save_sgfs([record], settings.sgf_dir, reporter)
            try:
                if collection is not None:
                    collection.append(record)
            except (OSError, GameError) as error:
                reporter.log(f"{job.key}: not added to the records file: {error}")
            reporter.update(records)
            if sprt_decided(records, settings):
                stop.set()

    await _until_done_or_stopped([asyncio.create_task(worker(pool, jobs_of_slot))
                                  for pool, jobs_of_slot in zip(pools, deal(pending, settings))], stop)
    reporter.finish()
    return MatchResult(records, summarise(records, settings), played, resumed,
                       sprt_stopped=sprt_decided(records, settings))


def _save_sgfs(records: list[dict[str, Any]], directory: str, reporter: Progress) -> None:
    """Save each game as its own SGF file in ``directory``; a failure is
    reported, not raised."""
    for record in records:
        try:
            save_sgf(record, directory)
        except (OSError, GameError) as error:
            reporter.log(f"{record['key']}: no SGF written: {error}")


def _records_file(settings: MatchSettings, records: list[dict[str, Any]]) -> RecordsFile | None:
    """The match's SGF collection, made again from ``records``; ValueError
    when it cannot be written."""
    if not settings.records_path:
        return None
    try:
        return RecordsFile(settings.records_path, records)
    except (OSError, GameError) as error:
        raise ValueError(f"cannot write the records file {settings.records_path}: {error}") from None


async def _until_done_or_stopped(tasks: list[asyncio.Task[None]], stop: asyncio.Event) -> None:
    """Wait for the workers to finish, or for ``stop``; a worker's exception
    is raised here. Workers still running are cancelled."""
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


async def check_engines(pool: EnginePool, settings: MatchSettings) -> None:
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
