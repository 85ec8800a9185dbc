"""The command handlers: argument parsing, the session's state, the answer text.

Every handler is ``handler(session, args) -> str`` (or a coroutine for the
commands that search; a streaming one also takes the
:class:`~stargtp.protocol.server.session.Stream` it writes to). It raises
:class:`GtpError` (or an engine error, which the registry maps to its
standard text) and changes nothing when it fails. :data:`COMMANDS` lists them
all; docs/protocol.md documents each one.

Commands stay game-agnostic by going through the position API and the game's
descriptor (``position.rules``). A command that only some games have
(``list_stars``, ``printsgf``) is named in those games' ``rules.commands``;
the dispatcher answers it only in them, and ``list_commands`` lists it only
there.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from stargtp.engine.colour import colour_name
from stargtp.engine.errors import GameError
from stargtp.engine.games import GAME_LIST, games, read_record
from stargtp.engine.sgf import record_komi
from stargtp.protocol import __version__
from stargtp.protocol.clock import ABSOLUTE, BYOYOMI, TimeControl
from stargtp.protocol.registry import CommandRegistry, GtpError, syntax_error, with_reason
from stargtp.protocol.server.analysis import (genmove_analyze, gogui_analyze_commands,
                                              hexgui_analyze_commands, kata_analyze, lz_analyze,
                                              stargtp_evaluate)
from stargtp.protocol.server.arguments import (INTEGER, MAX_INTEGER_DIGITS, Args, expect_count,
                                               parse_colour_arg, parse_int, parse_number)
from stargtp.protocol.server.queries import all_legal, get_komi, is_legal, query_boardsize
from stargtp.protocol.server.records import response_lines, stargtp_setup, stargtp_sgf_tree, stargtp_sgf_write
from stargtp.protocol.server.views import stargtp_games, stargtp_geometry, stargtp_position

if TYPE_CHECKING:
    from stargtp.protocol.server.session import Session


ENGINE_NAME = "stargtp"
PROTOCOL_VERSION = "2"

MAX_PERFT_DEPTH = 1000


def engine_version() -> str:
    return __version__


# -- the required commands -------------------------------------------------------


def protocol_version(session: Session, args: Args) -> str:
    expect_count(args, 0)
    return PROTOCOL_VERSION


def name(session: Session, args: Args) -> str:
    expect_count(args, 0)
    return ENGINE_NAME


def version(session: Session, args: Args) -> str:
    expect_count(args, 0)
    return engine_version()


def known_command(session: Session, args: Args) -> str:
    expect_count(args, 1)
    return "true" if args[0] in session.registry else "false"


def list_commands(session: Session, args: Args) -> str:
    expect_count(args, 0)
    return "\n".join(session.registry.names(session.state.position.game))


def quit_(session: Session, args: Args) -> str:
    # Arguments are ignored: a controller that wants to leave should be let go.
    session.quit_requested = True
    return ""


def boardsize(session: Session, args: Args) -> str:
    """``boardsize N``, or ``boardsize N N`` (width and height, as Hex front
    ends send it): every board is square, so unequal numbers are refused."""
    expect_count(args, 1, 2)
    sizes = [_size_arg(arg) for arg in args]
    if len(set(sizes)) > 1:
        raise GtpError("unacceptable size: boards are square")
    session.new_game(size=sizes[0])  # BadSize -> unacceptable size
    return ""


def _size_arg(text: str) -> int:
    if not INTEGER.fullmatch(text):
        raise syntax_error("expected an integer")
    if len(text.lstrip("+-").lstrip("0")) > MAX_INTEGER_DIGITS:
        raise GtpError("unacceptable size")
    return int(text)


def clear_board(session: Session, args: Args) -> str:
    expect_count(args, 0)
    session.new_game(size=session.state.position.size)
    return ""


def komi(session: Session, args: Args) -> str:
    expect_count(args, 1)
    session.state.komi = parse_number(args[0])
    return ""


def play(session: Session, args: Args) -> str:
    expect_count(args, 2)
    colour = parse_colour_arg(args[0])
    position = session.state.position
    move = position.parse_move(args[1])  # IllegalMove for malformed or off-board text
    position.play(move, colour)
    return ""


async def genmove(session: Session, args: Args) -> str:
    expect_count(args, 1)
    return await session.search.generate_move(parse_colour_arg(args[0]), play=True)


# -- tournament commands ----------------------------------------------------------


def undo(session: Session, args: Args) -> str:
    expect_count(args, 0)
    session.state.position.undo()  # CannotUndo -> cannot undo
    return ""


def final_score(session: Session, args: Args) -> str:
    """The game's own scorer: *Star scores any position (komi included); the
    Amazons scorer only finished or settled games, else ``cannot score: REASON``."""
    expect_count(args, 0)
    position = session.state.position
    try:
        return position.rules.score(position, session.state.komi).gtp_result()
    except GameError as error:
        raise GtpError(with_reason("cannot score", error)) from None


def showboard(session: Session, args: Args) -> str:
    expect_count(args, 0)
    return "\n" + session.state.position.render_text()


def time_settings(session: Session, args: Args) -> str:
    expect_count(args, 3)
    main = parse_number(args[0], minimum=0)
    period = parse_number(args[1], minimum=0)
    stones = parse_int(args[2], minimum=0)
    session.state.clock.set_control(TimeControl.canadian(main, period, stones))
    session.search.prepare_workers()  # a game is about to start
    return ""


def kgs_time_settings(session: Session, args: Args) -> str:
    if not args:
        raise syntax_error("expected a time system")
    system, values = args[0].lower(), args[1:]
    if system == "none":
        expect_count(values, 0)
        control = TimeControl()
    elif system == "absolute":
        expect_count(values, 1)
        control = TimeControl(ABSOLUTE, parse_number(values[0], minimum=0))
    elif system == "byoyomi":
        expect_count(values, 3)
        main = parse_number(values[0], minimum=0)
        period = parse_number(values[1], minimum=0)
        periods = parse_int(values[2], minimum=0)
        if period == 0 or periods == 0:
            control = TimeControl(ABSOLUTE, main)
        else:
            control = TimeControl(BYOYOMI, main, period, periods)
    elif system == "canadian":
        expect_count(values, 3)
        main = parse_number(values[0], minimum=0)
        period = parse_number(values[1], minimum=0)
        stones = parse_int(values[2], minimum=0)
        control = TimeControl.canadian(main, period, stones)
    else:
        raise syntax_error("unknown time system")
    session.state.clock.set_control(control)
    session.search.prepare_workers()  # a game is about to start
    return ""


def time_left(session: Session, args: Args) -> str:
    expect_count(args, 3)
    colour = parse_colour_arg(args[0])
    seconds = parse_number(args[1])  # may be negative once a clock has run out
    stones = parse_int(args[2], minimum=0)
    session.state.clock.set_time_left(colour, max(seconds, 0.0), stones)
    return ""


async def reg_genmove(session: Session, args: Args) -> str:
    expect_count(args, 1)
    return await session.search.generate_move(parse_colour_arg(args[0]), play=False)


# -- extensions -----------------------------------------------------------------------


def list_stars(session: Session, args: Args) -> str:
    """One line per star: colour, peris, quarks, owned pericells (*Star: the
    command is declared by the game's descriptor, ``rules.commands``)."""
    expect_count(args, 0, 1)
    only = parse_colour_arg(args[0]) if args else None
    position = session.state.position
    lines = []
    for star in position.rules.score(position, session.state.komi).stars:
        if only is not None and star.colour != only:
            continue
        cells = " ".join(position.format_move(cell) for cell in star.pericells)
        lines.append(f"{colour_name(star.colour)} {len(star.pericells)} {star.quarks} {cells}")
    return "\n".join(lines)


async def perft(session: Session, args: Args) -> str:
    expect_count(args, 1)
    depth = parse_int(args[0], minimum=0, maximum=MAX_PERFT_DEPTH)
    return str(await session.search.perft(depth))


def printsgf(session: Session, args: Args) -> str:
    """The current game as an SGF record, in the response (for the games
    whose descriptor has records)."""
    expect_count(args, 0)
    position = session.state.position
    write = position.rules.write_record
    if write is None:
        raise GtpError(f"printsgf is not available for {position.game}")
    return response_lines(write(position, komi=session.state.komi))


async def loadsgf(session: Session, args: Args) -> str:
    """Load an SGF file (switching to the game it records), optionally only up
    to the position before move ``N``. The one command that reads the file
    system, under the session's file policy (:mod:`stargtp.protocol.server.files`);
    it never writes. The file is read off the event loop."""
    expect_count(args, 1, 2)
    before = parse_int(args[1], minimum=1) if len(args) == 2 else None
    data = await session.read_file(args[0])  # GtpError: cannot load file: why
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise GtpError("cannot load file: not UTF-8 text") from None
    _adopt_record(session, text, before)
    return ""


def loadsgf_text(session: Session, args: Args) -> str:
    """``loadsgf`` of a record given on the command line itself (a front end
    that has no file on the server's disk, such as the browser page): the
    arguments are the record, written on one line."""
    if not args:
        raise syntax_error("expected an SGF record")
    _adopt_record(session, " ".join(args), None)
    return ""


def _adopt_record(session: Session, text: str, before: int | None) -> None:
    """Read an SGF record and continue from it (only the moves before move
    ``before``, when given), with the record's komi (``KM``) where the game
    has komi and the record gives one; loadsgf's errors, nothing changed on
    failure."""
    try:
        position = read_record(text)
        codec = position.rules.record_codec
        komi = None if codec is None else record_komi(text, codec)
    except GameError as exc:
        raise GtpError(f"cannot load file: {exc}") from None
    if before is not None:
        while len(position.history) >= before:
            position.undo()
    session.adopt(position)  # GtpError if the session's player cannot play it
    if komi is not None:
        session.state.komi = komi


def svg(session: Session, args: Args) -> str:
    """The current position as an SVG picture, on one line."""
    expect_count(args, 0)
    from stargtp.protocol.pictures import position_svg

    return position_svg(session.state.position)


async def stargtp_param(session: Session, args: Args) -> str:
    """List, read or set the search settings (limits and player parameters)."""
    expect_count(args, 0, 1, 2)
    values = session.search.parameters()
    if not args:
        return "\n".join(f"{key} {value}" for key, value in values.items())
    if len(args) == 1:
        if args[0] not in values:
            raise GtpError(f"unknown parameter {args[0]}")
        return values[args[0]]
    from stargtp.protocol.server.session import UnknownParameter

    try:
        await session.search.set_parameter(args[0], args[1])
    except UnknownParameter as exc:
        raise GtpError(str(exc)) from None
    except ValueError as exc:
        raise GtpError(f"invalid parameter: {exc}") from None
    return ""


def stargtp_rules(session: Session, args: Args) -> str:
    """List, read or set the current game's rules (its options, ``swap``)."""
    expect_count(args, 0, 1, 2)
    position = session.state.position
    rules = position.rules
    values = rules.options_of(position)
    if not args:
        return "\n".join(f"{name} {_on_off(value)}" for name, value in values.items())
    if args[0] not in values:
        known = ", ".join(values) or "none"
        raise GtpError(f"unknown rule {args[0]} ({rules.title} rules: {known})")
    if len(args) == 1:
        return _on_off(values[args[0]])
    try:
        session.state.set_rule(args[0], args[1])
    except GameError as exc:
        raise GtpError(f"cannot change rule: {exc}") from None
    return ""


def _on_off(value: bool) -> str:
    return "on" if value else "off"


def gogui_interrupt(session: Session, args: Args) -> str:
    """Advertises that ``# interrupt`` is honoured; the command itself does nothing."""
    expect_count(args, 0)
    return ""


def game(session: Session, args: Args) -> str:
    expect_count(args, 0, 1)
    if not args:
        return session.state.position.game
    wanted = args[0].lower()
    if wanted not in games():
        raise GtpError(f"unknown game (known: {', '.join(games())})")
    session.new_game(wanted)  # GameError while the game is not built
    return ""


def list_games(session: Session, args: Args) -> str:
    """Every game this server plays, one per line, by its GTP name (the
    descriptor's ``gtp_name``, as Quarry spells it: ``Amazons``)."""
    expect_count(args, 0)
    return "\n".join(game.gtp_name for game in GAME_LIST)


def set_game(session: Session, args: Args) -> str:
    """Switch to the game ``list_games`` names (any case), as ``game`` does."""
    expect_count(args, 1)
    wanted = args[0].lower()
    for known in GAME_LIST:
        if known.gtp_name.lower() == wanted:
            session.new_game(known.name)
            return ""
    names = ", ".join(game.gtp_name for game in GAME_LIST)
    raise GtpError(f"unknown game {args[0]} (known: {names})")


COMMANDS: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("protocol_version", protocol_version),
    ("name", name),
    ("version", version),
    ("known_command", known_command),
    ("list_commands", list_commands),
    ("quit", quit_),
    ("boardsize", boardsize),
    ("clear_board", clear_board),
    ("komi", komi),
    ("play", play),
    ("genmove", genmove),
    ("undo", undo),
    ("final_score", final_score),
    ("showboard", showboard),
    ("time_settings", time_settings),
    ("time_left", time_left),
    ("kgs-time_settings", kgs_time_settings),
    ("reg_genmove", reg_genmove),
    ("list_stars", list_stars),
    ("perft", perft),
    ("gogui-interrupt", gogui_interrupt),
    ("game", game),
    ("list_games", list_games),
    ("set_game", set_game),
    ("printsgf", printsgf),
    ("loadsgf", loadsgf),
    ("stargtp-loadsgf-text", loadsgf_text),
    ("stargtp-setup", stargtp_setup),
    ("stargtp-sgf-tree", stargtp_sgf_tree),
    ("stargtp-sgf-write", stargtp_sgf_write),
    ("stargtp-svg", svg),
    ("stargtp-param", stargtp_param),
    ("stargtp-rules", stargtp_rules),
    ("lz-analyze", lz_analyze),
    ("query_boardsize", query_boardsize),
    ("get_komi", get_komi),
    ("is_legal", is_legal),
    ("all_legal", all_legal),
    ("kata-analyze", kata_analyze),
    ("genmove_analyze", genmove_analyze),
    ("kata-genmove_analyze", genmove_analyze),
    ("stargtp-evaluate", stargtp_evaluate),
    ("gogui-analyze_commands", gogui_analyze_commands),
    ("hexgui-analyze_commands", hexgui_analyze_commands),
    ("stargtp-geometry", stargtp_geometry),
    ("stargtp-position", stargtp_position),
    ("stargtp-games", stargtp_games),
)


PICTURE_COMMANDS = frozenset({"stargtp-svg", "stargtp-geometry", "stargtp-position"})
"""Commands that work in the games that have a picture (``protocol.pictures.DRAWINGS``)."""

STREAMING = frozenset({"lz-analyze", "kata-analyze", "genmove_analyze", "kata-genmove_analyze"})
"""Commands whose handler writes its response through a stream as it goes."""


def _owners(command_name: str) -> tuple[str, ...]:
    """The games a command works in: those whose descriptor declares it, for
    the picture commands those that have a picture, for ``stargtp-setup``
    those that have a set-up; empty for every game."""
    if command_name in PICTURE_COMMANDS:
        from stargtp.protocol.pictures import DRAWINGS

        return tuple(game.name for game in GAME_LIST if game.name in DRAWINGS)
    if command_name == "stargtp-setup":
        return tuple(game.name for game in GAME_LIST if game.setup_rules is not None)
    return tuple(game.name for game in GAME_LIST if command_name in game.commands)


def install(registry: CommandRegistry, session: Session) -> None:
    """Register every command, bound to ``session``; a command that some games
    declare as theirs works only in those games."""
    for command_name, handler in COMMANDS:
        owners = _owners(command_name)
        registry.register(command_name, functools.partial(handler, session), owners or None,
                          streaming=command_name in STREAMING)
