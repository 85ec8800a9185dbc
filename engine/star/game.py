"""*Star's descriptor: everything the search, the server and the tools know
about *Star, in one object (:data:`STAR`)."""

from __future__ import annotations

import random
from functools import lru_cache

from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.game import Game, SetupKind, SetupRules, TreeHooks, moves_left_from_cells, ownership_analysis
from stargtp.engine.star.geometry import MAX_RINGS, MIN_RINGS, geometry
from stargtp.engine.star.batch import search_playouts
from stargtp.engine.star.geometry import layout
from stargtp.engine.star.playout import answers, filled_cells, peri_owners, playout_bridges, random_playout
from stargtp.engine.star.position import PASS, Position
from stargtp.engine.star.scoring import Score, is_settled, score
from stargtp.engine.star.sgf import CODEC, GM_NUMBER, read_sgf, write_sgf


def _score(position: Position, komi: float) -> Score:
    return score(position, komi)


def _points(position: Position) -> tuple[str, ...]:
    return position.geometry.labels


SETUP = SetupRules((SetupKind("black", "Black stone", BLACK), SetupKind("white", "White stone", WHITE)),
                   _points)
"""A *Star set-up places stones of either colour on any cells
(docs/rules-star.md, "Set-up")."""


def _playout_winner(position: Position, rng: random.Random, komi: float) -> int | None:
    return random_playout(position, rng, komi).winner


PRIOR_SAVE = (40, 72)
"""Virtual AMAF (playouts, half-point wins) of the cell that completes a
bridge the opponent's last move intruded into: 90%."""
PRIOR_NEAR = (10, 12)
"""... of a cell next to the opponent's last move: 60%."""
PRIOR_FILLED = (40, 8)
"""... of a cell no stone can change (:func:`filled_cells`): 10%."""


@lru_cache(maxsize=None)
def _hooks(rings: int) -> TreeHooks:
    lay = layout(rings)
    cell_bit = tuple(bit.bit_length() - 1 for bit in lay.bit_of)

    def star_playout(board: Position, rng: random.Random, komi: float) -> tuple[int | None, int, int]:
        return playout_bridges(board.black_bits, board.white_bits, board.to_move, lay, rng, komi)

    def star_playouts(board: Position, rng: random.Random, komi: float, k: int) -> list[tuple[int | None, int, int]]:
        return search_playouts(board.black_bits, board.white_bits, board.to_move, lay, rng, k, komi)

    def star_owners(black: int, white: int) -> int:
        return peri_owners(black, white, lay)

    bit_of = lay.bit_of

    def star_prior(board: Position) -> tuple[tuple[int, int, int], ...]:
        black, white = board.black_bits, board.white_bits
        found = []
        filled = filled_cells(black, white, lay)
        if filled:
            found.append((filled, *PRIOR_FILLED))
        if board.history:
            last = board.history[-1][1]
            if last != PASS:
                saves, near = answers(black, white, board.to_move, bit_of[last], lay)
                found.append((saves, *PRIOR_SAVE))
                found.append((near & ~filled, *PRIOR_NEAR))
        return tuple(found)

    pericells = geometry(rings).perimeter
    return TreeHooks(lay.bits, cell_bit.__getitem__, star_playout, star_owners,
                     tuple((cell, cell_bit[cell]) for cell in pericells), prior=star_prior,
                     playouts=star_playouts, amaf_bits=lay.board)


def _tree_hooks(position: Position) -> TreeHooks:
    """AMAF masks are the cells' bits; ownership is reported per pericell."""
    return _hooks(position.size)


def _no_move(position: Position, komi: float) -> int:
    return PASS


def _passing_wins(position: Position, komi: float) -> bool:
    """The opponent has just passed and the current score already wins for
    the side to move, so a pass ends the game with a win."""
    if not position.history or position.history[-1][1] != PASS:
        return False
    return score(position, komi).winner == position.to_move


def _settled(position: Position, komi: float) -> bool:
    return is_settled(position)


def _write_record(position: Position, result: str | None = None, komi: float = 0.0) -> str:
    return write_sgf(position, result, komi=komi)


def _score_estimate(position: Position, colour: int, komi: float) -> float:
    """The current score's margin (black minus white, komi included), from
    ``colour``'s side."""
    margin = score(position, komi).margin
    return margin if colour == BLACK else -margin


def _moves_left(size: int, plies: int) -> int:
    return moves_left_from_cells(geometry(size).cell_count, plies)


def _move_playouts(size: int) -> int:
    """5000 on every board (docs/search.md): fewer on 4 rings lost to 5000
    (3400 with the early stop: 7-23 in 30 games, docs/strength.md); a move
    on a small board is quicker by the cheaper playouts and the early stop."""
    return 5000


LEAF_PLAYOUTS = 4
"""The UCT search evaluates a leaf with a batch of 4 playouts (the batched
kernel of ``engine/star/batch.py``): 2.7x the naive baseline's playouts a
CPU second on 10 rings against 1.75x at one a leaf; at equal playouts even
with one a leaf (107 - 93 in 200 games on 8 rings), at equal time (0.5 s a
move on 8 rings) 65 - 34 in 99 games (docs/search.md, "Choosing
``leaf_playouts``")."""


STAR = Game(
    name="star",
    title="*Star",
    gtp_name="Star",
    sizes=tuple(range(MIN_RINGS, MAX_RINGS + 1)),
    default_size=10,
    size_word="rings",
    position=Position,
    from_setup=Position.from_setup,
    score=_score,
    playout_winner=_playout_winner,
    tree_hooks=_tree_hooks,
    no_move=_no_move,
    passing_wins=_passing_wins,
    settled=_settled,
    moves_left=_moves_left,
    move_playouts=_move_playouts,
    strongest_player="uct",
    analysis=ownership_analysis,
    score_estimate=_score_estimate,
    write_record=_write_record,
    read_record=read_sgf,
    sgf_number=GM_NUMBER,
    commands=("list_stars", "printsgf"),
    move_hint="a cell label such as S43, or pass",
    human_colour=BLACK,
    leaf_playouts=LEAF_PLAYOUTS,
    setup_rules=SETUP,
    record_codec=CODEC,
)

Position.rules = STAR
