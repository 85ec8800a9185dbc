"""Script a short *Star match through the Python API of the match runner.

Two built-in players (flat Monte Carlo against random) play four games on the
4-ring board under a 10 s + 0.5 s/move clock; each game is printed as it
finishes, then the results table. Run it from the repository root:

    python examples/short_match.py [RESULTS_FILE]

With RESULTS_FILE the games are recorded there, and running the script again
resumes (here: finds the match complete and plays nothing).
"""

from __future__ import annotations

import asyncio
import shlex
import sys

from protocol.controller import EngineSpec, GtpController
from protocol.match import EngineEntry, MatchSettings, TimeControl, format_summary, run_match


def serve(*options: str) -> str:
    """The command line of a built-in engine (this interpreter, so no PATH needed)."""
    return shlex.join([sys.executable, "-m", "protocol.cli", "serve", *options])


async def ask_one_move() -> str:
    """The controller on its own: start an engine, set up a game, ask for a move."""
    async with await GtpController.start(shlex.split(serve("--player", "random", "--seed", "1"))) as engine:
        await engine.send("boardsize 4")
        await engine.send("clear_board")
        return await engine.send("genmove black", timeout=10)


def main() -> int:
    print(f"a random first move: {asyncio.run(ask_one_move())}")
    settings = MatchSettings(
        engines=(
            EngineEntry("flat", EngineSpec.parse(serve("--player", "flat", "--playouts", "40", "--seed", "1"))),
            EngineEntry("random", EngineSpec.parse(serve("--player", "random", "--seed", "2"))),
        ),
        game="star",
        size=4,
        games=4,
        time_control=TimeControl.parse("10+0.5"),
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
