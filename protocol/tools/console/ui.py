"""Where the console reads and writes: prompt_toolkit on a terminal
(:class:`TerminalUI`: completion, history, colour), or plain lines
(:class:`LineUI`) when stdin or stdout is not a terminal. Both offer
``read(prompt)``, ``show(fragments)``, ``say(text, style)``, ``plain``,
``columns`` and ``rows``."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any, TextIO

from stargtp.protocol.tools.console.board import board_styles
from stargtp.protocol.tools.console.completion import make_completer
from stargtp.protocol.tools.console.drawing import Fragments, plain_text

logger = logging.getLogger(__name__)

HISTORY_ENVIRONMENT = "STARGTP_HISTORY"
DEFAULT_HISTORY = "~/.stargtp_history"

UI_STYLES: dict[str, str] = {
    "info": "#a0a0a0",
    "error": "#ff5f5f bold",
    "engine": "#e0c060",
    "title": "bold",
}
"""The console's own messages (the boards' styles are their games')."""


def _never() -> bool:
    return False


def history_path(option: str | None) -> str:
    """``--history`` if given, else ``$STARGTP_HISTORY``, else ``~/.stargtp_history``."""
    return os.path.expanduser(option or os.environ.get(HISTORY_ENVIRONMENT) or DEFAULT_HISTORY)


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


PLAIN_COLUMNS = 80
"""The width plain line mode writes for: every line it draws fits."""


class LineUI:
    """Plain line mode, for when stdin or stdout is not a terminal: one line
    read at a time, echoed after its prompt (when ``echo``); no colour."""

    plain = True

    def __init__(self, stdin: TextIO, stdout: TextIO, echo: bool = True) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.echo = echo
        self.columns = PLAIN_COLUMNS
        self.rows: int | None = None  # a transcript: the board is drawn in full
        self.quit_on_interrupt: Callable[[], bool] = _never  # Ctrl-C here is a signal, not a key

    async def read(self, prompt: str) -> str | None:
        # A blocking read on the loop is deliberate: nothing else may happen
        # while the console waits for its user, and it works on files, pipes
        # and sockets alike (the event loop cannot watch regular files).
        line = self.stdin.readline()
        if not line:
            return None
        line = line.rstrip("\r\n")
        if self.echo:
            self.say(prompt + line)
        return line

    def show(self, fragments: Fragments) -> None:
        self.stdout.write(plain_text(fragments).rstrip("\n") + "\n")
        self.stdout.flush()

    def say(self, text: str, style: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()


class TerminalUI:
    """prompt_toolkit on a terminal: completion, history, colour.

    ``pt_input`` / ``pt_output`` replace the terminal (tests use a pipe input).
    """

    plain = False

    def __init__(self, completer_source: Callable[[list[str], str], list[str]], history_file: str,
                 pt_input: Any = None, pt_output: Any = None) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory
        from prompt_toolkit.shortcuts import CompleteStyle
        from prompt_toolkit.styles import Style

        self.style = Style.from_dict({**board_styles(), **UI_STYLES})
        try:
            history: Any = FileHistory(history_file)
            with open(history_file, "a", encoding="utf-8"):
                pass  # fail now, not at the first line, if it cannot be written
        except OSError as error:
            logger.warning("stargtp play: history not kept (%s)", error)
            history = InMemoryHistory()
        self.session: Any = PromptSession(
            history=history, completer=make_completer(completer_source), complete_while_typing=False,
            complete_style=CompleteStyle.MULTI_COLUMN, style=self.style, input=pt_input, output=pt_output)
        self.output = self.session.output
        self.quit_on_interrupt: Callable[[], bool] = _never
        """Whether Ctrl-C at the prompt quits rather than clears the line (the
        console sets it: a second Ctrl-C soon after one that interrupted the engine)."""

    @property
    def columns(self) -> int:
        try:
            return self.output.get_size().columns
        except Exception:  # noqa: BLE001 - a dummy output has no size; draw in full
            return 200

    @property
    def rows(self) -> int | None:
        try:
            return self.output.get_size().rows
        except Exception:  # noqa: BLE001 - a dummy output has no size; draw in full
            return None

    async def read(self, prompt: str) -> str | None:
        try:
            return await self.session.prompt_async(prompt)
        except EOFError:
            return None
        except KeyboardInterrupt:
            if self.quit_on_interrupt():
                raise
            self.say("(Ctrl-D or 'quit' leaves)", "class:info")
            return ""

    def show(self, fragments: Fragments) -> None:
        from prompt_toolkit.formatted_text import FormattedText
        from prompt_toolkit.shortcuts import print_formatted_text

        print_formatted_text(FormattedText(fragments), style=self.style, output=self.output)

    def say(self, text: str, style: str = "") -> None:
        self.show([(style, text)])
