"""The view commands: everything a front end needs to show a game, over the
protocol alone, each answer one line of JSON (docs/protocol.md documents them).

* ``stargtp-games``: every game the server plays, with what a front end
  needs to offer it (names, sizes, who moves first, passing, how a move is
  written and in how many parts), and the current game and size.

* ``stargtp-geometry``: the board of the current game and size: every point
  with its name, its centre in the coordinates of ``stargtp-svg``'s picture
  and what the game knows of it (*Star: ring, arm, neighbours, pericell,
  corner; Amazons: column and row), and the picture's view box.
* ``stargtp-position``: the current state: the side to move, the pieces on
  the board, the moves, whether the game is over, komi and the game's own
  score breakdown (``null`` while the game cannot be scored).

Like every command they are game-agnostic: what a game's board looks like
comes from :data:`stargtp.protocol.pictures.DRAWINGS`, looked up by the game's
name, and everything else from the position API and the game's descriptor.
They work in the games of that table only (the dispatcher answers
``? stargtp-geometry is only available for ...`` elsewhere), and never
change the session's state.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from stargtp.engine.colour import colour_name
from stargtp.engine.errors import GameError
from stargtp.engine.games import GAME_LIST, find_game
from stargtp.protocol.server.arguments import Args, expect_count
from stargtp.protocol.server.queries import move_template

if TYPE_CHECKING:
    from stargtp.protocol.server.session import Session


def to_json(data: Any) -> str:
    """Compact JSON on one line (``json.dumps`` escapes every control character)."""
    return json.dumps(data, separators=(",", ":"), allow_nan=False)


@lru_cache(maxsize=64)
def geometry_text(game: str, size: int) -> str:
    """The ``stargtp-geometry`` answer for a game and size (it depends on
    nothing else, so it is built once)."""
    from stargtp.protocol.pictures import DRAWINGS

    position = find_game(game).new_position(size)
    ownership = [position.format_move(point) for point, _ in position.rules.tree_hooks(position).owner_points]
    return to_json({"game": game, "size": size, **DRAWINGS[game].geometry(size), "ownership": ownership})


def game_data(game: Any) -> dict[str, Any]:
    """One game's entry in ``stargtp-games``, from its descriptor only.

    >>> from stargtp.engine.games import find_game
    >>> data = game_data(find_game("amazons"))
    >>> data["first"], data["pass"], data["parts"], data["separators"]
    ('white', None, 3, ['-', '/'])
    """
    from stargtp.protocol.pictures import DRAWINGS

    start = game.new_position()
    no_move = game.no_move(start, 0.0)
    template = move_template(start)
    return {
        "name": game.name,
        "gtp_name": game.gtp_name,
        "title": game.title,
        "sizes": list(game.sizes),
        "default_size": game.default_size,
        "size_word": game.size_word,
        "first": colour_name(start.to_move),
        "pass": start.format_move(no_move) if no_move is not None else None,
        "move_hint": game.move_hint,
        "human": colour_name(game.human_colour),
        "parts": (len(template) + 1) // 2,
        "separators": template[1::2],
        "picture": game.name in DRAWINGS,
        "records": game.write_record is not None,
        "setup": [{"kind": kind.kind, "label": kind.label}
                  for kind in (game.setup_rules.kinds if game.setup_rules is not None else ())],
    }


def position_data(position: Any, komi: float) -> dict[str, Any]:
    """The ``stargtp-position`` answer as JSON-ready data."""
    from stargtp.protocol.pictures import DRAWINGS

    try:
        report = position.rules.score(position, komi)
        score: dict[str, Any] | None = {**report.to_json(position), "result": report.gtp_result()}
    except GameError:  # Amazons mid-game: not scorable yet
        score = None
    fmt = position.format_move
    drawing = DRAWINGS[position.game]
    return {
        "game": position.game,
        "size": position.size,
        "to_move": colour_name(position.to_move),
        "board": drawing.contents(position),
        "moves": [[colour_name(colour), fmt(move)] for colour, move in position.history],
        "over": bool(position.is_over()),
        "komi": komi,
        "score": score,
        "territory": drawing.territory(position) if drawing.territory is not None else None,
    }


# -- the commands -----------------------------------------------------------------


def stargtp_geometry(session: Session, args: Args) -> str:
    """The board of the current game and size as one line of JSON."""
    expect_count(args, 0)
    position = session.state.position
    return geometry_text(position.game, position.size)


def stargtp_position(session: Session, args: Args) -> str:
    """The current state as one line of JSON."""
    expect_count(args, 0)
    return to_json(position_data(session.state.position, session.state.komi))



def stargtp_games(session: Session, args: Args) -> str:
    """Every game the server plays and the current game and size, as one line of JSON."""
    expect_count(args, 0)
    position = session.state.position
    return to_json({"games": [game_data(game) for game in GAME_LIST],
                    "game": position.game, "size": position.size})
