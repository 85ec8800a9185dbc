"""Amazons positions: notation, play/undo, every kind of illegal move, setup
from diagrams, copies and the text board."""

import random

import pytest

from stargtp.engine.amazons import ARROW, Move, Position, random_move
from stargtp.engine.colour import BLACK, EMPTY, WHITE
from stargtp.engine.errors import BadSize, CannotUndo, IllegalMove
from tests.diagrams import amazons_diagram


def snapshot(p: Position):
    return (list(p.board), p.to_move, list(p.history), p.occupied,
            p.amazons(BLACK), p.amazons(WHITE), p.is_over(), p.render_text())


def play(p: Position, *texts: str) -> None:
    for text in texts:
        p.play(p.parse_move(text))


def test_new_position():
    p = Position()
    assert p.game == "amazons" and p.size == 10 and p.to_move == WHITE
    assert p.history == [] and not p.is_over() and p.winner() is None
    assert p.is_standard_start()
    assert [p.format_square(s) for s in p.amazons(WHITE)] == ["d1", "g1", "a4", "j4"]
    assert [p.format_square(s) for s in p.amazons(BLACK)] == ["a7", "j7", "d10", "g10"]
    assert p.piece_at(3) == WHITE and p.piece_at(93) == BLACK and p.piece_at(0) == EMPTY
    assert Position(6).size == 6 and Position(8).count_moves() == 1232


@pytest.mark.parametrize("size", [0, 5, 7, 9, 12, "10"])
def test_bad_size(size):
    with pytest.raises(BadSize):
        Position(size)


@pytest.mark.parametrize("text", ["d1-d7/g7", "d1d7g7", "d1-d7-g7", "d1d7,d7g7", "D1-D7/G7",
                                  "D1D7G7", "d1D7,D7g7", " d1-d7/g7 ", "d1-d7g7", "d1d7/g7",
                                  "d1d7-g7", "D1-D7-G7", "D1-D7XG7", "d1-d7xg7", "d1d7xg7"])
def test_accepted_notations(text):
    p = Position()
    move = p.parse_move(text)
    assert move == Move(3, 63, 66) and move.from_square == 3 and move.arrow == 66
    assert p.format_move(move) == "d1-d7/g7"


@pytest.mark.parametrize("text", ["", "pass", "d1", "d1-d7", "d1-d7/", "d1-d7/g7/h8", "d1--d7/g7",
                                  "d1-d7//g7", "d1/d7-g7", "d1d7,e7g7", "d1d7,d7", "d1,d7g7",
                                  "k1-k2/k3", "d11-d7/g7", "d0-d7/g7", "d01-d7/g7", "d1 - d7/g7",
                                  "d1-d7/g7x", "1d-7d/7g", "d1\u2013d7/g7", "resign",
                                  "d1xd7-g7", "d1-d7xxg7", "d1-d7x/g7"])
def test_rejected_notations(text):
    with pytest.raises(IllegalMove):
        Position().parse_move(text)


def test_rejected_notation_of_other_types():
    for thing in (None, 42, b"d1-d7/g7", Move(3, 63, 66)):
        with pytest.raises(IllegalMove):
            Position().parse_move(thing)


def test_off_board_squares_depend_on_size():
    assert Position(10).parse_move("j4-j5/j6") == Move(39, 49, 59)
    with pytest.raises(IllegalMove, match="off the 8x8 board"):
        Position(8).parse_move("h3-i3/h3")
    with pytest.raises(IllegalMove, match="off the 6x6 board"):
        Position(6).parse_move("f2-f7/f2")


@pytest.mark.parametrize("size", [6, 8, 10])
def test_notation_round_trips_for_every_start_move(size):
    p = Position(size)
    for move in p.legal_moves():
        text = p.format_move(move)
        assert p.parse_move(text) == move
        assert p.parse_move(text.upper().replace("-", "").replace("/", "")) == move
        origin, target, arrow = text.replace("/", "-").split("-")
        assert p.parse_move(f"{origin}{target},{target}{arrow}") == move


# Each kind of illegal move, from the 10x10 start after `setup`, with the
# expected message fragment (None marks a legal move shown for contrast).
ILLEGAL = [
    ([], "e5-e6/e7", "no white amazon on e5"),
    ([], "a7-a6/a5", "the amazon on a7 is black's"),
    ([], "d1-e3/e4", "amazon d1-e3: not a queen line"),
    ([], "d1-d1/d2", "amazon d1-d1: it must leave its square"),
    ([], "d1-d10/d9", "lands on a black amazon on d10"),
    ([], "g1-a1/b1", "is blocked by a white amazon on d1"),
    (["a4-d4/d5", "a7-a6/a5"], "d1-d7/g7", "is blocked by a white amazon on d4"),
    (["a4-b4/d4", "a7-a6/a5"], "d1-d7/g7", "amazon d1-d7: is blocked by an arrow on d4"),
    (["a4-b4/d4", "a7-a6/a5"], "d1-d4/d5", "amazon d1-d4: lands on an arrow on d4"),
    ([], "d1-d7/e9", "arrow d7/e9: not a queen line"),
    ([], "d1-d7/d7", "arrow d7/d7: it must leave its square"),
    ([], "d1-d9/d10", "arrow d9/d10: lands on a black amazon on d10"),
    ([], "a4-a5/a8", "arrow a5/a8: is blocked by a black amazon on a7"),
    ([], "d1-d2/g1", "arrow d2/g1: not a queen line"),
    ([], "d1-c1/h1", "arrow c1/h1: is blocked by a white amazon on g1"),
    (["a4-b4/d4", "a7-a6/a5"], "d1-d3/d4", "arrow d3/d4: lands on an arrow on d4"),
    (["a4-b4/d4", "a7-a6/a5"], "d1-d3/d6", "arrow d3/d6: is blocked by an arrow on d4"),
    (["a4-b4/d4"], "a7-a5/c3", "arrow a5/c3: is blocked by a white amazon on b4"),
    (["a4-b4/d4"], "a7-a5/a8", None),  # the vacated a7 does not block: legal
]


@pytest.mark.parametrize("setup, text, message", ILLEGAL, ids=[t for _, t, _ in ILLEGAL])
def test_illegal_moves_change_nothing(setup, text, message):
    p = Position()
    play(p, *setup)
    before = snapshot(p)
    move = p.parse_move(text)
    if message is None:
        assert p.is_legal(move)
        p.play(move)
        p.undo()
        assert snapshot(p) == before
        return
    assert not p.is_legal(move)
    with pytest.raises(IllegalMove, match=message):
        p.play(move)
    assert snapshot(p) == before


def test_moving_the_opponents_amazon_with_an_explicit_colour():
    p = Position()
    before = snapshot(p)
    with pytest.raises(IllegalMove, match="the amazon on d1 is white's"):
        p.play(p.parse_move("d1-d7/g7"), BLACK)
    assert snapshot(p) == before and not p.is_legal(p.parse_move("d1-d7/g7"), BLACK)


@pytest.mark.parametrize("thing", ["d1-d7/g7", (3, 63), (3, 63, 66, 1), (3, 63, 100), (-1, 63, 66),
                                   (3.0, 63, 66), (True, 63, 66), None, 366, [3, 63, 66]])
def test_malformed_moves_change_nothing(thing):
    p = Position()
    before = snapshot(p)
    assert not p.is_legal(thing)
    with pytest.raises(IllegalMove):
        p.play(thing)
    assert snapshot(p) == before


def test_bad_colour_changes_nothing():
    p = Position()
    before = snapshot(p)
    for colour in (0, 3, "white"):
        assert not p.is_legal(p.parse_move("d1-d7/g7"), colour)
        with pytest.raises(IllegalMove, match="no such colour"):
            p.play(p.parse_move("d1-d7/g7"), colour)
    assert snapshot(p) == before


FINISHED = amazons_diagram("finished")


def test_no_move_once_the_game_is_over():
    p = Position.from_diagram(FINISHED)
    assert p.is_over() and p.winner() == BLACK and p.legal_moves() == [] and p.count_moves() == 0
    before = snapshot(p)
    for colour in (None, BLACK, WHITE):
        with pytest.raises(IllegalMove, match="the game is over"):
            p.play(p.parse_move("f1-f2/f3"), colour)
    assert snapshot(p) == before
    assert p.count_moves(BLACK) > 0  # Black could move, but the game has ended


def test_arrow_may_pass_through_and_land_on_the_vacated_square():
    p = Position()
    for text in ("a4-a5/a3", "a4-a5/a1", "j4-j6/j1", "a4-a5/a4", "d1-d2/d1", "d1-c2/d1", "g1-e3/g1"):
        move = p.parse_move(text)
        assert p.is_legal(move), text
    p.play(p.parse_move("a4-a5/a3"))
    assert p.piece_at(p.geometry.parse_square("a4")) == EMPTY
    assert p.piece_at(p.geometry.parse_square("a3")) == ARROW
    p.undo()
    p.play(p.parse_move("d1-d2/d1"))
    assert p.piece_at(3) == ARROW and p.piece_at(13) == WHITE
    assert p.occupied & (1 << 3) and p.occupied & (1 << 13)
    p.undo()
    assert snapshot(p) == snapshot(Position())


def test_play_and_undo_restore_exactly():
    p = Position()
    states = [snapshot(p)]
    for text in ("d1-d7/g7", "a7-b7/b3", "d7-d1/d7", "b7-a7/b7"):
        play(p, text)
        states.append(snapshot(p))
    assert [p.format_move(m) for _, m in p.history] == ["d1-d7/g7", "a7-b7/b3", "d7-d1/d7", "b7-a7/b7"]
    assert [c for c, _ in p.history] == [WHITE, BLACK, WHITE, BLACK]
    while p.history:
        states.pop()
        p.undo()
        assert snapshot(p) == states[-1]
    with pytest.raises(CannotUndo):
        p.undo()


def bare_state(p: Position):
    """All of a position but its history."""
    return (list(p.board), p.to_move, p.occupied, p.amazons(BLACK), p.amazons(WHITE), p.is_over(),
            sorted(p.legal_moves()))


def test_place_and_lift_are_play_and_undo_without_the_history():
    # Position.place / lift, the search's bare moves, against play_unchecked /
    # undo on seeded random games, arrows on the vacated square included.
    rng = random.Random(27)
    vacated = 0
    for size in (6, 8, 10):
        for _ in range(3):
            bare, full = Position(size), Position(size)
            placed = []
            while not full.is_over() and len(placed) < 40:
                move = rng.choice(full.legal_moves())
                vacated += move[2] == move[0]  # (origin, target, arrow)
                placed.append((bare.to_move, *move))
                bare.place(bare.to_move, *move)
                full.play_unchecked(move)
                assert bare.history == [] and bare_state(bare) == bare_state(full)
            while placed:
                bare.lift(*placed.pop())
                full.undo()
                assert bare_state(bare) == bare_state(full)
            assert bare_state(bare) == bare_state(Position(size))
    assert vacated > 0


def test_out_of_turn_moves_and_undo_restore_the_side_to_move():
    p = Position()
    p.play(p.parse_move("a7-a6/a5"), BLACK)  # Black plays while White is to move
    assert p.to_move == WHITE
    p.play(p.parse_move("a6-b6/b5"), BLACK)
    assert p.to_move == WHITE and [c for c, _ in p.history] == [BLACK, BLACK]
    p.undo()
    assert p.to_move == WHITE
    p.undo()
    assert p.to_move == WHITE and snapshot(p) == snapshot(Position())


def test_copy_is_independent():
    p = Position()
    play(p, "d1-d7/g7")
    q = p.copy()
    assert snapshot(q) == snapshot(p)
    play(q, "a7-b7/b3")
    assert len(p.history) == 1 and p.to_move == BLACK and p.piece_at(60) == BLACK
    q.undo()
    q.undo()
    assert snapshot(q) == snapshot(Position())
    assert len(p.history) == 1


def test_key_ignores_history_only():
    p, q = Position(), Position()
    play(p, "d1-d7/g7", "a7-b7/b3", "g1-g2/g3", "b7-b8/b9")
    play(q, "g1-g2/g3", "a7-b7/b3", "d1-d7/g7", "b7-b8/b9")
    assert p.key() == q.key() and p.history != q.history
    q.undo()
    assert p.key() != q.key()


def test_render_text_exact_and_reads_back():
    p = Position(6)
    play(p, "b1-b4/e4")
    assert p.render_text() == "\n".join([
        "    a b c d e f",
        " 6  . B . . B .  6",
        " 5  B . . . . B  5",
        " 4  . W . . x .  4",
        " 3  . . . . . .  3",
        " 2  W . . . . W  2",
        " 1  . . . . W .  1",
        "    a b c d e f",
        "Black to move, 1 move played",
    ])
    back = Position.from_diagram(p.render_text())
    assert back.board == p.board and back.to_move == BLACK and back.history == []
    assert not back.is_standard_start()
    finished = Position.from_diagram(FINISHED)
    assert finished.render_text().splitlines()[-1] == "White to move, 0 moves played; game over, black wins"
    play(p, "e6-d5/d3")
    assert p.render_text().splitlines()[-1] == "White to move, 2 moves played"
    for q in (p, finished, Position(10)):
        assert "" not in q.render_text().splitlines()


def test_from_diagram_and_from_board():
    p = Position.from_diagram(FINISHED, to_move=BLACK)
    assert p.size == 6 and p.to_move == BLACK and p.amazons(WHITE) == (30,) and p.amazons(BLACK) == (5,)
    assert p.piece_at(31) == ARROW and p.piece_at(24) == ARROW and not p.is_over()
    q = Position.from_board(p.board, BLACK)
    assert q.key() == p.key() and q.initial_board == (tuple(p.board), BLACK)
    with pytest.raises(BadSize):
        Position.from_diagram(". . .\n. . .\n. . .")
    with pytest.raises(BadSize):
        Position.from_board([EMPTY] * 50)
    with pytest.raises(ValueError):
        Position.from_diagram(FINISHED.replace(". . . . . B", ". . . . B"))
    with pytest.raises(ValueError):
        Position.from_board([EMPTY] * 35 + [7])
    with pytest.raises(ValueError):
        Position.from_board([EMPTY] * 36, to_move=0)


def test_play_unchecked_matches_play():
    p, q = Position(8), Position(8)
    for move in p.legal_moves()[::97]:
        p.play(move)
        q.play_unchecked(move)
        assert snapshot(p) == snapshot(q)
        p.undo()
        q.undo()


def test_winning_move_is_the_first_move_that_shuts_the_opponent_in():
    """Against brute force (play every legal move, look whether the opponent
    can move), at every position of seeded random games on every size; the
    shortcut for opponents with more than two free neighbours never hides a win."""
    rng = random.Random(4)
    wins = positions = 0
    for size in (6, 8, 10):
        for _ in range(12):
            p = Position(size)
            while not p.is_over():
                winners = []
                for move in p.legal_moves():
                    after = p.copy()
                    after.play(move)
                    if after.is_over():
                        winners.append(move)
                before = p.key()
                assert p.winning_move() == (winners[0] if winners else None)
                assert p.key() == before
                positions += 1
                wins += bool(winners)
                p.play(random_move(p, rng))
    assert positions == 1681 and wins == 61


def random_occupancies(size: int, rng: random.Random) -> list[int]:
    """1,000 occupied-square masks: 500 random ones of every density, then
    positions of seeded random games; the first two the empty and the full
    board."""
    geo = Position(size).geometry
    boards = []
    for _ in range(500):
        occupied = rng.getrandbits(geo.square_count)
        for _ in range(rng.randrange(4)):
            occupied &= rng.getrandbits(geo.square_count)
        boards.append(occupied)
    while len(boards) < 1000:
        position = Position(size)
        for _ in range(rng.randrange(60)):
            move = random_move(position, rng)
            if move is None:
                break
            position.play(move)
        boards.append(position.occupied)
    boards[:2] = [0, geo.full_mask]
    return boards


@pytest.mark.parametrize("size", [6, 8, 10])
def test_reach_counter_matches_queen_reach(size):
    """The packed count of :class:`ReachCounter` against the slow reference,
    ``queen_reach(...).bit_count()``, for every square of 1,000 boards per
    size: random occupancies of every density and positions of seeded
    random games (the board's own squares, occupied or not, included)."""
    from stargtp.engine.amazons.position import queen_reach, reach_counter

    geo = Position(size).geometry
    counter = reach_counter(geo.size)
    rng = random.Random(size)
    boards = random_occupancies(size, rng)
    for occupied in boards:
        board, free = counter.board(occupied)
        assert [counter.count(s, board, free) for s in range(geo.square_count)] == [
            queen_reach(s, occupied, geo.ray_masks).bit_count() for s in range(geo.square_count)]


@pytest.mark.parametrize("size", [6, 8, 10])
def test_reach_memo_matches_queen_reach(size):
    """:class:`ReachMemo` (the move ordering's memoised reach) against the
    plain :func:`queen_reach`, for every square of 1,000 boards per size
    (random occupancies of every density and positions of seeded random
    games), all through one memo and each board twice, so that most answers
    come from the memo, some from patterns first met on another board."""
    from stargtp.engine.amazons.position import ReachMemo, queen_reach

    geo = Position(size).geometry
    memo = ReachMemo(geo)
    rng = random.Random(50 + size)
    boards = random_occupancies(size, rng)
    asked = 0
    for occupied in boards + boards[::-1]:
        for square in rng.sample(range(geo.square_count), geo.square_count):
            assert memo.reach(square, occupied) == queen_reach(square, occupied, geo.ray_masks)
            asked += 1
    assert asked == 2000 * geo.square_count
    assert len(memo._memo) == {6: 22452, 8: 55655, 10: 92518}[size]  # answers kept, of 72,000 to 200,000 asked
