"""The study tool's parts working together in the browser page: the end of a
game (resignation, flag: test_gui_play.py) and the game tree (test_gui_tree.py).

A result belongs to the line where the game ended: stepping back along it
keeps it, another line goes on without it. A new game tree (a record loaded,
a set-up played from, a reload) starts with no result and both clocks afresh,
the engine told the time control again; the time control itself is kept over
a reload with the other settings; the clocks stop while a set-up is edited
(docs/gui.md, "Playing like a real board" and "Reload and close").

The fixtures and helpers are those of tests/test_gui_browser.py,
tests/test_gui_play.py and tests/test_gui_tree.py. Nothing is timed: the
clocks here are of 10 minutes, which no wait comes near.
"""

from __future__ import annotations

import json

import pytest

from tests.browser import Page, chromium_path
from tests.test_gui_browser import (  # noqa: F401 (browser, page and server are fixtures)
    REQUIRE, GuiServer, browser, check_agrees, new_game, page, server, wait_idle)
from tests.test_gui_play import RECORD_SENT, sent, set_clock, text
from tests.test_gui_tree import STATE, play_clicks, step

if chromium_path() is None and not REQUIRE:  # with REQUIRE, the browser fixture fails instead
    pytestmark = pytest.mark.skip(reason="no /usr/bin/chromium (set STARGTP_REQUIRE_BROWSER=1 to fail instead)")

ENDED = "document.body.dataset.ended"
PART = "document.getElementById('board').dataset.part"  # "none": no move may be played


def test_a_result_belongs_to_the_line_where_the_game_ended(page: Page, server: GuiServer) -> None:
    """Resign at the end of a line; stepping back and forward along it keeps
    the result (playing the move that is already next steps into it, so the
    end comes back); a move off it is a variation where the game goes on;
    the line that ended, shown again, no longer carries the result."""
    new_game(page, "star", 4, "none")
    play_clicks(page, ["*20", "S21", "*21", "T21"])
    page.click("#resign")
    wait_idle(page, f"{ENDED} === 'resign'")
    assert text(page, "to-move") == "Game over: Black resigned: White wins."
    assert page.evaluate(PART) == "none"

    step(page, "nav-back", 3)  # an earlier move of the line that ended: it may be played from
    assert page.evaluate(ENDED) == "resign"
    assert page.evaluate(PART) == "0"
    play_clicks(page, ["T21"])  # the move already there: back at the end, still over
    assert page.evaluate(ENDED) == "resign" and page.evaluate(PART) == "none"
    assert page.evaluate(STATE)["node"] == [0, 0, 0, 0]
    assert page.evaluate("document.getElementById('engine-move').disabled")

    step(page, "nav-back", 3)
    play_clicks(page, ["T20"])  # another line: a variation, the game goes on
    wait_idle(page, f"{ENDED} === undefined")
    assert page.evaluate(STATE)["node"] == [0, 0, 0, 1]
    assert text(page, "to-move") == " Black to move (you), move 5."  # after the dot of the side to move
    assert page.evaluate(PART) == "0"
    assert not page.evaluate("document.getElementById('resign').disabled")
    page.click('#move-list li.branch[data-move="T21"] button.move')  # the line that ended, shown again
    wait_idle(page, "document.body.dataset.moves === '4'")
    assert page.evaluate(ENDED) is None and page.evaluate(PART) == "0"
    check_agrees(page, server)


def clocks(page: Page) -> dict:
    return page.evaluate(STATE)["clock"]


def test_a_record_a_set_up_and_a_reload_start_afresh(page: Page, server: GuiServer) -> None:
    """After a resignation, a record loaded, then a set-up played from, each
    starts with no result, both clocks full and the engine told the time
    control; the clocks stop while a set-up is edited; a reload keeps the
    time control and starts the clocks afresh, telling the new session."""
    new_game(page, "star", 4, "none")
    page.evaluate(RECORD_SENT)
    set_clock(page, "absolute", main_minutes="10")
    assert sent(page) == ["time_settings 600 0 0"]
    play_clicks(page, ["*20"])
    page.click("#resign")  # White resigns
    wait_idle(page, f"{ENDED} === 'resign'")
    assert clocks(page)["running"] is None
    assert clocks(page)["black"]["seconds"] < 600

    # A record pasted: a new game tree.
    page.click("#record-details summary")
    page.wait_for("document.getElementById('record-details').open")
    record = "(;GM[2004]FF[4]SZ[4];B[*20];W[S21])"
    page.evaluate(f"document.getElementById('record-text').value = {json.dumps(record)}")
    page.click("#record-load")
    wait_idle(page, f"document.body.dataset.moves === '2' && {ENDED} === undefined")
    assert "time_settings 600 0 0" in sent(page)
    now = clocks(page)
    assert now["running"] == "black" and now["white"] == {"seconds": 600, "stones": 0, "flagged": False}
    assert now["black"]["seconds"] <= 600 and not now["black"]["flagged"]

    # Set-up mode stops the clocks; Cancel brings the game and its clock back.
    page.click("#setup-start")
    wait_idle(page, "document.body.dataset.setup === '1'")
    assert clocks(page)["running"] is None
    page.click("#setup-cancel")
    wait_idle(page, "document.body.dataset.setup === '0'")
    assert clocks(page)["running"] == "black"
    assert sent(page) == []  # nothing changed: no new time control

    # Black resigns; a set-up of that position, played from: a new game tree.
    page.click("#resign")
    wait_idle(page, f"{ENDED} === 'resign'")
    page.click("#setup-start")
    wait_idle(page, "document.body.dataset.setup === '1'")
    page.click("#setup-play")
    wait_idle(page, f"document.body.dataset.setup === '0' && {ENDED} === undefined")
    lines = sent(page)
    assert lines[:2] == ["stargtp-setup black black *20 white S21", "time_settings 600 0 0"], lines
    now = clocks(page)
    assert now["running"] == "black" and now["white"] == {"seconds": 600, "stones": 0, "flagged": False}

    # A reload: the time control kept, the clocks afresh, the new session told.
    play_clicks(page, ["T21"])
    page.send("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_SENT})
    page.reload()
    wait_idle(page, "document.body.dataset.moves === '1'")
    assert page.evaluate("document.getElementById('clock-system').value") == "absolute"
    now = clocks(page)
    assert now["control"] == {"system": "absolute", "main": 600, "extra": 0, "periods": 0}
    assert now["running"] == "white" and now["black"] == {"seconds": 600, "stones": 0, "flagged": False}
    assert "time_settings 600 0 0" in sent(page)
    assert page.evaluate(ENDED) is None
    check_agrees(page, server)

    # A kept copy that cannot be rebuilt (a move refused): the page starts afresh, with the kept clock.
    page.evaluate("""(() => {
        const kept = JSON.parse(localStorage.getItem('stargtp.page'));
        kept.tree.children[0].move = '*20';
        localStorage.setItem('stargtp.page', JSON.stringify(kept));
    })()""")
    page.reload()
    page.wait_for("!document.getElementById('message').hidden")
    wait_idle(page)
    assert page.evaluate("document.getElementById('message').textContent").startswith("Cannot restore the kept game: ")
    assert clocks(page)["control"] == {"system": "absolute", "main": 600, "extra": 0, "periods": 0}
    assert "time_settings 600 0 0" in sent(page)  # the engine is told the clock the page shows
