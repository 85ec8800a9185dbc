"""Slow, obviously correct Amazons move generators that the fast engine code is
checked against. They share nothing with engine/amazons but the square
numbering (``row * size + column``, row 0 = rank 1) and the board contents
(0 empty, 1 black, 2 white, 3 arrow).

* :func:`literal_moves` states the rule literally: every (from, to, arrow)
  triple is tried and both queen paths are checked square by square.
* :func:`walked_moves` walks the eight directions from each amazon and then from
  each destination; fast enough for depth-2 perft on 10x10.
"""

from __future__ import annotations

EMPTY, ARROW = 0, 3
DIRECTIONS = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]


def queen_path_clear(board: list[int], size: int, start: int, end: int) -> bool:
    """A queen can go from start to end: same row, column or diagonal, and
    every square after start up to end (included) is empty."""
    c0, r0 = start % size, start // size
    c1, r1 = end % size, end // size
    dc, dr = c1 - c0, r1 - r0
    if (dc, dr) == (0, 0) or (dc != 0 and dr != 0 and abs(dc) != abs(dr)):
        return False
    sc = (dc > 0) - (dc < 0)
    sr = (dr > 0) - (dr < 0)
    for k in range(1, max(abs(dc), abs(dr)) + 1):
        if board[(r0 + k * sr) * size + (c0 + k * sc)] != EMPTY:
            return False
    return True


def literal_moves(board: list[int], size: int, colour: int,
                  vacated: str = "empty") -> set[tuple[int, int, int]]:
    """All moves by trying every triple. ``vacated`` says how the square the
    amazon left is treated for the arrow: ``"empty"`` (the rule), or a common
    bug: ``"blocked"`` (neither through nor onto it), ``"land-only"`` (onto it
    but not through it), ``"pass-only"`` (through it but not onto it)."""
    squares = range(size * size)
    moves = set()
    for origin in squares:
        if board[origin] != colour:
            continue
        for target in squares:
            if not queen_path_clear(board, size, origin, target):
                continue
            lifted = list(board)
            lifted[origin] = EMPTY
            lifted[target] = colour
            blocked = list(lifted)
            blocked[origin] = ARROW
            for arrow in squares:
                if vacated == "empty":
                    legal = queen_path_clear(lifted, size, target, arrow)
                elif vacated == "blocked":
                    legal = queen_path_clear(blocked, size, target, arrow)
                elif vacated == "land-only":
                    legal = queen_path_clear(blocked, size, target, arrow) or (
                        arrow == origin and queen_path_clear(lifted, size, target, arrow))
                else:
                    legal = arrow != origin and queen_path_clear(lifted, size, target, arrow)
                if legal:
                    moves.add((origin, target, arrow))
    return moves


def _walk(board: list[int], size: int, square: int):
    c0, r0 = square % size, square // size
    for dc, dr in DIRECTIONS:
        c, r = c0 + dc, r0 + dr
        while 0 <= c < size and 0 <= r < size and board[r * size + c] == EMPTY:
            yield r * size + c
            c, r = c + dc, r + dr


def walked_moves(board: list[int], size: int, colour: int) -> list[tuple[int, int, int]]:
    """All moves by walking queen lines (the same set as :func:`literal_moves`)."""
    moves = []
    for origin in range(size * size):
        if board[origin] != colour:
            continue
        board[origin] = EMPTY  # lifted: the arrow may pass through or land on it
        for target in _walk(board, size, origin):
            for arrow in _walk(board, size, target):
                moves.append((origin, target, arrow))
        board[origin] = colour
    return moves


def reference_perft(board: list[int], size: int, colour: int, depth: int) -> int:
    """Move sequences of length ``depth`` by full enumeration with
    :func:`walked_moves` (colours alternate 1 <-> 2)."""
    if depth == 0:
        return 1
    moves = walked_moves(board, size, colour)
    if depth == 1:
        return len(moves)
    total = 0
    for origin, target, arrow in moves:
        board[origin] = EMPTY
        board[target] = colour
        board[arrow] = ARROW
        total += reference_perft(board, size, 3 - colour, depth - 1)
        board[arrow] = EMPTY
        board[target] = EMPTY
        board[origin] = colour
    return total


def start_board(size: int) -> list[int]:
    """The start position, written out independently of the engine."""
    white, black = {
        10: (["a4", "d1", "g1", "j4"], ["a7", "d10", "g10", "j7"]),
        8: (["c1", "f1", "a3", "h3"], ["a6", "h6", "c8", "f8"]),
        6: (["b1", "e1", "a2", "f2"], ["a5", "f5", "b6", "e6"]),
    }[size]
    board = [EMPTY] * (size * size)
    for colour, names in ((2, white), (1, black)):
        for name in names:
            board[(int(name[1:]) - 1) * size + "abcdefghij".index(name[0])] = colour
    return board


# -- The Amazons evaluation's terms, one side at a time ------------------------
#
# The form of ``evaluation._terms`` before both sides were packed into one
# integer (commit d67567e): each side's queen and king layers on their own,
# and every pair of layers intersected in a double loop. Kept as the reference
# the packed form is checked against (tests/test_amazons_playout.py).

def _layered_territory(mine: list[int], theirs: list[int], tie_bonus: float) -> float:
    my_reach = their_reach = 0
    nearer = farther = ties = 0
    for k in range(max(len(mine), len(theirs))):
        my_layer = mine[k] if k < len(mine) else 0
        their_layer = theirs[k] if k < len(theirs) else 0
        my_reach |= my_layer
        their_reach |= their_layer
        nearer += (my_layer & ~their_reach).bit_count()
        farther += (their_layer & ~my_reach).bit_count()
        ties += (my_layer & their_layer).bit_count()
    return nearer - farther + tie_bonus * ties


def _layer_pairs(mine: list[int], theirs: list[int], weight) -> float:
    """``sum over (i, j) of |mine[i] & theirs[j]| * weight(j - i)``."""
    total = 0.0
    for i, my_layer in enumerate(mine):
        for j, their_layer in enumerate(theirs):
            total += (my_layer & their_layer).bit_count() * weight(j - i)
    return total


def layered_terms(position) -> tuple[float, float, float, float, float, float]:
    """``(t1, t2, c1, c2, w, mobility)`` of ``position`` for the side to move,
    as the evaluation computed them one side at a time."""
    from stargtp.engine.amazons.evaluation import (TIE_BONUS, king_distance_layers,
                                                   queen_distance_layers)
    from stargtp.engine.amazons.position import queen_reach

    geo = position.geometry
    me = position.to_move
    occupied = position.occupied
    empty = geo.full_mask & ~occupied
    mobility = 0.0
    sources = {}
    for colour, sign in ((me, -1), (3 - me, 1)):
        sources[colour] = geo.mask_of(position.amazons(colour))
        for square in position.amazons(colour):
            mobility += sign / (1 + queen_reach(square, occupied, geo.ray_masks).bit_count())
    queen_mine = queen_distance_layers(sources[me], empty, geo)
    queen_theirs = queen_distance_layers(sources[3 - me], empty, geo)
    king_mine = king_distance_layers(sources[me], empty, geo)
    king_theirs = king_distance_layers(sources[3 - me], empty, geo)
    t1 = _layered_territory(queen_mine, queen_theirs, TIE_BONUS)
    t2 = _layered_territory(king_mine, king_theirs, TIE_BONUS)
    c1 = 2.0 * (sum(layer.bit_count() * 0.5 ** (k + 1) for k, layer in enumerate(queen_mine))
                - sum(layer.bit_count() * 0.5 ** (k + 1) for k, layer in enumerate(queen_theirs)))
    w = _layer_pairs(queen_mine, queen_theirs, lambda d: 0.5 ** abs(d))
    c2 = _layer_pairs(king_mine, king_theirs, lambda d: max(-1.0, min(1.0, d / 6)))
    king_mine_all = king_theirs_all = 0
    for layer in king_mine:
        king_mine_all |= layer
    for layer in king_theirs:
        king_theirs_all |= layer
    c2 += (king_mine_all & ~king_theirs_all).bit_count() - (king_theirs_all & ~king_mine_all).bit_count()
    return t1, t2, c1, c2, w, mobility


def queen_distances(size: int, free: set[int], sources) -> dict[int, int]:
    """Queen moves from ``sources`` to each square of ``free`` they reach
    (squares ``row * size + column``), breadth first, one ray at a time."""
    seen, frontier, depth = {}, list(sources), 0
    while frontier:
        depth += 1
        reached = []
        for sq in frontier:
            row, col = divmod(sq, size)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
                r, c = row + dr, col + dc
                while 0 <= r < size and 0 <= c < size and r * size + c in free:
                    there = r * size + c
                    if there not in seen:
                        seen[there] = depth
                        reached.append(there)
                    r, c = r + dr, c + dc
        frontier = reached
    return seen


def reference_territory(position, colour: int) -> tuple[int, int]:
    """Squares nearer by queen moves to ``colour`` / to the opponent, by a
    plain breadth-first search over the squares (``position`` an engine
    position: its ``piece_at`` and ``amazons`` only)."""
    size = position.size
    free = {sq for sq in range(size * size) if position.piece_at(sq) == EMPTY}
    mine = queen_distances(size, free, position.amazons(colour))
    theirs = queen_distances(size, free, position.amazons(3 - colour))
    far = 10 ** 6
    nearer = sum(1 for sq in free if mine.get(sq, far) < theirs.get(sq, far))
    farther = sum(1 for sq in free if theirs.get(sq, far) < mine.get(sq, far))
    return nearer, farther
