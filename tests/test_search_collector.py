"""The garbage collector paused during a search (engine.search.collector):
off inside, back as it was after (also after an error), nested blocks in
several threads, cyclic garbage of the pause still collected, objects
someone else froze left frozen, and a search leaves the collector on."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from stargtp.engine.amazons import Position
from stargtp.engine.search.base import Limits
from stargtp.engine.search.collector import collector_paused


@pytest.fixture(autouse=True)
def collector_on():
    gc.enable()
    yield
    gc.unfreeze()
    gc.enable()


def test_off_inside_and_on_after():
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_back_on_after_an_error():
    with pytest.raises(RuntimeError):
        with collector_paused():
            raise RuntimeError("stop")
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_nested_blocks_in_two_threads_resume_when_the_last_ends():
    inside, release = threading.Event(), threading.Event()
    seen = []

    def other() -> None:
        with collector_paused():
            inside.set()
            release.wait(60)
            seen.append(gc.isenabled())

    thread = threading.Thread(target=other)
    with collector_paused():
        thread.start()
        assert inside.wait(60)
    assert not gc.isenabled()  # the other thread's block is still open
    release.set()
    thread.join(60)
    assert seen == [False] and gc.isenabled()


class _Cell:
    pass


def test_cycles_made_during_the_pause_are_collected_after_it():
    with collector_paused():
        for _ in range(10_000):  # enough allocations to set off a collection if it were on
            cell = _Cell()
            cell.me = cell  # a reference cycle: only the collector frees it
        gone = weakref.ref(cell)
        del cell
    assert gone() is not None  # no collection ran in the pause
    assert gc.get_freeze_count() == 0  # nothing is left frozen
    gc.collect()
    assert gone() is None


def test_objects_someone_else_froze_stay_frozen():
    gc.freeze()
    frozen = gc.get_freeze_count()
    assert frozen > 0
    with collector_paused():
        pass
    assert gc.get_freeze_count() == frozen and gc.isenabled()


def test_an_amazons_search_leaves_the_collector_on():
    from stargtp.engine.players import make_player

    result = make_player("amazons-mcts", seed=1, playouts="50").genmove(Position(6), Limits())
    assert result.playouts == 50 and gc.isenabled()
