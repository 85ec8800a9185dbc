"""The study commands: set a position up, and SGF game trees as JSON.

* ``stargtp-setup TO_MOVE [KIND POINT...]...``: the session continues from
  a set-up position of its game and size (the kinds of piece come from the
  game's descriptor, ``Game.setup_rules``).
* ``stargtp-sgf-tree RECORD``: a record's whole game tree (variations and
  every property the game does not interpret) as one line of JSON; the
  session does not change.
* ``stargtp-sgf-write JSON``: that JSON back into an SGF record with its
  variations.

The tree's meaning (set-up, moves, properties) is the engine's
(:func:`stargtp.engine.sgf.read_tree`, :func:`stargtp.engine.sgf.write_tree`);
this module only turns it into JSON and back. A game tree may be deep (one
level per move), so the JSON is written without recursion and read with
room for its nesting. docs/protocol.md documents the commands.
"""

from __future__ import annotations

import json
import math
import sys
from typing import TYPE_CHECKING, Any

from stargtp.engine.colour import BLACK, WHITE, colour_name
from stargtp.engine.errors import GameError
from stargtp.engine.games import GAME_LIST, read_tree
from stargtp.engine.sgf import RecordNode, RecordTree, write_tree
from stargtp.protocol.registry import GtpError, syntax_error
from stargtp.protocol.server.arguments import Args, parse_colour_arg
from stargtp.protocol.server.views import to_json

if TYPE_CHECKING:
    from stargtp.protocol.server.session import Session

MAX_NESTING = 4000
"""The deepest JSON ``stargtp-sgf-write`` reads: two levels a move, so a line
of up to 2000 moves (a 64 KiB line holds fewer than 1500)."""

COLOURS = {"black": BLACK, "white": WHITE}
NODE_KEYS = ("colour", "move", "properties", "children")
TREE_KEYS = ("game", "size", "komi", "options", "properties", "setup", "children", "result")
RESULT_REASONS = {"resign": "R", "time": "T", "forfeit": "F"}
"""How a game ended that its position does not show, and SGF's letter for it."""


# -- stargtp-setup ----------------------------------------------------------------------


def stargtp_setup(session: Session, args: Args) -> str:
    """Replace the session's position by a set-up of its game and size."""
    if not args:
        raise syntax_error("expected the colour to move, then KIND POINT...")
    to_move = parse_colour_arg(args[0])
    position = session.state.position
    rules = position.rules
    if rules.setup_rules is None:
        raise GtpError(f"{rules.title} has no set-up: its positions are only played")
    kinds = [kind.kind for kind in rules.setup_rules.kinds]
    names = {name.lower() for name in rules.setup_rules.points(position)}
    pieces: list[tuple[str, list[str]]] = []
    for word in args[1:]:
        if word.lower() in kinds:
            pieces.append((word.lower(), []))
        elif word.lower() in names and pieces:
            pieces[-1][1].append(word)
        elif word.lower() in names:
            raise syntax_error(f"a kind of piece ({', '.join(kinds)}) comes before its points, not {word}")
        else:
            raise GtpError(f"{word!r} is no kind of piece ({', '.join(kinds)}) and no point of the"
                           f" board ({position.size} {rules.size_word})")
    set_up = rules.set_up(position.size, to_move, pieces)  # GameError: twice, forbidden
    session.adopt(set_up)
    return ""


# -- stargtp-sgf-tree -------------------------------------------------------------------


def stargtp_sgf_tree(session: Session, args: Args) -> str:
    """A record's game tree as one line of JSON; the session is unchanged."""
    if not args:
        raise syntax_error("expected an SGF record")
    try:
        game, tree = read_tree(" ".join(args))
    except GameError as exc:
        raise GtpError(f"cannot load file: {exc}") from None
    return tree_json(game, tree)


def tree_json(game: Any, tree: RecordTree) -> str:
    """The ``stargtp-sgf-tree`` answer: the tree as JSON on one line, written
    node by node (no recursion, however long the lines)."""
    start = tree.start
    setup = game.setup_of(start)
    head = {
        "game": game.name,
        "size": start.size,
        "komi": tree.komi,
        "options": game.options_of(start),
        "properties": tree.props,
        "setup": None if setup is None else {"to_move": colour_name(setup[0]), **setup[1]},
    }
    out = [to_json(head)[:-1], ',"children":[']
    stack = [iter(tree.children)]
    first = [True]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            first.pop()
            out.append("]}")
            continue
        if not first[-1]:
            out.append(",")
        first[-1] = False
        out.append(to_json({"colour": colour_name(node.colour), "move": node.move,
                            "properties": node.props})[:-1])
        out.append(',"children":[')
        stack.append(iter(node.children))
        first.append(True)
    return "".join(out)


# -- stargtp-sgf-write ------------------------------------------------------------------


def stargtp_sgf_write(session: Session, args: Args) -> str:
    """The SGF record of a JSON game tree (``stargtp-sgf-tree``'s shape)."""
    if not args:
        raise syntax_error("expected a game tree as JSON")
    data = load_json(" ".join(args))
    game, tree = tree_of(data)
    record = write_tree(tree, game.record_codec)  # IllegalMove, GameError: bad property
    return response_lines(record)


def response_lines(record: str) -> str:
    """A record as a multi-line response: a GTP response ends at an empty
    line, so lines with nothing but blanks (from line breaks inside a
    property value) are left out."""
    return "\n".join(line for line in record.splitlines() if line.strip())


def nesting(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest (strings skipped).

    >>> nesting('{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def load_json(text: str) -> Any:
    """The JSON value of ``text``; GtpError ``bad JSON: why``. Python's
    decoder recurses once a level, so the recursion limit is raised for a
    deep tree (at most :data:`MAX_NESTING` levels) while it reads."""
    depth = nesting(text)
    if depth > MAX_NESTING:
        raise GtpError(f"bad JSON: nested {depth} levels deep (at most {MAX_NESTING})")
    old = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(old, old + depth + 100))
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise GtpError(f"bad JSON: {exc}") from None
    finally:
        sys.setrecursionlimit(old)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _bad(message: str) -> GtpError:
    return GtpError(f"bad tree: {message}")


def _mapping(value: Any, keys: tuple[str, ...], what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(f"{what} is not an object")
    unknown = [key for key in value if key not in keys]
    if unknown:
        raise _bad(f"{what} has an unknown key {unknown[0]!r} (keys: {', '.join(keys)})")
    return value


def _properties(value: Any, what: str) -> dict[str, list[str]]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _bad(f"the properties of {what} are not an object")
    # Names and value types are the engine's to check (write_tree); a GTP
    # response cannot carry control characters.
    for prop, values in value.items():
        for text in values if isinstance(values, list) else ():
            bad = [c for c in text if (ord(c) < 32 and c not in "\n\t") or 127 <= ord(c) < 160] \
                if isinstance(text, str) else []
            if bad:
                raise _bad(f"property {prop} of {what}: control character U+{ord(bad[0]):04X}")
    return {prop: list(values) if isinstance(values, list) else values for prop, values in value.items()}


def _children(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _bad(f"the children of {what} are not a list")
    return value


def _result_value(result: Any, codec: Any) -> str:
    """``{"winner": COLOUR, "by": "resign"|"time"|"forfeit"}`` -> the SGF
    ``RE`` value, the winner in the game's SGF letters (``W+R``)."""
    result = _mapping(result, ("winner", "by"), "the result")
    if result.get("winner") not in COLOURS or result.get("by") not in RESULT_REASONS:
        reasons = " or ".join(f'"{reason}"' for reason in RESULT_REASONS)
        raise _bad(f'the result is {{"winner": "black" or "white", "by": {reasons}}}')
    letter = dict(codec.letters)[COLOURS[result["winner"]]]
    return f"{letter}+{RESULT_REASONS[result['by']]}"


def tree_of(data: Any) -> tuple[Any, RecordTree]:
    """The game and the :class:`RecordTree` of ``stargtp-sgf-write``'s JSON;
    GtpError ``bad tree: why`` for a wrong shape, the engine's errors for a
    size, option or set-up the game refuses."""
    data = _mapping(data, TREE_KEYS, "the tree")
    name = data.get("game")
    games = {game.name: game for game in GAME_LIST if game.record_codec is not None}
    if name not in games:
        raise _bad(f"game is {name!r}, not one with records ({', '.join(games)})")
    game = games[name]
    size = data.get("size", game.default_size)
    if isinstance(size, bool) or not isinstance(size, int) or size not in game.sizes:
        raise _bad(f"size {size!r} is not a {game.title} size ({game.sizes[0]}..{game.sizes[-1]})")
    komi = data.get("komi", 0)
    if isinstance(komi, bool) or not isinstance(komi, (int, float)) or not math.isfinite(komi):
        raise _bad(f"komi {komi!r} is not a number")
    options = data.get("options") or {}
    if not isinstance(options, dict) or not all(isinstance(v, bool) for v in options.values()):
        raise _bad("options are an object of true/false values")
    setup = data.get("setup")
    if setup is None:
        start = game.new_position(size, options)  # GameError: an option the game has not
    else:
        if not isinstance(setup, dict) or setup.get("to_move") not in COLOURS:
            raise _bad('setup is null or an object with "to_move": "black" or "white"')
        pieces = [(kind, points) for kind, points in setup.items() if kind != "to_move"]
        for kind, points in pieces:
            if not isinstance(points, list) or not all(isinstance(p, str) for p in points):
                raise _bad(f"setup {kind!r} is not a list of point names")
        start = game.set_up(size, COLOURS[setup["to_move"]], pieces)
    tree = RecordTree(start, float(komi), _properties(data.get("properties"), "the root"))
    if data.get("result") is not None:
        tree.props["RE"] = [_result_value(data["result"], game.record_codec)]
    # (JSON node, the record node it follows, its move number)
    stack = [(child, tree, 1) for child in reversed(_children(data.get("children"), "the root"))]
    while stack:
        value, parent, number = stack.pop()
        what = f"move {number}"
        node = _mapping(value, NODE_KEYS, what)
        if node.get("colour") not in COLOURS:
            raise _bad(f'the colour of {what} is "black" or "white", not {node.get("colour")!r}')
        if not isinstance(node.get("move"), str):
            raise _bad(f"the move of {what} is not a string")
        record = RecordNode(COLOURS[node["colour"]], node["move"], _properties(node.get("properties"), what))
        parent.children.append(record)
        stack.extend((child, record, number + 1) for child in reversed(_children(node.get("children"), what)))
    return game, tree
