"""Where an Amazons engine's lead goes: its queen-distance territory lead, ply
by ply, over the games of one or more ``stargtp match`` results files.

Issue 27's losses had one shape: the engine led after the opening (+6 to
+12 squares of queen-distance territory around plies 12 to 16 on 8x8) and
the lead melted in the late middlegame, as the board split into regions.
This script measures that shape in any match: for the engine named, the
mean of its territory minus the opponent's after each ply (in buckets of
``--bucket`` plies, over the games that reached them), and how many games
it led by ``--lead`` squares or more over the ``--window`` plies (the mean
of those plies, so that who moved last does not decide it) and how many of
those it won. Ply 0 is the empty board; the opening plies count. Several
results files (say, two samples of one match) are summed as one set of games.

    python examples/amazons_lead.py results.jsonl --engine one
    python examples/amazons_lead.py sample1.jsonl sample2.jsonl --engine one
    python examples/amazons_lead.py results.jsonl --engine one --window 12-16 --lead 6

The territory is :func:`stargtp.engine.amazons.evaluation.queen_territory`:
the empty squares a colour's amazons reach in fewer queen moves than the
other colour's. The summary goes to stdout.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from stargtp.engine.amazons import Position
from stargtp.engine.amazons.evaluation import queen_territory
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.errors import GameError
from stargtp.protocol.tools.match.results import ResultsError, read_results

COLOURS = {"black": BLACK, "white": WHITE}


@dataclass(frozen=True)
class GameLeads:
    """One game from the engine's side: its lead after each ply, and whether it won."""

    leads: tuple[int, ...]
    """``leads[p]``: the engine's territory minus the opponent's after ``p`` plies."""
    won: bool


def game_leads(game: dict, engine: str) -> GameLeads:
    """The engine's leads in one game record of a results file (ValueError
    when the record is not an Amazons game with ``engine`` in it)."""
    if game.get("game") != "amazons":
        raise ValueError(f"game {game.get('number')} is not an Amazons game")
    colours = [name for name in ("black", "white") if game.get(name) == engine]
    if not colours:
        raise ValueError(f"game {game.get('number')}: {engine!r} does not play in it")
    mine = COLOURS[colours[0]]
    position = Position(int(game["size"]))

    def lead() -> int:
        counts = queen_territory(position)
        return counts[mine] - counts[3 - mine]

    leads = [lead()]
    for entry in game["moves"]:
        position.play(position.parse_move(entry["move"]))
        leads.append(lead())
    return GameLeads(tuple(leads), game.get("winner_engine") == engine)


def summary(games: list[GameLeads], engine: str, bucket: int, window: tuple[int, int],
            lead: int) -> list[str]:
    """The report's lines (see the module's text)."""
    lines = [f"{engine}: {len(games)} games, won {sum(g.won for g in games)}",
             f"{'plies':>7} {'games':>6} {'mean lead':>10}"]
    longest = max((len(g.leads) for g in games), default=0)
    for start in range(0, longest, bucket):
        values = [v for g in games for v in g.leads[start:start + bucket]]
        reached = sum(len(g.leads) > start for g in games)
        mean = sum(values) / len(values)
        lines.append(f"{start:>3}-{start + bucket - 1:<3} {reached:>6} {mean:>+10.2f}")
    first, last = window
    led = [g for g in games if len(g.leads) > last
           and sum(g.leads[first:last + 1]) >= lead * (last - first + 1)]
    won = sum(g.won for g in led)
    lines.append(f"led by {lead} or more over plies {first}-{last}: {len(led)} games, "
                 f"won {won}, lost {len(led) - won}")
    return lines


def parse_window(text: str) -> tuple[int, int]:
    first, sep, last = text.partition("-")
    if not sep or not first.isdigit() or not last.isdigit() or int(first) > int(last):
        raise argparse.ArgumentTypeError(f"window must be FIRST-LAST plies, e.g. 12-16, not {text!r}")
    return int(first), int(last)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", help="stargtp match results files (--results)")
    parser.add_argument("--engine", required=True, help="the engine's name in the match")
    parser.add_argument("--bucket", type=int, default=4, help="plies per line (default 4)")
    parser.add_argument("--window", type=parse_window, default=(12, 16),
                        help="the plies of the lead, FIRST-LAST (default 12-16)")
    parser.add_argument("--lead", type=int, default=6, help="squares that count as a lead (default 6)")
    args = parser.parse_args(argv)
    if args.bucket < 1:
        parser.error("--bucket must be at least 1")
    games = []
    for path in args.results:
        try:
            _, records = read_results(path)
            games += [game_leads(game, args.engine) for game in records]
        except (OSError, ResultsError, GameError, ValueError, KeyError, TypeError) as error:
            print(f"amazons_lead: {path}: {error}", file=sys.stderr)
            return 2
    if not games:
        print(f"amazons_lead: {', '.join(args.results)}: no games", file=sys.stderr)
        return 2
    for line in summary(games, args.engine, args.bucket, args.window, args.lead):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
