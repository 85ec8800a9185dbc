"""Scoring of any *Star position, full or not, in all three systems.

The rules (``docs/rules-star.md``): a *group* is a connected set of stones of
one colour; a *star* is a group that occupies at least two pericells; any
other group is *dead* and its cells count as open. An *open region* is a
connected set of empty or dead cells; when every star bordering it has one
colour, that colour owns its pericells and quarks. Then per colour:

* peris: pericells occupied by its stars plus those of regions it owns;
* quarks: the corner pericells among those; three or more give the quark peri;
* conventional ``peris + quark_peri + 2*(stars(opp) - stars)``, komi to white;
* simplified ``peris + quark_peri - 4*stars`` (same margin);
* Schmittberger ``conv(c) - conv(opp)``.

This is the plain, readable scorer. The playout has a faster one for full
boards (:mod:`stargtp.engine.star.playout`); the tests check that they agree.

>>> from stargtp.engine.star.position import Position
>>> s = score(Position(4))
>>> s.margin, s.winner, s.gtp_result()
(0.0, None, '0')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stargtp.engine.colour import BLACK, WHITE, opponent
from stargtp.engine.numbers import format_number


@dataclass(frozen=True)
class StarInfo:
    """One star of the per-star listing."""

    colour: int
    pericells: tuple[int, ...]
    """Owned pericells in board order: occupied ones and those of the regions
    credited to this star."""
    quarks: int
    cells: tuple[int, ...] = field(repr=False)
    """The stones of the star."""


@dataclass(frozen=True)
class ColourScore:
    """One colour's totals."""

    peris: int
    quarks: int
    quark_peri: int
    stars: int


@dataclass(frozen=True)
class Score:
    """The full breakdown of a position's score. Dicts are keyed by colour."""

    black: ColourScore
    white: ColourScore
    komi: float
    conventional: dict[int, float]
    simplified: dict[int, float]
    schmittberger: dict[int, float]
    margin: float
    """Conventional black minus white, komi included."""
    winner: int | None
    """By the margin, then by quarks; None when both tie."""
    stars: list[StarInfo]
    """Black's stars first, each colour's ordered by its first owned pericell."""
    dead_groups: list[tuple[int, ...]]
    """Cells of each dead group, ordered by first cell."""

    def of(self, colour: int) -> ColourScore:
        return self.black if colour == BLACK else self.white

    def describe(self, position) -> list[str]:
        """The breakdown for people: a table of both colours in all three
        systems, each star with its owned pericells, the dead groups, and the
        result."""
        label = position.format_move
        lines = [f"score (komi {format_number(self.komi)}): conventional, simplified and Schmittberger",
                 f"  {'':<7}{'stars':>6}{'peris':>6}{'quarks':>7}{'quark peri':>11}"
                 f"{'conventional':>13}{'simplified':>11}{'Schmittberger':>14}"]
        for colour in (BLACK, WHITE):
            totals = self.of(colour)
            schmittberger = self.schmittberger[colour]
            lines.append(f"  {_NAMES[colour]:<7}{totals.stars:>6}{totals.peris:>6}{totals.quarks:>7}"
                         f"{totals.quark_peri:>11}{format_number(self.conventional[colour]):>13}"
                         f"{format_number(self.simplified[colour]):>11}"
                         f"{('+' if schmittberger > 0 else '') + format_number(schmittberger):>14}")
        for star in self.stars:
            cells = " ".join(label(c) for c in star.pericells)
            lines.append(f"  {_NAMES[star.colour]} star: {plural(len(star.pericells), 'peri')}, "
                         f"{plural(star.quarks, 'quark')}: {cells}")
        if self.dead_groups:
            groups = ", ".join(" ".join(label(c) for c in group) for group in self.dead_groups)
            lines.append(f"  dead (not stars): {groups}")
        if self.winner is None:
            verdict = "a tie"
        else:
            verdict = f"{_NAMES[self.winner]} wins" + (" on quarks" if self.margin == 0 else "")
        lines.append(f"  result: {self.gtp_result()} ({verdict})")
        return lines

    def to_json(self, position) -> dict:
        """The breakdown as JSON-ready data, cells as labels."""
        label = position.format_move
        return {
            "margin": self.margin,
            "komi": self.komi,
            **{name: {"peris": self.of(c).peris, "quarks": self.of(c).quarks,
                      "quark_peri": self.of(c).quark_peri, "stars": self.of(c).stars,
                      "conventional": self.conventional[c], "simplified": self.simplified[c],
                      "schmittberger": self.schmittberger[c]} for c, name in _NAMES.items()},
            "stars": [{"colour": _NAMES[star.colour], "pericells": [label(cell) for cell in star.pericells],
                       "quarks": star.quarks} for star in self.stars],
            "dead_groups": len(self.dead_groups),
        }

    def gtp_result(self) -> str:
        """``B+n`` / ``W+n``; ``B+0`` / ``W+0`` when the quark tie-break decides
        a zero margin; ``0`` only for a full tie."""
        if self.margin > 0:
            return "B+" + format_number(self.margin)
        if self.margin < 0:
            return "W+" + format_number(-self.margin)
        if self.winner == BLACK:
            return "B+0"
        if self.winner == WHITE:
            return "W+0"
        return "0"


_NAMES = {BLACK: "black", WHITE: "white"}


def plural(count: int, word: str) -> str:
    """``1 quark``, ``2 quarks``."""
    return f"{count} {word}" + ("" if count == 1 else "s")


def _components(cells: list[int], member: list[bool], neighbours) -> list[list[int]]:
    """Connected components of the cells flagged in ``member``, each sorted."""
    seen = [False] * len(member)
    components = []
    for start in cells:
        if seen[start]:
            continue
        seen[start] = True
        stack = [start]
        component = []
        while stack:
            cell = stack.pop()
            component.append(cell)
            for other in neighbours[cell]:
                if member[other] and not seen[other]:
                    seen[other] = True
                    stack.append(other)
        component.sort()
        components.append(component)
    return components


def score(position, komi: float = 0.0) -> Score:
    """Score ``position`` (an :class:`stargtp.engine.star.Position`) with the region rule."""
    geo = position.geometry
    board = position.board
    neighbours = geo.neighbours
    is_peri, is_corner = geo.is_peri, geo.is_corner
    count = geo.cell_count

    # Groups, and which of them are stars.
    star_of = [-1] * count  # index into `stars` for cells of a star
    star_cells: list[list[int]] = []
    star_colour: list[int] = []
    dead_groups: list[tuple[int, ...]] = []
    for colour in (BLACK, WHITE):
        member = [v == colour for v in board]
        for group in _components([c for c in range(count) if member[c]], member, neighbours):
            if sum(1 for c in group if is_peri[c]) >= 2:
                for c in group:
                    star_of[c] = len(star_cells)
                star_cells.append(group)
                star_colour.append(colour)
            else:
                dead_groups.append(tuple(group))

    owned: list[list[int]] = [[c for c in cells if is_peri[c]] for cells in star_cells]
    # A region's pericells are credited to its bordering star that occupies the
    # earliest pericell (a fixed, documented choice; totals do not depend on it).
    first_peri = [cells_peri[0] for cells_peri in owned]

    # Open regions and who encloses them.
    open_cell = [star_of[c] < 0 for c in range(count)]
    for region in _components([c for c in range(count) if open_cell[c]], open_cell, neighbours):
        peris = [c for c in region if is_peri[c]]
        if not peris:
            continue
        bordering = {star_of[o] for c in region for o in neighbours[c] if star_of[o] >= 0}
        colours = {star_colour[s] for s in bordering}
        if len(colours) == 1:
            credited = min(bordering, key=lambda s: first_peri[s])
            owned[credited].extend(peris)

    totals = {}
    for colour in (BLACK, WHITE):
        mine = [s for s in range(len(star_cells)) if star_colour[s] == colour]
        peris = sum(len(owned[s]) for s in mine)
        quarks = sum(1 for s in mine for c in owned[s] if is_corner[c])
        totals[colour] = ColourScore(peris=peris, quarks=quarks, quark_peri=int(quarks >= 3),
                                     stars=len(mine))

    def base(colour: int) -> int:
        t = totals[colour]
        return t.peris + t.quark_peri

    conventional, simplified = {}, {}
    for colour in (BLACK, WHITE):
        other = opponent(colour)
        bonus = komi if colour == WHITE else 0.0
        conventional[colour] = base(colour) + 2 * (totals[other].stars - totals[colour].stars) + bonus
        simplified[colour] = base(colour) - 4 * totals[colour].stars + bonus
    schmittberger = {BLACK: conventional[BLACK] - conventional[WHITE],
                     WHITE: conventional[WHITE] - conventional[BLACK]}
    margin = float(conventional[BLACK] - conventional[WHITE])
    if margin > 0:
        winner = BLACK
    elif margin < 0:
        winner = WHITE
    elif totals[BLACK].quarks != totals[WHITE].quarks:
        winner = BLACK if totals[BLACK].quarks > totals[WHITE].quarks else WHITE
    else:
        winner = None

    infos = []
    for s in range(len(star_cells)):
        pericells = tuple(sorted(owned[s]))
        infos.append(StarInfo(colour=star_colour[s], pericells=pericells,
                              quarks=sum(1 for c in pericells if is_corner[c]),
                              cells=tuple(star_cells[s])))
    infos.sort(key=lambda info: (info.colour != BLACK, info.pericells[0]))
    dead_groups.sort()
    return Score(black=totals[BLACK], white=totals[WHITE], komi=komi,
                 conventional=conventional, simplified=simplified, schmittberger=schmittberger,
                 margin=margin, winner=winner, stars=infos, dead_groups=dead_groups)


def is_settled(position) -> bool:
    """Whether the score can no longer change, whatever is still played.

    It cannot when every open region (connected empty and dead cells) that
    still has an empty cell borders exactly one star and holds fewer than two
    pericells: a stone played there either joins that star or belongs to a
    group with at most one pericell, which is dead; no star can be founded,
    no two stars joined, and the region stays that star's. (A conservative
    test: some settled positions are not recognised, none is wrongly.)

    >>> from stargtp.engine.star.position import Position
    >>> is_settled(Position(3))
    False
    """
    geo = position.geometry
    board = position.board
    count = geo.cell_count
    star_of = [-1] * count
    for index, info in enumerate(score(position).stars):
        for cell in info.cells:
            star_of[cell] = index
    open_cell = [star_of[c] < 0 for c in range(count)]
    for region in _components([c for c in range(count) if open_cell[c]], open_cell, geo.neighbours):
        if all(board[c] != 0 for c in region):
            continue  # dead stones only: nothing can be played there
        bordering = {star_of[o] for c in region for o in geo.neighbours[c] if star_of[o] >= 0}
        if len(bordering) != 1 or sum(1 for c in region if geo.is_peri[c]) >= 2:
            return False
    return True


__all__ = ["ColourScore", "Score", "StarInfo", "is_settled", "score", "format_number"]
