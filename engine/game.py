"""What a game is, for everything outside its own package: one descriptor.

Each game package (``engine/star``, ``engine/amazons``, ``engine/hex``,
``engine/y``) builds one
:class:`Game` in its ``game.py`` and sets it as its position class's
``rules``; :mod:`stargtp.engine.games` lists them. The search, the server, the match
runner, the console and the pictures ask the descriptor (``position.rules``)
what they need, and never which game it is: a new game is a new package with
a descriptor, and nothing else changes.

Every position meets the :class:`Position` protocol, so no caller probes a
position's attributes. A descriptor holds only module-level functions, so it
pickles by reference: the server sends the games it registered at run time
to its worker processes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from stargtp.engine.colour import BLACK, WHITE  # noqa: F401 (WHITE: the doctest)


@runtime_checkable
class Position(Protocol):
    """The surface every game's position offers."""

    rules: Game
    """The game's descriptor (a class attribute)."""
    game: str
    """The game's name, ``rules.name``."""
    to_move: int
    history: list[tuple[int, Any]]
    """``(colour, move)`` of every move played, oldest first."""

    @property
    def size(self) -> int: ...

    def legal_moves(self) -> list[Any]: ...

    def is_legal(self, move: Any, colour: int | None = None) -> bool: ...

    def play(self, move: Any, colour: int | None = None) -> None: ...

    def undo(self) -> None: ...

    def copy(self) -> Position: ...

    def is_over(self) -> bool: ...

    def over_reason(self) -> str | None:
        """Why the game is over, for people (``both players passed``,
        ``white has no move``, ``black joined north and south``); None while
        it goes on."""
        ...

    def winner(self) -> int | None:
        """Once the game is over, who won (None: a draw); before that, the
        game's own answer (*Star: the current score's winner; Amazons: None)."""
        ...

    def parse_move(self, text: str) -> Any: ...

    def format_move(self, move: Any) -> str: ...

    def perft(self, depth: int) -> int: ...

    def render_text(self) -> str: ...

    def setup(self) -> tuple[tuple[int, ...], int] | None:
        """``(board, to_move)`` the moves start from when that is not the
        game's usual start (``stargtp-setup``, a loaded record with set-up),
        else None; ``rules.from_setup(board, to_move)`` builds it again."""
        ...


class ScoreReport(Protocol):
    """A score breakdown that describes itself."""

    winner: int | None

    def gtp_result(self) -> str:
        """``B+n`` / ``W+n`` / ``0``; CannotScore (a GameError) when it cannot."""
        ...

    def describe(self, position: Position) -> list[str]:
        """The breakdown for people, a line each."""
        ...

    def to_json(self, position: Position) -> dict[str, Any]:
        """The breakdown as JSON-ready data (moves as text)."""
        ...


@dataclass(frozen=True)
class TreeHooks:
    """What a tree search needs from one game and board size beyond the
    position API: a playout that also says which moves each colour "got"
    (for AMAF/RAVE), and where each move sits in those owner masks.

    A game without AMAF has ``amaf_width == 0``; its owner masks are 0.
    """

    amaf_width: int
    """Number of bit positions in the owner masks (0: no AMAF)."""
    amaf_index: Callable[[Any], int]
    """Move -> its bit position ``0 <= i < amaf_width`` in the owner masks."""
    playout: Callable[[Any, random.Random, float], tuple[int | None, int, int]]
    """``(position, rng, komi) -> (winner, black_mask, white_mask)``: a random
    playout; the masks hold the bits of the moves each colour made, or owned
    at the end (*Star: the cells of each colour on the full board)."""
    owners: Callable[[int, int], int] | None = None
    """For analysis: ``(black_mask, white_mask)`` of a playout -> the mask of
    the scoring points black owns at its end (*Star: pericells)."""
    owner_points: tuple = ()
    """The moves (points) whose ownership is reported, in board order, and
    each one's bit in the ``owners`` mask: ``((move, bit), ...)``."""
    prior: Callable[[Any], tuple[tuple[int, int, int], ...]] | None = None
    """Knowledge for a new tree node (RAVE only): ``position -> ((mask,
    playouts, half_wins), ...)``, virtual AMAF playouts of the side to move
    for the moves whose bits are in each mask, added once when the node is
    made (progressive bias that real AMAF statistics soon outweigh)."""
    playouts: Callable[[Any, random.Random, float, int], list[tuple[int | None, int, int]]] | None = None
    """``(position, rng, komi, k) -> k results`` of the same kind as ``playout`` (winner, black_mask, white_mask; the masks
    in the same single-board bit layout that ``amaf_index`` uses), k independent playouts of the same distribution as
    ``playout``, done together (a batched kernel). None: the search calls ``playout`` k times."""
    amaf_bits: int = 0
    """The bit positions the owner masks (and the priors' masks) can hold,
    as a mask (0: all ``amaf_width`` of them): the search keeps an AMAF
    counter for each of these only (a board layout's padding needs none)."""


def plain_tree_hooks(playout_winner: Callable[[Any, random.Random, float], int | None]) -> TreeHooks:
    """Hooks for a game without AMAF masks: the playout's winner only."""

    def playout(board: Any, rng: random.Random, komi: float) -> tuple[int | None, int, int]:
        return playout_winner(board, rng, komi), 0, 0

    def no_index(move: Any) -> int:
        raise ValueError("this game has no AMAF owner masks")

    return TreeHooks(0, no_index, playout)


def perft_by_play(position: Position, depth: int) -> int:
    """The number of sequences of ``depth`` legal moves from ``position``,
    enumerated with play/undo (a game that ends sooner ends its sequences
    there): the perft of a game that has no faster count.

    >>> from stargtp.engine.hex import Position
    >>> perft_by_play(Position(2), 2)
    12
    """
    if depth < 0:
        raise ValueError("perft depth must be >= 0")
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        position.play(move)
        total += perft_by_play(position, depth - 1)
        position.undo()
    return total


def moves_left_from_cells(cells: int, plies_played: int) -> int:
    """How many more moves one player should expect in a game where each ply
    fills one of ``cells`` (a stone, an arrow): a clock's budget divisor.
    Real games stop earlier, so only 70% of the rest is counted, halved
    between the players; at least 10, so the clock is never spent on one move.

    >>> moves_left_from_cells(275, 0)   # 275 * 0.7 / 2 = 96.25
    97
    """
    plies_left = max(0, cells - plies_played)
    return max(10, math.ceil(plies_left * 0.7 / 2))


def ten_moves_left(size: int, plies_played: int) -> int:
    """The clock's divisor for a game that does not say: 10 more moves."""
    return 10


def players_own_playouts(size: int) -> int | None:
    """For a game that does not say: the player's own ``playouts`` parameter."""
    return None


def never_settled(position: Any, komi: float) -> bool:
    """For games that cannot tell: the score may always change."""
    return False


def never_passes(position: Any, komi: float) -> bool:
    """For games without passing: passing never wins."""
    return False


ON_WORDS = ("on", "true", "yes", "1")
OFF_WORDS = ("off", "false", "no", "0")


@dataclass(frozen=True)
class GameOption:
    """A rule a game may play with or without (Hex's swap rule): a name, an
    on/off default and what it does, for ``Game.options``."""

    name: str
    """Lower-case, one word: ``swap``."""
    default: bool
    description: str
    """For people, one line: what turning it on does."""

    def parse(self, text: str) -> bool:
        """``on``/``off`` (also ``true``/``false``, ``yes``/``no``, ``1``/``0``,
        any case) as a bool; GameError for anything else.

        >>> GameOption("swap", False, "").parse("ON"), GameOption("swap", False, "").parse("0")
        (True, False)
        """
        from stargtp.engine.errors import GameError

        word = text.strip().lower()
        if word in ON_WORDS:
            return True
        if word in OFF_WORDS:
            return False
        raise GameError(f"option {self.name} is on or off, not {text.strip()!r}")


def ownership_analysis(position: Any, colour: int, ownership: Sequence[tuple[str, float]]) -> str:
    """The ``analysis`` of a game that reports ownership shares:
    ``ownership O1 O2 ...``, one value per point in the order given, each in
    -1..1 from ``colour``'s side (1: ``colour`` owns the point at the end of
    every playout); nothing when the search counted no ownership.

    >>> ownership_analysis(None, WHITE, [("a1", 1.0), ("b1", 0.25)])
    'ownership -1.000 0.500'
    >>> ownership_analysis(None, BLACK, [])
    ''
    """
    if not ownership:
        return ""
    sign = 1 if colour == BLACK else -1
    return "ownership " + " ".join(f"{sign * (2 * share - 1):.3f}" for _, share in ownership)


@dataclass(frozen=True)
class SetupKind:
    """A kind of piece a set-up may place (``Game.setup_rules``)."""

    kind: str
    """One lower-case word, as ``stargtp-setup`` takes it: ``black``, ``arrow``."""
    label: str
    """For people: ``Black stone``, ``Arrow``."""
    contents: int
    """What it puts on its point in a position's board (BLACK, WHITE, the Amazons' ARROW)."""


@dataclass(frozen=True)
class SetupRules:
    """How a game is set up: the kinds of piece, and the names of the points
    they go on."""

    kinds: tuple[SetupKind, ...]
    points: Callable[[Any], Sequence[str]]
    """``position -> the name of every point of its board``, in board order
    (the index of a set-up's contents): ``S43``, ``d1``, ``c4``."""


def no_options(position: Any) -> dict[str, bool]:
    """For games without options: none."""
    return {}


@dataclass(frozen=True)
class Game:
    """Everything the rest of the engine and the tools know about one game."""

    name: str
    """Lower-case name used on the command line and in the protocol."""
    title: str
    """For people: ``*Star``, ``Amazons``."""
    gtp_name: str
    """The game's name in ``list_games`` and ``set_game``, as other GTP
    front ends spell it (Quarry: ``Amazons``); one word."""
    sizes: tuple[int, ...]
    default_size: int
    size_word: str
    """What a size counts: ``rings``, ``squares a side``."""
    position: Callable[[int], Position]
    """An empty position of a size; BadSize for a size the game does not have."""
    from_setup: Callable[[Sequence[int], int], Position]
    """A position set up from square contents and the side to move."""
    score: Callable[[Position, float], ScoreReport]
    """``(position, komi) -> breakdown``; a GameError when it cannot score."""
    playout_winner: Callable[[Position, random.Random, float], int | None]
    """Play the position out at random: the winner (None: a tie)."""
    tree_hooks: Callable[[Position], TreeHooks]
    """What the UCT search needs for this position's size."""
    no_move: Callable[[Position, float], Any]
    """The move of a player with nothing to play: *Star's pass, or None
    (Amazons: resign)."""
    ended_by: str = "score"
    """How a game that the rules ended was decided, one word, the match
    record's ``reason`` (docs/match.md): ``score`` (the score decides:
    *Star), ``no_moves`` (the side to move has none and loses: the Amazons),
    ``connection`` (a player joined its edges: Hex, Y). The position's
    :meth:`Position.over_reason` says it in words."""
    passing_wins: Callable[[Position, float], bool] = never_passes
    """The opponent just passed and passing now wins for the side to move."""
    settled: Callable[[Position, float], bool] = never_settled
    """``(position, komi)``: whether the game's result can no longer change
    and ``score`` gives it (*Star: every open region is one star's and can
    found no star; Amazons: the regions are separated and the territory
    count decides), so that a referee may adjudicate it now."""
    moves_left: Callable[[int, int], int] = ten_moves_left
    """``(size, plies played) -> moves one player should still expect``, the
    clock's budget divisor."""
    move_playouts: Callable[[int], int | None] = players_own_playouts
    """``size -> playouts``: what a move searches on a board of this size
    when nothing else limits it (no clock, no ``--seconds``, no
    ``--playouts``): the server's default, docs/search.md's table; None: the
    player's own ``playouts`` parameter."""
    strongest_player: str = "uct"
    """The player that ``auto`` uses for this game."""
    players: dict[str, type] = field(default_factory=dict)
    """Players of this game only, by name (the Amazons MCTS)."""
    analysis: Callable[[Position, int, Sequence[tuple[str, float]]], str] | None = None
    """The game's extra lz-analyze field from the position, the colour
    analysed and the ownership shares: ``ownership ...``, ``territory ...``."""
    score_estimate: Callable[[Position, int, float], float | None] | None = None
    """``(position, colour, komi)``: the expected final margin for ``colour``
    (positive: ``colour`` leads), for analysis (``scoreLead``); None when the
    game cannot say."""
    write_record: Callable[..., str] | None = None
    """``(position, result=None, komi=0.0)``: the SGF text of a position's
    game (komi recorded where the game uses it), or None for a game without
    records."""
    read_record: Callable[[str], Position] | None = None
    """A position from SGF text; GameError when unreadable."""
    sgf_number: int | None = None
    """The game's ``GM[n]`` number in SGF records."""
    claims_record: Callable[[str], bool] | None = None
    """For games that share a ``GM[n]`` number (Hex and Y: ``GM[11]``, as
    HexGui writes both): ``SGF text -> whether it is this game's record``;
    None: every record with the game's number is."""
    commands: tuple[str, ...] = ()
    """Protocol commands that work only in this game (``list_stars``)."""
    move_hint: str = ""
    """How a move is written, for people: ``a cell label such as S43, or pass``."""
    human_colour: int = 1
    """The colour a person plays by default in the console (the first mover)."""
    options: tuple[GameOption, ...] = ()
    """The rules this game may be played with or without (Hex: ``swap``),
    each off or on by its default; :meth:`new_position` takes them by name
    and ``position(size, **options)`` receives them."""
    options_of: Callable[[Position], dict[str, bool]] = no_options
    """``position -> {name: value}``: the options a position is played with
    (every one of :attr:`options`), e.g. after reading a record."""
    resign_below: float | None = None
    """The win rate below which the search resigns when its ``resign``
    parameter is ``game`` (the default): ``genmove`` answers ``resign`` once
    real searches give the side to move less than this (docs/protocol.md,
    docs/search.md); None: this game never resigns a game that goes on
    (*Star passes and is scored, the Amazons play to the end)."""
    leaf_playouts: int = 1
    """The UCT search's playouts a leaf when its ``leaf_playouts``
    parameter is ``game`` (the default): how many playouts evaluate each
    leaf together, chosen per game by measurement (docs/search.md)."""

    setup_rules: SetupRules | None = None
    """The pieces a set-up places and the points' names (``stargtp-setup``);
    None: the game is not set up, only played."""
    record_codec: Any = None
    """What the game's SGF records mean (a :class:`stargtp.engine.sgf.RecordCodec`),
    for game trees with variations (``stargtp-sgf-tree``); None: no trees."""

    def set_up(self, size: int | None, to_move: int,
               pieces: Sequence[tuple[str, Sequence[str]]]) -> Position:
        """A position of ``size`` (the default when None) set up with
        ``pieces``, ``(kind, [point names...])`` pairs (names in any case),
        and ``to_move``, with no history. GameError saying why for a game
        without set-up, an unknown kind, a name that is no point of the board,
        a point given twice, or contents the game forbids; BadSize for a
        size the game does not have.

        >>> from stargtp.engine.games import find_game
        >>> p = find_game("hex").set_up(3, WHITE, [("black", ["a1", "C3"])])
        >>> p.history, p.format_move(p.legal_moves()[0]), find_game("hex").setup_of(p)
        ([], 'b1', (2, {'black': ['a1', 'c3'], 'white': []}))
        """
        from stargtp.engine.colour import EMPTY
        from stargtp.engine.errors import GameError

        rules = self.setup_rules
        if rules is None:
            raise GameError(f"{self.title} has no set-up: its positions are only played")
        empty = self.new_position(size)
        names = list(rules.points(empty))
        index = {name.lower(): point for point, name in enumerate(names)}
        kinds = {kind.kind: kind for kind in rules.kinds}
        board = [EMPTY] * len(names)
        placed: dict[int, str] = {}
        for kind, points in pieces:
            if kind not in kinds:
                raise GameError(f"unknown kind {kind!r}: {self.title} sets up "
                                f"{', '.join(kinds)}")
            for text in points:
                point = index.get(text.lower())
                if point is None:
                    raise GameError(f"{text!r} is no point of the board ({empty.size} {self.size_word})")
                if point in placed:
                    raise GameError(f"{names[point]} is given twice ({placed[point]} and {kind})")
                placed[point] = kind
                board[point] = kinds[kind].contents
        try:
            return self.from_setup(board, to_move)
        except GameError as exc:
            raise GameError(f"{self.title} forbids this set-up: {exc}") from None

    def setup_of(self, position: Position) -> tuple[int, dict[str, list[str]]] | None:
        """The set-up ``position`` starts from as ``(to_move, {kind: [point
        names]})`` (every kind, in board order), or None when it starts from
        the game's usual start."""
        setup = position.setup()
        if setup is None or self.setup_rules is None:
            return None
        board, to_move = setup
        names = self.setup_rules.points(position)
        return to_move, {kind.kind: [names[point] for point, v in enumerate(board) if v == kind.contents]
                         for kind in self.setup_rules.kinds}

    def option(self, name: str) -> GameOption:
        """The option called ``name``; GameError when the game has none."""
        from stargtp.engine.errors import GameError

        for option in self.options:
            if option.name == name:
                return option
        known = ", ".join(option.name for option in self.options) or "none"
        raise GameError(f"{self.title} has no option {name!r} (options: {known})")

    def new_position(self, size: int | None = None, options: dict[str, bool] | None = None) -> Position:
        """An empty position; the default size when ``size`` is None, each
        option at its default unless ``options`` names it (GameError for an
        option the game does not have)."""
        size = self.default_size if size is None else size
        if not options:
            return self.position(size)
        for name in options:
            self.option(name)
        return self.position(size, **options)

    def __repr__(self) -> str:
        return f"<Game {self.name}>"
