"""``stargtp render``: move lists, match results files (a real match's among
them), *Star and Amazons SGF; one picture, a chosen move, a whole series;
the caption's komi; errors."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from stargtp.engine.amazons import Position as AmazonsPosition
from stargtp.engine.amazons import write_sgf
from stargtp.engine.star import PASS, Position
from stargtp.engine.star import write_sgf as write_star_sgf
from stargtp.protocol.cli import main
from stargtp.protocol.tools.render import RecordError, positions_of, read_record
from tests.star_reference import load_examples
from tests.svg_helpers import parse, with_class

ROOT = Path(__file__).resolve().parent.parent


def render(*argv: str) -> int:
    return main(["render", *argv])


def stones(root, colour: str | None = None) -> list[str]:
    classes = ("stone",) if colour is None else ("stone", colour)
    return sorted(e.get("data-cell") for e in with_class(root, *classes))


def test_move_list_with_set_up_lines_draws_the_worked_example(tmp_path):
    record = load_examples()[0]
    source = tmp_path / "example1.txt"
    source.write_text(f"# the seed's first example\nsize 4\nblack {record['black']}\nwhite {record['white']}\n")
    out = tmp_path / "example1.svg"
    assert render(str(source), "-o", str(out), "--dead") == 0
    text = out.read_text()
    assert text.endswith("</svg>\n") and text.count("\n") == 1
    root = parse(text.rstrip("\n"))
    assert stones(root, "black") == sorted(record["black"].split())
    assert stones(root, "white") == sorted(record["white"].split())
    assert len(with_class(root, "star")) == 4
    caption = with_class(root, "caption")[0].text
    assert caption == "45 moves, last white R43, black to move, score now W+1"


def test_alternating_moves_move_option_and_stdout(tmp_path, capsys):
    source = tmp_path / "game.txt"
    source.write_text("game star\nrings 3\n*30 s10  # comments are ignored\nPASS t32\n")
    assert render(str(source)) == 0
    root = parse(capsys.readouterr().out.rstrip("\n"))
    assert stones(root, "black") == ["*30"]
    assert stones(root, "white") == ["S10", "T32"]  # black passed in between
    assert render(str(source), "--move", "1", "--no-caption") == 0
    root = parse(capsys.readouterr().out.rstrip("\n"))
    assert stones(root) == ["*30"] and not with_class(root, "caption")
    assert render(str(source), "--move", "-2", "--caption", "two moves in") == 0
    root = parse(capsys.readouterr().out.rstrip("\n"))
    assert stones(root) == ["*30", "S10"]
    assert with_class(root, "caption")[0].text == "two moves in"
    assert render(str(source), "--move", "5") == 2
    assert "the game has 4 moves" in capsys.readouterr().err


def test_series_writes_one_picture_per_move(tmp_path):
    source = tmp_path / "game.txt"
    source.write_text("size 2\nS20 S21 T20 pass A20\n")
    series = tmp_path / "pictures"
    assert render(str(source), "--series", str(series), "--no-labels") == 0
    files = sorted(series.iterdir())
    assert [f.name for f in files] == [f"move-{i:03d}.svg" for i in range(6)]
    counts = [len(with_class(parse(f.read_text().rstrip("\n")), "stone")) for f in files]
    assert counts == [0, 1, 2, 3, 3, 4]
    assert not with_class(parse(files[-1].read_text().rstrip("\n")), "label")


def test_positions_of_keeps_each_prefix_of_the_history():
    final = Position(3)
    for label in ("*30", "S10", "T32"):
        final.play(final.parse_move(label))
    positions = positions_of(final)
    assert [len(p.history) for p in positions] == [0, 1, 2, 3]
    assert positions[-1].history == final.history and positions[2].history == final.history[:2]


def _results_file(path: Path) -> None:
    header = {"type": "header", "format": "stargtp-match-results/1", "settings": {"game": "star"}}
    games = [
        {"type": "game", "key": "A vs B #0", "game": "star", "size": 2, "result": "W+7",
         "moves": [{"colour": "black", "move": "S20", "seconds": 0.1},
                   {"colour": "white", "move": "*10", "seconds": 0.1}]},
        {"type": "game", "key": "A vs B #1", "game": "amazons", "size": 6, "result": "B+R",
         "moves": [{"colour": "white", "move": "b1-b4/d4", "seconds": 0.1},
                   {"colour": "black", "move": "resign", "seconds": 0.1}]},
    ]
    path.write_text("\n".join(json.dumps(item) for item in [header, *games]) + "\n")


def test_results_file_records_by_number_and_key(tmp_path, capsys):
    results = tmp_path / "results.jsonl"
    _results_file(results)
    assert render(str(results)) == 0
    captured = capsys.readouterr()
    assert "holds 2 games; taking the first" in captured.err
    root = parse(captured.out.rstrip("\n"))
    assert stones(root, "black") == ["S20"] and stones(root, "white") == ["*10"]
    assert with_class(root, "caption")[0].text.endswith("recorded result W+7")
    for choice in ("2", "A vs B #1"):
        assert render(str(results), "--record", choice) == 0
        root = parse(capsys.readouterr().out.rstrip("\n"))
        assert [e.get("data-square") for e in with_class(root, "arrow")] == ["d4"]
        assert sorted(e.get("data-square") for e in with_class(root, "amazon", "white")) == ["a2", "b4", "e1", "f2"]
    assert render(str(results), "--record", "3") == 2  # a bad option, not a bad record
    assert capsys.readouterr().err == f"stargtp render: argument --record: {results} holds games 1..2, not 3\n"
    assert render(str(results), "--record", "no such key") == 2
    assert capsys.readouterr().err == \
        f"stargtp render: argument --record: {results} holds no game with the key 'no such key'\n"


def test_a_real_match_runner_results_file(tmp_path):
    """The match runner's own output, two random engines on a 2-ring board."""
    results = tmp_path / "match.jsonl"
    engine = f"{sys.executable} -m protocol.cli serve --player random --seed"
    completed = subprocess.run(
        [sys.executable, "-m", "stargtp.protocol.cli", "match", "--black", f"{engine} 1", "--white", f"{engine} 2",
         "--games", "1", "--size", "2", "--results", str(results), "--quiet"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    record = [json.loads(line) for line in results.read_text().splitlines()][-1]
    out = tmp_path / "game.svg"
    assert render(str(results), "-o", str(out)) == 0
    root = parse(out.read_text().rstrip("\n"))
    expected = {"black": [], "white": []}
    for move in record["moves"]:
        if move["move"] not in ("pass", "resign"):
            expected[move["colour"]].append(move["move"])
    assert stones(root, "black") == sorted(expected["black"])
    assert stones(root, "white") == sorted(expected["white"])
    assert with_class(root, "caption")[0].text.endswith(f"recorded result {record['result']}")


def test_amazons_sgf(tmp_path):
    position = AmazonsPosition(10)
    for text in ("d1-d7/g7", "a7-b7/b1", "g1-g4/e2"):
        position.play(position.parse_move(text))
    source = tmp_path / "game.sgf"
    source.write_text(write_sgf(position, result="W+12"))
    out = tmp_path / "game.svg"
    assert render(str(source), "-o", str(out), "--unit", "30") == 0
    root = parse(out.read_text().rstrip("\n"))
    assert sorted(e.get("data-square") for e in with_class(root, "arrow")) == ["b1", "e2", "g7"]
    assert sorted(e.get("data-square") for e in with_class(root, "amazon", "black")) == ["b7", "d10", "g10", "j7"]
    assert [e.get("data-square") for e in with_class(root, "last-move", "to")] == ["g4"]
    assert with_class(root, "caption")[0].text.endswith("recorded result W+12")
    assert render(str(source), "-o", str(out), "--unit", "30", "--no-caption") == 0
    root = parse(out.read_text().rstrip("\n"))
    assert root.get("width") == root.get("height") == str(round(10 * 30 + 2 * 0.6 * 30))


def _star_game() -> Position:
    """Black's star *40 *41 owns the edge; white's lone S42 is dead; both pass."""
    position = Position(4)
    for label in ("*40", "S42", "*41", "pass", "pass"):
        position.play(position.parse_move(label))
    return position


def test_star_sgf_with_its_result(tmp_path):
    position = _star_game()
    assert position.is_over() and position.history[-1][1] == PASS
    source = tmp_path / "game.sgf"
    source.write_text(write_star_sgf(position))
    assert "RE[B+17]" in source.read_text()
    out = tmp_path / "game.svg"
    assert render(str(source), "-o", str(out)) == 0
    root = parse(out.read_text().rstrip("\n"))
    assert stones(root, "black") == ["*40", "*41"] and stones(root, "white") == ["S42"]
    assert with_class(root, "caption")[0].text == \
        "5 moves, last black pass, game over, B+17, recorded result B+17"
    assert [e.get("data-cell") for e in with_class(root, "stone", "dead")] == ["S42"]  # over: marked
    # A result the record states is shown as it is (B is black: no colour swap).
    source.write_text(write_star_sgf(position, result="W+R"))
    assert render(str(source), "-o", str(out)) == 0
    caption = with_class(parse(out.read_text().rstrip("\n")), "caption")[0].text
    assert caption.endswith("game over, B+17, recorded result W+R")


def test_star_sgf_komi_is_the_caption_komi_unless_given(tmp_path, capsys):
    position = _star_game()
    source = tmp_path / "game.sgf"
    source.write_text(write_star_sgf(position, komi=17.5))
    assert "KM[17.5]RE[W+0.5]" in source.read_text()
    assert render(str(source)) == 0
    caption = with_class(parse(capsys.readouterr().out.rstrip("\n")), "caption")[0].text
    assert caption.endswith("game over, W+0.5, recorded result W+0.5")
    assert render(str(source), "--komi", "0") == 0
    caption = with_class(parse(capsys.readouterr().out.rstrip("\n")), "caption")[0].text
    assert caption.endswith("game over, B+17, recorded result W+0.5")
    assert render(str(source), "--move", "2") == 0  # mid-game, the record's komi still counts
    caption = with_class(parse(capsys.readouterr().out.rstrip("\n")), "caption")[0].text
    assert caption == "2 moves, last white S42, black to move, score now W+17.5"


def test_star_sgf_series_and_stdin(tmp_path):
    source = tmp_path / "game.sgf"
    text = write_star_sgf(_star_game())
    source.write_text(text)
    series = tmp_path / "pictures"
    assert render(str(source), "--series", str(series)) == 0
    counts = [len(with_class(parse(f.read_text().rstrip("\n")), "stone")) for f in sorted(series.iterdir())]
    assert counts == [0, 1, 2, 3, 3, 3]
    completed = subprocess.run([sys.executable, "-m", "stargtp.protocol.cli", "render", "-", "--no-caption"],
                               input=text, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert stones(parse(completed.stdout.rstrip("\n"))) == ["*40", "*41", "S42"]


def test_results_file_komi_is_the_caption_komi(tmp_path, capsys):
    results = tmp_path / "results.jsonl"
    game = {"type": "game", "key": "A vs B #0", "game": "star", "size": 2, "komi": 0.5, "result": "W+0.5",
            "moves": [{"colour": "black", "move": "S20"}]}
    results.write_text(json.dumps(game) + "\n")
    assert render(str(results)) == 0
    caption = with_class(parse(capsys.readouterr().out.rstrip("\n")), "caption")[0].text
    assert caption == "1 move, last black S20, white to move, score now W+0.5, recorded result W+0.5"


@pytest.mark.parametrize("text, message", [
    ("size 3\n*30 *30\n", "input:2: *30: *30 is occupied"),
    ("*30\nsize 3\n", "input:2: 'size' must come before the moves"),
    ("game chess\n", "input:1: unknown game 'chess'"),
    ("size x\n", "input:1: the size must be a number"),
    ("size 12\n", "input: a *Star board has 2..10 rings, not 12"),
    ("game amazons\nsize 6\nb1-b7/b2\n", "input:3: b1-b7/b2:"),
    ('{"type": "header"}\n', "input: no game record in the file"),
    ('{"moves": []}\nnot json\n', "input:2: not a JSON record"),
    ("(;GM[1]SZ[19];B[dd])", "input: GM[1] is no game of this engine (star: GM[2004], amazons: GM[18], hex: GM[11], y: GM[11])"),
    ("(;GM[18]SZ[9])", "input: SZ[9]: Amazons is played here on (6, 8, 10) boards"),
    ("(;GM[2004]SZ[4];B[S40];W[s40])", "input: move 2 (W[s40]): S40 is occupied"),
    ("(;GM[2004]SZ[4]AB[S40]AW[S40])", "input: point S40 is set up twice (AB and AW)"),
])
def test_unreadable_records(text, message):
    with pytest.raises(RecordError) as error:
        read_record(text)
    assert message in str(error.value)


def test_command_line_errors(tmp_path, capsys):
    """A bad option is exit status 2 (tests/test_cli.py has them all), a bad
    record 2 too, a picture that cannot be written 1 (not the input's fault)."""
    assert render(str(tmp_path / "missing.txt")) == 2
    assert "cannot read" in capsys.readouterr().err
    source = tmp_path / "bad.txt"
    source.write_text("size 2\nS20 S20\n")
    assert render(str(source)) == 2
    assert "bad.txt:2: S20: S20 is occupied" in capsys.readouterr().err
    source.write_text("S20\n")
    with pytest.raises(SystemExit) as exit_:
        render(str(source), "--unit", "0")
    assert exit_.value.code == 2
    assert render(str(source), "--size", "3", "--game", "star", "-o", str(tmp_path / "no" / "dir.svg")) == 2
    assert not (tmp_path / "no").exists()
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert render(str(source), "-o", str(locked / "picture.svg")) == 1
        assert "cannot write" in capsys.readouterr().err


def test_series_of_a_game_without_moves_is_one_picture(tmp_path, capsys):
    source = tmp_path / "empty.txt"
    source.write_text("size 2\n")
    assert render(str(source), "--series", str(tmp_path / "pictures")) == 0
    assert capsys.readouterr().err == f"stargtp render: wrote 1 picture to {tmp_path / 'pictures'}\n"
    assert [p.name for p in (tmp_path / "pictures").iterdir()] == ["move-000.svg"]


def test_render_reads_stdin():
    completed = subprocess.run([sys.executable, "-m", "stargtp.protocol.cli", "render", "-", "--size", "2"],
                               input="S20 *10\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert completed.returncode == 0, completed.stderr
    root = parse(completed.stdout.rstrip("\n"))
    assert stones(root, "black") == ["S20"] and stones(root, "white") == ["*10"]


# -- Hex and Y ----------------------------------------------------------------------------


def test_hex_sgf_as_hexgui_writes_it_with_a_swap(tmp_path, capsys):
    """A HexGui-style record (GM[11], a1 points, swap-pieces, RE[B+]): every
    move drawn, the swapped stone still black (after a Hex swap the same
    colour moves again), the last move ringed on the stone the swap took,
    the result in the caption;
    and a Hex move list drawn without labels."""
    source = tmp_path / "game.sgf"
    source.write_text("(;AP[HexGui:0.9]FF[4]GM[11]SZ[5]RE[B+]\n;B[c3];W[swap-pieces];W[b4];B[d2])\n")
    assert render(str(source)) == 0
    root = parse(capsys.readouterr().out.rstrip("\n"))
    assert len(with_class(root, "cell")) == 25
    assert stones(root, "black") == ["c3", "d2"] and stones(root, "white") == ["b4"]
    assert [e.get("data-cell") for e in with_class(root, "last-move")] == ["d2"]
    assert with_class(root, "caption")[0].text == (
        "4 moves, last black d2, white to move, recorded result B+")
    assert render(str(source), "--move", "2", "--no-caption") == 0
    root = parse(capsys.readouterr().out.rstrip("\n"))
    assert [e.get("class") for e in with_class(root, "last-move")] == ["last-move swap"]
    assert stones(root, "black") == ["c3"]
    moves = tmp_path / "game.txt"
    moves.write_text("game hex\nsize 3\nb2 a1 b1 c1 b3\n")
    assert render(str(moves), "--no-labels", "--unit", "20") == 0
    root = parse(capsys.readouterr().out.rstrip("\n"))
    assert stones(root, "black") == ["b1", "b2", "b3"] and not with_class(root, "coordinate")
    assert with_class(root, "winning-group", "black")
    assert with_class(root, "caption")[0].text == "5 moves, last black b3, game over, black joined north and south"
    assert root.find("{http://www.w3.org/2000/svg}polygon").get("stroke-width") == "0.6"  # 0.03 of the unit
    assert render(str(moves), "--no-group", "--no-stars") == 0  # --no-stars is *Star's: ignored here
    root = parse(capsys.readouterr().out.rstrip("\n"))
    assert stones(root, "black") == ["b1", "b2", "b3"] and not with_class(root, "winning-group")


def test_move_list_with_a_swap_takes_the_rule_from_rule(tmp_path, capsys):
    """A move list has no place for a game's options: ``--rule swap=on``
    plays a Hex or Y list with swap-pieces; without it the swap is refused
    as the rules refuse it (exit 2); a rule the list's game lacks, or a bad
    value, is a bad option (exit 2)."""
    moves = tmp_path / "swap.txt"
    moves.write_text("game y\nsize 4\nb3 swap-pieces c4\n")
    assert render(str(moves)) == 2
    assert "swap.txt:3: swap-pieces: swap-pieces needs the swap rule, which is off" in capsys.readouterr().err
    assert render(str(moves), "--rule", "swap=on") == 0
    root = parse(capsys.readouterr().out.rstrip("\n"))
    assert stones(root, "black") == ["c4"] and stones(root, "white") == ["b3"]  # a Y swap turns the stone over
    assert with_class(root, "caption")[0].text == "3 moves, last black c4, white to move"
    assert render(str(moves), "--rule", "swap=maybe") == 2
    assert capsys.readouterr().err == "stargtp render: argument --rule: option swap is on or off, not 'maybe'\n"
    moves.write_text("S43\n")
    assert render(str(moves), "--rule", "swap=on") == 2
    assert capsys.readouterr().err == "stargtp render: argument --rule: *Star has no option 'swap' (options: none)\n"


def test_y_sgf_series_and_results_line(tmp_path, capsys):
    """A Y record (BOARD[Y]) drawn move by move: triangles of 10 cells; a
    match results line of a Y game draws the same final position."""
    source = tmp_path / "y.sgf"
    source.write_text("(;FF[4]GM[11]SZ[4]BOARD[Y]\n;B[b3];W[a1];B[c4])\n")
    series = tmp_path / "pictures"
    assert render(str(source), "--series", str(series)) == 0
    files = sorted(series.iterdir())
    assert len(files) == 4
    roots = [parse(f.read_text().rstrip("\n")) for f in files]
    assert [len(with_class(r, "cell")) for r in roots] == [10] * 4
    assert [len(with_class(r, "stone")) for r in roots] == [0, 1, 2, 3]
    assert [len(with_class(r, "edge", "neutral")) for r in roots] == [3] * 4
    results = tmp_path / "results.jsonl"
    results.write_text(json.dumps({"type": "header"}) + "\n" + json.dumps(
        {"key": "A vs B #1", "game": "y", "size": 4, "moves": ["b3", "a1", "c4"], "result": "W+"}) + "\n")
    assert render(str(results)) == 0
    root = parse(capsys.readouterr().out.rstrip("\n"))
    assert stones(root, "black") == ["b3", "c4"] and stones(root, "white") == ["a1"]
    assert with_class(root, "caption")[0].text == "3 moves, last black c4, white to move, recorded result W+"
