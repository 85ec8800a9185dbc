"""Root parallelism: merge the answers of several independent searches of one
position into one answer.

Each worker keeps its own tree and its own seed; only moves travel between
processes, never trees. The worker processes are the server's pool
(:mod:`stargtp.protocol.server.workers`, which ``stargtp bench --workers N`` also
measures); this module is the engine side of the idea.

>>> a = SearchResult(move=1, playouts=10, root={1: (6, 4.0), 2: (4, 1.0)})
>>> b = SearchResult(move=2, playouts=10, root={2: (7, 5.0), 1: (3, 1.0)})
>>> merged = merge_results([a, b])
>>> merged.move, merged.root[2], merged.playouts
(2, (11, 6.0), 20)
"""

from __future__ import annotations

from typing import Any

from stargtp.engine.search.base import SearchResult


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
