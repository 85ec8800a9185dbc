"""Amazons strength matches, in process: two players, colours alternating,
every player seeded, a fixed number of iterations or a fixed time per move.

The measurements in docs/search-amazons.md were made with this script. Run it
from the repository root, for example:

    python examples/amazons_strength.py --size 10 --games 20 --seconds 0.5 \\
        --first amazons-mcts --second uct
    python examples/amazons_strength.py --size 8 --games 40 --playouts 300 \\
        --first amazons-mcts:split=3 --second amazons-mcts:split=1
    python examples/amazons_strength.py --size 10 --bench 5 --playouts 2000

Under ``--playouts`` the Amazons search is nearly deterministic (its random
generator only breaks ties and completes moves once the tree is full), so
two players meet in the same game every time they have the same colours;
``--random-plies N`` starts each pair of games (colours swapped) from N
seeded random plies instead:

    python examples/amazons_strength.py --size 8 --games 48 --playouts 2000 \
        --random-plies 2 --first amazons-mcts --second amazons-mcts:regions=off

A player is ``NAME[:PARAM=VALUE,...]`` with NAME one of amazons-mcts, uct
(random playouts to the end: UCT without RAVE, as ``uct`` plays Amazons),
flat or random. The first player is White (who moves first) in the even
games. A game ends when the side to move has no move or, unless
``--no-adjudicate``, as soon as the position is settled (no region holds both
colours) and the exact solo counts of :mod:`stargtp.engine.amazons.scoring` name the
winner: from then on the result is fixed under best play. Per game a line
goes to stderr; the summary (points of the first player with a 95% Wilson
interval, and the colour-swapped pairs won, split and lost with the
pentanomial Elo interval) goes to stdout.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

from stargtp.engine.amazons import Position
from stargtp.engine.amazons.scoring import is_settled, score
from stargtp.engine.colour import BLACK, WHITE, opponent
from stargtp.engine.amazons.search import AmazonsMcts
from stargtp.engine.search.base import Limits, Player
from stargtp.engine.search.simple import FlatPlayer, RandomPlayer
from stargtp.engine.search.uct import UctPlayer
from stargtp.protocol.stats import Tally, elo_estimate, wilson_interval

PLAYER_CLASSES: dict[str, type[Player]] = {
    "amazons-mcts": AmazonsMcts, "uct": UctPlayer, "flat": FlatPlayer, "random": RandomPlayer}
ADJUDICATION_NODES = 5_000
"""Solo-count search budget per adjudication attempt (a miss just plays on)."""


@dataclass(frozen=True)
class PlayerSpec:
    """A player by name and text parameters."""

    name: str
    params: dict[str, str]

    @classmethod
    def parse(cls, text: str) -> "PlayerSpec":
        name, _, rest = text.partition(":")
        if name not in PLAYER_CLASSES:
            raise ValueError(f"unknown player {name!r} (known: {', '.join(PLAYER_CLASSES)})")
        params = {}
        for item in filter(None, rest.split(",")):
            key, equals, value = item.partition("=")
            if not equals:
                raise ValueError(f"expected PARAM=VALUE, not {item!r}")
            params[key.strip()] = value.strip()
        return cls(name, params)

    def make(self, seed: int) -> Player:
        return PLAYER_CLASSES[self.name](seed, **self.params)

    def __str__(self) -> str:
        return self.name + (":" + ",".join(f"{k}={v}" for k, v in self.params.items()) if self.params else "")


@dataclass
class GameRecord:
    """How one game went."""

    winner: int
    plies: int
    reason: str
    """``no move`` or ``settled``."""
    iterations: dict[int, list[int]] = field(default_factory=dict)
    """Per colour, the iterations of each of its searches."""
    seconds: dict[int, float] = field(default_factory=dict)
    """Per colour, its total thinking time."""


def play_game(players: dict[int, Player], size: int, limits: Limits,
              adjudicate: bool = True, opening: tuple = ()) -> GameRecord:
    """One game from the start of a ``size`` board, after the moves of
    ``opening``; ``players`` by colour."""
    position = Position(size)
    for move in opening:
        position.play(move)
    iterations: dict[int, list[int]] = {WHITE: [], BLACK: []}
    seconds = {WHITE: 0.0, BLACK: 0.0}
    while True:
        mover = position.to_move
        if position.is_over():
            return GameRecord(opponent(mover), len(position.history), "no move", iterations, seconds)
        if adjudicate and is_settled(position):
            winner = score(position, ADJUDICATION_NODES).winner
            if winner is not None:
                return GameRecord(winner, len(position.history), "settled", iterations, seconds)
        start = time.perf_counter()
        result = players[mover].genmove(position, limits)
        seconds[mover] += time.perf_counter() - start
        iterations[mover].append(result.playouts)
        if result.move is None:  # a resignation; the players here resign only without a move
            return GameRecord(opponent(mover), len(position.history), "resigned", iterations, seconds)
        position.play(result.move)  # IllegalMove here is a bug in the player


@dataclass
class MatchResult:
    points: float = 0.0
    games: int = 0
    first_as_white: list[int] = field(default_factory=lambda: [0, 0])
    """Wins and games of the first player as White."""
    first_as_black: list[int] = field(default_factory=lambda: [0, 0])
    plies: int = 0
    iterations: dict[str, list[int]] = field(default_factory=lambda: {"first": [], "second": []})
    seconds: dict[str, float] = field(default_factory=lambda: {"first": 0.0, "second": 0.0})
    scores: list[float] = field(default_factory=list)
    """The first player's points, game by game."""

    def tally(self) -> Tally:
        """The games and their colour-swapped pairs (games ``2k`` and
        ``2k + 1``, the same opening with ``--random-plies``) counted for
        :mod:`stargtp.protocol.stats`."""
        pairs = [self.scores[i] + self.scores[i + 1] for i in range(0, len(self.scores) - 1, 2)]
        return Tally.from_scores(self.scores, pairs)


def random_opening(size: int, plies: int, seed: int) -> tuple:
    """``plies`` uniformly random legal moves from the start, seeded."""
    rng = random.Random(seed)
    position = Position(size)
    for _ in range(plies):
        position.play(rng.choice(position.legal_moves()))
    return tuple(move for _, move in position.history)


def run_match(first: PlayerSpec, second: PlayerSpec, games: int, size: int, limits: Limits,
              seed: int = 1, adjudicate: bool = True, log=sys.stderr,
              random_plies: int = 0) -> MatchResult:
    """``games`` games; the first player is White in the even ones. Game
    ``g`` seeds the players with ``seed * 1000 + 2g`` and ``+ 1``. With
    ``random_plies``, games ``2k`` and ``2k + 1`` start from the same random
    opening of that many plies (seeded by ``seed * 1000 + k``), each player
    having it once as White: under a playout limit the search is nearly
    deterministic (its random generator serves only ties and a full tree),
    so without openings the games of each colour would all be the same."""
    result = MatchResult()
    for game in range(games):
        a = first.make(seed * 1000 + 2 * game)
        b = second.make(seed * 1000 + 2 * game + 1)
        first_colour = WHITE if game % 2 == 0 else BLACK
        players = {first_colour: a, opponent(first_colour): b}
        opening = random_opening(size, random_plies, seed * 1000 + game // 2) if random_plies else ()
        record = play_game(players, size, limits, adjudicate, opening)
        won = record.winner == first_colour
        result.points += won
        result.games += 1
        result.scores.append(float(won))
        tally = result.first_as_white if first_colour == WHITE else result.first_as_black
        tally[0] += won
        tally[1] += 1
        result.plies += record.plies
        result.iterations["first"] += record.iterations[first_colour]
        result.iterations["second"] += record.iterations[opponent(first_colour)]
        result.seconds["first"] += record.seconds[first_colour]
        result.seconds["second"] += record.seconds[opponent(first_colour)]
        if log is not None:
            print(f"game {game + 1}: first={'White' if first_colour == WHITE else 'Black'} "
                  f"winner={'first' if won else 'second'} plies={record.plies} ({record.reason}) "
                  f"score {result.points:g}/{result.games}", file=log, flush=True)
    return result


def summary(first: PlayerSpec, second: PlayerSpec, result: MatchResult, size: int,
            limits: Limits, wall: float) -> str:
    estimate = wilson_interval(result.points, result.games)
    lines = [
        f"{first} vs {second} on {size}x{size}, "
        + (f"{limits.playouts} iterations" if limits.playouts is not None else f"{limits.seconds} s")
        + " per move",
        f"first player: {result.points:g}/{result.games} = {estimate.value:.1%}, "
        f"95% interval {estimate.low:.1%} .. {estimate.high:.1%}",
        f"  as White {result.first_as_white[0]}/{result.first_as_white[1]}, "
        f"as Black {result.first_as_black[0]}/{result.first_as_black[1]}; "
        f"{result.plies / max(1, result.games):.1f} plies per game; {wall:.0f} s wall",
    ]
    tally = result.tally()
    lost, _, split, _, won = tally.pairs
    elo = elo_estimate(tally, "pentanomial")
    low, high = ("-" if math.isnan(x) else f"{x:+.0f}" for x in (elo.low, elo.high))
    lines.append(f"  pairs (colours swapped) won / split / lost: {won} / {split} / {lost}; "
                 f"Elo {elo.value:+.0f} [{low}, {high}] (pentanomial)")
    for side in ("first", "second"):
        counts = result.iterations[side]
        if counts:
            rate = sum(counts) / result.seconds[side] if result.seconds[side] else float("nan")
            lines.append(f"  {side}: {sum(counts) / len(counts):.0f} iterations per move, "
                         f"{rate:.0f} per second")
    return "\n".join(lines)


MIDGAME_PLIES = {10: 30, 8: 20, 6: 10}


def midgame(size: int) -> Position:
    """The position after ``MIDGAME_PLIES[size]`` moves of seeded self-play
    at 100 iterations a move."""
    player = AmazonsMcts(seed=1)
    position = Position(size)
    for _ in range(MIDGAME_PLIES[size]):
        position.play(player.genmove(position, Limits(playouts=100)).move)
    return position


def bench(spec: PlayerSpec, size: int, iterations: int, runs: int) -> str:
    """Iterations per second of ``spec`` from the start and from a midgame
    position: each run a fresh player searches ``iterations`` iterations;
    the median and the range of the runs are reported."""
    lines = [f"{spec} on {size}x{size}, {iterations} iterations, {runs} runs each"]
    for label, position in (("start", Position(size)), (f"midgame ({MIDGAME_PLIES[size]} plies)", midgame(size))):
        rates = []
        for run in range(runs):
            player = spec.make(run)
            start = time.perf_counter()
            result = player.genmove(position, Limits(playouts=iterations))
            rates.append(result.playouts / (time.perf_counter() - start))
        rates.sort()
        lines.append(f"  {label}: {position.count_moves()} legal moves, median "
                     f"{statistics.median(rates):.0f} iterations/s (range {rates[0]:.0f} .. {rates[-1]:.0f})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10, choices=(6, 8, 10))
    parser.add_argument("--games", type=int, default=10)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=int, help="iterations per move")
    budget.add_argument("--seconds", type=float, help="time per move")
    parser.add_argument("--bench", type=int, metavar="RUNS",
                        help="measure the first player's iterations per second instead "
                             "(RUNS runs of --playouts iterations)")
    parser.add_argument("--first", type=PlayerSpec.parse, default=PlayerSpec("amazons-mcts", {}))
    parser.add_argument("--second", type=PlayerSpec.parse, default=PlayerSpec("uct", {}))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-adjudicate", dest="adjudicate", action="store_false")
    parser.add_argument("--random-plies", type=int, default=0, metavar="N",
                        help="start each pair of games (colours swapped) from N random plies")
    args = parser.parse_args(argv)
    if args.bench:
        print(bench(args.first, args.size, args.playouts or 2000, args.bench))
        return 0
    if args.playouts is None and args.seconds is None:
        parser.error("give --playouts or --seconds")
    limits = Limits(playouts=args.playouts, seconds=args.seconds)
    start = time.perf_counter()
    result = run_match(args.first, args.second, args.games, args.size, limits, args.seed, args.adjudicate,
                       random_plies=args.random_plies)
    print(summary(args.first, args.second, result, args.size, limits, time.perf_counter() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
