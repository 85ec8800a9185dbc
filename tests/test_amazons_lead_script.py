"""examples/amazons_lead.py: an engine's queen-territory lead, ply by ply, over
a match's games, checked against a plain breadth-first count of queen
distances (tests/amazons_reference.py)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from stargtp.engine.amazons import Position
from stargtp.engine.colour import BLACK, WHITE

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import amazons_lead  # noqa: E402
from tests.amazons_reference import reference_territory  # noqa: E402

def reference_lead(position: Position, colour: int) -> int:
    nearer, farther = reference_territory(position, colour)
    return nearer - farther


def seeded_game(seed: int, plies: int) -> list[str]:
    rng = random.Random(seed)
    position = Position(6)
    texts = []
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        texts.append(position.format_move(move))
        position.play(move)
    return texts


def record(number: int, black: str, white: str, moves: list[str], winner: str) -> dict:
    return {"type": "game", "key": f"a vs b #{number}", "number": number, "game": "amazons",
            "size": 6, "black": black, "white": white, "winner_engine": winner,
            "moves": [{"move": text} for text in moves]}


def write_results(path: Path, games: list[dict]) -> None:
    header = {"type": "header", "format": "stargtp-match-results/2", "settings": {"game": "amazons"}}
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *games]))


def test_leads_match_a_breadth_first_count_and_the_summary_adds_them_up(tmp_path, capsys):
    games = [record(1, "a", "b", seeded_game(1, 14), "a"),
             record(2, "b", "a", seeded_game(2, 11), "b")]
    results = tmp_path / "r.jsonl"
    write_results(results, games)
    expected = []
    for game, colour in ((games[0], BLACK), (games[1], WHITE)):
        position = Position(6)
        leads = [reference_lead(position, colour)]
        for entry in game["moves"]:
            position.play(position.parse_move(entry["move"]))
            leads.append(reference_lead(position, colour))
        assert amazons_lead.game_leads(game, "a").leads == tuple(leads)
        expected.append(leads)
    assert any(lead != 0 for leads in expected for lead in leads)
    assert amazons_lead.main([str(results), "--engine", "a", "--bucket", "5",
                              "--window", "8-10", "--lead", "-30"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "a: 2 games, won 1"
    assert len(lines) == 2 + 3 + 1  # 15 and 12 leads: buckets 0-4, 5-9, 10-14
    for line, start in zip(lines[2:5], (0, 5, 10)):
        values = [v for leads in expected for v in leads[start:start + 5]]
        reached = sum(len(leads) > start for leads in expected)
        assert line.split() == [f"{start}-{start + 4}", str(reached), f"{sum(values) / len(values):+.2f}"]
    # Both games reach ply 10 and lead by -30 or more (every lead does): one won.
    assert lines[5] == "led by -30 or more over plies 8-10: 2 games, won 1, lost 1"


def test_several_files_are_summed_as_one_set_of_games(tmp_path, capsys):
    games = [record(1, "a", "b", seeded_game(4, 13), "a"), record(2, "b", "a", seeded_game(5, 9), "a"),
             record(1, "a", "b", seeded_game(6, 10), "b")]
    together, first, second = tmp_path / "all.jsonl", tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    write_results(together, [games[0], games[1], games[2] | {"number": 3, "key": "a vs b #3"}])
    write_results(first, games[:2])
    write_results(second, games[2:])
    assert amazons_lead.main([str(together), "--engine", "a", "--window", "2-4", "--lead", "-99"]) == 0
    expected = capsys.readouterr().out
    assert expected.startswith("a: 3 games, won 2\n") and "over plies 2-4: 3 games, won 2, lost 1" in expected
    assert amazons_lead.main([str(first), str(second), "--engine", "a", "--window", "2-4", "--lead", "-99"]) == 0
    assert capsys.readouterr().out == expected
    # A bad second file is named in the one line, and nothing goes to stdout.
    write_results(second, [games[2] | {"game": "star"}])
    assert amazons_lead.main([str(first), str(second), "--engine", "a"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"amazons_lead: {second}: game 1 is not an Amazons game\n"


def test_the_lead_window_counts_only_games_that_led_over_it(tmp_path):
    moves = seeded_game(3, 12)
    game = amazons_lead.game_leads(record(1, "a", "b", moves, "b"), "a")
    mean = sum(game.leads[4:9]) / 5
    just = int(mean // 1)  # the largest whole lead the window's mean reaches
    assert amazons_lead.summary([game], "a", 4, (4, 8), just)[-1] == \
        "led by %d or more over plies 4-8: 1 games, won 0, lost 1" % just
    assert amazons_lead.summary([game], "a", 4, (4, 8), just + 1)[-1] == \
        "led by %d or more over plies 4-8: 0 games, won 0, lost 0" % (just + 1)
    # A game that ends inside the window is not counted.
    assert amazons_lead.summary([game], "a", 4, (4, 40), -99)[-1].endswith(": 0 games, won 0, lost 0")


@pytest.mark.parametrize("games, args, message", [
    ([record(1, "a", "b", [], "a") | {"game": "star"}], ["--engine", "a"], "is not an Amazons game"),
    ([record(1, "a", "b", [], "a")], ["--engine", "c"], "'c' does not play in it"),
    ([record(1, "a", "b", ["a1-a2/a3"], "a")], ["--engine", "a"], ""),
    ([], ["--engine", "a"], "no games"),
])
def test_bad_files_get_one_line_and_status_2(tmp_path, capsys, games, args, message):
    results = tmp_path / "r.jsonl"
    write_results(results, games)
    assert amazons_lead.main([str(results), *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and message in err
    assert err.startswith(f"amazons_lead: {results}: ")


def test_a_missing_file_and_a_bad_window_are_refused(tmp_path, capsys):
    assert amazons_lead.main([str(tmp_path / "none.jsonl"), "--engine", "a"]) == 2
    assert "No such file" in capsys.readouterr().err
    for window in ("16-12", "12", "a-b"):
        with pytest.raises(SystemExit) as exit_:
            amazons_lead.main([str(tmp_path / "none.jsonl"), "--engine", "a", "--window", window])
        assert exit_.value.code == 2
        assert "window must be FIRST-LAST plies" in capsys.readouterr().err
