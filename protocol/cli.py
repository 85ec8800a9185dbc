"""The ``stargtp`` command line: one subcommand per tool.

Each subcommand lives in its own module, which provides ``add_arguments(parser)``
and ``run(args) -> int``. This file only wires them together, so adding a tool
never touches another tool's code.

A mistake on the command line gets one line on stderr, naming the option, and
exit status 2, never a traceback:

* argparse's own errors are printed as ``stargtp TOOL: MESSAGE``, one line,
  without the usage block (``stargtp TOOL --help`` shows that);
* the ``type=`` helpers below (:func:`finite_float`, :func:`positive_float`,
  :func:`positive_int`, :func:`nonnegative_int`) check a value as it is parsed
  and say what form it takes, so argparse reports
  ``stargtp TOOL: argument --komi: expected a finite number, not 'nan'``;
* a value that can only be checked later (a board size against the game, a
  file that cannot be opened) raises :class:`OptionError`, which
  :func:`report_option_error` prints in the same form (returning 2); a tool
  catches it in ``run``, and :func:`main` catches any that escape.

Diagnostics go through :mod:`logging`: every module logs to
``logging.getLogger(__name__)``, and :func:`main` gives the root logger its
one handler (:func:`configure_logging`: stderr, the message alone, INFO and
up).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import math
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from stargtp.engine.game import Game
from stargtp.engine.games import GAME_LIST

# subcommand name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("stargtp.protocol.server.serve", "run the protocol server on stdin/stdout or TCP"),
    "match": ("stargtp.protocol.tools.match", "referee engine-vs-engine games"),
    "report": ("stargtp.protocol.tools.match.page", "write a match's report page (HTML) from its results file"),
    "bench": ("stargtp.protocol.tools.bench", "measure playouts and search speed"),
    "demo": ("stargtp.protocol.tools.demo", "play a random *Star game and print its score breakdown"),
    "render": ("stargtp.protocol.tools.render", "draw a game record (results line, SGF, move list) as SVG"),
    "play": ("stargtp.protocol.tools.console", "play against the engine, or a raw protocol console"),
    "gui": ("stargtp.protocol.gui", "play in the browser: serve the page and its engine sessions over HTTP"),
}


# -- the games, for help texts ------------------------------------------------------


def in_words(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> in_words(["*Star", "Amazons", "Hex"])
    '*Star, Amazons and Hex'
    """
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else "".join(items)


def game_titles(which: Callable[[Game], bool] = lambda game: True) -> str:
    """The titles of the registered games (those ``which`` accepts), in
    order, for a help text: ``*Star, Amazons, Hex and Y``."""
    return in_words([game.title for game in GAME_LIST if which(game)])


def _span(sizes: tuple[int, ...]) -> str:
    """``2..10`` for a run of sizes, ``6, 8 or 10`` otherwise."""
    if len(sizes) > 2 and list(sizes) == list(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]}..{sizes[-1]}"
    return ", ".join(map(str, sizes[:-1])) + f" or {sizes[-1]}" if len(sizes) > 1 else str(sizes[0])


def game_sizes() -> str:
    """Every registered game's board sizes, for a ``--size`` help text:
    ``*Star 2..10 rings; Amazons 6, 8 or 10 squares a side; ...``."""
    return "; ".join(f"{game.title} {_span(game.sizes)} {game.size_word}" for game in GAME_LIST)


# -- option values ------------------------------------------------------------------


class OptionError(Exception):
    """A bad option value found after parsing. ``run`` raises it before doing
    anything; it is printed as ``stargtp TOOL: argument OPTION: MESSAGE``,
    like argparse's own errors, with exit status 2."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"argument {option}: {message}")
        self.option = option
        self.message = message


def file_to_write_problem(path: str) -> str | None:
    """Why a tool could not create or write the file ``path`` (a directory,
    a missing directory, no permission), or None when it can."""
    if os.path.isdir(path):
        return f"{path} is a directory, not a file"
    directory = os.path.dirname(path) or "."
    if not os.path.isdir(directory):
        return f"cannot create {path}: there is no directory {directory}"
    if os.path.exists(path):
        if not os.access(path, os.R_OK | os.W_OK):
            return f"cannot read and write {path}: permission denied"
    elif not os.access(directory, os.W_OK | os.X_OK):
        return f"cannot create {path}: permission denied in {directory}"
    return None


def report_option_error(tool: str, error: OptionError) -> int:
    """Print ``stargtp TOOL: argument OPTION: MESSAGE`` on stderr; return 2,
    the exit status of a bad option."""
    print(f"stargtp {tool}: {error}", file=sys.stderr)
    return 2


def finite_float(text: str) -> float:
    """An argparse ``type``: any finite number (not nan or inf)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, not {text!r}")
    return value


def positive_float(text: str) -> float:
    """An argparse ``type``: a finite number greater than 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a finite number > 0, not {text!r}")
    return value


def _integer(text: str, at_least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or value < at_least:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least {at_least}, not {text!r}")
    return value


def positive_int(text: str) -> int:
    """An argparse ``type``: a whole number of at least 1."""
    return _integer(text, 1)


def nonnegative_int(text: str) -> int:
    """An argparse ``type``: a whole number of at least 0."""
    return _integer(text, 0)


# -- the parser -----------------------------------------------------------------------


class CommandLineParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line, ``PROG: MESSAGE``.
    Subcommand parsers are of the same class."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tools: dict[str, argparse.ArgumentParser] = {}
        """The subcommands' parsers, by name (filled by :func:`build_parser`)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def version_text() -> str:
    """``stargtp X.Y.Z``, the installed package's version."""
    from stargtp.protocol.server.commands import engine_version

    return f"stargtp {engine_version()}"


def build_parser() -> argparse.ArgumentParser:
    parser = CommandLineParser(
        prog="stargtp",
        description=f"Engine and GTP-style protocol server for {game_titles()}.",
    )
    parser.add_argument("--version", action="version", version=version_text())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
        parser.tools[name] = sub
    return parser


# -- logging ---------------------------------------------------------------------------


class StderrHandler(logging.StreamHandler):
    """A handler that writes to whatever ``sys.stderr`` is when a record is
    emitted, not to the stream it was made with (tests replace stderr)."""

    def __init__(self) -> None:
        logging.Handler.__init__(self)

    @property
    def stream(self):  # type: ignore[override]
        return sys.stderr


def configure_logging() -> None:
    """The process's one log handler: stderr, ``%(message)s``, INFO and up.
    Calling it again changes nothing."""
    root = logging.getLogger()
    if not any(isinstance(handler, StderrHandler) for handler in root.handlers):
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        root.addHandler(handler)
    root.setLevel(logging.INFO)


def main(argv: list[str] | None = None) -> int:
    configure_logging()
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # reported by the tool's parser, so the message names the tool
        tool = parser.tools.get(getattr(args, "command", None) or "", parser)
        tool.error(f"unrecognized arguments: {' '.join(extra)}")
    if getattr(args, "run", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.run(args)
    except OptionError as error:
        return report_option_error(args.command, error)


if __name__ == "__main__":
    sys.exit(main())
