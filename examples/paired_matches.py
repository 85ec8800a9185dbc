"""Two matches on the same games, compared game by game.

Two ``stargtp match`` runs with the same openings and colours (the same
``--games``, ``--random-openings`` and ``--openings-seed``, or the same
``--openings`` file) start game N from the same position with the same
colours. When one engine differs between the runs (say the 1 s side before
and after a change, against a fixed sparring partner), comparing the runs
game by game measures the change with less noise than the two scores do:
the games the engine wins in one run only are the evidence, and the exact
sign test of those counts says how likely such a split is by chance.

The files come in pairs, first run then second, and several pairs (say, two
samples) are counted together. Within a pair, games are matched by number;
a game in one file only is left out and counted. A game whose opening or
whose engine's colour differs between the two files is an error. The
summary goes to stdout; a bad file gets one line on stderr and status 2.

    python examples/paired_matches.py --engine one before.jsonl after.jsonl
    python examples/paired_matches.py --engine one before.jsonl after.jsonl before2.jsonl after2.jsonl
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass

from stargtp.protocol.tools.match.report import game_score
from stargtp.protocol.tools.match.results import ResultsError, read_results


@dataclass
class Comparison:
    """The paired games' counts, from the engine's side."""

    first_points: float = 0.0
    second_points: float = 0.0
    both: int = 0
    """Games the engine scored as well in both runs, and not zero (won or drawn in both)."""
    second_only: int = 0
    """Games it scored more in the second run."""
    first_only: int = 0
    """Games it scored more in the first run."""
    neither: int = 0
    """Games it lost in both runs."""
    left_out: int = 0
    """Games in one file of a pair only."""

    @property
    def paired(self) -> int:
        return self.both + self.second_only + self.first_only + self.neither


def sign_test(better: int, worse: int) -> float:
    """The exact two-sided sign test: the chance, with no difference, of a
    split of ``better + worse`` games at least as uneven as this one."""
    games = better + worse
    if games == 0:
        return 1.0
    tail = sum(math.comb(games, k) for k in range(min(better, worse) + 1))
    return min(1.0, 2 * tail / 2 ** games)


def points(game: dict, engine: str) -> float:
    """The engine's points in one game record (1, 1/2 or 0)."""
    if engine not in (game.get("black"), game.get("white")):
        raise ValueError(f"game {game.get('number')}: {engine!r} does not play in it")
    return game_score(game, engine)


def start(game: dict, engine: str) -> tuple:
    """What must be the same in both runs: the opening, and the engine's colour."""
    opening = game.get("opening")
    moves = tuple(opening.get("moves", ())) if isinstance(opening, dict) else ()
    return moves, "black" if game.get("black") == engine else "white"


def compare(first: list[dict], second: list[dict], engine: str, comparison: Comparison) -> None:
    """Add one pair of runs (their game records) to ``comparison``."""
    firsts = {game["number"]: game for game in first}
    seconds = {game["number"]: game for game in second}
    comparison.left_out += len(firsts.keys() ^ seconds.keys())
    for number in sorted(firsts.keys() & seconds.keys()):
        one, two = firsts[number], seconds[number]
        a, b = points(one, engine), points(two, engine)
        if start(one, engine) != start(two, engine):
            raise ValueError(f"game {number}: not the same opening and colours in both runs")
        comparison.first_points += a
        comparison.second_points += b
        if b > a:
            comparison.second_only += 1
        elif a > b:
            comparison.first_only += 1
        elif a == 0:
            comparison.neither += 1
        else:
            comparison.both += 1


def summary(comparison: Comparison, engine: str) -> list[str]:
    c = comparison
    return [f"{engine}: {c.paired} games paired, {c.left_out} left out",
            f"points: first run {c.first_points:g}, second run {c.second_points:g}",
            f"scored more in the second run only {c.second_only}, in the first only {c.first_only}, "
            f"as well in both {c.both}, lost in both {c.neither}",
            f"sign test (exact, two-sided) of {c.second_only} against {c.first_only}: "
            f"p = {sign_test(c.second_only, c.first_only):.3f}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", help="results files in pairs: first run, second run, ...")
    parser.add_argument("--engine", required=True, help="the engine's name, the same in both runs")
    args = parser.parse_args(argv)
    if len(args.results) % 2:
        parser.error("results files come in pairs (first run, second run)")
    comparison = Comparison()
    for index in range(0, len(args.results), 2):
        pair = args.results[index:index + 2]
        runs = []
        for path in pair:
            try:
                runs.append(read_results(path)[1])
            except (OSError, ResultsError) as error:
                print(f"paired_matches: {path}: {error}", file=sys.stderr)
                return 2
        try:
            compare(runs[0], runs[1], args.engine, comparison)
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            print(f"paired_matches: {pair[0]} and {pair[1]}: {error}", file=sys.stderr)
            return 2
    if comparison.paired == 0:
        print(f"paired_matches: {', '.join(args.results)}: no game is in both runs", file=sys.stderr)
        return 2
    for line in summary(comparison, args.engine):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
