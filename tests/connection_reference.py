"""The slow, obviously correct reference for the connection games (Hex, Y):
who has won a board, found by a breadth-first search from scratch over the
cells' neighbour lists (no bit masks, no union-find, nothing incremental).

A colour has won when some group of its stones touches every edge of its
goal (``geometry.goals[colour]``): the search starts from the colour's stones
on the goal's first edge and spreads through that colour's stones; it has won
when the cells reached touch every goal edge within one connected group.
"""

from __future__ import annotations

from collections import deque

from stargtp.engine.colour import BLACK, WHITE


def groups(geometry, board, colour: int) -> list[set[int]]:
    """Every group (connected set of stones) of ``colour``."""
    seen: set[int] = set()
    found = []
    for start, value in enumerate(board):
        if value != colour or start in seen:
            continue
        group = {start}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for near in geometry.cells[cell].neighbours:
                if board[near] == colour and near not in group:
                    group.add(near)
                    queue.append(near)
        seen |= group
        found.append(group)
    return found


def has_won(geometry, board, colour: int) -> bool:
    goal = set(geometry.goals[colour])
    for group in groups(geometry, board, colour):
        touched = set().union(*(geometry.cells[cell].edges for cell in group))
        if goal <= touched:
            return True
    return False


def reference_winner(geometry, board) -> int | None:
    """BLACK or WHITE when that colour has a winning group (never both on a
    board of a real game), else None."""
    black, white = has_won(geometry, board, BLACK), has_won(geometry, board, WHITE)
    assert not (black and white), "both colours have won"
    return BLACK if black else WHITE if white else None
