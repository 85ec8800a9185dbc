"""Play, pass, undo, game over and illegal input on *Star positions."""

import random

import pytest

from stargtp.engine.colour import BLACK, EMPTY, WHITE
from stargtp.engine.errors import BadSize, CannotUndo, IllegalMove
from stargtp.engine.star import PASS, Position
from stargtp.engine.star.playout import layout


def snapshot(p: Position):
    return (list(p.board), p.to_move, list(p.history), p.black_bits, p.white_bits, p.is_over())


def bits_of(p: Position, colour: int) -> int:
    lay = layout(p.rings)
    return lay.mask_of(c for c, v in enumerate(p.board) if v == colour)


def test_new_position():
    p = Position()
    assert p.rings == p.size == 10 and p.game == "star"
    assert p.to_move == BLACK and p.history == [] and not p.is_over()
    assert len(p.legal_moves()) == 275


def test_random_games_undo_restores_exactly():
    rng = random.Random(7)
    for rings in (2, 4, 6):
        p = Position(rings)
        snaps = [snapshot(p)]
        while not p.is_over():
            moves = p.legal_moves()
            move = PASS if rng.random() < 0.05 else rng.choice(moves)
            colour = rng.choice((None, None, None, BLACK, WHITE))
            p.play(move, colour)
            assert p.black_bits == bits_of(p, BLACK) and p.white_bits == bits_of(p, WHITE)
            snaps.append(snapshot(p))
        while p.history:
            snaps.pop()
            p.undo()
            assert snapshot(p) == snaps[-1]
        assert snapshot(p) == snaps[0]


def test_side_to_move_follows_the_colour_played():
    p = Position(4)
    p.play(p.parse_move("S43"), WHITE)
    assert p.to_move == BLACK
    p.play(p.parse_move("S42"), WHITE)  # same colour twice: set-up is allowed
    assert p.to_move == BLACK and [c for c, _ in p.history] == [WHITE, WHITE]
    p.undo()  # undo restores the side to move of before the move
    assert p.to_move == BLACK
    p.play(p.parse_move("S42"), BLACK)
    p.undo()
    assert p.to_move == BLACK


def test_two_passes_end_the_game():
    p = Position(3)
    p.play(PASS)
    assert not p.is_over()
    p.play(PASS)
    assert p.is_over() and p.legal_moves() == []
    p.undo()
    assert not p.is_over()


def test_full_board_ends_the_game():
    p = Position(2)
    for c in range(15):
        p.play(c)
    assert p.is_over()
    with pytest.raises(IllegalMove, match="^the game is over: the board is full$"):
        p.play(PASS)


def test_copy_is_independent():
    p = Position(4)
    p.play(3)
    q = p.copy()
    q.play(4)
    assert p.board[4] == EMPTY and len(p.history) == 1 and len(q.history) == 2
    assert q.white_bits != p.white_bits


@pytest.mark.parametrize("text", ["", "pas", "S99", "*90", "X10", "S4", "S4x", "pass pass", "*1O"])
def test_bad_move_text_is_illegal(text):
    p = Position(6)
    with pytest.raises(IllegalMove):
        p.parse_move(text)


def test_move_text_any_case():
    p = Position(6)
    assert p.parse_move("s43") == p.parse_move("S43")
    assert p.parse_move("PASS") == PASS == p.parse_move("Pass")
    assert p.format_move(p.parse_move("r52")) == "R52"


def test_illegal_moves_say_why():
    """The reason after ``illegal move`` in the protocol's answer."""
    p = Position(4)
    p.play(p.parse_move("S20"))
    with pytest.raises(IllegalMove) as caught:
        p.play(p.parse_move("s20"))
    assert str(caught.value) == "S20 is occupied"
    with pytest.raises(IllegalMove) as caught:
        p.parse_move("Z99")
    assert str(caught.value) == "'Z99' is not a cell of the 4-ring board"
    p.play(PASS)
    p.play(PASS)
    with pytest.raises(IllegalMove) as caught:
        p.play(p.parse_move("S21"))
    assert str(caught.value) == "the game is over: both players passed"


@pytest.mark.parametrize("case", ["occupied", "off board", "negative", "not an int", "over", "colour"])
def test_illegal_play_leaves_the_position_unchanged(case):
    p = Position(3)
    p.play(0)
    p.play(7)
    if case == "over":
        p.play(PASS)
        p.play(PASS)
    before = snapshot(p)
    move, colour = {"occupied": (7, None), "off board": (30, None), "negative": (-2, None),
                    "not an int": ("S30", None), "over": (5, None), "colour": (5, 3)}[case]
    with pytest.raises(IllegalMove):
        p.play(move, colour)
    assert snapshot(p) == before


def test_undo_without_moves():
    p = Position(5)
    with pytest.raises(CannotUndo):
        p.undo()
    assert snapshot(p) == snapshot(Position(5))


@pytest.mark.parametrize("rings", [1, 11, 0])
def test_bad_size(rings):
    with pytest.raises(BadSize):
        Position(rings)


def enumerate_placements(p: Position, depth: int) -> int:
    """perft the slow way: play and undo every placement."""
    if depth == 0:
        return 1
    total = 0
    for move in p.legal_moves():
        p.play(move)
        total += enumerate_placements(p, depth - 1)
        p.undo()
    return total


@pytest.mark.parametrize("rings,moves,depth", [(2, 0, 3), (2, 12, 4), (3, 5, 3), (4, 0, 2), (2, 14, 2)])
def test_perft_matches_enumeration(rings, moves, depth):
    p = Position(rings)
    for c in range(moves):
        p.play(c)
    assert p.perft(depth) == enumerate_placements(p, depth)


def test_perft_values():
    assert Position(10).perft(1) == 275
    assert Position(10).perft(2) == 275 * 274
    assert Position(4).perft(0) == 1
    p = Position(2)
    p.play(PASS)
    p.play(PASS)
    assert p.perft(1) == 0
    with pytest.raises(ValueError):
        p.perft(-1)


def _token_places(picture: str) -> dict[str, tuple[int, int]]:
    """Where each cell label stands in a picture of the empty board: (row, column)."""
    places = {}
    for row, line in enumerate(picture.split("\n")):
        for column, char in enumerate(line):
            if char in "*STAR" and (column == 0 or line[column - 1] == " "):
                places[line[column:column + 3]] = (row, column)
    return places


@pytest.mark.parametrize("rings", range(2, 11))
def test_render_text_is_the_board_in_80_columns_with_every_label(rings):
    empty = Position(rings)
    lines = empty.render_text().split("\n")
    assert lines[-1] == "to move: black (X)  moves: 0"
    board = lines[:-1]
    assert "" not in lines and max(len(line) for line in board) <= 80
    places = _token_places("\n".join(board))
    assert sorted(places) == sorted(empty.geometry.labels)  # each label once, whole
    # Rows go down the board and columns across it, as the drawing coordinates do.
    from stargtp.engine.star.diagram import star_layout
    layout = star_layout(rings)
    for a, b in [(c, d) for c in range(0, empty.geometry.cell_count, 7)
                 for d in range(0, empty.geometry.cell_count, 5)]:
        (ra, ca), (rb, cb) = places[empty.geometry.labels[a]], places[empty.geometry.labels[b]]
        if layout[a][1] < layout[b][1] - 0.8:
            assert ra < rb
        if ra == rb and layout[a][0] < layout[b][0]:
            assert ca < cb


def test_render_text_puts_every_stone_where_its_label_was():
    rng = random.Random(7)
    for rings in (4, 10):
        p = Position(rings)
        places = _token_places("\n".join(p.render_text().split("\n")[:-1]))
        while not p.is_over():
            moves = p.legal_moves()
            p.play(moves[rng.randrange(len(moves))])
            if len(p.history) % 9 and not p.is_over():
                continue
            lines = p.render_text().split("\n")
            last = p.history[-1][1]
            for label, (row, column) in places.items():
                cell = p.geometry.parse(label)
                token = lines[row][column:column + 3].ljust(3)
                colour = p.board[cell]
                mark = {BLACK: "X", WHITE: "O"}.get(colour)
                if colour == EMPTY:
                    assert token == label
                elif cell == last:
                    assert token == f"[{mark}]" or (p.is_over() and token == f" {mark.lower()} ")
                else:
                    assert token == f" {mark} " or (p.is_over() and token == f" {mark.lower()} ")
            assert lines[-1].endswith(f"moves: {len(p.history)}")
        # At the end, the dead stones are the lower-case ones.
        from stargtp.engine.star.scoring import score
        dead = {cell for group in score(p).dead_groups for cell in group}
        shown = {p.geometry.parse(label) for label, (row, column) in places.items()
                 if lines[row][column + 1:column + 2] in ("x", "o")}
        assert shown == dead
