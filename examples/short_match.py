"""Script a short *Star match through the Python API of the match runner.

The UCT engine (100 playouts a move) plays four games against the random
player on the 5-ring board, colours alternating; each game is printed as it
finishes, then the results table. Run it from the repository root:

    python examples/short_match.py [RESULTS_FILE]

It is a fixed-playouts match: no clock, ``{playouts}`` in the engine command
becomes the playout count, every engine is seeded and the UCT searches in one
worker process, so every run plays the same four games, on any machine, in a
few seconds. (A clock instead: ``time_control=TimeControl.parse("10+0.5")``,
with ``TimeControl`` from :mod:`stargtp.protocol.clock`, and no ``playouts``.)

With RESULTS_FILE the games are recorded there, and running the script again
resumes (here: finds the match complete and plays nothing).
"""

from __future__ import annotations

import asyncio
import shlex
import sys

from stargtp.protocol.controller import EngineSpec, GtpController
from stargtp.protocol.tools.match import EngineEntry, MatchSettings, format_summary, run_match


def serve(*options: str) -> str:
    """The command line of a built-in engine (this interpreter, so no PATH needed)."""
    return shlex.join([sys.executable, "-m", "stargtp.protocol.cli", "serve", *options])


async def ask_one_move() -> str:
    """The controller on its own: start an engine, set up a game, ask for a move."""
    async with await GtpController.start(shlex.split(serve("--player", "random", "--seed", "1"))) as engine:
        await engine.send("boardsize 5")
        await engine.send("clear_board")
        return await engine.send("genmove black", timeout=60)


def main() -> int:
    print(f"a random first move: {asyncio.run(ask_one_move())}")
    settings = MatchSettings(
        engines=(
            EngineEntry("uct", EngineSpec.parse(serve("--player", "uct", "--seed", "1", "--workers", "1")
                                                + " --playouts {playouts}")),
            EngineEntry("random", EngineSpec.parse(serve("--player", "random", "--seed", "2"))),
        ),
        game="star",
        size=5,
        games=4,
        playouts=100,
        results_path=sys.argv[1] if len(sys.argv) > 1 else None,
    )

    def show(record: dict) -> None:
        print(f"{record['key']}: black {record['black']}, white {record['white']}: {record['result']} "
              f"({record['reason']}, {len(record['moves'])} moves)")

    result = asyncio.run(run_match(settings, progress=None, on_record=show))
    print()
    print(format_summary(result.summaries, settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
