"""Regenerate the pictures of docs/pictures.md (docs/img/*.svg) with the
project's own renderer, :func:`stargtp.protocol.pictures.position_svg`.

    python examples/render_examples.py [--out docs/img]

The positions are real: the seed's two worked examples (from
tests/data/star_examples.txt), games the engine's own players played with
fixed seeds (Hex and Y among them), and seeded random games. The same seeds give the same pictures
as long as the players do not change.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from stargtp.engine.amazons import Position as AmazonsPosition
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.players import make_player
from stargtp.engine.search import Limits
from stargtp.engine.star import PASS, Position, score
from stargtp.engine.numbers import format_number
from stargtp.protocol.pictures import describe, position_svg

EXAMPLES = ROOT / "tests" / "data" / "star_examples.txt"


def worked_examples() -> list[tuple[str, Position]]:
    """``(name, position)`` for each record of the examples file."""
    found: list[tuple[str, Position]] = []
    name, rings, stones = None, None, {}
    for line in EXAMPLES.read_text().splitlines() + ["name end"]:
        key, _, rest = line.partition(" ")
        if key == "name":
            if name is not None:
                position = Position(rings)
                for colour in (BLACK, WHITE):
                    for label in stones.get(colour, []):
                        position.play(position.parse_move(label), colour)
                found.append((name, position))
            name, rings, stones = rest, None, {}
        elif key == "rings":
            rings = int(rest)
        elif key in ("black", "white"):
            stones[BLACK if key == "black" else WHITE] = rest.split()
    return found


def score_caption(position: Position, title: str) -> str:
    s = score(position)
    numbers = lambda table: f"{format_number(table[BLACK])} : {format_number(table[WHITE])}"  # noqa: E731
    return (f"{title}: conventional {numbers(s.conventional)}, simplified {numbers(s.simplified)}, "
            f"Schmittberger {numbers(s.schmittberger)} ({s.gtp_result()})")


def engine_game(position, player_name: str, playouts: int, seed: int, plies: int | None = None):
    """Let the engine's player play both sides (star: until two passes or a full board)."""
    players = {BLACK: make_player(player_name, seed=seed), WHITE: make_player(player_name, seed=seed + 1)}
    while not position.is_over() and (plies is None or len(position.history) < plies):
        result = players[position.to_move].genmove(position, Limits(playouts=playouts), lambda: False)
        if result.move is None:
            break
        position.play(result.move)
    return position


def random_game(position, seed: int, plies: int | None = None):
    rng = random.Random(seed)
    while not position.is_over() and (plies is None or len(position.history) < plies):
        position.play(rng.choice(position.legal_moves()))
    return position


def pictures() -> dict[str, str]:
    """File name -> SVG text."""
    out: dict[str, str] = {}
    for name, position in worked_examples():
        number = name.removeprefix("example")
        out[f"star-{name}.svg"] = position_svg(
            position, dead=True, unit=48.0, caption=score_caption(position, f"Seed example {number}"))
    empty = Position(4)
    out["star-empty-4.svg"] = position_svg(empty, unit=48.0, caption="4 rings: 50 cells, 20 pericells, 5 quarks")
    opening = Position(6)
    for label in ("*30", "T31", "S42", "A42", "R32"):
        opening.play(opening.parse_move(label))
    opening.play(PASS)
    opening.play(opening.parse_move("*43"))
    out["star-opening-6.svg"] = position_svg(opening, caption=describe(opening))
    flat = engine_game(Position(6), "flat", playouts=60, seed=7)
    out["star-engine-6.svg"] = position_svg(flat, caption="flat player, 60 playouts a move: " + describe(flat))
    full = random_game(Position(8), seed=3)
    out["star-full-8.svg"] = position_svg(full, caption="A random game to the full board: " + describe(full))
    out["amazons-start-10.svg"] = position_svg(AmazonsPosition(10), caption=describe(AmazonsPosition(10)))
    amazons = engine_game(AmazonsPosition(8), "flat", playouts=40, seed=5, plies=14)
    out["amazons-engine-8.svg"] = position_svg(amazons, caption="flat player: " + describe(amazons))
    finished = random_game(AmazonsPosition(6), seed=11)
    out["amazons-end-6.svg"] = position_svg(finished, caption=describe(finished))
    out.update(connection_pictures())
    return out


def connection_pictures() -> dict[str, str]:
    """Hex 11x11 and Y side 13: a game the uct player played against itself
    to the end, 400 playouts a move, each drawn at its last move with the
    winning group outlined."""
    from stargtp.engine.hex import Position as HexPosition
    from stargtp.engine.y import Position as YPosition

    out: dict[str, str] = {}
    for name, position in (("hex-engine-11.svg", HexPosition(11)), ("y-engine-13.svg", YPosition(13))):
        game = engine_game(position, "uct", playouts=400, seed=3)
        out[name] = position_svg(game, caption="uct player, 400 playouts a move: " + describe(game))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "img"), help="directory (default docs/img)")
    args = parser.parse_args()
    directory = Path(args.out)
    directory.mkdir(parents=True, exist_ok=True)
    for name, svg in pictures().items():
        (directory / name).write_text(svg + "\n", encoding="utf-8")
        print(directory / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
