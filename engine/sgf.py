"""SGF, the record format, as far as every game shares it: the syntax
(nodes, properties, escaping, game trees with their variations), how a
record's text is laid out, and what a record means once a game says what
its root, points and moves mean (a :class:`RecordCodec`, in each game's
``sgf.py``): the set-up (``AB``/``AW``/``AE``... and ``PL`` in the nodes
before the first move), the main line (:func:`read_line`, ``loadsgf``),
and the whole tree with every property the game does not interpret
(:func:`read_tree` and :func:`write_tree`, ``stargtp-sgf-tree`` and
``stargtp-sgf-write``). Trees are walked without recursion: a main line
may be hundreds of moves long.

>>> parse_main_line("(;GM[18]SZ[6](;B[efdedf])(;B[x]))")
[{'GM': ['18'], 'SZ': ['6']}, {'B': ['efdedf']}]
>>> print(record_text("(;GM[2004]SZ[4]", {"PB": "A"}, [("B", "S40"), ("W", "")]), end="")
(;GM[2004]SZ[4]PB[A]
;B[S40]
;W[]
)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from stargtp.engine.colour import BLACK, EMPTY, WHITE
from stargtp.engine.errors import GameError, IllegalMove


class SgfError(GameError):
    """An SGF record this engine cannot read (the protocol's ``cannot load file``)."""


def escape(text: str) -> str:
    """A property value with ``\\`` and ``]`` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def properties_text(properties: dict[str, str] | dict[str, list[str]] | None) -> str:
    """Properties as SGF text, in the order given: ``{"C": ["a]b"]}`` is
    ``C[a\\]b]``; a plain string is one value.

    >>> properties_text({"PB": "A", "AB": ["S40", "T41"]})
    'PB[A]AB[S40][T41]'
    """
    text = ""
    for prop, values in (properties or {}).items():
        if isinstance(values, str):
            values = [values]
        text += prop + "".join(f"[{escape(value)}]" for value in values)
    return text


def record_text(root: str, properties: dict[str, str] | None,
                moves: list[tuple[str, str]]) -> str:
    """A record: the ``root`` node's text (``(;GM[n]...``) with ``properties``
    added as given, then one node a line per ``(SGF colour letter, value)``
    move, and the closing parenthesis."""
    root += properties_text(properties)
    lines = [root] + [f";{letter}[{escape(value)}]" for letter, value in moves]
    return "\n".join(lines) + "\n)\n"


Node = dict[str, list[str]]


def game_trees(text: str) -> list[str]:
    r"""The texts of the game trees of a collection (one file holding several
    games one after another), in order. Property values may hold any of
    ``( ) ;`` (escaped ``]`` too); an unclosed last tree is SgfError.

    >>> game_trees("(;GM[18]C[a (b\\] c])\n(;GM[2004];B[S40])")
    ['(;GM[18]C[a (b\\] c])', '(;GM[2004];B[S40])']
    """
    trees = []
    depth, start, i, n = 0, 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == "[":
            i += 1
            while i < n and text[i] != "]":
                i += 2 if text[i] == "\\" else 1
        elif c == "(":
            if depth == 0:
                start = i
            depth += 1
        elif c == ")" and depth:
            depth -= 1
            if depth == 0:
                trees.append(text[start:i + 1])
        i += 1
    if depth:
        raise SgfError("the last SGF game tree is not closed")
    return trees


class SgfNode:
    """One node of a parsed game tree: its properties (``{name: [values]}``,
    in the order read) and its children, the first one the main line."""

    __slots__ = ("props", "children")

    def __init__(self, props: Node) -> None:
        self.props = props
        self.children: list[SgfNode] = []

    def __repr__(self) -> str:
        return f"<SgfNode {self.props} +{len(self.children)}>"


def parse_tree(text: str) -> SgfNode:
    """The root node of the first game tree of ``text``, with every
    variation (later game trees of a collection are ignored). Property names
    keep only their upper-case letters (old files wrote e.g. ``GaMe``);
    values are unescaped. SgfError on malformed text. Iterative, so a deep
    tree (a long main line) needs no recursion.

    >>> root = parse_tree("(;GM[18](;B[efdedf];W[a])(;B[x]))")
    >>> root.props, [child.props for child in root.children], root.children[0].children
    ({'GM': ['18']}, [{'B': ['efdedf']}, {'B': ['x']}], [<SgfNode {'W': ['a']} +0>])
    """
    start = text.find("(")
    if start < 0:
        raise SgfError("no SGF game tree found")
    root: SgfNode | None = None
    # One entry per open '(': [the node the next node follows (None: the
    # tree's first node hangs from the node before the '('), that node
    # before the '(', whether a variation has been opened in it].
    stack: list[list] = []
    i = start
    while True:
        if i >= len(text):
            raise SgfError("the SGF game tree is not closed")
        c = text[i]
        if c == "(":
            if stack:
                parent = stack[-1]
                stack.append([None, parent[0] if parent[0] is not None else parent[1], False])
                parent[2] = True
            else:
                stack.append([None, None, False])
            i += 1
        elif c == ")":
            if not stack:
                raise SgfError(f"unbalanced ')' at offset {i}")
            stack.pop()
            i += 1
            if not stack:
                break  # the first game tree is complete; later ones are ignored
        elif c == ";":
            frame = stack[-1]
            if frame[2]:
                raise SgfError(f"a node follows a variation at offset {i}")
            props, i = _parse_node(text, i + 1)
            node = SgfNode(props)
            parent = frame[0] if frame[0] is not None else frame[1]
            if parent is not None:
                parent.children.append(node)
            elif root is None:
                root = node
            else:
                raise SgfError(f"a second root node at offset {i}: a game tree has one root")
            frame[0] = node
        elif c.isspace():
            i += 1
        else:
            raise SgfError(f"unexpected {c!r} at offset {i}")
    if root is None:
        raise SgfError("the SGF game tree has no nodes")
    return root


def main_line(root: SgfNode) -> list[SgfNode]:
    """``root`` and its first child, that one's first child, and so on."""
    line = [root]
    while line[-1].children:
        line.append(line[-1].children[0])
    return line


def parse_main_line(text: str) -> list[Node]:
    """The nodes of the first game's main line (the first child at every
    branch), as ``{property: [values]}``; SgfError on malformed text."""
    return [node.props for node in main_line(parse_tree(text))]


def node_move(node: Node, number: int) -> tuple[str, str] | None:
    """The move node ``number`` plays, ``(letter, value)`` of its ``B`` or
    ``W``; None when it plays none; SgfError when it plays more than one.

    >>> node_move({"B": ["S40"], "C": ["hi"]}, 1), node_move({"C": ["hi"]}, 2)
    (('B', 'S40'), None)
    """
    played = [letter for letter in ("B", "W") if letter in node]
    if len(played) > 1 or any(len(node[letter]) > 1 for letter in played):
        raise SgfError(f"node {number}: more than one move")
    if not played:
        return None
    return played[0], node[played[0]][0]


def _parse_node(text: str, i: int) -> tuple[Node, int]:
    """The properties of the node starting at ``text[i]``; the index after it."""
    node: Node = {}
    n = len(text)
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i >= n or text[i] in ";()":
            return node, i
        if not text[i].isalpha():
            raise SgfError(f"unexpected {text[i]!r} at offset {i}")
        j = i
        while j < n and text[j].isascii() and text[j].isalpha():
            j += 1
        name = "".join(c for c in text[i:j] if c.isupper())
        if not name:
            raise SgfError(f"bad property name {text[i:j]!r} at offset {i}")
        values = node.setdefault(name, [])
        i = j
        while True:
            while i < n and text[i].isspace():
                i += 1
            if i >= n or text[i] != "[":
                break
            value, i = _parse_value(text, i + 1)
            values.append(value)
        if not values:
            raise SgfError(f"property {name} has no value")


def _parse_value(text: str, i: int) -> tuple[str, int]:
    """The value starting after a '['; the index after its ']'."""
    out = []
    n = len(text)
    while i < n:
        c = text[i]
        if c == "]":
            return "".join(out), i + 1
        if c == "\\":
            i += 1
            if i < n and text[i] in "\r\n":
                # A soft line break: backslash-newline is removed.
                if text[i] == "\r" and i + 1 < n and text[i + 1] == "\n":
                    i += 1
            elif i < n:
                out.append(text[i])
        else:
            out.append(c)
        i += 1
    raise SgfError("an SGF property value is not closed")


# -- records of a game: what the game contributes, and the trees built on it -----------


def setup_properties(board: Sequence[int], to_move: int, label: Callable[[int], str]) -> str:
    """A set-up's stones as ``AB``/``AW`` (each cell written by ``label``)
    and the side to move as ``PL``."""
    text = ""
    for prop, colour in (("AB", BLACK), ("AW", WHITE)):
        points = [label(cell) for cell, value in enumerate(board) if value == colour]
        if points:
            text += prop + "".join(f"[{point}]" for point in points)
    return text + f"PL[{'B' if to_move == BLACK else 'W'}]"


def to_move_by_count(board: Sequence[int]) -> int:
    """The side to move of a set-up without ``PL`` where black moves first
    and the colours alternate: black when the colours have as many stones,
    else white (as MoHex counts whose turn it is).

    >>> to_move_by_count([BLACK, EMPTY, WHITE]) == BLACK, to_move_by_count([BLACK, EMPTY]) == WHITE
    (True, True)
    """
    return BLACK if board.count(BLACK) <= board.count(WHITE) else WHITE


def no_komi(root: Node) -> float:
    """For games without komi: 0 (a ``KM`` is an ordinary property)."""
    return 0.0


def never_ends(value: str) -> bool:
    """For games whose every move value is a move: none ends the line."""
    return False


GAME_PROPERTIES = frozenset({"GM", "FF", "CA", "AP", "SZ", "PL", "B", "W"})
"""The properties every game's records interpret or write themselves."""

PROPERTY_NAME = re.compile(r"[A-Z]+")


@dataclass(frozen=True)
class RecordCodec:
    """What one game's SGF records mean beyond the syntax: the game's own
    root properties, its points and its moves. Everything else (the main
    line, variations, set-up, properties the game does not know) is this
    module's, the same for every game. The positions have a ``board`` list
    of contents in point order (the set-up's points index it)."""

    start: Callable[[Node, list[str]], Any]
    """``(root properties, the record's move values) -> the usual start
    position`` of the record's size and options (Hex: ``swap`` when a value
    is a swap); SgfError for a root the game does not read (``GM``, ``SZ``)."""
    head: Callable[[Any, float, str], str]
    """``(position, komi, text) -> the record up to its first move``: the root
    node with the game's own properties and ``text`` (more root
    properties), and the position's set-up (:meth:`Position.setup`), in the
    root or in a node of its own."""
    move_to_sgf: Callable[[Any, Any], str]
    """``(position, move) -> the move's SGF value``."""
    move_from_sgf: Callable[[Any, str], Any]
    """``(position, value) -> move``; a GameError when the value names no
    move (legality is checked by playing it)."""
    points: Callable[[Any, str], list[int]]
    """``(position, value of a set-up property) -> the points it names``
    (indexes of ``position.board``); a GameError when it names none."""
    point_to_sgf: Callable[[Any, int], str]
    """``(position, point) -> the point's SGF value``."""
    letters: tuple[tuple[int, str], ...] = ((BLACK, "B"), (WHITE, "W"))
    """Each colour's SGF letter (the Amazons' first mover, our White, is ``B``)."""
    setup: tuple[tuple[str, int], ...] = (("AB", BLACK), ("AW", WHITE), ("AE", EMPTY))
    """The set-up properties and what each puts on its points."""
    default_to_move: Callable[[Sequence[int]], int] = to_move_by_count
    """``set-up contents -> the side to move`` when no ``PL`` says it."""
    komi: Callable[[Node], float] = no_komi
    """``root properties -> komi`` (SgfError for a bad one)."""
    own: frozenset[str] = frozenset()
    """Root properties the game interprets or writes beyond
    :data:`GAME_PROPERTIES` and :attr:`setup` (*Star's ``KM``)."""
    ends_line: Callable[[str], bool] = never_ends
    """``move value -> whether it ends its line`` (HexGui's ``resign``): no
    move may follow it; it is not played."""

    def colour(self, letter: str) -> int:
        return next(colour for colour, known in self.letters if known == letter)

    def letter(self, colour: int) -> str:
        return next(letter for known, letter in self.letters if known == colour)

    def interpreted(self) -> frozenset[str]:
        """Every property the game interprets or writes itself: the rest are
        kept as they are (:attr:`RecordNode.props`)."""
        return GAME_PROPERTIES | self.own | {prop for prop, _ in self.setup}


@dataclass
class RecordNode:
    """A move of a game tree: who played it, the move as the position writes
    it (as ``play`` takes it), the node's other properties, the moves after it
    (the first one the main line)."""

    colour: int
    move: str
    props: Node = field(default_factory=dict)
    children: list[RecordNode] = field(default_factory=list)


@dataclass
class RecordTree:
    """A game with its variations: the position the moves start from (the
    usual start or a set-up, no history), the komi, the root's properties
    the game does not interpret, the first moves (the first one the main
    line)."""

    start: Any
    komi: float = 0.0
    props: Node = field(default_factory=dict)
    children: list[RecordNode] = field(default_factory=list)


def _plays(node: SgfNode) -> bool:
    return "B" in node.props or "W" in node.props


def _record_tree(text: str) -> SgfNode:
    """The record's game tree, a move in the root node (some writers put the
    first move there) moved to a node of its own after it, so that the root
    holds the game and its set-up only."""
    root = parse_tree(text)
    if _plays(root):
        first = SgfNode({letter: root.props.pop(letter) for letter in ("B", "W") if letter in root.props})
        first.children, root.children = root.children, [first]
    return root


def _leading(root: SgfNode) -> list[SgfNode]:
    """The root and the nodes after it that play no move, up to the first
    move or variation: the nodes whose set-up is read."""
    nodes = [root]
    while len(nodes[-1].children) == 1 and not _plays(nodes[-1].children[0]):
        nodes.append(nodes[-1].children[0])
    return nodes


def record_komi(text: str, codec: RecordCodec) -> float | None:
    """The komi a record gives (its root's ``KM``, read by the game's codec),
    or None when it gives none or the game has no komi. SgfError for a bad
    record or ``KM``."""
    props = _record_tree(text).props
    if codec.komi is no_komi or "KM" not in props:
        return None
    return codec.komi(props)


def _move_values(nodes: list[SgfNode]) -> list[str]:
    return [value for node in nodes for letter in ("B", "W") for value in node.props.get(letter, [])]


def _start(lead: list[SgfNode], values: list[str], codec: RecordCodec) -> Any:
    """The position the record's moves start from: the game's usual start,
    or the set-up of the leading nodes (their properties in order; within one
    node a point may be set up once)."""
    position = codec.start(lead[0].props, values)
    codec.komi(lead[0].props)  # checked here, read by read_tree
    board: list[int] | None = None
    to_move: int | None = None
    for number, node in enumerate(lead):
        set_by: dict[int, str] = {}
        for prop, contents in codec.setup:
            for value in node.props.get(prop, []):
                if board is None:
                    board = [EMPTY] * len(position.board)
                try:
                    points = codec.points(position, value)
                except GameError as exc:
                    raise SgfError(f"node {number}: {prop}[{value}]: {exc}") from None
                for point in points:
                    if point in set_by:  # two contents for one point: no position
                        raise SgfError(f"point {codec.point_to_sgf(position, point)} is set up twice"
                                       f" ({set_by[point]} and {prop})")
                    set_by[point] = prop
                    board[point] = contents
        if "PL" in node.props:
            letter = node.props["PL"][0].strip().upper()[:1]
            if letter not in ("B", "W"):
                raise SgfError(f"node {number}: bad PL[{node.props['PL'][0]}]: B or W")
            to_move = codec.colour(letter)
    if board is None and to_move is None:
        return position
    if board is None:
        board = list(position.board)  # PL alone: the usual start, another side to move
    if to_move is None:
        to_move = codec.default_to_move(board)
    try:
        return position.rules.from_setup(board, to_move)
    except GameError as exc:
        raise SgfError(f"the set-up: {exc}") from None


def _refuse_setup(node: SgfNode, number: int, codec: RecordCodec) -> None:
    for prop in [prop for prop, _ in codec.setup] + ["PL"]:
        if prop in node.props:
            raise SgfError(f"node {number}: {prop} after a move or a variation: set-up is read"
                           " only before the first of them")


def _play(position: Any, letter: str, value: str, codec: RecordCodec, where: str = "") -> None:
    """Play a move value of the record (GameError -> SgfError saying which move)."""
    try:
        position.play(codec.move_from_sgf(position, value), codec.colour(letter))
    except GameError as exc:
        raise SgfError(f"move {len(position.history) + 1} ({letter}[{value}]){where}: {exc}") from None


def read_line(text: str, codec: RecordCodec) -> Any:
    """The position at the end of a record's main line (the first child at
    every branch; the variations are not read), its moves as history:
    ``loadsgf``. SgfError for anything unreadable, an illegal move included."""
    lead = _leading(_record_tree(text))
    line = main_line(lead[-1])[1:]
    position = _start(lead, _move_values(line), codec)
    ended = False
    for number, node in enumerate(line, start=len(lead)):
        _refuse_setup(node, number, codec)
        played = node_move(node.props, number)
        if played is None:
            continue
        letter, value = played
        if ended:
            raise SgfError(f"node {number}: {letter}[{value}] after a resignation")
        if codec.ends_line(value):
            ended = True
            continue
        _play(position, letter, value, codec)
    return position


def _every_node(root: SgfNode) -> list[SgfNode]:
    nodes, stack = [], [root]
    while stack:
        node = stack.pop()
        nodes.append(node)
        stack.extend(node.children)
    return nodes


def _merge(into: Node, props: Node) -> None:
    for prop, values in props.items():
        into.setdefault(prop, []).extend(values)


def read_tree(text: str, codec: RecordCodec) -> RecordTree:
    """A record's game tree with every variation, each of its moves checked
    legal. A node that plays no move (after the leading ones) adds its
    properties to the node before it, and its children become that node's;
    a move that ends its line (``resign``) does the same and may have no
    move after it. SgfError for anything unreadable."""
    lead = _leading(_record_tree(text))
    below = [node for child in lead[-1].children for node in _every_node(child)]
    position = _start(lead, _move_values(below), codec)
    interpreted = codec.interpreted()

    def foreign(props: Node) -> Node:
        return {prop: list(values) for prop, values in props.items() if prop not in interpreted}

    tree = RecordTree(position.copy(), codec.komi(lead[0].props))
    for node in lead:
        _merge(tree.props, foreign(node.props))
    undo = object()
    # (node, the record node it follows, on the main line, node number, after a resignation)
    stack: list[Any] = [(child, tree, i == 0, len(lead), False)
                        for i, child in reversed(list(enumerate(lead[-1].children)))]
    while stack:
        item = stack.pop()
        if item is undo:
            position.undo()
            continue
        node, parent, main, number, ended = item
        _refuse_setup(node, number, codec)
        played = node_move(node.props, number)
        if played is not None and ended:
            raise SgfError(f"node {number}: {played[0]}[{played[1]}] after a resignation")
        if played is None or codec.ends_line(played[1]):
            _merge(parent.props, foreign(node.props))
            follows = parent
            ended = ended or played is not None
        else:
            letter, value = played
            _play(position, letter, value, codec, "" if main else " (a variation)")
            colour, move = position.history[-1]
            follows = RecordNode(colour, position.format_move(move), foreign(node.props))
            parent.children.append(follows)
            stack.append(undo)
        for i, child in reversed(list(enumerate(node.children))):
            stack.append((child, follows, main and i == 0, number + 1, ended))
    return tree


def check_properties(props: Node, codec: RecordCodec, where: str) -> None:
    """GameError unless every name is upper-case letters and not one the game
    writes itself, and every value is a list of strings."""
    interpreted = codec.interpreted()
    for prop, values in props.items():
        if not isinstance(prop, str) or not PROPERTY_NAME.fullmatch(prop):
            raise GameError(f"bad property name {prop!r}{where}: SGF names are upper-case letters A-Z")
        if prop in interpreted:
            raise GameError(f"property {prop}{where} is written by the game itself"
                            f" (it writes {', '.join(sorted(interpreted))})")
        if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
            raise GameError(f"property {prop}{where}: its values are a non-empty list of strings")


def write_tree(tree: RecordTree, codec: RecordCodec) -> str:
    """The SGF record of a game tree: the game's root (set-up included), the
    tree's root properties, then one node a line; the variations of a node
    each in parentheses, the main line first. Every move is played from
    ``tree.start`` (IllegalMove saying which, when one is illegal); every
    property checked (:func:`check_properties`)."""
    position = tree.start.copy()
    check_properties(tree.props, codec, " of the root")
    out = [codec.head(position, tree.komi, properties_text(tree.props))]
    undo, close = object(), object()
    stack: list[Any] = []

    def follow(children: list[RecordNode]) -> None:
        if len(children) == 1:
            stack.append((children[0], False))
        else:
            for child in reversed(children):
                stack.append(close)
                stack.append((child, True))

    follow(tree.children)
    while stack:
        item = stack.pop()
        if item is undo:
            position.undo()
        elif item is close:
            out.append("\n)")
        else:
            node, opens = item
            number = len(position.history) + 1
            where = f" of move {number} ({node.move})"
            check_properties(node.props, codec, where)
            try:
                move = position.parse_move(node.move)
                value = codec.move_to_sgf(position, move)
                position.play(move, node.colour)
            except GameError as exc:
                raise IllegalMove(f"move {number} ({node.move}): {exc}") from None
            out.append(f"\n{'(' if opens else ''};{codec.letter(node.colour)}[{escape(value)}]"
                       + properties_text(node.props))
            stack.append(undo)
            follow(node.children)
    out.append("\n)\n")
    return "".join(out)
