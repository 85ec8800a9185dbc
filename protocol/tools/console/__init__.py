"""``stargtp play``: a human against the engine, or a raw protocol console.

**Human against the engine** (the default). The console starts ``stargtp
serve`` as a subprocess (or talks to ``--vs ENGINE``, any command line or
``tcp:HOST:PORT``) and plays a game against it, keeping its own position
with the rules core (:mod:`~stargtp.protocol.tools.console.game`). At the end the
game's own score report is shown (for *Star, all three systems).

**Raw console** (``--engine CMD`` or ``--connect HOST:PORT``). Every line
typed is sent as a command and the answer printed as the protocol frames it
(:mod:`~stargtp.protocol.tools.console.raw`).

On a terminal the console uses prompt_toolkit: Tab completes command names,
colours and the moves legal now; the history is kept across runs in
``~/.stargtp_history`` (``--history FILE`` or ``$STARGTP_HISTORY`` to move
it); the board is coloured. When stdin or stdout is not a terminal the
console reads plain lines instead, draws without colour and echoes each
line after its prompt, so a scripted session reads as a transcript
(:mod:`~stargtp.protocol.tools.console.ui`). docs/console.md is the user's guide.

The modules, one concept each:

- :mod:`~stargtp.protocol.tools.console.board`: the table of every game's terminal
  board, on :mod:`~stargtp.protocol.tools.console.drawing`'s shared pieces; each
  game's board in its own module (:mod:`~stargtp.protocol.tools.console.star`,
  :mod:`~stargtp.protocol.tools.console.amazons`);
- :mod:`~stargtp.protocol.tools.console.completion`: Tab completion;
- :mod:`~stargtp.protocol.tools.console.ui`: the terminal and plain-line back-ends;
- :mod:`~stargtp.protocol.tools.console.game`: the human's game;
- :mod:`~stargtp.protocol.tools.console.raw`: the raw console;
- :mod:`~stargtp.protocol.tools.console.cli`: the command line.
"""

from __future__ import annotations

from stargtp.protocol.tools.console.cli import add_arguments, run

__all__ = ["add_arguments", "run"]
