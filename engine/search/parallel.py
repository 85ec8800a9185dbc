"""Root parallelism: merge the answers of several independent searches of one
position, and run such searches in worker processes for a fixed time (the
benchmark's speedup measurement).

Each worker keeps its own tree and its own seed; only moves travel between
processes, never trees. The server's persistent pool lives in
:mod:`protocol.workers`; this module is the engine side of the idea.

>>> a = SearchResult(move=1, playouts=10, root={1: (6, 4.0), 2: (4, 1.0)})
>>> b = SearchResult(move=2, playouts=10, root={2: (7, 5.0), 1: (3, 1.0)})
>>> merged = merge_results([a, b])
>>> merged.move, merged.root[2], merged.playouts
(2, (11, 6.0), 20)
"""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass
from typing import Any

from engine.search.base import Limits, SearchResult


def merge_results(results: list[SearchResult]) -> SearchResult:
    """One answer from several workers' answers for the same position.

    Root statistics ``move -> (visits, wins)`` are summed per move and the
    most visited move is chosen (more wins breaks a tie, then the earliest
    worker to report the move). A result without statistics counts as its
    own move with its playouts as visits. The merged answer resigns (move
    None) only when more than half the workers resigned. A single result is
    returned as it is. ValueError for an empty list.
    """
    if not results:
        raise ValueError("no results to merge")
    if len(results) == 1:
        return results[0]
    resigned = sum(1 for r in results if r.move is None)
    totals: dict[Any, list[float]] = {}  # move -> [visits, wins], in first-seen order
    for result in results:
        root = result.root
        if not root and result.move is not None:
            weight = max(result.playouts, 1)
            root = {result.move: (weight, (result.winrate or 0.0) * weight)}
        for move, (visits, wins) in root.items():
            total = totals.setdefault(move, [0, 0.0])
            total[0] += visits
            total[1] += wins
    playouts = sum(r.playouts for r in results)
    merged_root = {move: (int(v), float(w)) for move, (v, w) in totals.items()}
    if resigned * 2 > len(results) or not totals:
        low = [r.winrate for r in results if r.winrate is not None]
        return SearchResult(move=None, playouts=playouts,
                            winrate=min(low) if low else None, root=merged_root)
    order = {move: i for i, move in enumerate(totals)}
    best = max(totals, key=lambda move: (totals[move][0], totals[move][1], -order[move]))
    visits, wins = totals[best]
    # The continuation of the worker that looked at the chosen move the most.
    sources = [r for r in results if r.pv and r.pv[0] == best]
    if sources:
        pv = list(max(sources, key=lambda r: r.root.get(best, (0, 0.0))[0]).pv)
    else:
        pv = [best]
    return SearchResult(move=best, playouts=playouts, winrate=wins / visits if visits else None,
                        pv=pv, root=merged_root)


# -- timed runs in processes (the benchmark) ---------------------------------------------

@dataclass(frozen=True)
class WorkerRun:
    """What one worker process did."""

    playouts: int
    seconds: float
    """Time spent searching, start to answer, measured in the worker."""
    result: SearchResult


@dataclass(frozen=True)
class ParallelRun:
    """A root-parallel search of one position by several processes."""

    workers: list[WorkerRun]
    merged: SearchResult

    @property
    def playouts(self) -> int:
        return sum(w.playouts for w in self.workers)

    @property
    def seconds(self) -> float:
        """The slowest worker's search time: the wall time of the whole search."""
        return max(w.seconds for w in self.workers)

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else 0.0


def _worker(index: int, game: str, size: int, player: str, seed: int | None,
            params: dict[str, str], limits: Limits, barrier: Any, replies: Any) -> None:
    from engine.games import new_position
    from engine.players import make_player

    searcher = make_player(player, seed=seed, **params)
    position = new_position(game, size)
    barrier.wait()  # start together, after every process has started and imported
    start = time.perf_counter()
    result = searcher.genmove(position, limits)
    seconds = time.perf_counter() - start
    replies.put((index, WorkerRun(result.playouts, seconds, result)))


def worker_seed(session_seed: int | None, index: int) -> int | None:
    """The seed of worker ``index``: distinct per worker, fixed by the session seed."""
    return None if session_seed is None else session_seed + index


def run_parallel(game: str, size: int, workers: int, limits: Limits, *, player: str = "uct",
                 seed: int | None = None, params: dict[str, str] | None = None,
                 timeout: float = 600.0) -> ParallelRun:
    """Search the empty board of ``game`` with ``workers`` processes at once,
    each with its own seed (:func:`worker_seed`), and merge their answers.

    Process start-up is not timed: the workers wait at a barrier until all of
    them are ready. Raises RuntimeError if a worker fails or times out.
    """
    if workers < 1:
        raise ValueError("at least one worker")
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(workers)
    replies = context.Queue()
    processes = [
        context.Process(target=_worker, name=f"stargtp-bench-{i}",
                        args=(i, game, size, player, worker_seed(seed, i), params or {}, limits,
                              barrier, replies), daemon=True)
        for i in range(workers)
    ]
    for process in processes:
        process.start()
    runs: dict[int, WorkerRun] = {}
    deadline = time.monotonic() + timeout
    try:
        while len(runs) < workers:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise RuntimeError("a benchmark worker did not answer in time")
            try:
                index, run = replies.get(timeout=min(remaining, 1.0))
            except Exception:  # queue.Empty: check that the workers are still alive
                dead = [p for p in processes if p.exitcode not in (None, 0)]
                if dead:
                    raise RuntimeError(f"benchmark worker {dead[0].name} failed "
                                       f"(exit code {dead[0].exitcode})") from None
                continue
            runs[index] = run
    finally:
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join()
    ordered = [runs[i] for i in range(workers)]
    return ParallelRun(ordered, merge_results([w.result for w in ordered]))
