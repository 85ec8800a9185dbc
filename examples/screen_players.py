"""A fixed-playout strength screen in one process: games between two UCT
configurations, colours alternating, every search seeded, so a run does not
depend on the machine's load (only its length does).

    python examples/screen_players.py --game y --size 13 --games 40 \\
        --a "leaf_playouts=8" --a-playouts 2000 --b "leaf_playouts=1" --b-playouts 2000

Prints one line a game (stderr) and the score of A with its 95% Wilson
interval and the Elo difference that score means.
"""

from __future__ import annotations

import argparse
import sys
import time

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.games import new_position
from stargtp.engine.players import make_player
from stargtp.engine.search import Limits
from stargtp.protocol.stats import elo_from_score, wilson_interval


def params_of(text: str) -> dict[str, str]:
    return dict(item.split("=", 1) for item in text.split(",") if item)


def play(game: str, size: int, players: dict[int, tuple], max_moves: int) -> int | None:
    """One game; the winner's colour (None: a draw)."""
    position = new_position(game, size)
    for _ in range(max_moves):
        if position.is_over():
            return position.winner()
        player, playouts = players[position.to_move]
        result = player.genmove(position, Limits(playouts=playouts))
        if result.move is None:  # resigned
            return WHITE if position.to_move == BLACK else BLACK
        position.play(result.move)
    return position.winner()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="y")
    parser.add_argument("--size", type=int, default=13)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--a", default="", help="A's parameters NAME=VALUE,...")
    parser.add_argument("--b", default="", help="B's parameters NAME=VALUE,...")
    parser.add_argument("--a-playouts", type=int, default=1000)
    parser.add_argument("--b-playouts", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=1000)
    args = parser.parse_args()
    score = 0.0
    start = time.monotonic()
    for i in range(args.games):
        a = make_player("uct", seed=args.seed + 2 * i, **params_of(args.a))
        b = make_player("uct", seed=args.seed + 2 * i + 1, **params_of(args.b))
        a_colour = BLACK if i % 2 == 0 else WHITE
        b_colour = WHITE if a_colour == BLACK else BLACK
        winner = play(args.game, args.size, {a_colour: (a, args.a_playouts),
                                             b_colour: (b, args.b_playouts)}, args.max_moves)
        score += 1.0 if winner == a_colour else 0.5 if winner is None else 0.0
        print(f"game {i + 1}: A {'black' if a_colour == BLACK else 'white'}, "
              f"{'A' if winner == a_colour else 'draw' if winner is None else 'B'} won; "
              f"A {score:g} of {i + 1} ({time.monotonic() - start:.0f} s)", file=sys.stderr, flush=True)
    estimate = wilson_interval(score, args.games)
    share, low, high = estimate.value, estimate.low, estimate.high
    print(f"{args.game} {args.size}: A ({args.a or 'defaults'}, {args.a_playouts}) against "
          f"B ({args.b or 'defaults'}, {args.b_playouts}): A {score:g} - {args.games - score:g}, "
          f"{100 * score / args.games:.1f}% [{100 * low:.1f}, {100 * high:.1f}], "
          f"Elo {elo_from_score(share) + 0.0:+.0f} [{elo_from_score(low):+.0f}, {elo_from_score(high):+.0f}]")


if __name__ == "__main__":
    main()
