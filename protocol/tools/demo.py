"""``stargtp demo``: play one random *Star game and print the board, a legend
of its symbols, how the game ended and its score breakdown in all three
systems. A quick look at the rules core (docs/demo.md)."""

from __future__ import annotations

import argparse
import random

from stargtp.engine.colour import BLACK, WHITE, colour_name
from stargtp.engine.errors import GameError
from stargtp.engine.star import Position, score
from stargtp.engine.star.diagram import text_legend, text_picture
from stargtp.protocol.cli import OptionError, finite_float, report_option_error
from stargtp.protocol.tools import plural


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, default=6, help="rings, 2..10 (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--komi", type=finite_float, default=0.0, help="komi for white (default 0)")


def breakdown(position: Position, komi: float) -> str:
    s = score(position, komi)
    g = position.geometry
    lines = []
    for colour, name in ((BLACK, "black"), (WHITE, "white")):
        c = s.of(colour)
        lines.append(f"{name}: {plural(c.stars, 'star')}, {plural(c.peris, 'peri')}, "
                     f"{plural(c.quarks, 'quark')}, "
                     f"quark peri {c.quark_peri}; conventional {s.conventional[colour]:g}, "
                     f"simplified {s.simplified[colour]:g}, Schmittberger {s.schmittberger[colour]:+g}")
    for star in s.stars:
        owner = "black" if star.colour == BLACK else "white"
        lines.append(f"  {owner} star: {plural(len(star.pericells), 'peri')}, "
                     f"{plural(star.quarks, 'quark')}: "
                     + " ".join(g.labels[c] for c in star.pericells))
    lines.append(f"result: {s.gtp_result()}")
    return "\n".join(lines)


def game_state(position: Position) -> str:
    """How the game stands: over (and why) with its number of moves, or who is to move."""
    moves = plural(len(position.history), "move")
    if position.is_over():
        return f"game over ({position.over_reason()}) after {moves}"
    return f"to move: {colour_name(position.to_move)}, after {moves}"


def run(args: argparse.Namespace) -> int:
    try:
        position = Position(args.size)
    except GameError as error:
        return report_option_error("demo", OptionError("--size", str(error)))
    rng = random.Random(args.seed)
    while not position.is_over():
        position.play(rng.choice(position.legal_moves()))
    print("\n".join(text_picture(position)))
    print(text_legend(position))
    print(game_state(position))
    print(breakdown(position, args.komi))
    return 0
