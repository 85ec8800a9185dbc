"""The Amazons late-middlegame position suite: run a search on it, or make it.

The suite (``tests/data/amazons_suite_8x8.json``) holds positions from
seeded self-play (8x8, plies 16 to 30), each with the move a long search
prefers (``best``, "8x": eight times the iterations of "1 s", see
docs/strength.md) and, for every legal move, the queen-distance territory
of the side that plays it after the move (its squares minus the opponent's,
:func:`stargtp.engine.amazons.evaluation.queen_territory`). A move is
*within one square of the best* when its territory is at least the best
move's minus 1.

Run a search over the suite (each position searched by a fresh player
seeded with ``--seed`` plus the position's index) and count its moves
within one square of the best; the summary goes to stdout, one line per
position to stderr with ``--verbose``:

    python examples/amazons_suite.py --playouts 8000
    python examples/amazons_suite.py --seconds 1 --param regions=off

Make a suite (slow: use ``nice -n 19``); each game is seeded, its first two
plies are random, the rest are played at ``--think`` iterations a move, and
each position of the ply window is labelled at ``--label`` iterations:

    nice -n 19 python examples/amazons_suite.py --generate suite.json \\
        --games 7 --think 8000 --label 64000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass

from stargtp.engine.amazons import Position
from stargtp.engine.amazons.evaluation import queen_territory
from stargtp.engine.amazons.search import AmazonsMcts
from stargtp.engine.search.base import Limits

DEFAULT_SUITE = "tests/data/amazons_suite_8x8.json"
WINDOW = 1
"""A move is good when its territory is at most this much below the best move's."""


@dataclass(frozen=True)
class SuitePosition:
    """One labelled position of the suite."""

    size: int
    moves: tuple[str, ...]
    """The game from the start, in move text."""
    best: str
    territory: dict[str, int]
    """Move text -> the mover's queen territory minus the opponent's after it."""

    def position(self) -> Position:
        position = Position(self.size)
        for text in self.moves:
            position.play(position.parse_move(text))
        return position

    def good(self, move_text: str) -> bool:
        """Is the move within ``WINDOW`` squares of the best move's territory?"""
        return self.territory[move_text] >= self.territory[self.best] - WINDOW


def load_suite(path: str) -> list[SuitePosition]:
    """The suite's positions; ValueError with the entry's number when one is malformed."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    suite = []
    for index, entry in enumerate(data["positions"]):
        try:
            suite.append(SuitePosition(size=int(entry["size"]), moves=tuple(entry["moves"]),
                                       best=entry["best"],
                                       territory={k: int(v) for k, v in entry["territory"].items()}))
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{path}: position {index}: {error!r}") from None
    return suite


def territory_after(position: Position) -> dict[str, int]:
    """For each legal move, the mover's queen territory minus the opponent's after it."""
    mover = position.to_move
    result = {}
    for move in position.legal_moves():
        position.play_unchecked(move)
        counts = queen_territory(position)
        position.undo()
        result[position.format_move(move)] = counts[mover] - counts[3 - mover]
    return result


def search_move(position: Position, seed: int, limits: Limits, params: dict[str, str]) -> str:
    player = AmazonsMcts(seed=seed, **params)
    return position.format_move(player.genmove(position, limits).move)


def run_suite(suite: list[SuitePosition], limits: Limits, params: dict[str, str], seed: int,
              log=None, first: int = 0) -> tuple[int, int]:
    """``(good, best)``: how many of the search's moves are within one square
    of the best, and how many are the best move itself. ``suite`` starts at
    the suite's position ``first``; position ``i`` is searched with seed
    ``seed + i``."""
    good = best = 0
    for index, entry in enumerate(suite, first):
        move = search_move(entry.position(), seed + index, limits, params)
        good += entry.good(move)
        best += move == entry.best
        if log is not None:
            print(f"{index}: {move} (best {entry.best}, territory {entry.territory[move]} "
                  f"against {entry.territory[entry.best]}) {'good' if entry.good(move) else 'miss'}",
                  file=log, flush=True)
    return good, best


def generate(path: str, games: int, size: int, first_ply: int, last_ply: int, think: int,
             label: int, seed: int) -> None:
    """Self-play ``games`` games and write the labelled positions to ``path``
    (rewritten after each position, so an interrupted run keeps what it made)."""
    positions: list[dict] = []
    for game in range(games):
        rng = random.Random(seed * 1000 + game)
        player = AmazonsMcts(seed=seed * 1000 + game)
        position = Position(size)
        moves: list[str] = []
        while len(moves) <= last_ply and not position.is_over():
            ply = len(moves)
            if first_ply <= ply and position.count_moves() > 1:
                start = time.perf_counter()
                best = search_move(position, seed * 1000 + game * 100 + ply,
                                   Limits(playouts=label, stop_early=True), {})
                positions.append({"size": size, "moves": list(moves), "best": best,
                                  "territory": territory_after(position)})
                with open(path, "w", encoding="utf-8") as handle:
                    json.dump({"format": "stargtp amazons suite 1", "label_iterations": label,
                               "think_iterations": think, "positions": positions}, handle)
                print(f"game {game} ply {ply}: best {best} ({time.perf_counter() - start:.0f} s), "
                      f"{len(positions)} positions", file=sys.stderr, flush=True)
            if ply < 2:
                move = rng.choice(position.legal_moves())
            else:
                move = player.genmove(position, Limits(playouts=think, stop_early=True)).move
            moves.append(position.format_move(move))
            position.play(move)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", default=DEFAULT_SUITE)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=int, help="iterations per position (default 8000)")
    budget.add_argument("--seconds", type=float, help="time per position")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a parameter of amazons-mcts (repeatable)")
    parser.add_argument("--skip", type=int, default=0, help="leave out the first N positions")
    parser.add_argument("--limit", type=int, help="only the first N positions (after --skip)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="one line per position on stderr")
    parser.add_argument("--generate", metavar="OUT", help="make a suite instead (see above)")
    parser.add_argument("--games", type=int, default=7)
    parser.add_argument("--size", type=int, default=8, choices=(6, 8, 10))
    parser.add_argument("--plies", default="16-30", help="ply window FIRST-LAST (generate)")
    parser.add_argument("--think", type=int, default=8000, help="self-play iterations (generate)")
    parser.add_argument("--label", type=int, default=64000, help="labelling iterations (generate)")
    args = parser.parse_args(argv)
    if args.generate:
        first, _, last = args.plies.partition("-")
        if not (first.isdigit() and last.isdigit() and int(first) <= int(last)):
            print(f"amazons_suite: --plies must be FIRST-LAST, not {args.plies!r}", file=sys.stderr)
            return 2
        generate(args.generate, args.games, args.size, int(first), int(last), args.think,
                 args.label, args.seed)
        return 0
    params = {}
    for item in args.param:
        name, equals, value = item.partition("=")
        if not equals:
            print(f"amazons_suite: expected NAME=VALUE, not {item!r}", file=sys.stderr)
            return 2
        params[name] = value
    try:
        suite = load_suite(args.suite)
        AmazonsMcts(seed=1, **params)
    except (OSError, ValueError) as error:
        print(f"amazons_suite: {error}", file=sys.stderr)
        return 2
    suite = suite[args.skip:]
    if args.limit is not None:
        suite = suite[:args.limit]
    limits = (Limits(seconds=args.seconds) if args.seconds is not None
              else Limits(playouts=args.playouts or 8000))
    start = time.perf_counter()
    good, best = run_suite(suite, limits, params, args.seed, sys.stderr if args.verbose else None,
                           args.skip)
    budget_text = f"{args.seconds} s" if args.seconds is not None else f"{limits.playouts} iterations"
    print(f"{good}/{len(suite)} within {WINDOW} square of the best, {best}/{len(suite)} the best move "
          f"({budget_text} a position{', ' + ' '.join(args.param) if args.param else ''})", flush=True)
    print(f"amazons_suite: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
