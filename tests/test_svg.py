"""SVG pictures: parsed as XML, with the right number of cells, edges, stones,
stars, owned pericells, quarks and marks for known positions (the seed's
worked examples among them), for both games."""

import math
import random

import pytest

from stargtp.engine.amazons import Position as AmazonsPosition
from stargtp.engine.colour import BLACK, WHITE
from stargtp.engine.star import PASS, Position, geometry
from stargtp.protocol.pictures import describe, position_svg
from stargtp.protocol.pictures.amazons import draw as amazons_svg
from stargtp.protocol.pictures.star import draw as star_svg
from stargtp.engine.star.diagram import star_layout
from tests.star_reference import example_position, load_examples
from tests.svg_helpers import parse, with_class

SVG = "{http://www.w3.org/2000/svg}"


def cells_of(elements) -> list[str]:
    return [e.get("data-cell") for e in elements]


# -- *Star --------------------------------------------------------------------------


def test_layout_puts_rings_on_pentagons_with_corners_on_the_arms():
    for rings in range(2, 11):
        geo = geometry(rings)
        layout = star_layout(rings)
        assert len(layout) == geo.cell_count
        for cell in range(geo.cell_count):
            ring, position = geo.ring_of[cell], geo.position_of[cell]
            x, y = layout[cell]
            if position % ring == 0:  # a corner: on its arm's direction, at radius `ring`
                angle = math.radians(-90 + 72 * (position // ring))
                assert x == pytest.approx(ring * math.cos(angle))
                assert y == pytest.approx(ring * math.sin(angle))
            else:  # between two corners: inside the circle of radius `ring`
                assert math.hypot(x, y) < ring
        # No two cells closer than one ring apart, no lattice edge (but the
        # star bridge's diagonals) longer than a pentagon step.
        closest = min(math.dist(a, b) for i, a in enumerate(layout) for b in layout[i + 1:])
        assert closest == pytest.approx(1.0)
        longest = max(math.dist(layout[c], layout[o]) for c in range(geo.cell_count)
                      for o in geo.neighbours[c] if geo.ring_of[c] > 1 or geo.ring_of[o] > 1)
        assert longest == pytest.approx(2 * math.sin(math.radians(36)))


@pytest.mark.parametrize("rings", [2, 4, 10])
def test_empty_board_has_every_cell_edge_label_and_quark(rings):
    root = parse(position_svg(Position(rings)))
    cells = 5 * rings * (rings + 1) // 2
    assert len(with_class(root, "cell")) == cells
    assert len(with_class(root, "label")) == cells
    assert len(with_class(root, "edge")) == 5 * rings * (3 * rings + 1) // 2
    assert len(with_class(root, "edge", "perimeter")) == 5 * rings
    assert len(with_class(root, "bridge")) == 1
    assert len(with_class(root, "arm")) == 5
    quarks = with_class(root, "quark")
    assert sorted(cells_of(quarks)) == sorted(f"{arm}{rings % 10}0" for arm in "*STAR")
    assert not with_class(root, "stone") and not with_class(root, "star") and not with_class(root, "last-move")


@pytest.mark.parametrize("record", load_examples(), ids=lambda r: r["name"])
def test_worked_examples(record):
    position = example_position(record)
    root = parse(position_svg(position, dead=True))
    black, white = record["black"].split(), record["white"].split()
    assert sorted(cells_of(with_class(root, "stone", "black"))) == sorted(black)
    assert sorted(cells_of(with_class(root, "stone", "white"))) == sorted(white)
    assert len(with_class(root, "cell")) == 50 - len(black) - len(white)
    # One group per star, in the scorer's order, each with its owned pericells.
    stars = with_class(root, "star")
    listing = [[("black" if "black" in s.get("class").split() else "white"), s.get("data-quarks")]
               + sorted(cells_of(with_class(s, "owned"))) for s in stars]
    expected = [[line[0], line[1]] + sorted(line[2:]) for line in (s.split() for s in record["star"])]
    assert listing == expected
    assert [s.get("id") for s in stars] == [f"star-{i}" for i in range(1, len(stars) + 1)]
    for star in stars:
        assert int(star.get("data-peris")) == len(with_class(star, "owned"))
    black_quarks, white_quarks = map(int, record["quarks"].split())
    assert len(with_class(root, "quark", "black")) == black_quarks
    assert len(with_class(root, "quark", "white")) == white_quarks
    assert len(with_class(root, "quark")) == 5
    black_peris, white_peris = map(int, record["peris"].split())
    assert len(with_class(root, "owned", "black")) == black_peris
    assert len(with_class(root, "owned", "white")) == white_peris
    last = with_class(root, "last-move")
    assert cells_of(last) == [white[-1]]


def test_dead_stones_of_example_two():
    """Red's (black's) stone on S43 is dead; so is the central black group."""
    position = example_position(load_examples()[1])
    root = parse(star_svg(position, dead=True))
    dead = sorted(cells_of(with_class(root, "stone", "dead")))
    assert dead == sorted(["S43", "*10", "S10", "S21", "R21", "*30"])
    assert sorted(cells_of(with_class(root, "dead-mark"))) == dead
    # Mid-game (the board is not full, nobody passed) dead groups are not marked by default.
    assert not with_class(parse(star_svg(position)), "dead")


def test_full_board_marks_dead_groups_by_default():
    from stargtp.engine.star import score

    rng = random.Random(7)
    position = Position(5)
    while not position.is_over():
        position.play(rng.choice(position.legal_moves()))
    root = parse(position_svg(position))
    expected = sorted(position.geometry.labels[c] for group in score(position).dead_groups for c in group)
    assert sorted(cells_of(with_class(root, "stone", "dead"))) == expected
    # On a full board every pericell has an owner.
    assert len(with_class(root, "owned")) == 25
    assert not with_class(root, "cell")


def test_options_switch_parts_off_and_marks_on():
    position = example_position(load_examples()[0])
    bare = parse(position_svg(position, labels=False, stars=False, last_move=False))
    assert not with_class(bare, "label") and not with_class(bare, "star") and not with_class(bare, "last-move")
    assert len(with_class(bare, "stone")) == 45
    hinted = parse(position_svg(Position(4), marks=[Position(4).parse_move("s43")]))
    assert cells_of(with_class(hinted, "mark")) == ["S43"]


def test_pass_is_not_a_last_move_and_caption_is_escaped():
    position = Position(3)
    position.play(position.parse_move("*30"))
    position.play(PASS)
    root = parse(position_svg(position, caption="a <b> & c\nd", title="x & y"))
    assert not with_class(root, "last-move")
    assert [e.text for e in with_class(root, "caption")] == ["a <b> & c d"]
    assert root.find(f"{SVG}title").text == "x & y"


def test_every_size_and_a_long_game_are_well_formed():
    rng = random.Random(11)
    for rings in range(2, 11):
        position = Position(rings)
        for _ in range(rng.randrange(position.geometry.cell_count)):
            position.play(rng.choice(position.legal_moves()))
        root = parse(position_svg(position, caption=describe(position)))
        stones = sum(1 for v in position.board if v)
        assert len(with_class(root, "stone")) == stones
        assert len(with_class(root, "cell")) == position.geometry.cell_count - stones


def test_unknown_options_and_games_are_refused():
    with pytest.raises(TypeError):
        position_svg(Position(3), arrows=True)
    with pytest.raises(TypeError):
        position_svg(AmazonsPosition(6), stars=False)

    class Chess:
        game = "chess"

    with pytest.raises(ValueError):
        position_svg(Chess())


# -- Amazons --------------------------------------------------------------------------


def test_amazons_start_position():
    root = parse(position_svg(AmazonsPosition(10)))
    assert len(with_class(root, "square")) == 100
    assert len(with_class(root, "square", "dark")) == 50
    assert [e.get("data-square") for e in with_class(root, "square", "dark")][0] == "a1"
    squares = lambda *c: sorted(e.get("data-square") for e in with_class(root, *c))  # noqa: E731
    assert squares("amazon", "white") == ["a4", "d1", "g1", "j4"]
    assert squares("amazon", "black") == ["a7", "d10", "g10", "j7"]
    assert not with_class(root, "arrow") and not with_class(root, "last-move")
    assert len(with_class(root, "coordinate")) == 4 * 10


def test_amazons_after_moves():
    position = AmazonsPosition(8)
    rng = random.Random(3)
    for _ in range(9):
        position.play(rng.choice(position.legal_moves()))
    root = parse(amazons_svg(position, caption=describe(position)))
    squares = lambda *c: sorted(e.get("data-square") for e in with_class(root, *c))  # noqa: E731
    names = position.geometry.names
    assert squares("arrow") == sorted(names[s] for s, v in enumerate(position.board) if v == 3)
    assert len(squares("arrow")) == 9
    assert squares("amazon", "white") == sorted(names[s] for s in position.amazons(WHITE))
    assert squares("amazon", "black") == sorted(names[s] for s in position.amazons(BLACK))
    origin, target, arrow = position.history[-1][1]
    assert squares("last-move", "from") == [names[origin]]
    assert squares("last-move", "to") == [names[target]]
    assert squares("last-move", "shot") == [names[arrow]]
    assert len(with_class(root, "move-line")) == 2
    assert not with_class(root, "marked")
    move = position.legal_moves()[0]
    marked = parse(amazons_svg(position, marks=[move], labels=False))
    assert [e.get("data-square") for e in with_class(marked, "mark")] == [names[move[2]]]
    assert not with_class(marked, "coordinate")


# -- the palette and the clickable points -----------------------------------------------


def _pictures() -> list[str]:
    """Pictures of every game with every kind of element: a full, scored
    *Star board with dead groups and marks, an Amazons game with arrows and
    marks, an empty board, a won Hex game with a mark and a Y game."""
    rng = random.Random(8)
    star = Position(4)
    while not star.is_over():
        star.play(rng.choice(star.legal_moves()))
    amazons = AmazonsPosition(6)
    for _ in range(6):
        amazons.play(rng.choice(amazons.legal_moves()))
    from stargtp.engine.hex import Position as HexPosition
    from stargtp.engine.y import Position as YPosition

    hex_board = HexPosition(5)
    while not hex_board.is_over():
        hex_board.play(rng.choice(hex_board.legal_moves()))
    y_board = YPosition(4)
    for _ in range(3):
        y_board.play(rng.choice(y_board.legal_moves()))
    return [star_svg(star, dead=True, marks=[0], caption="x"),
            amazons_svg(amazons, marks=[amazons.legal_moves()[0]], caption="x"), star_svg(Position(3)),
            position_svg(hex_board, marks=[0], caption="x"), position_svg(y_board)]


def test_every_colour_is_a_palette_colour_tied_to_its_variable() -> None:
    """Each colour a picture paints with is one of PALETTE's, and the
    picture's style sheet sets exactly that colour from its variable, with
    the colour itself as the fallback (so standalone it looks the same)."""
    import re

    from stargtp.protocol.pictures.svg import PALETTE

    by_colour = {colour: name for name, colour in PALETTE.items()}
    used = set()
    for text in _pictures():
        root = parse(text)
        style = "".join(e.text or "" for e in root.iter() if e.tag.endswith("style"))
        rules = dict(((a, c), (p, v)) for a, c, p, v in
                     re.findall(r'\[(fill|stroke)="(#[0-9a-f]{6})"\]\{(fill|stroke):([^}]*)\}', style))
        assert len(rules) == 2 * len(PALETTE)
        for (attribute, colour), (prop, value) in rules.items():
            assert prop == attribute and value == f"var(--stargtp-{by_colour[colour]},{colour})"
        for element in root.iter():
            for attribute in ("fill", "stroke"):
                value = element.get(attribute)
                if value is not None and value != "none":
                    assert value in by_colour, (element.get("class"), attribute, value)
                    used.add(value)
        assert "#" not in re.sub(r'(fill|stroke)="#[0-9a-f]{6}"|<style>.*?</style>', "", text)
    assert used == set(PALETTE.values())  # and every palette colour is used


def test_palette_css_sets_every_variable() -> None:
    from stargtp.protocol.pictures.svg import PALETTE, palette_css

    lines = palette_css().splitlines()
    assert lines[0] == ":root {" and lines[-1] == "}"
    assert lines[1:-1] == [f"  --stargtp-{name}: {colour};" for name, colour in PALETTE.items()]


def test_every_point_carries_data_point() -> None:
    """Each cell, stone, square, amazon and arrow names its point in
    data-point (its move text), the same as its data-cell / data-square;
    nothing else does."""
    star_text, amazons_text, _, hex_text, y_text = _pictures()
    star_root, amazons_root = parse(star_text), parse(amazons_text)
    points = [e for e in star_root.iter() if e.get("data-point") is not None]
    assert sorted(e.get("data-point") for e in points) == sorted(geometry(4).labels)
    assert all(e.get("data-point") == e.get("data-cell") for e in points)
    assert {c for e in points for c in e.get("class").split()} <= {"cell", "corner", "stone", "black", "white", "dead"}
    points = [e for e in amazons_root.iter() if e.get("data-point") is not None]
    squares = [e.get("data-point") for e in points if "square" in e.get("class").split()]
    assert len(squares) == 36 and len(set(squares)) == 36
    pieces = [e for e in points if "square" not in e.get("class").split()]
    assert sorted(e.get("class") for e in pieces) == sorted(["amazon white"] * 4 + ["amazon black"] * 4 + ["arrow"] * 6)
    assert all(e.get("data-point") == e.get("data-square") for e in points)
    for text, cells in ((hex_text, 25), (y_text, 10)):
        points = [e for e in parse(text).iter() if e.get("data-point") is not None]
        hexagons = [e.get("data-point") for e in points if e.get("class") == "cell"]
        assert len(hexagons) == len(set(hexagons)) == cells
        stones = [e for e in points if e.get("class") != "cell"]
        assert {e.get("class") for e in stones} <= {"stone black", "stone white"} and stones
        assert set(e.get("data-point") for e in stones) <= set(hexagons)
        assert all(e.get("data-point") == e.get("data-cell") for e in points)


# -- Hex and Y ----------------------------------------------------------------------------

from stargtp.engine.hex import Position as HexPosition  # noqa: E402
from stargtp.engine.y import Position as YPosition  # noqa: E402
from stargtp.protocol.pictures.connection import draw as connection_draw, frame  # noqa: E402
from stargtp.protocol.pictures.svg import EDGE_NEUTRAL, STONE_FILL  # noqa: E402

CONNECTION = [(HexPosition, size) for size in (1, 2, 3, 11, 19)] + [(YPosition, size) for size in (1, 2, 3, 13, 19)]


def polygon_points(element) -> list[tuple[float, float]]:
    return [tuple(map(float, pair.split(","))) for pair in element.get("points").split()]


def inside_convex(point, polygon, slack: float = 1e-6) -> bool:
    """Whether ``point`` is inside (or on) the convex ``polygon``."""
    signs = set()
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
        cross = (x1 - x0) * (point[1] - y0) - (y1 - y0) * (point[0] - x0)
        if abs(cross) > slack * max(1.0, math.dist((x0, y0), (x1, y1))):
            signs.add(cross > 0)
    return len(signs) <= 1


def random_game(position, moves: int, seed: int):
    rng = random.Random(seed)
    for _ in range(moves):
        if position.is_over():
            break
        position.play(rng.choice(position.legal_moves()))
    return position


@pytest.mark.parametrize("kind,size", CONNECTION, ids=lambda v: getattr(v, "game", v))
def test_connection_board_has_every_cell_edge_and_coordinate(kind, size):
    """Every cell is a hexagon naming its point; Hex has two black edges
    (north, south) and two white ones (west, east), Y three neutral ones;
    the coordinates: Hex letters above and below, numbers left and right; Y
    numbers at both ends of every row and letters below."""
    position = kind(size)
    root = parse(position_svg(position))
    geo = position.geometry
    cells = with_class(root, "cell")
    assert len(cells) == (size * size if position.game == "hex" else size * (size + 1) // 2)
    assert [c.get("data-point") for c in cells] == [c.get("data-cell") for c in cells] == list(geo.labels)
    assert sorted(e.get("data-point") for e in root.iter() if e.get("data-point")) == sorted(geo.labels)
    edges = {e.get("data-edge"): (e.get("class").split()[2], e.get("fill")) for e in with_class(root, "edge")}
    if position.game == "hex":
        assert edges == {"north": ("black", STONE_FILL[BLACK]), "south": ("black", STONE_FILL[BLACK]),
                         "west": ("white", STONE_FILL[WHITE]), "east": ("white", STONE_FILL[WHITE])}
        letters = [chr(ord("a") + i) for i in range(size)] * 2
        numbers = [str(i + 1) for i in range(size)] * 2
    else:
        assert edges == {name: ("neutral", EDGE_NEUTRAL) for name in ("west", "east", "south")}
        letters = [chr(ord("a") + i) for i in range(size)]
        numbers = [str(i + 1) for i in range(size)] * 2
    coordinates = [e.text for e in with_class(root, "coordinate")]
    assert sorted(coordinates) == sorted(letters + numbers)
    assert not with_class(root, "stone") and not with_class(root, "last-move") and not with_class(root, "score")


@pytest.mark.parametrize("kind,size", CONNECTION, ids=lambda v: getattr(v, "game", v))
def test_each_outer_side_of_a_cell_borders_the_band_of_an_edge_the_cell_touches(kind, size):
    """Checked against the engine's neighbours, not the picture's lines: a
    side of a cell with no neighbour across it is on the board's outline,
    and the band just beyond it (a quarter, half and three quarters along
    it) belongs to one of the edges the geometry says the cell touches; the
    band of every edge borders every cell of that edge; cells are regular
    hexagons whose neighbours share a side."""
    position = kind(size)
    root = parse(position_svg(position, unit=40.0))
    geo = position.geometry
    bands = {e.get("data-edge"): polygon_points(e) for e in with_class(root, "edge")}
    hexagons = {e.get("data-cell"): polygon_points(e) for e in with_class(root, "cell")}
    touched: dict[str, set[str]] = {name: set() for name in bands}
    for cell in geo.cells:
        corners = hexagons[cell.label]
        centre = (cell.x * 40, cell.y * 40)
        assert all(math.dist(c, centre) == pytest.approx(40 / math.sqrt(3), abs=0.02) for c in corners)
        for a, b in zip(corners, corners[1:] + corners[:1]):
            middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            across = (2 * middle[0] - centre[0], 2 * middle[1] - centre[1])  # where a neighbour's centre would be
            neighbour = [n for n in cell.neighbours
                         if math.dist(across, (geo.cells[n].x * 40, geo.cells[n].y * 40)) < 0.5]
            if neighbour:
                assert len(neighbour) == 1
                continue
            assert cell.edges, f"{cell.label} has an outer side but touches no edge"
            for t in (0.25, 0.5, 0.75):
                point = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
                outward = (point[0] + 0.05 * (point[0] - centre[0]), point[1] + 0.05 * (point[1] - centre[1]))
                owners = [name for name, band in bands.items() if inside_convex(outward, band)]
                assert owners and set(owners) <= cell.edges, (cell.label, t, owners)
                touched[owners[0]].add(cell.label)
    for name in bands:
        assert touched[name] == {c.label for c in geo.cells if name in c.edges}


def test_connection_stones_last_move_swap_and_marks():
    position = random_game(HexPosition(11), 30, seed=5)
    root = parse(position_svg(position, caption=describe(position), marks=[0]))
    labels = position.geometry.labels
    for colour, name in ((BLACK, "black"), (WHITE, "white")):
        stones = with_class(root, "stone", name)
        expected = [labels[c] for c, v in enumerate(position.board) if v == colour]
        assert [s.get("data-cell") for s in stones] == [s.get("data-point") for s in stones] == expected
        assert {s.get("fill") for s in stones} == {STONE_FILL[colour]}
    assert len(with_class(root, "stone")) == 30
    assert cells_of(with_class(root, "last-move")) == [labels[position.history[-1][1]]]
    assert cells_of(with_class(root, "mark")) == ["a1"]
    assert [e.text for e in with_class(root, "caption")] == [
        f"30 moves, last white {labels[position.history[-1][1]]}, black to move"]
    bare = parse(position_svg(position, labels=False, last_move=False))
    assert not with_class(bare, "coordinate") and not with_class(bare, "last-move")
    for kind, stays in ((HexPosition, True), (YPosition, False)):
        swapped = kind(5, swap=True)
        swapped.play(swapped.parse_move("c3"))
        swapped.play(swapped.parse_move("swap-pieces"))
        root = parse(position_svg(swapped))
        assert [e.get("class") for e in with_class(root, "last-move")] == ["last-move swap"]
        assert cells_of(with_class(root, "last-move")) == ["c3"]
        assert cells_of(with_class(root, "stone", "black" if stays else "white")) == ["c3"]


@pytest.mark.parametrize("kind,size,seed", [(HexPosition, 7, 1), (YPosition, 9, 2)])
def test_connection_won_game_outlines_the_winning_group(kind, size, seed):
    position = random_game(kind(size), size * size, seed)
    assert position.is_over()
    report = position.rules.score(position, 0.0)
    root = parse(position_svg(position, caption=describe(position)))
    group = with_class(root, "winning-group", "score")
    assert len(group) == 1 and colour_of(group[0]) == report.winner
    labels = position.geometry.labels
    assert cells_of(with_class(root, "winning")) == [labels[c] for c in report.group]
    assert describe(position).endswith(f"game over, {report.reason}")
    assert not with_class(parse(position_svg(position, group=False)), "winning")


def colour_of(element) -> int:
    return BLACK if "black" in element.get("class").split() else WHITE


def test_connection_options_are_its_own():
    with pytest.raises(TypeError):
        position_svg(HexPosition(5), stars=False)
    with pytest.raises(TypeError):
        position_svg(Position(3), group=False)
    # the frame is computed once per board
    assert frame(HexPosition(11).geometry) is frame(HexPosition(11).geometry)


@pytest.mark.parametrize("kind,size", [(HexPosition, 19), (YPosition, 19)])
def test_connection_pictures_of_the_largest_boards_keep_everything_in_view(kind, size):
    position = random_game(kind(size), 120, seed=4)
    text = position_svg(position, caption=describe(position))
    root = parse(text)
    left, top, width, height = map(float, root.get("viewBox").split())
    for element in root.iter():
        if element.get("points"):
            for x, y in polygon_points(element):
                assert left <= x <= left + width and top <= y <= top + height
        if element.get("x") and element.tag.endswith("text"):
            assert left <= float(element.get("x")) <= left + width
    assert len(with_class(root, "stone")) == sum(1 for v in position.board if v)
    assert width <= 1000  # at the default unit a 19x19 board is a screen wide


def test_pictures_md_lists_every_palette_variable() -> None:
    """docs/pictures.md's colour table names every palette variable with its colour."""
    import re
    from pathlib import Path

    from stargtp.protocol.pictures.svg import PALETTE

    text = (Path(__file__).resolve().parent.parent / "docs" / "pictures.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `--stargtp-")]
    documented = {}
    for row in rows:
        names = re.findall(r"`--stargtp-([a-z-]+)`", row.split("|")[1])
        colours = re.findall(r"`(#[0-9a-f]{6})`", row.split("|")[2])
        assert len(names) == len(colours), row
        documented.update(zip(names, colours))
    assert documented == PALETTE
