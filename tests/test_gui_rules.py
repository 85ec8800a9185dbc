"""The game's options in the browser page: a checkbox per option of the
chosen game (``stargtp-rules``), applied to the next new game, kept over a
reload and re-applied when the page rebuilds its session; and a button for
each legal move that is no point of the board and not the pass (a swap),
which plays it like any move (docs/gui.md, "The controls").

It reuses tests/test_gui_browser.py's server (``--workers 1 --playouts 150
--seed 11``, no ``--rule``: every option off), browser and page fixtures.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser import Page, chromium_path
from tests.test_gui_browser import (DEADLINE, REQUIRE, GuiServer, browser, check_agrees, choose,  # noqa: F401
                                    click_point, new_game, page, screenshot, server, session_of, wait_idle)
from tests.test_gui_play import RECORD_SENT, sent

if chromium_path() is None and not REQUIRE:
    pytestmark = pytest.mark.skip(reason="no /usr/bin/chromium (set STARGTP_REQUIRE_BROWSER=1 to fail instead)")


def options_shown(page: Page) -> dict | None:
    """The option checkboxes, {NAME: checked}, or None while they are hidden."""
    return page.evaluate("""(() => {
        if (document.getElementById('game-options').hidden) return null;
        return Object.fromEntries([...document.querySelectorAll('#game-options input[data-option]')]
            .map(i => [i.dataset.option, i.checked]));
    })()""")


def other_moves(page: Page) -> list[str] | None:
    """The buttons of moves that are no point (their moves), or None while hidden."""
    return page.evaluate("""(() => {
        const box = document.getElementById('other-moves');
        return box.hidden ? null : [...box.querySelectorAll('button')].map(b => b.dataset.move);
    })()""")


def no_point_moves(page: Page, server: GuiServer, colour: str) -> list[str]:
    """The legal moves of ``colour`` that name no point of the picture: the
    test's own reading of all_legal and the board."""
    points = set(page.evaluate("[...document.querySelectorAll('#board svg.picture [data-point]')]"
                               ".map(e => e.dataset.point)"))
    entry = page.evaluate("document.getElementById('game-select').value")
    games = json.loads(server.one(session_of(page), "stargtp-games"))["games"]
    passing = next(g for g in games if g["name"] == entry)["pass"]
    return [m for m in server.one(session_of(page), f"all_legal {colour}").split() if m not in points and m != passing]


def test_an_option_for_the_next_game_and_the_swap_button(page: Page, server: GuiServer, tmp_path: Path) -> None:
    """*Star has no options: no checkboxes. Hex has `swap`, off: ticking it
    changes nothing now (the server's rule stays off, no swap is offered),
    and New game plays with it. After Black's first move White has a
    swap-pieces button, the move all_legal lists and the board has no point
    for; clicking it plays it. A reload (a fresh session, the rule off)
    rebuilds the game with the rule on and keeps the choice; the saved
    record has the swap and loads back with it."""
    new_game(page, "star", 4, "none")
    assert options_shown(page) is None
    assert other_moves(page) is None
    new_game(page, "hex", 4, "none")
    session = session_of(page)
    assert options_shown(page) == {"swap": False}
    page.click("#option-swap")
    page.wait_for("document.getElementById('option-swap').checked")
    assert server.one(session, "stargtp-rules") == "swap off"  # for the next new game only
    click_point(page, "b2")
    wait_idle(page, "document.body.dataset.moves === '1'")
    assert no_point_moves(page, server, "white") == [] and other_moves(page) is None

    page.evaluate(RECORD_SENT)
    page.click("#new-game")
    wait_idle(page, "document.body.dataset.moves === '0'")
    assert sent(page)[:4] == ["boardsize 4", "stargtp-rules", "stargtp-rules swap on", "stargtp-rules"]
    assert server.one(session, "stargtp-rules") == "swap on"
    assert other_moves(page) is None  # nothing to swap yet
    click_point(page, "b2")
    wait_idle(page, "document.body.dataset.moves === '1'")
    assert no_point_moves(page, server, "white") == ["swap-pieces"]
    assert other_moves(page) == ["swap-pieces"]
    screenshot(page, tmp_path, "gui-swap.png")
    sent(page)
    page.click('#other-moves button[data-move="swap-pieces"]')
    wait_idle(page, "document.body.dataset.moves === '2'")
    assert sent(page)[0] == "play white swap-pieces"
    position = check_agrees(page, server)
    assert position["moves"] == [["black", "b2"], ["white", "swap-pieces"]]
    assert other_moves(page) is None  # played once
    click_point(page, "c3")  # Hex: white moves again after the swap
    wait_idle(page, "document.body.dataset.moves === '3'")

    # A reload: a fresh session (the server's rule: off) rebuilt with the tree's rule on.
    page.reload()
    wait_idle(page, "document.body.dataset.moves === '3'")
    session = session_of(page)
    assert check_agrees(page, server)["moves"] == [["black", "b2"], ["white", "swap-pieces"], ["white", "c3"]]
    assert server.one(session, "stargtp-rules") == "swap on"
    assert options_shown(page) == {"swap": True}  # the choice is kept

    # The record has the swap; with the option unticked and a new game (rule
    # off), loading it back reads it with the rule on.
    page.click("#save")
    wait_idle(page, "document.getElementById('record-text').value !== ''")
    record = page.evaluate("document.getElementById('record-text').value")
    assert "W[swap-pieces]" in record
    page.click("#option-swap")
    page.wait_for("!document.getElementById('option-swap').checked")
    page.click("#new-game")
    wait_idle(page, "document.body.dataset.moves === '0'")
    assert server.one(session, "stargtp-rules") == "swap off"
    page.evaluate(f"document.getElementById('record-text').value = {json.dumps(record)}")
    page.evaluate("document.getElementById('record-details').open = true")
    page.click("#record-load")
    wait_idle(page, "document.body.dataset.moves === '3'")
    assert check_agrees(page, server)["moves"] == [["black", "b2"], ["white", "swap-pieces"], ["white", "c3"]]
    assert options_shown(page) == {"swap": False}  # the next new game's choice, untouched


def test_a_swap_in_a_variation_is_saved(page: Page, server: GuiServer) -> None:
    """A swap played in a variation while the line shown has none: the
    record says the game has the swap rule (the tree's own options), so
    stargtp-sgf-write takes it and the record loads back whole."""
    new_game(page, "hex", 4, "none")
    page.click("#option-swap")
    page.click("#new-game")
    wait_idle(page, "document.body.dataset.moves === '0'")
    click_point(page, "b2")
    wait_idle(page, "document.body.dataset.moves === '1'")
    page.click('#other-moves button[data-move="swap-pieces"]')
    wait_idle(page, "document.body.dataset.moves === '2'")
    page.press("ArrowLeft")
    wait_idle(page, "document.body.dataset.moves === '1'")
    click_point(page, "c3")  # the main line's alternative: no swap on the line shown
    wait_idle(page, "document.body.dataset.moves === '2'")
    page.evaluate("document.getElementById('record-text').value = ''")
    page.click("#save")
    wait_idle(page, "document.getElementById('record-text').value !== ''")
    record = page.evaluate("document.getElementById('record-text').value")
    tree = json.loads(server.one(session_of(page), "stargtp-sgf-tree " + " ".join(record.split())))
    assert tree["options"] == {"swap": True}
    assert [c["move"] for c in tree["children"][0]["children"]] == ["swap-pieces", "c3"]


def test_the_engine_replies_to_a_swap(page: Page, server: GuiServer) -> None:
    """In Y with the swap rule, the engine (Black) plays first; the person
    swaps with the button, and the engine, Black to move after a Y swap,
    replies as after any move."""
    new_game(page, "y", 5, "none")
    page.click("#option-swap")
    page.click("#new-game")
    wait_idle(page, "document.body.dataset.moves === '0'")
    assert server.one(session_of(page), "stargtp-rules") == "swap on"
    choose(page, "#engine-select", "black")
    wait_idle(page, "document.body.dataset.moves === '1'")
    assert other_moves(page) == no_point_moves(page, server, "white") == ["swap-pieces"]
    page.click('#other-moves button[data-move="swap-pieces"]')
    wait_idle(page, "document.body.dataset.moves === '3'")
    moves = check_agrees(page, server)["moves"]
    assert moves[1] == ["white", "swap-pieces"] and moves[2][0] == "black"
    assert other_moves(page) is None
