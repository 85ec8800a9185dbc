"""SGF, the record format, as far as every game shares it: the syntax
(nodes, properties, escaping, the main line) and how a record's text is
laid out. What a point, a move or a colour means is each game's own
(``engine/star/sgf.py``, ``engine/amazons/sgf.py``).

>>> parse_main_line("(;GM[18]SZ[6](;B[efdedf])(;B[x]))")
[{'GM': ['18'], 'SZ': ['6']}, {'B': ['efdedf']}]
>>> print(record_text("(;GM[2004]SZ[4]", {"PB": "A"}, [("B", "S40"), ("W", "")]), end="")
(;GM[2004]SZ[4]PB[A]
;B[S40]
;W[]
)
"""

from __future__ import annotations

from stargtp.engine.errors import GameError


class SgfError(GameError):
    """An SGF record this engine cannot read (the protocol's ``cannot load file``)."""


def escape(text: str) -> str:
    """A property value with ``\\`` and ``]`` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def record_text(root: str, properties: dict[str, str] | None,
                moves: list[tuple[str, str]]) -> str:
    """A record: the ``root`` node's text (``(;GM[n]...``) with ``properties``
    added as given, then one node a line per ``(SGF colour letter, value)``
    move, and the closing parenthesis."""
    for prop, value in (properties or {}).items():
        root += f"{prop}[{escape(value)}]"
    lines = [root] + [f";{letter}[{value}]" for letter, value in moves]
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


def parse_main_line(text: str) -> list[Node]:
    """The nodes of the first game's main line, as ``{property: [values]}``.
    Property names keep only their upper-case letters (old files wrote e.g.
    ``GaMe``); values are unescaped. SgfError on malformed text."""
    start = text.find("(")
    if start < 0:
        raise SgfError("no SGF game tree found")
    nodes: list[Node] = []
    # One entry per open '(': [on the main line, has had a child tree]. A
    # tree is on the main line when its parent is and it is the first child.
    stack: list[list[bool]] = []
    i = start
    while True:
        if i >= len(text):
            raise SgfError("the SGF game tree is not closed")
        c = text[i]
        if c == "(":
            if stack:
                parent = stack[-1]
                stack.append([parent[0] and not parent[1], False])
                parent[1] = True
            else:
                stack.append([True, False])
            i += 1
        elif c == ")":
            if not stack:
                raise SgfError(f"unbalanced ')' at offset {i}")
            stack.pop()
            i += 1
            if not stack:
                break  # the first game tree is complete; later ones are ignored
        elif c == ";":
            if stack[-1][1]:
                raise SgfError(f"a node follows a variation at offset {i}")
            node, i = _parse_node(text, i + 1)
            if stack[-1][0]:
                nodes.append(node)
        elif c.isspace():
            i += 1
        else:
            raise SgfError(f"unexpected {c!r} at offset {i}")
    if not nodes:
        raise SgfError("the SGF game tree has no nodes")
    return nodes


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
