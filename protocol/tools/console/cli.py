"""``stargtp play``'s command line: the options, their checks (before any
engine is started), and the choice between a game against the engine and
the raw console, on a terminal or on plain lines."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from typing import Any

from stargtp.engine.colour import parse_colour
from stargtp.engine.errors import GameError
from stargtp.engine.games import find_game, games, new_position
from stargtp.engine.players import make_player, players
from stargtp.protocol.cli import (OptionError, file_to_write_problem, finite_float, game_sizes, positive_float,
                                  positive_int, report_option_error)
from stargtp.protocol.controller import DEFAULT_COMMAND_TIMEOUT, ControllerError, EngineSpec, GtpController
from stargtp.protocol.server.serve import parse_rules
from stargtp.protocol.tools.console.game import ConsoleError, HumanGame
from stargtp.protocol.tools.render import RecordChoiceError, RecordError, read_record
from stargtp.protocol.tools.console.raw import RawConsole
from stargtp.protocol.tools.console.ui import (
    DEFAULT_HISTORY,
    HISTORY_ENVIRONMENT,
    LineUI,
    TerminalUI,
    history_path,
    is_terminal,
)

logger = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    human = parser.add_argument_group("a human against the engine (the default)")
    human.add_argument("--game", choices=games(), default=None,
                       help=f"the game (default {games()[0]}; raw console: sent as 'game NAME' at start)")
    human.add_argument("--size", type=int, help=f"board size: {game_sizes()} "
                                                "(default: the game's; raw console: sent at start)")
    human.add_argument("--colour", "--color", dest="colour", type=colour_option, default=None,
                       help="your colour, black or white (default: the side that moves first)")
    human.add_argument("--komi", type=finite_float, default=None,
                       help="komi for white (default 0, or the --load record's)")
    human.add_argument("--player", choices=players(),
                       help="the engine's move generator (stargtp serve --player)")
    human.add_argument("--seed", type=int, help="seed the engine, for repeatable games")
    human.add_argument("--playouts", type=positive_int, metavar="N", help="engine playouts per move")
    human.add_argument("--seconds", type=positive_float, metavar="S", help="engine seconds per move")
    human.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                       help="engine player parameter (repeatable)")
    human.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                       help="a rule of the game on or off, e.g. swap=on (Hex's and Y's swap rule;"
                            " repeatable), for the console and the engine (stargtp serve --rule; an"
                            " engine given with --vs must play it too)")
    human.add_argument("--vs", metavar="ENGINE",
                       help="play against this engine instead of stargtp serve: a command line or tcp:HOST:PORT")
    human.add_argument("--load", metavar="FILE",
                       help="start from the end of a recorded game: an SGF record or collection,"
                            " a match results file or a move list (game and size from the record)")
    human.add_argument("--record", metavar="N|KEY",
                       help="with --load: which game of a collection or results file (its number"
                            " from 1, or its key / GN; default the first)")
    human.add_argument("--move-timeout", type=positive_float, default=None, metavar="SECONDS",
                       help="longest wait for an engine move (default: no limit)")
    raw = parser.add_argument_group("raw protocol console")
    raw.add_argument("--engine", metavar="CMD", help="start CMD and talk to it")
    raw.add_argument("--connect", metavar="HOST:PORT", help="connect to a protocol server on TCP")
    raw.add_argument("--no-board", dest="board", action="store_false",
                     help="do not draw the board after moves")
    raw.add_argument("--timeout", type=positive_float, default=None, metavar="SECONDS",
                     help="longest wait for any answer (default: no limit)")
    common = parser.add_argument_group("input")
    common.add_argument("--history", metavar="FILE",
                        help=f"history file (default ${HISTORY_ENVIRONMENT} or {DEFAULT_HISTORY})")
    common.add_argument("--plain", action="store_true",
                        help="plain line mode even on a terminal (no completion, no colour)")


def serve_command(args: argparse.Namespace) -> list[str]:
    """The ``stargtp serve`` command line for a human game's engine: this
    interpreter with ``-P``, so that ``-m`` does not put the working directory
    (which may hold a package named like ours) first on ``sys.path``."""
    argv = [sys.executable, "-P", "-m", "stargtp.protocol.cli", "serve", "--game", args.game]
    if args.size is not None:
        argv += ["--size", str(args.size)]
    for option, value in (("--player", args.player), ("--seed", args.seed),
                          ("--playouts", args.playouts), ("--seconds", args.seconds)):
        if value is not None:
            argv += [option, str(value)]
    for item in args.param:
        argv += ["--param", item]
    for item in args.rule:
        argv += ["--rule", item]
    return argv


def colour_option(text: str) -> int:
    """An argparse ``type``: ``black``, ``white``, ``b`` or ``w``, any case."""
    try:
        return parse_colour(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected black or white (or b, w), not {text!r}") from None


def _engine_spec(args: argparse.Namespace) -> tuple[EngineSpec, bool]:
    """What to talk to, and whether it is a raw console; OptionError names
    the option at fault."""
    if args.engine is not None and args.connect is not None:
        raise OptionError("--engine", "give --engine or --connect, not both")
    raw_option = "--engine" if args.engine is not None else "--connect" if args.connect is not None else None
    if raw_option is not None and args.vs is not None:
        raise OptionError("--vs", f"plays a game against ENGINE; it does not combine with {raw_option} "
                                  f"(the raw console)")
    if args.connect is not None:
        host, sep, port = args.connect.strip().rpartition(":")
        if not (sep and host and port.isdigit() and 0 < int(port) < 65536):
            raise OptionError("--connect", f"expected HOST:PORT (a port 1..65535), not {args.connect!r}")
        return EngineSpec.parse("tcp:" + args.connect.strip()), True
    for option, text, raw in (("--engine", args.engine, True), ("--vs", args.vs, False)):
        if text is not None:
            try:
                return EngineSpec.parse(text), raw
            except ValueError as error:
                raise OptionError(option, str(error)) from None
    return EngineSpec(text="stargtp serve", argv=tuple(serve_command(args))), False


def check_options(args: argparse.Namespace) -> tuple[EngineSpec, bool, int | None]:
    """The engine to talk to, whether it is a raw console, and the human's
    colour (None in a raw console); OptionError for a bad option, before any
    engine is started. Fills in ``args.game`` for a game (the first game
    registered, *Star, unless ``--game`` says)."""
    raw = args.engine is not None or args.connect is not None
    if not raw:
        args.game = args.game or games()[0]
    spec, raw = _engine_spec(args)
    human = None
    args.start = None
    if args.record is not None and args.load is None:
        raise OptionError("--record", "picks a game of the --load file; give --load FILE")
    if args.load is not None:
        if raw:
            raise OptionError("--load", "is for a game against the engine, not the raw console")
        args.start = _load(args)
    args.rules = {}
    if raw and args.rule:
        raise OptionError("--rule", "is for a game against the engine, not the raw console")
    if not raw:
        human = args.colour if args.colour is not None else find_game(args.game).human_colour
        try:
            new_position(args.game, args.size)
        except GameError as error:
            raise OptionError("--size", str(error)) from None
        try:
            args.rules = dict(parse_rules(args.game, args.rule))
        except ValueError as error:
            raise OptionError("--rule", str(error)) from None
        if args.vs is None:
            _check_params(args)
    if args.history is not None:
        _check_history_file(os.path.expanduser(args.history))
    return spec, raw, human


def _load(args: argparse.Namespace) -> Any:
    """The position at the end of the ``--load`` record (with its moves as
    history); the game and size become the record's, and its komi the
    default. OptionError when it cannot be read or disagrees with
    ``--game``/``--size``."""
    try:
        with open(args.load, encoding="utf-8") as file:
            text = file.read()
    except OSError as error:
        raise OptionError("--load", f"cannot read {args.load}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise OptionError("--load", f"{args.load} is not UTF-8 text") from None
    try:
        found = read_record(text, game=args.game, size=args.size, record=args.record, source=args.load)
    except RecordChoiceError as error:
        raise OptionError("--record", str(error)) from None
    except RecordError as error:
        raise OptionError("--load", str(error)) from None
    position = found.position
    for option, given, recorded in (("--game", args.game, position.game), ("--size", args.size, position.size)):
        if given is not None and given != recorded:
            raise OptionError(option, f"is {given}, but the record's is {recorded}")
    args.game, args.size = position.game, position.size
    if args.komi is None and found.komi is not None:
        args.komi = found.komi
    return position


def _check_params(args: argparse.Namespace) -> None:
    """``--param NAME=VALUE`` items as ``stargtp serve`` will take them."""
    params = {}
    for item in args.param:
        name, equals, value = item.partition("=")
        if not equals or not name:
            raise OptionError("--param", f"expected NAME=VALUE, not {item!r}")
        params[name] = value
    try:
        make_player(args.player or "auto", seed=args.seed, **params)
    except ValueError as error:
        raise OptionError("--param", str(error)) from None


def _check_history_file(path: str) -> None:
    problem = file_to_write_problem(path)
    if problem is not None:
        raise OptionError("--history", problem)


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(main(args))
    except KeyboardInterrupt:
        # Ctrl-C while the engine thinks: the engine has been closed on the way out.
        logger.warning("stargtp play: interrupted")
        return 130
    except BrokenPipeError:
        # Whoever read our output has gone (``| head``): leave quietly, as
        # Unix tools do; stdout goes to /dev/null so the final flush cannot fail.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


async def main(args: argparse.Namespace) -> int:
    """The console on the process's terminal or standard streams."""
    try:
        spec, raw, human = check_options(args)
    except OptionError as error:
        return report_option_error("play", error)
    holder: dict[str, Any] = {}

    def complete(before: list[str], word: str) -> list[str]:
        owner = holder.get("console")
        return owner.completions(before, word) if owner is not None else []

    if not args.plain and is_terminal(sys.stdin) and is_terminal(sys.stdout):
        ui: Any = TerminalUI(complete, history_path(args.history))
    else:
        ui = LineUI(sys.stdin, sys.stdout, echo=not raw)
    try:
        engine = await GtpController.open(spec, command_timeout=DEFAULT_COMMAND_TIMEOUT)
    except ControllerError as error:
        logger.error("stargtp play: %s", error)
        return 1
    try:
        if raw:
            console: Any = RawConsole(engine, ui, game=args.game, size=args.size, show_board=args.board,
                                      timeout=args.timeout)
        else:
            console = HumanGame(engine, ui, game=args.game, size=args.size, human=human,
                                komi=args.komi or 0.0, move_timeout=args.move_timeout, start=args.start,
                                options=args.rules)
        holder["console"] = console
        try:
            return await console.run()
        except ConsoleError as error:
            ui.say(f"stargtp play: {error}", "class:error")
            tail = engine.stderr_tail().strip()
            if tail:
                logger.error("stargtp play: the engine's last words:\n%s", tail)
            return 1
    finally:
        await engine.close()
