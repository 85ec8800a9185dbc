"""Playing like a real board in the browser page: clocks, Hint, Resign, Move
now, Undo and Pass, clear first moves, the analysis marks' own style, and
the phone layout with zoom and pan (docs/gui.md, "Playing like a real board").

It reuses tests/test_gui_browser.py's server (``--workers 1 --playouts 150
--seed 11``), browser and page fixtures and its helpers. Nothing is timed:
the flag that falls is the person's own clock of 3 seconds, which nobody
moves on, so it must fall; Move now is checked against a search of 600
seconds, far beyond the waits' deadline, so only the interrupt can end it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from stargtp.protocol.clock import BYOYOMI, TimeControl, TimeLeft
from tests.browser import Page, chromium_path
from tests.test_gui_browser import (DEADLINE, REQUIRE, GuiServer, browser, check_agrees, choose,  # noqa: F401
                                    click_point, new_game, page, screenshot, server, session_of, wait_idle)

if chromium_path() is None and not REQUIRE:
    pytestmark = pytest.mark.skip(reason="no /usr/bin/chromium (set STARGTP_REQUIRE_BROWSER=1 to fail instead)")

RECORD_SENT = """(() => {
    // Every command line the page sends to the bridge, in order.
    window.__sent = [];
    const fetch = window.fetch;
    window.fetch = (url, options) => {
        if (String(url).startsWith('/gtp') && options && options.body) {
            window.__sent.push(...String(options.body).split('\\n').filter(Boolean));
        }
        return fetch(url, options);
    };
})()"""


def sent(page: Page) -> list[str]:
    return page.evaluate("window.__sent.splice(0)")


def text(page: Page, element: str) -> str:
    return page.evaluate(f"document.getElementById({json.dumps(element)}).textContent")


def set_clock(page: Page, system: str, main_minutes: str = "", extra: str = "", periods: str = "") -> None:
    """Choose a time control as a person would: the numbers first, then the system."""
    page.evaluate(f"""(() => {{
        const values = {json.dumps({"clock-main": main_minutes, "clock-extra": extra, "clock-periods": periods})};
        for (const [id, value] of Object.entries(values)) if (value) document.getElementById(id).value = value;
    }})()""")
    choose(page, "#clock-system", system)
    wait_idle(page)


# -- clocks ----------------------------------------------------------------------------


def test_the_page_clock_keeps_the_referees_rules(page: Page) -> None:
    """clock.js charges a move and tells when the flag falls exactly as
    protocol/clock.py (the match referee's TimeControl) does, move after
    move, for sudden death, Fischer and byo-yomi (seeded move times)."""
    rng = random.Random(25)
    controls = [
        ("absolute", TimeControl("absolute", 30.0)),
        ("fischer", TimeControl("absolute", 20.0, increment=3.0)),
        ("byoyomi", TimeControl(BYOYOMI, 12.0, 5.0, 3)),
        ("byoyomi", TimeControl(BYOYOMI, 0.0, 4.0, 2)),
    ]
    for system, control in controls:
        extra = control.increment if system == "fischer" else control.period
        python = control.start()
        script = [f"c.control.system = {json.dumps(system)}; c.control.main = {control.main};"
                  f"c.control.extra = {extra}; c.control.periods = {control.count};",
                  f"let left = {{seconds: {python.seconds}, stones: {python.stones}}}; const out = [];"]
        expected = []
        for _ in range(40):
            allowance = control.allowance(python)
            spent = round(rng.uniform(0, allowance * 0.99), 3)
            expected.append([round(allowance, 6), round(python.seconds, 6), python.stones])
            script.append(f"out.push([c.allowance(left), left.seconds, left.stones]);"
                          f"if (c.live(left, {allowance}).flagged !== true || c.live(left, {spent}).flagged) "
                          f"throw new Error('flag at ' + {spent});"
                          f"left = c.charge(left, {spent});")
            python = control.charge(python, spent)
            assert python.seconds >= 0 and isinstance(python, TimeLeft)
        got = page.evaluate("(async () => { const c = await import('/static/clock.js');" + "".join(script) +
                            "c.control.system = 'none'; c.reset();"
                            "return out.map(([a, s, n]) => [Math.round(a * 1e6) / 1e6, Math.round(s * 1e6) / 1e6, n]); })()")
        assert got == expected, system


def test_the_clocks_run_the_engine_is_told_and_a_flag_falls(page: Page, server: GuiServer, tmp_path: Path) -> None:
    """A Fischer clock: the engine gets time_settings, then time_left right
    before each genmove; both clocks show. Then sudden death of 3 seconds
    for Black, a person who does not move: the flag falls and the game is
    over on time, clearly shown, and nothing more can be played."""
    new_game(page, "star", 4, "white")
    page.evaluate(RECORD_SENT)
    set_clock(page, "fischer", main_minutes="1", extra="5")
    assert sent(page) == ["time_settings 60 0 0"]  # GTP has no increment: time_left carries it
    assert page.evaluate("!document.getElementById('clocks').hidden && "
                         "document.getElementById('clocks').dataset.running === 'black'")
    click_point(page, "*10")
    wait_idle(page, "document.body.dataset.moves === '2'")
    lines = sent(page)
    genmove = lines.index("genmove white")
    time_left = re.fullmatch(r"time_left white (\d+(?:\.\d+)?) 0", lines[genmove - 1])
    assert time_left and 0 < float(time_left.group(1)) <= 60, lines
    assert lines[0] == "play black *10"
    for colour in ("black", "white"):
        assert re.fullmatch(r"\d:\d\d \+5s", page.evaluate(
            f"document.querySelector('#clock-{colour} .time').textContent")), colour
    assert page.evaluate("document.getElementById('clocks').dataset.running") == "black"
    screenshot(page, tmp_path, "gui-clock.png")

    # Byo-yomi goes as kgs-time_settings; the clocks show the periods.
    set_clock(page, "byoyomi", main_minutes="0.5", extra="10", periods="3")
    assert sent(page) == ["kgs-time_settings byoyomi 30 10 3"]
    assert page.evaluate("document.querySelector('#clock-white .time').textContent") == "0:30 +3\u00d710s"

    # Sudden death of 3 seconds: Black (the person, to move) never moves.
    set_clock(page, "absolute", main_minutes="0.05")
    assert sent(page) == ["time_settings 3 0 0"]
    page.wait_for("document.body.dataset.ended === 'time'", timeout=DEADLINE)
    wait_idle(page)
    assert text(page, "to-move") == "Game over: Black ran out of time: White wins."
    assert page.evaluate("document.getElementById('clock-black').dataset.flagged") == "1"
    assert page.evaluate("document.querySelector('#clock-black .time').textContent") == "time"
    assert page.evaluate("document.getElementById('board').dataset.part") == "none"
    for button in ("undo", "hint", "resign", "engine-move", "pass", "move-input", "move-submit"):
        assert page.evaluate(f"document.getElementById('{button}').disabled"), button
    click_point(page, "*20")  # refused: the game is over
    wait_idle(page)
    assert len(check_agrees(page, server)["moves"]) == 2
    assert "genmove" not in " ".join(sent(page))
    assert saved_root(page, server)["RE"] == ["W+T"]  # the record says how the game ended
    assert [line.split()[0] for line in sent(page)] == ["printsgf", "stargtp-sgf-tree", "stargtp-sgf-write"]
    screenshot(page, tmp_path, "gui-flag.png")
    # A new game starts both clocks afresh and tells the engine again.
    set_clock(page, "absolute", main_minutes="10")
    assert sent(page) == ["time_settings 600 0 0"]
    assert page.evaluate("document.body.dataset.ended") == "time"  # a new clock does not undo the flag
    page.click("#new-game")
    wait_idle(page, "document.body.dataset.moves === '0' && document.body.dataset.ended === undefined")
    assert "time_settings 600 0 0" in sent(page)
    assert page.evaluate("document.getElementById('clock-black').dataset.flagged") == "0"
    set_clock(page, "none")
    assert sent(page) == ["kgs-time_settings none"]
    assert page.evaluate("document.getElementById('clocks').hidden")


NO_CLOCK_FOR_THE_ENGINE = """(() => {
    // An engine that does not keep time: the session never hears of the clock
    // (each time_settings the page sends goes as kgs-time_settings none), so its
    // search runs for the session's seconds whatever time_left says.
    const fetch = window.fetch;
    window.fetch = (url, options) => {
        if (String(url).startsWith('/gtp') && options && options.body) {
            const body = String(options.body).replace(/^time_settings .*$/gm, 'kgs-time_settings none');
            options = {...options, body};
        }
        return fetch(url, options);
    };
})()"""


@pytest.mark.parametrize("analysis", [False, True], ids=["genmove", "genmove_analyze"])
def test_the_engines_flag_falls_while_it_thinks(page: Page, server: GuiServer, analysis: bool) -> None:
    """The engine plays both sides under sudden death of 3 seconds, and its
    session searches for 600 seconds, deaf to the clock (the page's
    time_settings do not reach it): Black's flag falls while the engine
    thinks, the search is interrupted, its late move is taken back, and the
    game is over on time, the page and the server agreeing on the moves
    (none); with live analysis on too (genmove_analyze). The waits'
    deadline is far below 600 s."""
    new_game(page, "star", 4, "none")
    session = session_of(page)
    assert all(ok for ok, _ in server.gtp(session, "stargtp-param playouts none", "stargtp-param seconds 600"))
    # Set everything up where no clock runs and the engine does not move: a resigned game.
    page.click("#resign")
    wait_idle(page, "document.body.dataset.ended === 'resign'")
    choose(page, "#engine-select", "both")
    set_clock(page, "absolute", main_minutes="0.05")
    if analysis:
        page.click("#analysis-toggle")
        wait_idle(page)
    page.evaluate(RECORD_SENT)
    page.evaluate(NO_CLOCK_FOR_THE_ENGINE)
    page.click("#new-game")  # the engine (Black) searches at once, its 3 seconds running
    page.wait_for("document.body.dataset.ended === 'time'", timeout=DEADLINE)
    wait_idle(page)
    assert text(page, "to-move") == "Game over: Black ran out of time: White wins."
    assert page.evaluate("document.getElementById('clock-black').dataset.flagged") == "1"
    lines = sent(page)
    genmove = lines.index(f"genmove_analyze black 40" if analysis else "genmove black")
    assert re.fullmatch(r"time_left black \d+(\.\d+)? 0", lines[genmove - 1]), lines
    assert "undo" in lines[genmove:], lines  # the move that came after the flag, taken back
    assert not any(line.startswith("genmove white") for line in lines), lines
    assert check_agrees(page, server)["moves"] == []
    assert page.evaluate("document.getElementById('board').dataset.part") == "none"
    # No analysis starts where the game ended: a request queued after the
    # page settled (the record shown) finds no kata-analyze sent before it.
    page.evaluate("document.getElementById('record-text').value = ''")
    page.evaluate("document.getElementById('record-show').click()")
    wait_idle(page, "document.getElementById('record-text').value !== ''")
    assert not any(line.startswith("kata-analyze") for line in sent(page))
    assert page.evaluate("window.stargtpState().streams") == []
    assert page.evaluate("document.getElementById('engine-move').disabled")


def saved_root(page: Page, server: GuiServer) -> dict:
    """The root properties of the record Save writes."""
    page.evaluate("document.getElementById('record-text').value = ''")
    page.click("#save")
    wait_idle(page, "document.getElementById('record-text').value !== ''")
    record = page.evaluate("document.getElementById('record-text').value")
    text = server.one(session_of(page), "stargtp-sgf-tree " + " ".join(record.split()))
    return json.loads(text)["properties"]


# -- the buttons -----------------------------------------------------------------------


def test_hint_resign_undo_and_pass(page: Page, server: GuiServer, tmp_path: Path) -> None:
    """Hint shows the engine's best move (reg_genmove, the same answer for
    the same position under the playout limit) and plays nothing; Resign
    ends the game; Undo takes the resignation back, then the moves; Pass is
    offered exactly when all_legal lists the game's pass."""
    new_game(page, "star", 4, "white")
    session = session_of(page)
    click_point(page, "*10")
    wait_idle(page, "document.body.dataset.moves === '2'")
    before = check_agrees(page, server)
    page.click("#hint")
    wait_idle(page, "document.getElementById('board').dataset.hint !== ''")
    hint = page.evaluate("document.getElementById('board').dataset.hint")
    assert hint == server.one(session, "reg_genmove black")
    assert check_agrees(page, server)["moves"] == before["moves"]  # shown, not played
    assert page.evaluate("document.querySelector('#board .hint').dataset.move") == hint
    assert text(page, "status") == f"Hint for Black: {hint}."
    screenshot(page, tmp_path, "gui-hint.png")
    # Pass: shown for a game with a pass, enabled when all_legal lists it.
    entry = next(g for g in json.loads(server.one(session, "stargtp-games"))["games"] if g["name"] == "star")
    assert page.evaluate("!document.getElementById('pass').hidden") == (entry["pass"] is not None)
    assert not page.evaluate("document.getElementById('pass').disabled")
    assert entry["pass"] in server.one(session, "all_legal black").split()
    # The hint belongs to its position: a move clears it.
    other = next(c for c in server.one(session, "all_legal black").split() if c not in (hint, entry["pass"]))
    click_point(page, other)
    wait_idle(page, "document.body.dataset.moves === '4'")
    assert page.evaluate("document.getElementById('board').dataset.hint") == ""

    page.click("#resign")
    wait_idle(page, "document.body.dataset.ended === 'resign'")
    assert text(page, "to-move") == "Game over: Black resigned: White wins."
    assert page.evaluate("document.getElementById('board').dataset.part") == "none"
    assert page.evaluate("document.getElementById('resign').disabled")
    assert len(check_agrees(page, server)["moves"]) == 4  # the engine does not move on
    assert saved_root(page, server)["RE"] == ["W+R"]
    page.click("#undo")  # the resignation first
    wait_idle(page, "document.body.dataset.ended === undefined")
    assert page.evaluate("document.getElementById('board').dataset.part") == "0"
    assert len(check_agrees(page, server)["moves"]) == 4
    page.click("#undo")  # then Black's move and White's reply
    wait_idle(page, "document.body.dataset.moves === '2'")
    assert check_agrees(page, server)["moves"] == before["moves"]

    # A game without a pass (the Amazons here, from stargtp-games) shows no Pass button.
    games = json.loads(server.one(session, "stargtp-games"))["games"]
    without = next(g for g in games if g["pass"] is None and g["picture"])
    new_game(page, without["name"], without["default_size"], "none")
    assert page.evaluate("document.getElementById('pass').hidden")


def test_an_engine_that_resigns_ends_the_game(page: Page, server: GuiServer) -> None:
    """An engine that answers ``resign`` (here Hex's engine told to resign
    below a 99% win rate, after three searches) ends the game: the page says
    so and does not ask it again (it used to ask again and again)."""
    new_game(page, "hex", 5, "white")
    session = session_of(page)
    server.one(session, "stargtp-param resign 0.99")
    page.evaluate(RECORD_SENT)
    rng = random.Random(3)
    for count in range(1, 10):
        cell = rng.choice(server.one(session, "all_legal black").split())
        click_point(page, cell)
        wait_idle(page, f"document.body.dataset.moves === '{2 * count}' || document.body.dataset.ended === 'resign'")
        if page.evaluate("document.body.dataset.ended") == "resign":
            break
    else:
        pytest.fail("the engine did not resign")
    assert text(page, "to-move") == "Game over: White (engine) resigned: Black wins."
    assert text(page, "status") == "White (engine) resigned."
    assert page.evaluate("document.getElementById('board').dataset.part") == "none"
    assert sent(page).count("genmove white") == count
    assert len(check_agrees(page, server)["moves"]) == 2 * count - 1


def test_move_now_interrupts_the_search(page: Page, server: GuiServer) -> None:
    """Move now makes a 600-second search answer at once: also when pressed
    in the same instant as Engine move, before the genmove request has left
    the page (the interrupt waits for it and is repeated until the search
    answers), and for a hint. The waits' deadline is far below 600 s."""
    new_game(page, "star", 4, "none")
    session = session_of(page)
    assert all(ok for ok, _ in server.gtp(session, "stargtp-param playouts none", "stargtp-param seconds 600"))
    page.evaluate(RECORD_SENT)
    # Both at once: the interrupt is asked for before the search is sent.
    page.evaluate("document.getElementById('engine-move').click(); document.getElementById('move-now').click();")
    wait_idle(page, "document.body.dataset.moves === '1'")
    assert check_agrees(page, server)["moves"][0][0] == "black"
    assert "genmove black" in sent(page)
    # The usual way: press it while the engine thinks.
    page.click("#engine-move")
    page.wait_for("document.body.dataset.thinking === '1' && !document.getElementById('thinking').hidden")
    page.click("#move-now")
    wait_idle(page, "document.body.dataset.moves === '2'")
    assert check_agrees(page, server)["moves"][1][0] == "white"
    # A hint is a search too.
    page.click("#hint")
    page.wait_for("document.body.dataset.thinking === '1'")
    page.click("#move-now")
    wait_idle(page, "document.getElementById('board').dataset.hint !== ''")
    assert len(check_agrees(page, server)["moves"]) == 2


# -- what the board shows ------------------------------------------------------------------


def test_first_moves_are_clear_and_dead_groups_crossed_only_at_the_end(page: Page, server: GuiServer) -> None:
    """With the score shown on the board, the first stones of a game are
    drawn whole (no group is crossed out or faded while the game goes on,
    though none is a star yet and the score counts them dead), and the last
    move is ringed; once the game is over the dead groups are crossed out."""
    assert page.evaluate("document.getElementById('score-overlay').checked")
    new_game(page, "star", 4, "none")
    session = session_of(page)
    for count, cell in enumerate(("*10", "S43"), start=1):
        click_point(page, cell)
        wait_idle(page, f"document.body.dataset.moves === '{count}'")
        marks = page.evaluate("""(() => ({
            dead: document.querySelectorAll('#board svg .dead, #board svg .dead-mark').length,
            faded: [...document.querySelectorAll('#board svg .stone')].filter(e =>
                Number(getComputedStyle(e).opacity) < 1 || e.hasAttribute('opacity')).length,
            stones: document.querySelectorAll('#board svg .stone').length,
            last: [...document.querySelectorAll('#board svg .last-move')].map(e => e.dataset.cell)}))()""")
        assert marks == {"dead": 0, "faded": 0, "stones": count, "last": [cell]}
    assert server.position(session)["score"]["dead_groups"] == 2
    for count in (3, 4):
        page.click("#pass")
        wait_idle(page, f"document.body.dataset.moves === '{count}'")
    assert check_agrees(page, server)["over"]
    crossed = page.evaluate("[...document.querySelectorAll('#board svg .dead-mark')].map(e => e.dataset.cell).sort()")
    assert crossed == ["*10", "S43"]


def test_analysis_marks_do_not_look_like_the_last_move(page: Page, server: GuiServer, tmp_path: Path) -> None:
    """The analysis marks (a move in parts: lines through its parts) have
    their own colour, dashes and arrowheads; the picture's last move has
    none of them."""
    new_game(page, "amazons", 8, "none")
    page.click("#move-input")
    page.type_text("c1-c6/f3")
    page.press("Enter")
    wait_idle(page, "document.body.dataset.moves === '1'")
    page.click("#analysis-toggle")
    page.wait_for("document.querySelectorAll('#board .best line.path').length >= 2", timeout=DEADLINE)
    style = page.evaluate("""(() => {
        const look = (e) => { const s = getComputedStyle(e);
            return {stroke: s.stroke, dash: s.strokeDasharray, head: e.getAttribute('marker-end') || ''}; };
        return {
            best: [...document.querySelectorAll('#board .best line.path')].map(look),
            last: [...document.querySelectorAll('#board svg .move-line')].map(look),
            head: (h => h ? getComputedStyle(h).fill : null)(document.querySelector('#head-analysis path'))};
    })()""")
    assert style["last"] and style["best"]
    last_strokes = {line["stroke"] for line in style["last"]}
    for line in style["best"]:
        assert line["stroke"] not in last_strokes and line["head"] == "url(#head-analysis)" and line["dash"] != "none"
    assert all(line["head"] == "" for line in style["last"])
    assert style["head"] == style["best"][0]["stroke"]
    screenshot(page, tmp_path, "gui-analysis-marks.png")
    page.click("#analysis-toggle")
    wait_idle(page, "document.getElementById('board').dataset.analysis === '0'")


# -- phones ---------------------------------------------------------------------------


OVERFLOW = """(() => {
    // Every visible element that reaches past the viewport's width, and every
    // menu whose chosen text does not fit in it.
    const wide = [];
    for (const e of document.querySelectorAll('body *')) {
        const r = e.getBoundingClientRect();
        if (r.width > 0 && (r.right > innerWidth + 0.5 || r.left < -0.5) && !e.closest('#board svg')) {
            wide.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className} ${r.left}..${r.right}`);
        }
    }
    const canvas = document.createElement('canvas').getContext('2d');
    const cut = [];
    for (const s of document.querySelectorAll('select')) {
        if (!s.offsetParent) continue;
        const style = getComputedStyle(s);
        canvas.font = `${style.fontSize} ${style.fontFamily}`;
        const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
        const option = s.options[s.selectedIndex];
        if (option && canvas.measureText(option.textContent).width > room) cut.push(`${s.id}: ${option.textContent}`);
    }
    return {wide, cut, scroll: document.documentElement.scrollWidth, width: innerWidth};
})()"""


@pytest.fixture(scope="module")
def wide_server() -> Iterator[GuiServer]:
    """A server whose own setting makes the time menu's longest label
    (``5000 playouts (server)``, which a phone used to cut off)."""
    gui = GuiServer("--workers", "1", "--playouts", "5000", "--seed", "11")
    try:
        yield gui
    finally:
        gui.close()


def test_phone_layout_zoom_and_pan(page: Page, wide_server: GuiServer, tmp_path: Path) -> None:
    """At 390x844: nothing reaches past the screen's width and no menu is
    cut off; the board fills the width; the status line with the engine's
    last move stays in sight when the page scrolls; on the 10-ring board
    the zoom buttons and a pinch make the cells bigger, a drag pans without
    playing, and a tap on a zoomed cell plays that cell."""
    server = wide_server
    page.send("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1,
                                                     "mobile": True})
    page.goto(server.url + "/")
    wait_idle(page)
    assert page.evaluate("document.getElementById('time-select').options[0].textContent") == "5000 playouts (server)"
    server.one(session_of(page), "stargtp-param playouts 150")  # the engine's reply below, quickly
    new_game(page, "star", 10, "white")
    layout = page.evaluate(OVERFLOW)
    assert layout["wide"] == [] and layout["cut"] == [] and layout["scroll"] == 390, layout
    board_width = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
    assert board_width >= 370
    set_clock(page, "byoyomi", main_minutes="10", extra="30", periods="5")
    layout = page.evaluate(OVERFLOW)
    assert layout["wide"] == [] and layout["cut"] == [], layout

    spacing = """(() => { const r = (p) => document.querySelector(`#board svg [data-point="${p}"]`).getBoundingClientRect();
        const a = r('*10'), b = r('*20'); return Math.hypot(a.x - b.x, a.y - b.y); })()"""
    small = page.evaluate(spacing)
    assert small < 30  # too close to tap
    page.click("#zoom-in")
    page.click("#zoom-in")
    assert page.evaluate("document.getElementById('board').dataset.zoom") == "2.25"
    big = page.evaluate(spacing)
    assert abs(big / small - 2.25) < 0.01
    screenshot(page, tmp_path, "gui-phone-zoom.png")

    # A drag pans the board and plays nothing.
    box = page.evaluate("document.querySelector('#board svg').getAttribute('viewBox')")
    x, y = page.centre('#board svg.picture [data-point="*10"]')
    page.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "button": "left", "buttons": 1,
                                           "clickCount": 1})
    for step in range(1, 6):
        page.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x + 12 * step, "y": y + 6 * step,
                                               "button": "left", "buttons": 1})
    page.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x + 60, "y": y + 30, "button": "left",
                                           "buttons": 0, "clickCount": 1})
    wait_idle(page)
    assert page.evaluate("document.querySelector('#board svg').getAttribute('viewBox')") != box
    assert check_agrees(page, server)["moves"] == []
    # A tap on a zoomed-in cell plays it.
    click_point(page, "*10")
    wait_idle(page, "document.body.dataset.moves === '2'")
    moves = check_agrees(page, server)["moves"]
    assert moves[0] == ["black", "*10"]
    # The status line with the engine's move stays in sight at the bottom of the page.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    status = page.evaluate("""(() => { const r = document.getElementById('status').getBoundingClientRect();
        return [r.top, r.bottom, r.width, document.getElementById('status').textContent]; })()""")
    assert status[0] >= 0 and status[1] <= 844 and status[2] > 300, status
    assert status[3] == f"White (engine) played {moves[1][1]}."
    page.evaluate("window.scrollTo(0, 0)")
    # Back to the whole board, then a pinch (two fingers moving apart) zooms in.
    page.click("#zoom-reset")
    assert page.evaluate("document.getElementById('board').dataset.zoom") == "1.00"
    zoom = page.evaluate("""(() => {
        const board = document.getElementById('board');
        const r = board.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
        const fire = (type, id, x) => board.dispatchEvent(new PointerEvent(type, {pointerId: id, clientX: x,
            clientY: cy, bubbles: true, cancelable: true, pointerType: 'touch', isPrimary: id === 1}));
        fire('pointerdown', 1, cx - 20); fire('pointerdown', 2, cx + 20);
        for (let d = 25; d <= 60; d += 5) { fire('pointermove', 1, cx - d); fire('pointermove', 2, cx + d); }
        fire('pointerup', 1, cx - 60); fire('pointerup', 2, cx + 60);
        return Number(board.dataset.zoom);
    })()""")
    assert zoom == pytest.approx(3.0, abs=0.01)
    page.click("#zoom-reset")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, tmp_path, "gui-phone.png")
    layout = page.evaluate(OVERFLOW)
    assert layout["wide"] == [] and layout["cut"] == [], layout
