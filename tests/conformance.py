"""The contract every game meets, as OpenSpiel's games_sim_test holds all of
its games to one: seeded random games of a game on one size, with the
invariants of the position protocol (:class:`stargtp.engine.game.Position`) checked
after every ply (:func:`check_game`).

The contract, for every game:

* the position meets the protocol, and ``position.rules`` is the game's one
  descriptor (the one :func:`stargtp.engine.games.find_game` finds);
* ``play`` then ``undo`` restores the position exactly: every attribute of
  the object (board or contents, side to move, history, private counters),
  the legal moves, ``render_text``, ``setup()``; playing the same move again
  gives the same position; undoing the whole game gives a fresh position;
* ``play`` appends ``(colour, move)`` to the history and hands the move to
  the opponent (except the moves of :data:`KEEPS_TURN`); an illegal move
  raises IllegalMove and changes nothing;
* ``copy()`` is equal and independent: moves on the copy leave the original
  alone, and the other way round;
* the legal moves have no duplicates and agree with ``is_legal``: every listed
  move is legal; the other candidates (the moves of earlier positions of the
  game, read back from their text) are not;
* every move's text round-trips, in any case: ``parse_move(format_move(m)) == m``;
  text that names no move raises IllegalMove;
* ``perft(0) == 1``, ``perft(1) == len(legal_moves())``, and ``perft(2)`` is
  the sum of ``perft(1)`` over the moves, where that is cheap;
* the game is over exactly when no move is listed. The game's no-move rule
  (``rules.no_move``): a game whose players may pass (*Star) has a pass move
  that is legal whenever the game is on, never listed among the legal moves
  (the search relies on that), and not legal once the game is over; a game
  without a pass (Amazons) answers None, a resignation;
* once the game is over, nothing is legal and every move raises IllegalMove;
  ``winner()`` is the descriptor's score's winner, and the score describes
  itself (``gtp_result``, ``describe``, JSON-ready ``to_json``).

On top of that, each game's own end rule and invariants, stated from its
rules page (:data:`GAME_CHECKS`):

* *Star (docs/rules-star.md, engine/star/position.py): the game is over
  exactly when the board is full or the last two moves were passes; while it
  is on, a pass is always legal, for either colour; the bitboards agree with
  the board;
* Amazons (docs/rules-amazons.md): the game is over exactly when the side to
  move has no legal move, and then the opponent wins (``winner()`` is None
  before); ``count_moves`` agrees with the list; the occupied bitboard agrees
  with the board; near misses (random square triples, legal moves with one
  square changed) are legal exactly when listed; a game from the start has
  at most ``size * size - 8`` moves;
* Hex and Y (docs/rules-hex.md, docs/rules-y.md): the winner after every
  ply is the one a from-scratch search of the board finds
  (tests/connection_reference.py), the game is over exactly when someone has
  won (a full board always has a winner), the legal moves are the empty
  cells, and the bit masks agree with the board.

tests/test_conformance.py runs :func:`check_game` on every registered game
and a few sizes each; tests/test_third_game.py runs it on the third game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from stargtp.engine.colour import BLACK, EMPTY, WHITE, opponent
from stargtp.engine.errors import CannotUndo, IllegalMove
from stargtp.engine.game import Game, Position

PLY_BUDGET = 600
"""Plies checked per game and size: games are played until this many (at
least MIN_GAMES games, at most MAX_GAMES)."""
MIN_GAMES = 3
MAX_GAMES = 60
SAMPLE = 30
"""Moves and candidates checked one by one per ply (all of them when fewer)."""
PASS_RATE = 0.15
"""How often a game with a pass passes in the random games (two passes in a
row end a *Star game, so some games end that way)."""
PERFT2_MOVES = 150
"""perft(2) is checked by enumeration only where there are at most this many moves."""
NOT_MOVES = ("", "   ", "xyzzy", "resign", "?", "a1-", "99z", "\u00e91", "pass pass")
"""Texts that name no move in any game."""


def sizes_of(game: Game) -> list[int]:
    """The sizes checked: the two smallest and the default."""
    return sorted({*sorted(game.sizes)[:2], game.default_size})


# -- snapshots ---------------------------------------------------------------------


def freeze(value: Any) -> Any:
    """A comparable, unshared copy of an attribute value (lists, dicts and
    sets become tuples, recursively)."""
    if isinstance(value, (list, tuple)):
        copied = tuple(value)
        try:
            hash(copied)  # immutable all the way down (ints, moves): done
            return copied
        except TypeError:
            return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, freeze(v)) for k, v in value.items())
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    return value


def full_state(position: Any) -> dict[str, Any]:
    """Every attribute of the position object, slots and instance dict alike:
    what "restores the position exactly" compares."""
    names: list[str] = []
    for cls in type(position).__mro__:
        slots = getattr(cls, "__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    values = {name: getattr(position, name) for name in names if hasattr(position, name)}
    values.update(getattr(position, "__dict__", {}))
    return {name: freeze(value) for name, value in values.items()}


def surface(position: Any) -> tuple:
    """What the protocol shows of a position."""
    return (position.size, position.to_move, tuple(position.history), tuple(position.legal_moves()),
            position.is_over(), position.render_text(), position.setup())


def snapshot(position: Any) -> tuple:
    return full_state(position), surface(position)


# -- the game-specific rules ----------------------------------------------------------


def star_checks(position: Any, moves: list, rng: random.Random) -> None:
    from stargtp.engine.star import PASS
    from stargtp.engine.star.playout import layout

    history = position.history
    full = EMPTY not in position.board
    two_passes = len(history) >= 2 and history[-1][1] == PASS and history[-2][1] == PASS
    assert position.is_over() == (full or two_passes)
    for colour in (None, BLACK, WHITE):
        assert position.is_legal(PASS, colour) == (not position.is_over())
    assert PASS not in moves
    assert moves == [c for c, v in enumerate(position.board) if v == EMPTY] or position.is_over()
    lay = layout(position.size)
    for colour, bits in ((BLACK, position.black_bits), (WHITE, position.white_bits)):
        assert bits == lay.mask_of(c for c, v in enumerate(position.board) if v == colour)


def star_ending(position: Any) -> str:
    return "full board" if EMPTY not in position.board else "two passes"


def amazons_checks(position: Any, moves: list, rng: random.Random) -> None:
    from stargtp.engine.amazons import Move

    legal = set(moves)
    assert len(moves) == position.count_moves()
    assert position.winner() == (opponent(position.to_move) if not moves else None)
    assert position.occupied == sum(1 << s for s, v in enumerate(position.board) if v)
    assert position.key() == (position.size, position.to_move, tuple(position.board))
    n = position.geometry.square_count
    if position.is_standard_start():
        assert len(position.history) <= n - 8
    # Near misses: random triples, and legal moves with one square changed.
    candidates = [Move(rng.randrange(n), rng.randrange(n), rng.randrange(n)) for _ in range(40)]
    for move in rng.sample(moves, min(len(moves), 20)):
        squares = list(move)
        squares[rng.randrange(3)] = rng.randrange(n)
        candidates.append(Move(*squares))
    for move in candidates:
        assert position.is_legal(move) == (move in legal)


def amazons_ending(position: Any) -> str:
    return "no move"


def connection_checks(position: Any, moves: list, rng: random.Random) -> None:
    from tests.connection_reference import reference_winner

    board = position.board
    geo = position.geometry
    assert position.winner() == reference_winner(geo, board)
    assert position.is_over() == (position.winner() is not None)  # a full board is always won
    expected = [c for c, v in enumerate(board) if v == EMPTY]
    history = position.history
    if position.swap and len(history) == 1 and position.setup() is None:
        expected.append(geo.swap_move)  # the answer to the first move may be the swap
    assert moves == expected or position.is_over()
    assert position.is_legal(geo.swap_move) == (geo.swap_move in moves)
    if any(move == geo.swap_move for _, move in history):
        assert position.swap and history[1][1] == geo.swap_move
    for colour, bits in ((BLACK, position.black_bits), (WHITE, position.white_bits)):
        assert bits == geo.mask_of(c for c, v in enumerate(board) if v == colour)


def connection_ending(position: Any) -> str:
    return "full board" if EMPTY not in position.board else "connected"


GAME_CHECKS: dict[str, tuple[Callable[[Any, list, random.Random], None], Callable[[Any], str]]] = {
    "star": (star_checks, star_ending),
    "amazons": (amazons_checks, amazons_ending),
    "hex": (connection_checks, connection_ending),
    "y": (connection_checks, connection_ending),
}
"""Per game: invariants checked after every ply, and the name of the way a
finished game ended. A test may know the games; the engine may not."""

KEEPS_TURN: dict[str, Callable[[Any, Any], bool]] = {
    "hex": lambda position, move: move == position.geometry.swap_move,
}
"""Per game: the moves after which the same colour moves again instead of
the opponent (Hex's swap-pieces: the players exchange colours, HexGui keeps
the side to move)."""

ENDINGS: dict[str, set[str]] = {"star": {"full board", "two passes"}}
"""Endings the seeded games on the smallest board must all reach."""


# -- the contract -----------------------------------------------------------------------


def check_text(position: Any, move: Any) -> None:
    text = position.format_move(move)
    assert isinstance(text, str) and text and text == text.strip() and "\n" not in text
    assert position.parse_move(text) == move, text
    assert position.parse_move(text.swapcase()) == move, text  # vertices in any case


def check_illegal(position: Any, move: Any) -> None:
    """Playing an illegal move raises IllegalMove and changes nothing."""
    before = snapshot(position)
    with pytest.raises(IllegalMove):
        position.play(move)
    assert snapshot(position) == before


def check_position(game: Game, position: Any, rng: random.Random, seen: dict[str, None]) -> list:
    """The invariants of one position; its legal moves. ``seen`` collects the
    text of every move of the game's earlier positions (the candidates)."""
    assert isinstance(position, Position)
    assert position.rules is game and position.game == game.name
    moves = position.legal_moves()
    legal = set(moves)
    assert len(legal) == len(moves), "duplicate legal moves"
    over = position.is_over()
    assert over == (not moves)
    reason = position.over_reason()  # words while over, None while the game goes on
    assert (reason is None) if not over else (isinstance(reason, str) and reason and "\n" not in reason)
    assert position.perft(0) == 1 and position.perft(1) == len(moves)
    for move in rng.sample(moves, min(len(moves), SAMPLE)):
        assert position.is_legal(move)
        check_text(position, move)
    no_move = game.no_move(position, 0.0)
    if no_move is not None:  # a pass
        assert no_move not in legal
        assert position.is_legal(no_move) == (not over)
        check_text(position, no_move)
    texts = [position.format_move(m) for m in moves]
    listed = set(texts)
    others = [text for text in seen if text not in listed]
    for text in rng.sample(others, min(len(others), SAMPLE)):
        assert not position.is_legal(position.parse_move(text)), text
    for text in others[:2]:
        check_illegal(position, position.parse_move(text))
    if moves and len(moves) <= PERFT2_MOVES and rng.random() < 0.2:
        total = 0
        for move in moves:
            position.play(move)
            total += len(position.legal_moves())
            position.undo()
        assert position.perft(2) == total
    for text in texts:
        seen.setdefault(text)
    extra = GAME_CHECKS.get(game.name)
    if extra:
        extra[0](position, moves, rng)
    return moves


def check_copy(position: Any, moves: list, rng: random.Random) -> None:
    before = snapshot(position)
    other = position.copy()
    assert type(other) is type(position) and other is not position
    assert snapshot(other) == before
    if not moves:
        return
    copied = snapshot(other)
    other.play(rng.choice(moves))
    assert snapshot(position) == before, "a move on the copy changed the original"
    other.undo()
    assert snapshot(other) == copied
    position.play(rng.choice(moves))
    assert snapshot(other) == copied, "a move on the original changed the copy"
    position.undo()
    assert snapshot(position) == before


def check_finished(game: Game, position: Any, seen: dict[str, None]) -> None:
    """A finished game: nothing is legal, its score names the winner."""
    assert position.legal_moves() == [] and position.perft(1) == 0 and position.perft(2) == 0
    for text in list(seen)[:SAMPLE]:
        move = position.parse_move(text)
        for colour in (None, BLACK, WHITE):
            assert not position.is_legal(move, colour)
    for text in list(seen)[:3]:
        check_illegal(position, position.parse_move(text))
    report = game.score(position, 0.0)
    assert position.winner() == report.winner
    assert report.winner in (BLACK, WHITE, None)
    result = report.gtp_result()
    assert result == "0" or result[:2] in ("B+", "W+")
    assert result[:1] == {BLACK: "B", WHITE: "W", None: "0"}[report.winner]
    lines = report.describe(position)
    assert lines and all(isinstance(line, str) and "\n" not in line for line in lines)
    json.dumps(report.to_json(position))


def play_random_game(game: Game, size: int, rng: random.Random,
                     options: dict[str, bool] | None = None) -> tuple[int, str]:
    """One seeded random game with every check: its number of plies and how
    it ended (per GAME_CHECKS); the position made with ``options``."""
    position = game.new_position(size, options)
    fresh = snapshot(position)
    assert fresh == snapshot(game.new_position(size, options))
    assert position.size == size and position.history == [] and position.setup() is None
    for text in NOT_MOVES:
        with pytest.raises(IllegalMove):
            position.parse_move(text)
    states = [fresh]
    seen: dict[str, None] = {}
    while True:
        moves = check_position(game, position, rng, seen)
        if not position.history or rng.random() < 0.1:
            check_copy(position, moves, rng)
        if not moves:
            break
        no_move = game.no_move(position, 0.0)
        move = no_move if no_move is not None and rng.random() < PASS_RATE else rng.choice(moves)
        before = states[-1]
        colour = position.to_move
        position.play(move, colour if rng.random() < 0.5 else None)
        assert position.history[-1] == (colour, move)
        assert len(position.history) == len(before[1][2]) + 1
        keeps = KEEPS_TURN.get(game.name)
        assert position.to_move == (colour if keeps and keeps(position, move) else opponent(colour))
        after = snapshot(position)
        position.undo()
        assert snapshot(position) == before
        position.play(move)
        assert snapshot(position) == after
        states.append(after)
    check_finished(game, position, seen)
    ending = GAME_CHECKS[game.name][1](position) if game.name in GAME_CHECKS else "over"
    plies = len(position.history)
    while position.history:  # undo the whole game, through every earlier state
        position.undo()
        states.pop()
        assert snapshot(position) == states[-1]
    assert snapshot(position) == fresh
    with pytest.raises(CannotUndo):
        position.undo()
    assert snapshot(position) == fresh
    return plies, ending


def check_game(game: Game, size: int, seed: str | int | None = None,
               options: dict[str, bool] | None = None) -> set[str]:
    """Seeded random games of ``game`` on ``size`` (with ``options``, see
    :attr:`Game.options`) under every check, until PLY_BUDGET plies have been
    checked; the endings reached."""
    rng = random.Random(f"{game.name}-{size}" if seed is None else seed)
    plies = games = 0
    endings: set[str] = set()
    while games < MAX_GAMES and (games < MIN_GAMES or plies < PLY_BUDGET):
        count, ending = play_random_game(game, size, rng, options)
        plies += count
        games += 1
        endings.add(ending)
    return endings
