"""``stargtp render``: turn a game record into SVG pictures.

A record is one of:

* a line of the match runner's results file (JSON lines: the header is
  skipped, ``--record`` picks a game by its 1-based number or its ``key``);
* an SGF file of a game that has records, or a collection of them (the match
  runner's records file: ``--record`` picks a game by number or its ``GN``) (*Star, ``GM[2004]``; the Amazons,
  ``GM[18]``; Hex and Y, ``GM[11]``, Y's marked ``BOARD[Y]``), read by the game its ``GM`` names
  (:func:`stargtp.engine.games.read_record`);
  its ``RE`` is the recorded result and its ``KM`` the komi of the caption;
* a move list: plain text, ``#`` starts a comment, ``game NAME`` and
  ``size N`` (or ``rings N``) lines come first, a line ``black M M ...`` or
  ``white M M ...`` plays its moves for that colour (set-up), and any other
  line holds moves played alternately by the side to move.

The komi of the caption's *Star score is ``--komi``, else the record's (an
SGF ``KM``, a results file's ``komi``), else 0.

The picture is the final position, or the one after ``--move N`` moves; with
``--series DIR`` one picture per move is written, from the empty board on.
The drawing itself is :func:`stargtp.protocol.pictures.position_svg`.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import Any

from stargtp.engine.colour import parse_colour
from stargtp.engine.errors import GameError
from stargtp.engine.games import games, new_position
from stargtp.engine.games import read_record as read_sgf_record
from stargtp.engine.sgf import game_trees
from stargtp.protocol.cli import OptionError, file_to_write_problem, finite_float, positive_float, report_option_error
from stargtp.protocol.pictures import Drawing, describe, drawing_for, position_svg
from stargtp.protocol.server.serve import parse_rules
from stargtp.protocol.tools import plural

logger = logging.getLogger(__name__)


class RecordError(Exception):
    """The record cannot be read; the message says where and why."""


class RecordChoiceError(RecordError):
    """``--record`` picks no game of the input: the option is at fault, not
    the record."""


@dataclass
class GameRecord:
    """A game read from a record: its final position (with the whole game as
    history) and, when the record says so, its result and komi."""

    position: Any
    result: str | None = None
    name: str | None = None
    komi: float | None = None


# -- reading records ------------------------------------------------------------


def read_record(text: str, *, game: str | None = None, size: int | None = None,
                record: str | None = None, source: str = "input", rules: tuple[str, ...] = ()) -> GameRecord:
    """The game in ``text``, whatever its format (see the module docstring).
    ``game`` and ``size`` are defaults for move lists, and ``rules`` their
    game's options (``--rule`` items, ``swap=on``: OptionError for one the
    game does not have); ``record`` picks one game of a results file.
    RecordError on anything unreadable."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return _from_results(text, record, source)
    if stripped.startswith("("):
        try:
            trees = game_trees(text)
        except GameError as error:
            raise RecordError(f"{source}: {error}") from None
        if len(trees) > 1 or record is not None:
            return _from_sgf(_choose(trees, record, source, lambda tree: _sgf_value(tree, "GN")), source)
        return _from_sgf(text, source)
    if record is not None:
        raise RecordChoiceError(f"{source} holds one game, not a match results file or SGF collection")
    return _from_move_list(text, game, size, source, rules)


def _choose(games: list[Any], wanted: str | None, source: str, key_of: Any) -> Any:
    """The game ``--record`` picks out of several (a results file, an SGF
    collection): by its 1-based number or its key (``key_of(game)``); the
    first, with a warning, when it picks none."""
    if not games:
        raise RecordError(f"{source}: no game record in the file")
    if wanted is None:
        if len(games) > 1:
            logger.warning("%s holds %d games; taking the first "
                           "(choose with --record N or --record KEY)", source, len(games))
        return games[0]
    matches = [game for game in games if key_of(game) == wanted]
    if matches:
        return matches[0]
    if not wanted.isdigit():
        raise RecordChoiceError(f"{source} holds no game with the key {wanted!r}")
    index = int(wanted)
    if not 1 <= index <= len(games):
        raise RecordChoiceError(f"{source} holds games 1..{len(games)}, not {wanted}")
    return games[index - 1]


def _from_results(text: str, wanted: str | None, source: str) -> GameRecord:
    played: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as error:
            raise RecordError(f"{source}:{number}: not a JSON record ({error})") from None
        if isinstance(item, dict) and item.get("type") != "header" and "moves" in item:
            played.append(item)
    chosen = _choose(played, wanted, source, lambda game: game.get("key"))
    options = chosen.get("rules")
    if options is not None and not (isinstance(options, dict) and all(isinstance(v, bool) for v in options.values())):
        raise RecordError(f"{source}: the game's rules are not {{NAME: true|false}}: {options!r}")
    try:
        position = new_position(chosen.get("game", default_game()), chosen.get("size"), options)
    except GameError as error:
        raise RecordError(f"{source}: {error}") from None
    for number, entry in enumerate(chosen.get("moves", []), 1):
        if isinstance(entry, dict):
            text_move, colour_text = entry.get("move"), entry.get("colour")
        else:
            text_move, colour_text = entry, None
        if not isinstance(text_move, str):
            raise RecordError(f"{source}: move {number} has no move text")
        if text_move == "resign":
            break
        try:
            colour = None if colour_text is None else parse_colour(str(colour_text))
            position.play(position.parse_move(text_move), colour)
        except (GameError, ValueError) as error:
            raise RecordError(f"{source}: move {number} ({text_move}): {error}") from None
    return GameRecord(position, chosen.get("result"), chosen.get("key"), _finite(chosen.get("komi")))


def _from_sgf(text: str, source: str) -> GameRecord:
    try:
        position = read_sgf_record(text)
    except GameError as error:
        raise RecordError(f"{source}: {error}") from None
    komi = _finite(_sgf_value(text, "KM"))
    return GameRecord(position, _recorded_result(text, position), komi=komi)


def _sgf_value(text: str, name: str) -> str | None:
    """The first value of the SGF property ``name`` (``RE``, ``KM``) in the
    record, unescaped and stripped; None when it has none."""
    found = re.search(r"(?<![A-Za-z])" + name + r"\s*\[((?:\\.|[^\\\]])*)\]", text, re.DOTALL)
    if found is None:
        return None
    return re.sub(r"\\(.)", r"\1", found.group(1), flags=re.DOTALL).strip()


def _finite(value: Any) -> float | None:
    """A recorded komi as a finite float; None when missing or not a number."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _recorded_result(text: str, position: Any) -> str | None:
    """The record's result (``RE``) in this engine's colours, or None."""
    result = _sgf_value(text, "RE")
    if result is None:
        return None
    if result[:2] in ("B+", "W+") and _records_swap_colours(position):
        result = ("W" if result[0] == "B" else "B") + result[1:]
    return result


def _records_swap_colours(position: Any) -> bool:
    """Whether the game's records name the colours the other way round (the
    Amazons: SGF's ``B`` is the first mover, this engine's white; *Star's
    ``B`` is black, no swap). The game's own record writer says so."""
    write = position.rules.write_record
    return write is not None and "RE[W+1]" in write(position, result="B+1")


def _from_move_list(text: str, game: str | None, size: int | None, source: str,
                    rules: tuple[str, ...] = ()) -> GameRecord:
    position = None

    def current() -> Any:
        nonlocal position
        if position is None:
            name = game or default_game()
            try:
                options = dict(parse_rules(name, list(rules)))
            except ValueError as error:
                raise OptionError("--rule", str(error)) from None
            try:
                position = new_position(name, size, options)
            except GameError as error:
                raise RecordError(f"{source}: {error}") from None
        return position

    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        key = words[0].lower()
        if key in ("game", "size", "rings"):
            if position is not None:
                raise RecordError(f"{source}:{number}: '{key}' must come before the moves")
            if len(words) != 2:
                raise RecordError(f"{source}:{number}: expected '{key} VALUE'")
            if key == "game":
                if words[1].lower() not in games():
                    raise RecordError(f"{source}:{number}: unknown game {words[1]!r} "
                                      f"(known: {', '.join(games())})")
                game = words[1].lower()
            else:
                if not words[1].isdigit():
                    raise RecordError(f"{source}:{number}: the size must be a number")
                size = int(words[1])
            continue
        colour = None
        moves = words
        if key in ("b", "black", "w", "white"):
            colour, moves = parse_colour(key), words[1:]
        board = current()
        for move_text in moves:
            try:
                board.play(board.parse_move(move_text), colour)
            except GameError as error:
                raise RecordError(f"{source}:{number}: {move_text}: {error}") from None
    return GameRecord(current())


def default_game() -> str:
    """The game of a record that does not say: the first registered (*Star)."""
    return games()[0]


# -- pictures -------------------------------------------------------------------------


def positions_of(final: Any) -> list[Any]:
    """Every position of the game, from its start to ``final``: copies taken
    while undoing the history, so each has the moves up to it as history."""
    positions = [final.copy()]
    board = final.copy()
    while board.history:
        board.undo()
        positions.append(board.copy())
    positions.reverse()
    return positions


def caption_for(position: Any, record: GameRecord, komi: float | None, final: bool) -> str:
    """The default caption; ``komi`` None takes the record's (else 0)."""
    if komi is None:
        komi = record.komi if record.komi is not None else 0.0
    text = describe(position, komi)
    if final and record.result:
        text += f", recorded result {record.result}"
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", metavar="RECORD",
                        help="record: results file (JSON lines), SGF (of any game with records), or move list;"
                             " - for stdin")
    parser.add_argument("-o", "--output", metavar="FILE", default=None,
                        help="SVG file to write (default, or -: stdout)")
    parser.add_argument("--series", metavar="DIR",
                        help="write one picture per move into DIR (move-000.svg is the start)")
    parser.add_argument("--move", type=int, metavar="N",
                        help="draw the position after N moves (negative: counted from the end)")
    parser.add_argument("--record", metavar="N|KEY",
                        help="results file or SGF collection: the game to draw, by number (1 = first) or"
                             " key (GN)")
    parser.add_argument("--game", choices=games(), help=f"move lists: the game (default {games()[0]})")
    parser.add_argument("--size", type=int, help="move lists: board size (default: the game's)")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="move lists: a rule of the game on or off, e.g. swap=on (Hex's and Y's swap"
                             " rule, for a list with swap-pieces; repeatable)")
    parser.add_argument("--komi", type=finite_float, default=None,
                        help="komi for the caption's *Star score (default: the record's, else 0)")
    parser.add_argument("--unit", type=positive_float, metavar="PX", help="ring spacing / square size / cell spacing in pixels")
    parser.add_argument("--no-labels", dest="labels", action="store_false", help="no cell labels or coordinates")
    parser.add_argument("--no-stars", dest="stars", action="store_false",
                        help="*Star: no star / owned-peri overlay")
    parser.add_argument("--no-group", dest="group", action="store_false",
                        help="Hex and Y: do not outline the winning group")
    parser.add_argument("--dead", dest="dead", action="store_true", default=None,
                        help="*Star: mark dead groups even before the game is over")
    parser.add_argument("--no-dead", dest="dead", action="store_false", help="*Star: never mark dead groups")
    parser.add_argument("--caption", help="caption text (default: moves, last move, side to move, score)")
    parser.add_argument("--no-caption", action="store_true", help="no caption")


def _options(args: argparse.Namespace, drawing: Drawing) -> dict[str, Any]:
    """The drawing options given on the command line that the game's picture
    takes (``--no-stars`` and ``--dead`` are *Star's only, ``--no-group``
    Hex and Y's)."""
    options: dict[str, Any] = {"labels": args.labels}
    if args.unit is not None:
        options["unit"] = args.unit
    options.update(stars=args.stars, dead=args.dead, group=args.group)
    return {name: value for name, value in options.items() if name in drawing.options}


# -- checking the options ----------------------------------------------------------------


def check_options(args: argparse.Namespace) -> None:
    """OptionError for options that contradict each other, a ``--size`` no
    game has, or an output place that cannot be a file or directory; all
    before anything is read or written."""
    if args.series is not None:
        for option, given in (("-o/--output", args.output is not None), ("--move", args.move is not None)):
            if given:
                raise OptionError(option, "does not combine with --series, which draws every move")
    if args.caption is not None and args.no_caption:
        raise OptionError("--caption", "does not combine with --no-caption")
    if args.size is not None:
        _check_size(args.game, args.size)
    if args.output not in (None, "-"):
        _check_output_file(args.output)
    if args.series is not None:
        _check_series_directory(args.series)


def _check_size(game: str | None, size: int) -> None:
    """``--size`` must suit ``--game``, or without it some game."""
    errors = []
    for name in [game] if game else games():
        try:
            new_position(name, size)
            return
        except GameError as error:
            errors.append(str(error))
    raise OptionError("--size", errors[0])


def _check_output_file(path: str) -> None:
    problem = file_to_write_problem(path)
    if problem is not None:
        raise OptionError("-o/--output", problem)


def _check_series_directory(path: str) -> None:
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise OptionError("--series", f"{path} exists and is not a directory")
        return
    parent = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        raise OptionError("--series", f"cannot create {path}: {parent} is not a directory")


def read_input(path: str) -> str:
    """The text of ``path`` (``-``: stdin). OptionError when it cannot be
    opened, RecordError when it is not UTF-8 text."""
    source = "stdin" if path == "-" else path
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as stream:
            return stream.read()
    except UnicodeDecodeError:
        raise RecordError(f"{source} is not UTF-8 text") from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise OptionError("RECORD", f"cannot read {source}: {reason}") from None


def _move_index(move: int | None, count: int) -> int:
    """The position ``--move`` picks of ``count`` + 1 (the start and after
    each move); OptionError when the game is shorter."""
    if move is None:
        return count
    index = move if move >= 0 else count + move
    if not 0 <= index <= count:
        raise OptionError("--move", f"the game has {plural(count, 'move')}, so N is -{count}..{count}, not {move}")
    return index


# -- the command -----------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    source = "stdin" if args.input == "-" else args.input
    try:
        check_options(args)
        text = read_input(args.input)
        record = read_record(text, game=args.game, size=args.size, record=args.record, source=source,
                             rules=tuple(args.rule))
        final = record.position
        positions = positions_of(final)
        index = _move_index(args.move, len(positions) - 1)
    except OptionError as error:
        return report_option_error("render", error)
    except RecordChoiceError as error:
        return report_option_error("render", OptionError("--record", str(error)))
    except RecordError as error:  # bad input, like a bad option: status 2
        logger.error("stargtp render: %s", error)
        return 2
    try:
        options = _options(args, drawing_for(final))
    except ValueError as error:  # a game without a picture
        logger.error("stargtp render: %s", error)
        return 1

    def picture(index: int) -> str:
        position = positions[index]
        caption = None
        if not args.no_caption:
            caption = args.caption or caption_for(position, record, args.komi, index == len(positions) - 1)
        return position_svg(position, caption=caption, **options) + "\n"

    if args.series is not None:
        return _write_series(args.series, [picture(i) for i in range(len(positions))])
    return _write_picture(args.output, picture(index))


def _write_series(directory: str, pictures: list[str]) -> int:
    try:
        os.makedirs(directory, exist_ok=True)
        for index, svg in enumerate(pictures):
            with open(os.path.join(directory, f"move-{index:03d}.svg"), "w", encoding="utf-8") as stream:
                stream.write(svg)
    except OSError as error:
        logger.error("stargtp render: cannot write to %s: %s", directory, error.strerror or error)
        return 1
    print(f"stargtp render: wrote {plural(len(pictures), 'picture')} to {directory}", file=sys.stderr)
    return 0


def _write_picture(output: str | None, svg: str) -> int:
    if output in (None, "-"):
        try:
            sys.stdout.write(svg)
            sys.stdout.flush()
        except BrokenPipeError:  # the reader has gone (| head): not our error to report
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
        return 0
    try:
        with open(output, "w", encoding="utf-8") as stream:
            stream.write(svg)
    except OSError as error:
        logger.error("stargtp render: cannot write %s: %s", output, error.strerror or error)
        return 1
    return 0
