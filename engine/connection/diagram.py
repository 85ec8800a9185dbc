"""The text picture of a connection board (``showboard``), drawn from the
cells' centres so that both Hex's rhombus and Y's triangle come out in their
true shape.

Each cell is two characters wide and each row one line; a cell is ``.``
when empty, ``X`` black, ``O`` white, and the last move is bracketed
``(X)``. Row numbers stand at both ends of each row; the column letters run
along the row that has every column (Hex: above the top row; Y: below the
bottom row, as HexGui labels them). A 19x19 Hex board is 64 characters wide.
"""

from __future__ import annotations

from stargtp.engine.colour import BLACK, WHITE

MARK = {0: ".", BLACK: "X", WHITE: "O"}


def text_picture(position) -> list[str]:
    """The board's lines (no trailing blanks)."""
    geo = position.geometry
    cells = geo.cells
    left = min(cell.x for cell in cells)
    rows: dict[int, list] = {}
    for cell in cells:
        rows.setdefault(cell.row, []).append(cell)
    margin = 5  # "19  " before the leftmost cell
    last = position.history[-1][1] if position.history else None

    def column(cell) -> int:
        return margin + round(2 * (cell.x - left))

    width = max(column(cell) for cell in cells) + 6
    lines = []
    for row in sorted(rows):
        line = [" "] * width
        members = rows[row]
        number = str(row + 1)
        start = column(members[0]) - 2 - len(number)
        line[start:start + len(number)] = number
        for cell in members:
            at = column(cell)
            line[at] = MARK[position.board[cell.index]]
            if cell.index == last:
                line[at - 1], line[at + 1] = "(", ")"
        end = column(members[-1]) + 3
        line[end:end + len(number)] = number
        lines.append("".join(line).rstrip())
    widest = max(rows, key=lambda r: (len(rows[r]), -r))
    letters = [" "] * width
    for cell in rows[widest]:
        letters[column(cell)] = cell.label[0]
    letter_line = "".join(letters).rstrip()
    if widest == min(rows):
        return [letter_line, *lines]
    return [*lines, letter_line]
