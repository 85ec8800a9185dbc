"""The Amazons' descriptor: everything the search, the server and the tools
know about the Game of the Amazons, in one object (:data:`AMAZONS`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from stargtp.engine.amazons.evaluation import queen_territory
from stargtp.engine.amazons.geometry import DEFAULT_SIZE, SIZES
from stargtp.engine.amazons.playout import random_playout
from stargtp.engine.amazons.position import Position
from stargtp.engine.amazons.scoring import Score, is_settled, score
from stargtp.engine.amazons.search import AmazonsMcts
from stargtp.engine.amazons.geometry import ARROW
from stargtp.engine.amazons.sgf import CODEC, read_sgf, write_sgf
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.errors import BadSize, GameError, IllegalMove
from stargtp.engine.game import Game, SetupKind, SetupRules, moves_left_from_cells, plain_tree_hooks


def _score(position: Position, komi: float) -> Score:
    return score(position)  # komi means nothing here


def _from_setup(board: Sequence[int], to_move: int) -> Position:
    """Any number of amazons and arrows on any squares is a position (a
    side without a move has lost); IllegalMove for contents that fit no board."""
    try:
        return Position.from_board(list(board), to_move)
    except (ValueError, BadSize) as exc:
        raise IllegalMove(str(exc)) from None


def _points(position: Position) -> tuple[str, ...]:
    return position.geometry.names


SETUP = SetupRules((SetupKind("black", "Black amazon", BLACK), SetupKind("white", "White amazon", WHITE),
                    SetupKind("arrow", "Arrow", ARROW)), _points)
"""An Amazons set-up places amazons of either colour and arrows on any
squares (docs/rules-amazons.md, "Set-up")."""


def _playout_winner(position: Position, rng: random.Random, komi: float) -> int:
    return random_playout(position, rng)


_HOOKS = plain_tree_hooks(_playout_winner)


def _tree_hooks(position: Position):
    return _HOOKS


def _no_move(position: Position, komi: float) -> None:
    return None  # no pass in the Amazons: a player without a move resigns


def _settled(position: Position, komi: float) -> bool:
    """The regions are separated and the territory count names the winner."""
    if not is_settled(position):
        return False
    try:
        return score(position).winner is not None
    except GameError:
        return False


def _write_record(position: Position, result: str | None = None, komi: float = 0.0) -> str:
    return write_sgf(position, result)  # komi means nothing here


def _score_estimate(position: Position, colour: int, komi: float) -> float:
    """The exact margin once the game is settled or over, signed for
    ``colour``; before that the expected territory, mine minus theirs."""
    result = score(position)
    if result.winner is not None and result.margin is not None:
        return float(result.margin if result.winner == colour else -result.margin)
    territory = queen_territory(position)
    return float(territory[colour] - territory[3 - colour])


def _moves_left(size: int, plies: int) -> int:
    return moves_left_from_cells(size * size - 8, plies)  # each ply fills a square with an arrow


def _move_playouts(size: int) -> int:
    """3000 on every board (docs/search.md), as the Amazons MCTS's own
    default: fewer lost on the small *Star board, and no Amazons match has
    shown that fewer hold on a small Amazons board."""
    return 3000


def _analysis(position: Position, colour: int, ownership: Sequence[tuple[str, float]]) -> str:
    """``territory MINE THEIRS``: the squares each side reaches first."""
    territory = queen_territory(position)
    return f"territory {territory[colour]} {territory[3 - colour]}"


AMAZONS = Game(
    name="amazons",
    title="Amazons",
    gtp_name="Amazons",
    sizes=SIZES,
    default_size=DEFAULT_SIZE,
    size_word="squares a side",
    position=Position,
    from_setup=_from_setup,
    score=_score,
    playout_winner=_playout_winner,
    tree_hooks=_tree_hooks,
    no_move=_no_move,
    ended_by="no_moves",
    settled=_settled,
    moves_left=_moves_left,
    move_playouts=_move_playouts,
    strongest_player="amazons-mcts",
    players={"amazons-mcts": AmazonsMcts},
    analysis=_analysis,
    score_estimate=_score_estimate,
    write_record=_write_record,
    read_record=read_sgf,
    sgf_number=18,
    commands=("printsgf",),
    move_hint="from-to/arrow, such as d1-d7/g7",
    human_colour=WHITE,
    setup_rules=SETUP,
    record_codec=CODEC,
)

Position.rules = AMAZONS
