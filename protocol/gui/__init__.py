"""``stargtp gui``: every game the server plays, in the browser. The page
(``static/``, ES modules) learns the games from the protocol and shows the
server's own pictures; it names no game.

:mod:`stargtp.protocol.gui.bridge` serves the page (``static/``) and bridges it to
protocol sessions over HTTP (docs/protocol.md, "HTTP bridge");
:mod:`stargtp.protocol.gui.http` reads and writes HTTP/1.1; :mod:`stargtp.protocol.gui.cli`
is the command line.
"""

from stargtp.protocol.gui.cli import add_arguments, run

__all__ = ["add_arguments", "run"]
