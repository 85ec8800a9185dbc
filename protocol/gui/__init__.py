"""``stargtp gui``: *Star and the Amazons in the browser.

:mod:`stargtp.protocol.gui.bridge` serves the page (``static/``) and bridges it to
protocol sessions over HTTP (docs/protocol.md, "HTTP bridge");
:mod:`stargtp.protocol.gui.http` reads and writes HTTP/1.1; :mod:`stargtp.protocol.gui.cli`
is the command line.
"""

from stargtp.protocol.gui.cli import add_arguments, run

__all__ = ["add_arguments", "run"]
