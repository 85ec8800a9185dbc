"""The whole-game review in headless Chromium: Review evaluates every
position of the main line (stargtp-evaluate at a fixed playout count, the
server seeded, so the numbers repeat), the graph has one point per position
with the engine's numbers, the moves that lost more than the threshold are
listed, a click on a mistake or on the graph goes there and shows the
engine's best line, Stop ends a review that would otherwise run for hours,
and the review is kept in the record through save and load.

The game is a 3x3 Hex game with a certain mistake: black could win at once
(a2 joins a1 and a3), plays c3 instead, and white wins at once with a2.
The reference numbers come from stargtp-evaluate on a second session of the
same server, stepped through the same moves by the test itself.
The fixtures and helpers are tests/test_gui_browser.py's. Nothing is timed:
every wait polls, with a deadline that only catches a hang.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser import Page, chromium_path
from tests.test_gui_browser import (  # noqa: F401 (browser, page and server are fixtures)
    DEADLINE, REQUIRE, GuiServer, browser, check_agrees, choose, new_game, page, screenshot, server, session_of,
    wait_idle)
from tests.test_gui_tree import downloaded, play_clicks, sgf_tree

if chromium_path() is None and not REQUIRE:  # with REQUIRE, the browser fixture fails instead
    pytestmark = pytest.mark.skip(reason="no /usr/bin/chromium (set STARGTP_REQUIRE_BROWSER=1 to fail instead)")

GAME = [("black", "a1"), ("white", "b1"), ("black", "a3"), ("white", "c1"), ("black", "c3"), ("white", "a2")]
"""Move 5 (black c3) throws away a won position: black's a2 wins at once, and after c3 white's a2 does."""
LIMIT = "playouts 300"
THRESHOLD = 15.0

GRAPH = """(() => {
    const svg = document.querySelector('#review-graph svg.graph');
    if (!svg) return null;
    return {points: Number(svg.dataset.points), positions: Number(svg.dataset.positions),
            black: [...svg.querySelectorAll('circle.point')].map(c => [Number(c.dataset.index), c.dataset.black]),
            marked: [...svg.querySelectorAll('circle.point.mistake')].map(c => Number(c.dataset.index))};
})()"""

MISTAKES = "[...document.querySelectorAll('#mistake-list button.mistake')].map(b => Number(b.dataset.index))"

REVIEW = "document.getElementById('review').dataset"


def new_session(server: GuiServer) -> str:
    request = urllib.request.Request(f"{server.url}/session", data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=DEADLINE) as answer:
        return json.loads(answer.read().decode())["session"]


def reference(server: GuiServer) -> list[dict]:
    """stargtp-evaluate at every position of GAME (the start, then after each
    move), on a session of the test's own."""
    session = new_session(server)
    answers = [server.one(session, line) for line in ("game hex", "boardsize 3")]
    assert answers == ["", ""]
    out = [json.loads(server.one(session, f"stargtp-evaluate {LIMIT}"))]
    for colour, move in GAME:
        server.one(session, f"play {colour} {move}")
        out.append(json.loads(server.one(session, f"stargtp-evaluate {LIMIT}")))
    return out


def stored_rate(answer: dict) -> float:
    """Black's win rate as the page keeps it (SBKV: percent, two decimals), from 0 to 1."""
    return float(f"{answer['black_winrate'] * 100:.2f}") / 100


def mistakes_of(rates: list[float], movers: list[str], limit: float = THRESHOLD) -> list[int]:
    """The moves (1: the first) after which their mover's win rate fell by
    more than ``limit`` points, from black's win rate at every position."""
    found = []
    for index, colour in enumerate(movers, start=1):
        before, after = rates[index - 1], rates[index]
        if ((before - after) if colour == "black" else (after - before)) * 100 > limit:
            found.append(index)
    return found


def expected_mistakes(evaluations: list[dict]) -> list[int]:
    return mistakes_of([stored_rate(e) for e in evaluations], [colour for colour, _ in GAME])


def review(page: Page) -> None:
    page.click("#review-start")
    page.wait_for(f"{REVIEW}.running === '1'", timeout=DEADLINE, message="the review to start")
    wait_idle(page, f"{REVIEW}.running === '0'")


def test_a_whole_review_with_the_graph_mistakes_jumps_stop_and_the_record(page: Page, server: GuiServer,
                                                                          tmp_path: Path) -> None:
    evaluations = reference(server)
    assert [e["over"] for e in evaluations] == [False] * 6 + [True]
    mistakes = expected_mistakes(evaluations)
    assert 5 in mistakes  # the certain one: black's c3 instead of the winning a2
    assert evaluations[4]["move"] == "a2" and stored_rate(evaluations[4]) == 1.0
    assert stored_rate(evaluations[5]) == 0.0 and stored_rate(evaluations[6]) == 0.0

    new_game(page, "hex", 3, "none")
    session = session_of(page)
    play_clicks(page, [move for _, move in GAME])
    assert check_agrees(page, server)["over"] is True
    assert page.evaluate(f"{REVIEW}.reviewed") == "0" and page.evaluate(GRAPH) is None

    # Review: one point per position (the start and after each move), the engine's numbers.
    choose(page, "#review-limit", LIMIT)
    review(page)
    graph = page.evaluate(GRAPH)
    assert graph["points"] == graph["positions"] == len(GAME) + 1
    assert [(i, float(b)) for i, b in graph["black"]] == [(i, stored_rate(e)) for i, e in enumerate(evaluations)]
    assert graph["marked"] == mistakes
    assert page.evaluate(MISTAKES) == mistakes
    assert page.evaluate(f"{REVIEW}.mistakes") == str(len(mistakes))
    # The session is back where the page shows it: the end of the game.
    assert check_agrees(page, server)["moves"] == [list(m) for m in GAME]
    assert page.evaluate("document.getElementById('board').dataset.reviewLine") == ""  # the game is over

    # A mistake: the position before it, with the engine's best move and its line on the board.
    page.click('#mistake-list button.mistake[data-index="5"]')
    wait_idle(page, "document.body.dataset.moves === '4'")
    assert check_agrees(page, server)["moves"] == [list(m) for m in GAME[:4]]
    assert page.evaluate("document.getElementById('board').dataset.reviewLine") == " ".join(evaluations[4]["pv"])
    drawn = page.evaluate("[...document.querySelectorAll('#board .review-move')].map(g => [g.dataset.move, "
                          "g.classList.contains('black') ? 'black' : 'white'])")
    assert drawn[0] == ["a2", "black"]
    assert page.evaluate("document.querySelector('#review-graph line.current').dataset.index") == "4"
    screenshot(page, tmp_path, "gui-review-mistake.png")

    # A click on the graph: the position at that point.
    page.click('#review-graph circle.point[data-index="2"]')
    wait_idle(page, "document.body.dataset.moves === '2'")
    assert check_agrees(page, server)["moves"] == [list(m) for m in GAME[:2]]
    assert page.evaluate("document.getElementById('board').dataset.reviewLine") == " ".join(evaluations[2]["pv"])

    # The threshold is a setting: above every drop, no mistakes.
    page.evaluate("(() => { const t = document.getElementById('review-threshold'); t.value = '100'; "
                  "t.dispatchEvent(new Event('input', {bubbles: true})); })()")
    page.wait_for(f"{REVIEW}.mistakes === '0'", timeout=DEADLINE, message="no mistakes over 100 points")
    page.evaluate("(() => { const t = document.getElementById('review-threshold'); t.value = '15'; "
                  "t.dispatchEvent(new Event('input', {bubbles: true})); })()")
    page.wait_for(f"{REVIEW}.mistakes === '{len(mistakes)}'", timeout=DEADLINE, message="the mistakes again")

    # Stop: a review of an hour per position ends at once, keeping nothing of
    # the search it stopped; the positions it did not reach keep their review.
    page.evaluate("document.getElementById('review-limit').add(new Option('an hour', 'seconds 3600'))")
    choose(page, "#review-limit", "seconds 3600")
    page.click("#review-start")
    page.wait_for(f"{REVIEW}.running === '1' && !document.getElementById('review-stop').hidden",
                  timeout=DEADLINE, message="the long review to start")
    page.click("#review-stop")
    wait_idle(page, f"{REVIEW}.running === '0'")
    assert check_agrees(page, server)["moves"] == [list(m) for m in GAME[:2]]  # back where it was
    assert page.evaluate(GRAPH)["black"] == graph["black"]  # nothing was replaced
    choose(page, "#review-limit", LIMIT)

    # Save: the review is in the record's nodes (docs/protocol.md, "Review properties").
    page.click("#save")
    path = downloaded(page, set())
    saved = path.read_text(encoding="utf-8")
    record = sgf_tree(server, session, saved)
    nodes = [record]
    while nodes[-1]["children"]:
        nodes.append(nodes[-1]["children"][0])
    props = [record["properties"]] + [n["properties"] for n in nodes[1:]]
    assert [p["SBKV"] for p in props] == [[f"{e['black_winrate'] * 100:.2f}"] for e in evaluations]
    assert [p.get("SGBM") for p in props] == [[e["move"]] if e["move"] else None for e in evaluations]
    assert [p.get("SGPV") for p in props] == [e["pv"] if e["move"] else None for e in evaluations]
    assert [p["SGPO"] for p in props] == [[str(e["playouts"])] for e in evaluations]

    # Load it into a fresh game: the review is shown again without running.
    choose(page, "#engine-select", "none")
    page.click("#new-game")
    wait_idle(page, "document.body.dataset.moves === '0'")
    assert page.evaluate(GRAPH) is None
    page.set_files("#load-file", [path])
    wait_idle(page, f"document.body.dataset.moves === '{len(GAME)}'")
    assert page.evaluate(f"{REVIEW}.running") == "0"
    again = page.evaluate(GRAPH)
    assert again["black"] == graph["black"] and again["marked"] == mistakes
    assert page.evaluate(MISTAKES) == mistakes


LEADS = """[...document.querySelectorAll('#review-graph circle.lead-point')].map(c => [Number(c.dataset.index),
    Number(c.dataset.lead)])"""


def test_the_review_of_an_engine_game_draws_the_lead_on_its_own_scale(page: Page, server: GuiServer,
                                                                      tmp_path: Path) -> None:
    """A 4-ring game the engine plays against itself, reviewed at 100 playouts
    a position: a point per position on both scales (the game gives a score
    lead), the last one the final score, the mistakes those of the graph's
    own numbers."""
    new_game(page, "star", 4, "none")
    session = session_of(page)
    choose(page, "#engine-select", "both")
    wait_idle(page, "document.getElementById('board').dataset.over === '1'")
    position = check_agrees(page, server)
    count = len(position["moves"]) + 1
    choose(page, "#review-limit", "playouts 100")
    review(page)
    graph = page.evaluate(GRAPH)
    assert graph["points"] == graph["positions"] == count
    leads = page.evaluate(LEADS)
    assert [i for i, _ in leads] == list(range(count))
    scale = float(page.evaluate("document.querySelector('#review-graph svg').dataset.leadScale"))
    assert scale >= max(abs(lead) for _, lead in leads)
    # The last position is the finished game: its lead is the final score, its win rate the result.
    result = server.one(session, "final_score")
    winner, margin = re.fullmatch(r"([BW])\+(.*)", result).groups()
    assert leads[-1][1] == (float(margin) if winner == "B" else -float(margin))
    assert float(graph["black"][-1][1]) == (1.0 if winner == "B" else 0.0)
    rates = [float(b) for _, b in graph["black"]]
    movers = [colour for colour, _ in position["moves"]]
    own = mistakes_of(rates, movers)
    assert page.evaluate(MISTAKES) == own == graph["marked"]
    if own:
        page.click(f'#mistake-list button.mistake[data-index="{own[0]}"]')
        wait_idle(page, f"document.body.dataset.moves === '{own[0] - 1}'")
        assert page.evaluate("document.getElementById('board').dataset.reviewLine") != ""
    screenshot(page, tmp_path, "gui-review.png")

    # A reload keeps the review (in the page's copy of the tree) and its settings.
    page.evaluate("(() => { const t = document.getElementById('review-threshold'); t.value = '25'; "
                  "t.dispatchEvent(new Event('input', {bubbles: true})); })()")
    shown = page.evaluate("document.body.dataset.moves")
    page.reload()
    wait_idle(page, f"document.body.dataset.moves === '{shown}'")
    assert page.evaluate(f"{REVIEW}.running") == "0"
    assert page.evaluate(GRAPH)["black"] == graph["black"] and page.evaluate(LEADS) == leads
    assert page.evaluate("document.getElementById('review-limit').value") == "playouts 100"
    assert page.evaluate("document.getElementById('review-threshold').value") == "25"
    assert page.evaluate(MISTAKES) == mistakes_of(rates, movers, 25)


def test_a_new_game_ends_a_running_review(page: Page, server: GuiServer) -> None:
    """New game while a review of an hour a position runs: the review stops
    (its search interrupted, the old game not brought back) and the new game
    is shown at once, with no error."""
    new_game(page, "hex", 3, "none")
    play_clicks(page, ["b2", "a3"])
    page.evaluate("document.getElementById('review-limit').add(new Option('an hour', 'seconds 3600'))")
    choose(page, "#review-limit", "seconds 3600")
    page.click("#review-start")
    page.wait_for(f"{REVIEW}.running === '1'", timeout=DEADLINE, message="the long review to start")
    page.click("#new-game")
    wait_idle(page, f"{REVIEW}.running === '0' && document.body.dataset.moves === '0'")
    position = check_agrees(page, server)
    assert (position["game"], position["size"], position["moves"]) == ("hex", 3, [])
    assert page.evaluate("document.getElementById('message').hidden") is True
    assert page.evaluate(f"{REVIEW}.reviewed") == "0" and page.evaluate(GRAPH) is None
