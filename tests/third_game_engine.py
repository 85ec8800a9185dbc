"""``stargtp serve`` with the third game (tests/third_game.py) registered: an
engine for the match runner, started as a subprocess::

    python tests/third_game_engine.py [stargtp serve options...]

serves ``--game tictactoe`` plus the options given. The game is registered
when this file is imported, outside the ``__main__`` guard, on purpose: the
server's worker processes start with the "forkserver" method, and
multiprocessing re-imports the parent's main script in each new worker (as
``__mp_main__``) before running it, so the workers register the game too.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script: make ``tests.`` importable
    sys.path.insert(0, str(REPO))

from tests.third_game import NAME, register  # noqa: E402

register()


def main(argv: list[str] | None = None) -> int:
    from stargtp.protocol.cli import main as stargtp

    return stargtp(["serve", "--game", NAME, *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
