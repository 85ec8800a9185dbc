"""The page as a study tool, in headless Chromium: the game tree (variations
in the move list, promote, delete), records with their variations and
properties (stargtp-sgf-tree / stargtp-sgf-write), set-up mode, and the
copy kept in localStorage that a reload restores.

The server, browser and page fixtures and the helpers are
tests/test_gui_browser.py's (the page fixture clears localStorage first, so
each test starts from a fresh page). Nothing is timed: every wait polls.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.browser import Browser, Page, chromium_path
from tests.test_gui_browser import (  # noqa: F401 (browser, page and server are fixtures)
    DEADLINE, PIECES, REQUIRE, GuiServer, browser, check_agrees, choose, click_point, drawn, new_game, page,
    screenshot, server, session_of, wait_idle)

if chromium_path() is None and not REQUIRE:  # with REQUIRE, the browser fixture fails instead
    pytestmark = pytest.mark.skip(reason="no /usr/bin/chromium (set STARGTP_REQUIRE_BROWSER=1 to fail instead)")

STATE = "JSON.parse(JSON.stringify(window.stargtpState()))"

TREE = """(() => {
    // The move list as the page draws it: each item's kind, move and nesting depth.
    const items = [];
    for (const li of document.querySelectorAll('#move-list li[data-move]')) {
        let depth = 0;
        for (let e = li.parentElement; e && e.id !== 'move-list'; e = e.parentElement) if (e.matches('ol')) depth++;
        items.push([li.className, li.dataset.colour, li.dataset.move, depth]);
    }
    return items;
})()"""


def play_clicks(page: Page, cells: list[str]) -> None:
    for cell in cells:
        count = int(page.evaluate("document.body.dataset.moves"))
        click_point(page, cell)
        wait_idle(page, f"document.body.dataset.moves === '{count + 1}'")


def step(page: Page, button: str, moves: int) -> None:
    page.click(f"#{button}")
    wait_idle(page, f"document.body.dataset.moves === '{moves}'")


def sgf_tree(server: GuiServer, session: str, record: str) -> dict:
    line = " ".join(record.split())
    return json.loads(server.one(session, f"stargtp-sgf-tree {line}"))


def shape(children: list) -> list:
    """A tree of stargtp-sgf-tree nodes as nested [colour, move, properties, children]."""
    return [[c["colour"], c["move"], c["properties"], shape(c["children"])] for c in children]


def downloaded(page: Page, before: set[Path]) -> Path:
    downloads: Path = page.downloads  # type: ignore[attr-defined]
    deadline = time.monotonic() + DEADLINE
    while True:
        files = [f for f in downloads.glob("*.sgf") if f.stat().st_size > 0 and f not in before]
        if files:
            return files[0]
        assert time.monotonic() < deadline, "the record was not downloaded"
        time.sleep(0.05)


# -- the tests ----------------------------------------------------------------------


def test_a_variation_is_kept_saved_in_sgf_and_loaded_back(page: Page, server: GuiServer, tmp_path: Path) -> None:
    """Playing from an earlier position starts a branch; the list shows the
    tree; the record saved has both lines (and every node's properties);
    loading it back (file, drop, paste) gives the same tree."""
    new_game(page, "star", 4, "none")
    session = session_of(page)
    play_clicks(page, ["*20", "S21", "*21", "T21"])
    step(page, "nav-back", 3)
    step(page, "nav-back", 2)
    play_clicks(page, ["T20"])  # a new move from move 2: a branch, the old line kept
    check_agrees(page, server)
    assert page.evaluate(TREE) == [
        ["played", "black", "*20", 0], ["played", "white", "S21", 0], ["branch", "black", "*21", 0],
        ["played", "black", "T20", 1],  # the branch, indented after the move it replaces
        ["branch", "white", "T21", 0]]
    assert page.evaluate(STATE)["node"] == [0, 0, 1]
    play_clicks(page, ["A21"])
    # Selecting a node of the other line brings the session there.
    page.click('#move-list li.branch[data-move="T21"] button.move')
    wait_idle(page, "document.body.dataset.moves === '4'")
    position = check_agrees(page, server)
    assert position["moves"] == [["black", "*20"], ["white", "S21"], ["black", "*21"], ["white", "T21"]]
    # Forward and back follow the line shown; the branch stays.
    step(page, "nav-first", 0)
    step(page, "nav-last", 4)
    assert check_agrees(page, server)["moves"][-1] == ["white", "T21"]
    page.click('#move-list li.branch[data-move="A21"] button.move')
    wait_idle(page, "document.body.dataset.moves === '4'")
    screenshot(page, tmp_path, "gui-variations.png")

    # Save: a real download, written by stargtp-sgf-write with both lines.
    page.click("#save")
    saved = downloaded(page, set()).read_text(encoding="utf-8")
    assert page.evaluate("document.getElementById('record-text').value") == saved
    record = sgf_tree(server, session, saved)
    assert (record["game"], record["size"], record["setup"]) == ("star", 4, None)
    assert shape(record["children"]) == [
        ["black", "*20", {}, [["white", "S21", {}, [
            ["black", "*21", {}, [["white", "T21", {}, []]]],
            ["black", "T20", {}, [["white", "A21", {}, []]]]]]]]]
    assert saved.count("(;") == 3 and ";B[*21]" in saved.replace("\n", "") and ";B[T20]" in saved.replace("\n", "")
    assert page.evaluate(STATE)["dirty"] is False

    # Promote the branch: it becomes the main line (first), in the list and in the record.
    page.click("#promote")
    page.wait_for("document.getElementById('promote').disabled")
    assert [item[2:] for item in page.evaluate(TREE)] == [
        ["*20", 0], ["S21", 0], ["T20", 0], ["*21", 1], ["T21", 1], ["A21", 0]]
    assert page.evaluate(STATE)["node"] == [0, 0, 0, 0]

    # A record with properties on its nodes, pasted: every property comes back on save.
    commented = ("(;GM[2004]FF[4]SZ[4]C[a root comment]XR[kept];B[*20]C[first move];W[S21]"
                 "(;B[*21]XY[one][two])(;B[T20]N[the other line]))")
    page.click("#record-details summary")
    page.wait_for("document.getElementById('record-details').open")
    page.evaluate(f"document.getElementById('record-text').value = {json.dumps(commented)}")
    page.click("#record-load")
    wait_idle(page, "document.body.dataset.moves === '3'")
    assert check_agrees(page, server)["moves"] == [["black", "*20"], ["white", "S21"], ["black", "*21"]]
    assert [item[2:] for item in page.evaluate(TREE)] == [["*20", 0], ["S21", 0], ["*21", 0], ["T20", 1]]
    page.click("#record-show")
    wait_idle(page)
    shown = page.evaluate("document.getElementById('record-text').value")
    again = sgf_tree(server, session, shown)
    assert again["properties"]["C"] == ["a root comment"] and again["properties"]["XR"] == ["kept"]
    assert shape(again["children"]) == [
        ["black", "*20", {"C": ["first move"]}, [["white", "S21", {}, [
            ["black", "*21", {"XY": ["one", "two"]}, []],
            ["black", "T20", {"N": ["the other line"]}, []]]]]]]

    # The saved file, dropped on the page, and through the file picker.
    path = tmp_path / "variations.sgf"
    path.write_text(saved, encoding="utf-8")
    page.evaluate(f"""(() => {{
        const data = new DataTransfer();
        data.items.add(new File([{json.dumps(saved)}], 'variations.sgf', {{type: 'application/x-go-sgf'}}));
        document.getElementById('board').dispatchEvent(new DragEvent('drop', {{dataTransfer: data, bubbles: true,
            cancelable: true}}));
    }})()""")
    wait_idle(page, "document.body.dataset.moves === '4' && "
                    "document.querySelectorAll('#move-list li[data-move]').length === 6")
    assert check_agrees(page, server)["moves"][2:] == [["black", "*21"], ["white", "T21"]]
    choose(page, "#engine-select", "none")
    page.click("#new-game")
    wait_idle(page, "document.body.dataset.moves === '0'")
    page.set_files("#load-file", [path])
    wait_idle(page, "document.body.dataset.moves === '4'")
    assert [item[2:] for item in page.evaluate(TREE)] == [
        ["*20", 0], ["S21", 0], ["*21", 0], ["T20", 1], ["A21", 1], ["T21", 0]]

    # Delete the branch shown: the board goes to the move before it.
    page.click('#move-list li.branch[data-move="T20"] button.move')
    wait_idle(page, "document.body.dataset.moves === '3'")
    page.click("#delete-branch")
    wait_idle(page, "document.body.dataset.moves === '2' && "
                    "document.querySelectorAll('#move-list li[data-move]').length === 4")
    assert check_agrees(page, server)["moves"] == [["black", "*20"], ["white", "S21"]]


def test_set_up_then_the_engine_plays(page: Page, server: GuiServer, tmp_path: Path) -> None:
    """Set-up mode: the kinds of piece are stargtp-games' `setup` list; the
    pieces placed and the side to move reach the session (stargtp-setup);
    then the engine plays on from there, and the record keeps the set-up."""
    new_game(page, "amazons", 6, "none")
    session = session_of(page)
    games = json.loads(server.one(session, "stargtp-games"))["games"]
    kinds = next(g for g in games if g["name"] == "amazons")["setup"]
    # Cancel brings back the game as it was, its move and its tree.
    page.click("#move-input")
    page.type_text("b1-b4/e4")
    page.press("Enter")
    wait_idle(page, "document.body.dataset.moves === '1'")
    before = check_agrees(page, server)
    page.click("#setup-start")
    page.wait_for("document.body.dataset.setup === '1'")
    page.click("#setup-clear")
    wait_idle(page, "Object.keys(" + PIECES + ").length === 0")
    assert page.evaluate("document.getElementById('board').dataset.moves") == "0"
    page.click("#setup-cancel")
    wait_idle(page, "document.body.dataset.setup === '0' && document.body.dataset.moves === '1'")
    assert check_agrees(page, server) == before
    assert [item[2] for item in page.evaluate(TREE)] == ["b1-b4/e4"]

    page.click("#setup-start")
    page.wait_for("document.body.dataset.setup === '1' && !document.getElementById('setup-banner').hidden")
    buttons = page.evaluate("[...document.querySelectorAll('#setup-kinds button')]"
                            ".map(b => [b.dataset.kind, b.textContent])")
    assert buttons == [[k["kind"], k["label"]] for k in kinds] + [["remove", "Remove"]]
    # Start from an empty board: remove everything, then place.
    page.click("#setup-clear")
    wait_idle(page, "Object.keys(" + PIECES + ").length === 0")
    for kind, points in (("black", ["a6", "f6"]), ("white", ["a1"]), ("arrow", ["c3", "d3"])):
        page.click(f'#setup-kinds button[data-kind="{kind}"]')
        for point in points:
            count = len(page.evaluate(PIECES))
            click_point(page, point)
            wait_idle(page, f"Object.keys({PIECES}).length === {count + 1}")
    # A second click with the same kind takes the piece off; Remove does too.
    page.click('#setup-kinds button[data-kind="white"]')
    click_point(page, "f1")
    wait_idle(page, f"Object.keys({PIECES}).length === 6")
    page.click('#setup-kinds button[data-kind="remove"]')
    click_point(page, "f1")
    wait_idle(page, f"Object.keys({PIECES}).length === 5")
    choose(page, "#setup-to-move", "black")
    wait_idle(page, "document.getElementById('board').dataset.toMove === 'black'")
    page.click('#setup-kinds button[data-kind="white"]')
    assert page.evaluate("document.getElementById('setup-banner').textContent") == (
        f"Set-up mode: a click on the board places (or takes off) a piece: {kinds[1]['label']}.")
    screenshot(page, tmp_path, "gui-setup.png")
    position = server.position(session)
    assert position["board"] == {"black": ["a6", "f6"], "white": ["a1"], "arrows": ["c3", "d3"]}
    assert position["moves"] == [] and position["to_move"] == "black"

    # Play from here, with the engine as Black: it moves at once.
    choose(page, "#engine-select", "black")
    page.click("#setup-play")
    wait_idle(page, "document.body.dataset.moves === '1'")
    assert page.evaluate("document.body.dataset.setup") == "0"
    position = check_agrees(page, server)
    assert position["moves"][0][0] == "black"
    assert set(position["board"]["white"]) == {"a1"} and {"c3", "d3"} <= set(position["board"]["arrows"])
    # The record keeps the set-up and the engine's move.
    choose(page, "#engine-select", "none")
    page.click("#record-details summary")
    page.wait_for("document.getElementById('record-details').open")
    page.click("#record-show")
    wait_idle(page)
    record = sgf_tree(server, session, page.evaluate("document.getElementById('record-text').value"))
    assert record["setup"]["to_move"] == "black"
    assert record["setup"]["white"] == ["a1"] and sorted(record["setup"]["black"]) == ["a6", "f6"]
    assert [(c["colour"], c["move"]) for c in record["children"]] == [tuple(position["moves"][0])]
    # A reload rebuilds the set-up and the move (stargtp-setup, play).
    page.reload()
    wait_idle(page, "document.body.dataset.moves === '1'")
    assert session_of(page) != session
    assert check_agrees(page, server) == position



def test_a_reload_restores_the_game(page: Page, server: GuiServer, browser: Browser,  # noqa: F811
                                    tmp_path: Path) -> None:
    """The tree (with its branches), the node shown and the settings survive a
    reload of the page in the same browser: the session is rebuilt from them.
    Leaving with unsaved work asks first (beforeunload)."""
    new_game(page, "star", 4, "none")
    play_clicks(page, ["*20", "S21", "*21", "T21"])
    step(page, "nav-back", 3)
    step(page, "nav-back", 2)
    play_clicks(page, ["T20"])  # a branch at move 3
    step(page, "nav-back", 2)
    choose(page, "#engine-select", "white")
    choose(page, "#time-select", "2")
    wait_idle(page)
    page.click("#score-overlay")
    tree = page.evaluate(TREE)
    state = page.evaluate(STATE)
    dialogs = len(browser.dialogs)
    old_session = session_of(page)

    page.reload()
    wait_idle(page, "document.body.dataset.moves === '2'")
    assert [d["type"] for d in browser.dialogs[dialogs:]] == ["beforeunload"]
    session = session_of(page)
    assert session != old_session
    assert check_agrees(page, server)["moves"] == [["black", "*20"], ["white", "S21"]]
    assert page.evaluate(TREE) == tree
    assert page.evaluate(STATE)["node"] == state["node"] == [0, 0]
    assert page.evaluate(STATE)["future"] == state["future"] == 1
    assert page.evaluate("document.getElementById('engine-select').value") == "white"
    assert page.evaluate("document.getElementById('time-select').value") == "2"
    assert page.evaluate("document.getElementById('score-overlay').checked") is False
    assert server.one(session, "stargtp-param seconds") == "2"
    # Forward follows the line last shown (the branch), then the other line is a click away.
    step(page, "nav-forward", 3)
    assert check_agrees(page, server)["moves"][2] == ["black", "T20"]
    page.click('#move-list li.branch[data-move="T21"] button.move')
    wait_idle(page, "document.body.dataset.moves === '4'")
    assert check_agrees(page, server)["moves"][2:] == [["black", "*21"], ["white", "T21"]]

    # A loaded record comes back with its komi (stargtp-sgf-write, stargtp-loadsgf-text).
    record = "(;GM[2004]FF[4]SZ[4]KM[2.5];B[*20];W[S21](;B[*21])(;B[T20];W[A21]))"
    page.click("#record-details summary")
    page.wait_for("document.getElementById('record-details').open")
    page.evaluate(f"document.getElementById('record-text').value = {json.dumps(record)}")
    page.click("#record-load")
    wait_idle(page, "document.body.dataset.moves === '3'")
    page.click('#move-list li.branch[data-move="A21"] button.move')
    wait_idle(page, "document.body.dataset.moves === '4'")
    before = check_agrees(page, server)
    tree = page.evaluate(TREE)
    page.reload()
    wait_idle(page, "document.body.dataset.moves === '4'")
    assert check_agrees(page, server) == before
    assert page.evaluate(TREE) == tree
    page.click("#record-details summary")
    page.wait_for("document.getElementById('record-details').open")
    page.click("#record-show")
    wait_idle(page, "document.getElementById('record-text').value !== ''")
    saved = sgf_tree(server, session_of(page), page.evaluate("document.getElementById('record-text').value"))
    assert saved == sgf_tree(server, session_of(page), record)  # KM[2.5] and both lines

    # Nothing unsaved: leaving does not ask.
    new_game(page, "star", 4, "none")
    dialogs = len(browser.dialogs)
    page.reload()
    wait_idle(page, "document.body.dataset.moves === '0'")
    assert browser.dialogs[dialogs:] == []


def test_undo_forgets_a_take_back_and_bad_input_changes_nothing(page: Page, server: GuiServer) -> None:
    """Undo at the end of a line forgets the moves taken back; in the middle
    of a line it only steps back. A record with an illegal move in a branch
    is refused with the server's reason, the tree and the session unchanged;
    a kept copy that cannot be rebuilt is forgotten and the page starts afresh."""
    new_game(page, "star", 4, "none")
    session = session_of(page)
    play_clicks(page, ["*20", "S21", "*21"])
    step(page, "undo", 2)
    assert [item[2] for item in page.evaluate(TREE)] == ["*20", "S21"]
    step(page, "nav-back", 1)
    step(page, "undo", 0)  # S21 is after the move taken back: a step back, nothing forgotten
    assert [item[2] for item in page.evaluate(TREE)] == ["*20", "S21"]
    step(page, "nav-last", 2)

    bad = "(;GM[2004]FF[4]SZ[4];B[*20](;W[S21])(;W[*20]))"
    expected = server.gtp(session, f"stargtp-sgf-tree {bad}")[0]
    assert expected == (False, "cannot load file: move 2 (W[*20]) (a variation): *20 is occupied")
    page.click("#record-details summary")
    page.wait_for("document.getElementById('record-details').open")
    page.evaluate(f"document.getElementById('record-text').value = {json.dumps(bad)}")
    page.click("#record-load")
    page.wait_for("!document.getElementById('message').hidden")
    wait_idle(page)
    assert page.evaluate("document.getElementById('message').textContent") == f"Cannot load the record: {expected[1]}"
    assert check_agrees(page, server)["moves"] == [["black", "*20"], ["white", "S21"]]
    assert [item[2] for item in page.evaluate(TREE)] == ["*20", "S21"]

    # A kept tree with a move the game refuses: the reload says so and starts afresh.
    page.evaluate("""(() => {
        const kept = JSON.parse(localStorage.getItem('stargtp.page'));
        kept.tree.children[0].children[0].move = '*20';
        localStorage.setItem('stargtp.page', JSON.stringify(kept));
    })()""")
    page.reload()
    page.wait_for("!document.getElementById('message').hidden")
    wait_idle(page)
    message = page.evaluate("document.getElementById('message').textContent")
    assert message.startswith("Cannot restore the kept game: ") and "*20 is occupied" in message, message
    assert drawn(page)["moves"] == 0 and page.evaluate(TREE) == []


def test_keys_step_between_sibling_variations(page: Page, server: GuiServer) -> None:
    """Up and Down (and the two buttons beside the steps) show the previous
    and next variation at the move shown: its siblings in the tree, in the
    move list's order; at the first or the last they do nothing."""
    new_game(page, "star", 4, "none")
    play_clicks(page, ["*20"])
    page.press("ArrowLeft")
    wait_idle(page, "document.body.dataset.moves === '0'")
    play_clicks(page, ["S21"])  # the start has two lines: *20, then S21
    page.press("ArrowLeft")
    wait_idle(page, "document.body.dataset.moves === '0'")
    play_clicks(page, ["T20"])  # and a third
    assert check_agrees(page, server)["moves"] == [["black", "T20"]]
    assert page.evaluate("document.getElementById('nav-down').disabled")
    assert not page.evaluate("document.getElementById('nav-up').disabled")
    page.press("ArrowDown")  # the last: nothing happens
    wait_idle(page)
    assert check_agrees(page, server)["moves"] == [["black", "T20"]]
    page.press("ArrowUp")
    wait_idle(page, "document.querySelector('#move-list li.played').dataset.move === 'S21'")
    assert check_agrees(page, server)["moves"] == [["black", "S21"]]
    page.press("ArrowUp")
    wait_idle(page, "document.querySelector('#move-list li.played').dataset.move === '*20'")
    assert check_agrees(page, server)["moves"] == [["black", "*20"]]
    assert page.evaluate("document.getElementById('nav-up').disabled")
    page.press("ArrowUp")  # the first: nothing happens
    wait_idle(page)
    assert check_agrees(page, server)["moves"] == [["black", "*20"]]
    page.click("#nav-down")
    wait_idle(page, "document.querySelector('#move-list li.played').dataset.move === 'S21'")
    # Deeper in the tree: two replies to S21, and the keys move between them.
    play_clicks(page, ["A21"])
    page.press("ArrowLeft")
    wait_idle(page, "document.body.dataset.moves === '1'")
    play_clicks(page, ["*21"])
    page.press("ArrowUp")
    wait_idle(page, "document.querySelectorAll('#move-list li.played')[1].dataset.move === 'A21'")
    assert check_agrees(page, server)["moves"] == [["black", "S21"], ["white", "A21"]]
    page.press("ArrowDown")
    wait_idle(page, "document.querySelectorAll('#move-list li.played')[1].dataset.move === '*21'")
    assert check_agrees(page, server)["moves"] == [["black", "S21"], ["white", "*21"]]
    # In a text box the keys are the box's own.
    page.evaluate("document.getElementById('move-input').focus()")
    page.press("ArrowUp")
    wait_idle(page)
    assert check_agrees(page, server)["moves"] == [["black", "S21"], ["white", "*21"]]
