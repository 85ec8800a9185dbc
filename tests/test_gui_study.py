"""The study tool's parts working together in the browser page: the end of a
game (resignation, flag: test_gui_play.py) and the game tree (test_gui_tree.py).

A result belongs to the line where the game ended: stepping back along it
keeps it, another line goes on without it. A new game tree (a record loaded,
a set-up played from, a reload) starts with no result and both clocks afresh,
the engine told the time control again; the time control itself is kept over
a reload with the other settings; the clocks stop while a set-up is edited
(docs/gui.md, "Playing like a real board" and "Reload and close").

Then the defects found when the parts came together: a Move now that came
after its search had answered must not cut the next search short; the
clocks stop while a whole-game review runs; a finished variation's result
is not the record's; during play the score's dead groups read as not yet
scoring.

The fixtures and helpers are those of tests/test_gui_browser.py,
tests/test_gui_play.py and tests/test_gui_tree.py. Nothing is timed: the
clocks here are of 10 minutes, which no wait comes near.
"""

from __future__ import annotations

import json

import pytest

from tests.browser import Page, chromium_path
from tests.test_gui_browser import (  # noqa: F401 (browser, page and server are fixtures)
    REQUIRE, GuiServer, browser, check_agrees, choose, new_game, page, server, session_of, wait_idle)
from tests.test_gui_play import RECORD_SENT, sent, set_clock, text
from tests.test_gui_tree import STATE, play_clicks, sgf_tree, step

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


# -- defects found when the parts came together ------------------------------------------


def test_move_now_after_a_search_has_answered_does_not_cut_the_next_one(page: Page, server: GuiServer) -> None:
    """Move now pressed when no search is under way or queued (the last one
    has just answered) is forgotten: the next search, a hint here, is sent
    without an interrupt (before the fix the interrupt waited and went right
    after it); Move now pressed during that search still ends it."""
    new_game(page, "star", 4, "none")
    page.click("#hint")  # the server's 150 playouts: it answers by itself
    wait_idle(page, "document.getElementById('board').dataset.hint !== ''")
    # Just after the answer, as the thinking indicator with Move now goes away.
    page.evaluate("document.getElementById('move-now').click()")
    session = session_of(page)
    assert all(ok for ok, _ in server.gtp(session, "stargtp-param playouts none", "stargtp-param seconds 600"))
    page.evaluate(RECORD_SENT)
    page.evaluate("document.getElementById('hint').click()")
    page.wait_for("document.body.dataset.thinking === '1' && window.__sent.includes('reg_genmove black')")
    assert page.evaluate("window.__sent") == ["reg_genmove black"]  # the search, and no interrupt with it
    page.click("#move-now")
    wait_idle(page)
    assert sent(page)[:2] == ["reg_genmove black", "# interrupt"]


def test_the_clocks_stop_while_a_review_runs(page: Page, server: GuiServer) -> None:
    """A whole-game review stops the clock of the side to move; once it ends
    (Stop here), the game goes on and that clock runs again."""
    new_game(page, "star", 4, "none")
    set_clock(page, "absolute", main_minutes="10")
    play_clicks(page, ["*20"])
    assert clocks(page)["running"] == "white"
    page.evaluate("document.getElementById('review-limit').add(new Option('an hour', 'seconds 3600'))")
    choose(page, "#review-limit", "seconds 3600")
    page.click("#review-start")
    page.wait_for("document.getElementById('review').dataset.running === '1'")
    assert clocks(page)["running"] is None
    page.click("#review-stop")
    wait_idle(page, "document.getElementById('review').dataset.running === '0'")
    now = clocks(page)
    assert now["running"] == "white" and not now["white"]["flagged"]


def test_only_the_main_lines_result_is_the_records(page: Page, server: GuiServer) -> None:
    """Saved while a finished variation is shown (both pass), the record has
    no RE: the main line, which a reader follows, goes on. Shown at the end
    of a finished main line, its result is the record's RE."""
    new_game(page, "star", 4, "none")
    play_clicks(page, ["*10", "S43"])
    step(page, "nav-back", 1)
    for count in (2, 3):  # a variation: white and black pass, the game is over
        page.click("#pass")
        wait_idle(page, f"document.body.dataset.moves === '{count}'")
    session = session_of(page)
    assert "RE[" in server.one(session, "printsgf")  # the line shown has a result
    record = saved_record(page, server)
    assert [c["move"] for c in record["children"][0]["children"]] == ["S43", "pass"]
    assert "RE" not in record["properties"]
    page.click("#promote")  # the finished line becomes the main line
    wait_idle(page, "document.getElementById('promote').disabled")
    record = saved_record(page, server)
    assert [c["move"] for c in record["children"][0]["children"]] == ["pass", "S43"]
    assert record["properties"]["RE"] == sgf_tree(server, session, server.one(session, "printsgf"))["properties"]["RE"]


def saved_record(page: Page, server: GuiServer) -> dict:
    page.evaluate("document.getElementById('record-text').value = ''")
    page.click("#save")
    wait_idle(page, "document.getElementById('record-text').value !== ''")
    return sgf_tree(server, session_of(page), page.evaluate("document.getElementById('record-text').value"))


def test_while_the_game_goes_on_dead_groups_read_as_not_yet_scoring(page: Page, server: GuiServer) -> None:
    """The score counts a first stone dead (no star yet); during play the
    card says so as "groups not yet scoring", and "dead groups" once over."""
    new_game(page, "star", 4, "none")
    play_clicks(page, ["*10", "S43"])
    assert server.position(session_of(page))["score"]["dead_groups"] == 2
    facts = "document.querySelector('#score p.detail').textContent"
    assert "groups not yet scoring: 2" in page.evaluate(facts) and "dead" not in page.evaluate(facts)
    for count in (3, 4):
        page.click("#pass")
        wait_idle(page, f"document.body.dataset.moves === '{count}'")
    assert "dead groups: 2" in page.evaluate(facts)
