"""``stargtp match --cluster``: the games of a match as Dask tasks.

Real Dask processes: ``--cluster local:2`` (a local cluster the runner
starts), or a ``dask scheduler`` and ``dask worker`` subprocesses the test
starts, so that it can kill one of them. Nothing here waits for time to pass:
a game is "in progress" when a scripted engine has reached its hang point and
said so in its once-file (its process id and its parent's, the worker's), and
everything else ends when the games end. HANG_GUARD only catches hangs.

These tests need the cluster extra (``pip install '.[test,cluster]'``, as CI
and the README do); without it they are skipped, except on CI.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from collections.abc import Callable
from typing import Iterator

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("distributed")

from tests.match_helpers import HANG_GUARD, ROOT, fake  # noqa: E402

from stargtp.protocol.tools.match import cli  # noqa: E402


def _match(results: Path, *extra: str, engines: tuple[tuple[str, str], ...] = (), games: int = 6) -> list[str]:
    named = engines or (("A", fake("--seed", "1{slot}")), ("B", fake("--seed", "2{slot}")))
    words = [word for name, command in named for word in ("--engine", f"{name}={command}")]
    return [sys.executable, "-m", "stargtp.protocol.cli", "match", *words, "--size", "4", "--games", str(games),
            "--results", str(results), *extra]


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD)


def _lines(path: Path) -> list[dict]:
    """Every game line of a results file as written (no deduplication)."""
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def _timeless(record: dict) -> dict:
    """A record without what the clock decides (start time, durations)."""
    moves = [{k: v for k, v in move.items() if k != "seconds"} for move in record["moves"]]
    return {**{k: v for k, v in record.items() if k not in ("started", "seconds")}, "moves": moves}


def test_a_local_cluster_plays_the_records_of_concurrency(tmp_path: Path) -> None:
    # A round robin whose engine B crashes in the second game of each of its
    # processes (each slot then restarts it): fixed seeds with {slot}, the
    # same records game for game, faults and restarts included.
    engines = (("A", fake("--seed", "1{slot}")),
               ("B", fake("--seed", "2{slot}", "--mode", "die", "--at", "3", "--in-game", "2")),
               ("C", fake("--seed", "3{slot}")))
    here = _run(_match(tmp_path / "here.jsonl", "--concurrency", "2", "--quiet", engines=engines, games=4))
    there = _run(_match(tmp_path / "there.jsonl", "--cluster", "local:2", engines=engines, games=4))
    assert here.returncode == 0, here.stderr
    assert there.returncode == 0, there.stderr
    local = {r["key"]: _timeless(r) for r in _lines(tmp_path / "here.jsonl")}
    remote = {r["key"]: _timeless(r) for r in _lines(tmp_path / "there.jsonl")}
    assert len(local) == 12 and remote == local
    crashes = [r["key"] for r in local.values() if r["reason"] == "crash"]
    assert crashes == ["A vs B #4", "B vs C #6", "A vs B #10", "B vs C #12"]  # rounds 1 and 3 of two pairings
    assert all(r["fault"]["engine"] == "B" for r in local.values() if r["reason"] == "crash")
    assert any(r.get("engine_restarts") for r in local.values())
    assert "cluster: 2 workers, 2 threads; 2 games at a time" in there.stderr
    ratings = lambda out: out[out.index("ratings ("):]  # noqa: E731 -- the table above has timings
    assert ratings(there.stdout) == ratings(here.stdout)
    assert (tmp_path / "there.sgf").read_text().count("(;GM[2004]") == 12


def test_the_sprt_stops_a_match_on_a_cluster(tmp_path: Path) -> None:
    # An engine that always passes loses every game: the test accepts H1
    # after 8 colour-swapped pairs (tests/test_match.py), the game still
    # running then is cancelled and not recorded, and nothing more is
    # submitted.
    results = tmp_path / "r.jsonl"
    engines = (("A", fake("--seed", "1{slot}")), ("B", fake("--mode", "pass")))
    done = _run(_match(results, "--cluster", "local:2", "--sprt", "0", "200", "0.05", "0.05", "--size", "3",
                       engines=engines, games=40))
    assert done.returncode == 0, done.stderr
    assert "SPRT decided: stopped early" in done.stderr and "H1 accepted" in done.stdout
    lines = _lines(results)
    assert len(lines) in (16, 17) and len({r["key"] for r in lines}) == len(lines)
    pairs = {r["round"] // 2 for r in lines if r["round"] ^ 1 in {q["round"] for q in lines}}
    assert len(pairs) == 8 and all(r["winner_engine"] == "A" for r in lines)


@contextlib.contextmanager
def dask_cluster(tmp_path: Path, workers: int = 2) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A ``dask scheduler`` on 127.0.0.1 and ``workers`` ``dask worker``
    processes (one thread each, no nanny, so a killed one stays dead):
    ``(address, worker processes)``."""
    scheduler_file = tmp_path / "scheduler.json"
    log = open(tmp_path / "dask.log", "w")
    processes = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                   "--port", "0", "--no-dashboard", "--scheduler-file", str(scheduler_file)],
                                  cwd=ROOT, stdout=log, stderr=log)]
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            assert processes[0].poll() is None and time.monotonic() < deadline, (tmp_path / "dask.log").read_text()
            time.sleep(0.05)
        time.sleep(0.2)  # the file is written in one go; let the write finish
        address = json.loads(scheduler_file.read_text())["address"]
        worker_processes = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                                              "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                              "--local-directory", str(tmp_path / f"worker{n}")],
                                             cwd=ROOT, stdout=log, stderr=log) for n in range(workers)]
        processes += worker_processes
        yield address, worker_processes
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.close()


def _wait_for(path: Path, process: subprocess.Popen) -> tuple[int, int]:
    """Wait until the scripted engine that hangs has written its once-file:
    ``(engine pid, its parent's pid)``."""
    deadline = time.monotonic() + HANG_GUARD
    while not (path.exists() and path.read_text().endswith("\n")):
        assert process.poll() is None and time.monotonic() < deadline, process.returncode
        time.sleep(0.02)
    engine, parent = map(int, path.read_text().split())
    return engine, parent


def _kill_hung_workers(command: list[str], workers: list[subprocess.Popen], hangs: tuple[Path, ...],
                       before_kill: Callable[[int], None] = lambda index: None) -> tuple[str, list[int]]:
    """Run the match ``command``; each time the scripted engine of the next
    once-file of ``hangs`` hangs, call ``before_kill(index)`` and SIGKILL the
    Dask worker playing that game. The match must then end with status 0:
    its output, and the pids of the workers killed."""
    runner = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = []
    try:
        for index, hung in enumerate(hangs):
            _, worker_pid = _wait_for(hung, runner)
            before_kill(index)
            victim, = [w for w in workers if w.pid == worker_pid]
            victim.send_signal(signal.SIGKILL)
            killed.append(worker_pid)
        out, err = runner.communicate(timeout=HANG_GUARD)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
    assert runner.returncode == 0, err
    return out, killed


def test_a_game_whose_worker_is_killed_is_played_again_and_recorded_once(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    hung = tmp_path / "hung"
    # The first engine process to reach its 2nd game never answers its first
    # genmove there, and names its parent, the worker playing the game: the
    # test kills that worker with SIGKILL. Dask plays the game again on the
    # other worker, from the start, with fresh engines; `hung` exists, so
    # they play normally.
    hang = fake("--seed", "2{slot}", "--mode", "silent", "--in-game", "2", "--once-file", str(hung))
    with dask_cluster(tmp_path) as (address, workers):
        command = _match(results, "--cluster", address, "--concurrency", "2", "--move-timeout", "600",
                         engines=(("A", fake("--seed", "1{slot}")), ("B", hang)), games=8)
        out, _ = _kill_hung_workers(command, workers, (hung,))
    lines = _lines(results)
    assert sorted(r["round"] for r in lines) == list(range(8))  # every game, each exactly once
    assert all(r["reason"] == "score" and len(r["moves"]) == 50 for r in lines)
    assert " 8 " in out


def _games_started(log: Path) -> int:
    """How many games the logging engine's processes started (one
    ``clear_board`` each)."""
    return sum(line.split()[1] == "clear_board" for line in log.read_text().splitlines())


def test_killed_workers_replay_no_finished_game_one_slot(tmp_path: Path) -> None:
    # One slot, three workers. A's first process hangs at its 3rd game (2
    # recorded, the 3rd in progress) and the test kills its worker; the 3rd
    # game starts again on another worker with fresh engines, so B's fresh
    # process there reaches its 4th game at the match's 6th (5 recorded) and
    # hangs: the test kills that worker too. A logs every game it starts:
    # the 8 recorded ones and the two that were in progress, nothing more
    # (a slot whose games depended on the previous one's result replayed the
    # lost results, and the games before them, on each kill).
    results, log = tmp_path / "results.jsonl", tmp_path / "games.log"
    first, second = tmp_path / "hung1", tmp_path / "hung2"
    engines = (("A", fake("--seed", "1", "--log-file", str(log), "--mode", "silent", "--in-game", "3",
                          "--once-file", str(first))),
               ("B", fake("--seed", "2", "--mode", "silent", "--in-game", "4", "--once-file", str(second))))
    with dask_cluster(tmp_path, workers=3) as (address, workers):
        command = _match(results, "--cluster", address, "--concurrency", "1", "--move-timeout", "600", "--quiet",
                         "--size", "3", engines=engines, games=8)

        def recorded_so_far(index: int) -> None:
            # a slot submits its next game once the last one is recorded
            assert [r["round"] for r in _lines(results)] == list(range((2, 5)[index]))

        _, killed = _kill_hung_workers(command, workers, (first, second), recorded_so_far)
    assert len(set(killed)) == 2
    assert [r["round"] for r in _lines(results)] == list(range(8))
    assert _games_started(log) == 8 + 2


def test_a_killed_worker_replays_no_finished_game_two_slots(tmp_path: Path) -> None:
    # Two slots on three workers: the first engine process to reach its 3rd
    # game hangs there, and the test kills its worker, which plays only that
    # slot's game. The other slot goes on meanwhile. Every game is started
    # once, and the hung one once more.
    results, log, hung = tmp_path / "results.jsonl", tmp_path / "games.log", tmp_path / "hung"
    engines = (("A", fake("--seed", "1{slot}", "--log-file", str(log))),
               ("B", fake("--seed", "2{slot}", "--mode", "silent", "--in-game", "3", "--once-file", str(hung))))
    with dask_cluster(tmp_path, workers=3) as (address, workers):
        command = _match(results, "--cluster", address, "--concurrency", "2", "--move-timeout", "600", "--quiet",
                         "--size", "3", engines=engines, games=10)
        _kill_hung_workers(command, workers, (hung,))
    assert sorted(r["round"] for r in _lines(results)) == list(range(10))
    assert _games_started(log) == 10 + 1


def test_a_killed_coordinator_resumes_against_the_same_cluster(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    hung = tmp_path / "hung"
    # One game at a time: engine processes hang, once, at their first move of
    # their 4th game, so exactly 3 games are recorded when `hung` appears;
    # the coordinator is killed there (no cleanup: a real crash). The hung
    # engine is killed too, so that the worker thread playing the orphaned
    # game is free at once; the re-run plays the missing games.
    hang = ("--mode", "silent", "--in-game", "4", "--once-file", str(hung))
    engines = (("A", fake("--seed", "1", *hang)), ("B", fake("--seed", "2", *hang)))
    with dask_cluster(tmp_path) as (address, _):
        command = _match(results, "--cluster", address, "--concurrency", "1", "--move-timeout", "600", "--quiet",
                         engines=engines, games=10)
        runner = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            engine_pid, _ = _wait_for(hung, runner)
        finally:
            runner.send_signal(signal.SIGKILL)
            runner.wait()
        os.kill(engine_pid, signal.SIGKILL)
        before = _lines(results)
        assert [r["round"] for r in before] == [0, 1, 2]
        finished = _run(command)
        assert finished.returncode == 0, finished.stderr
    after = _lines(results)
    assert after[:3] == before  # nothing lost or rewritten
    assert [r["round"] for r in after] == list(range(10))  # nothing duplicated
    assert all(r["reason"] == "score" for r in after)
    assert results.read_text().count('"type":"header"') == 1


@pytest.mark.parametrize("value, message", [
    ("local:0", "--cluster ADDRESS: expected local:N with N a whole number of at least 1, not 'local:0'"),
    ("nowhere", "--cluster ADDRESS: expected local:N or a scheduler address SCHEME://HOST:PORT or HOST:PORT, "
                "not 'nowhere'"),
])
def test_a_bad_cluster_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str,
                                   message: str) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="stargtp match")
    cli.add_arguments(parser)
    args = parser.parse_args(["--black", fake(), "--white", fake(), "--results", str(tmp_path / "r.jsonl"),
                              "--cluster", value])
    assert cli.run(args) == 2
    assert capsys.readouterr().err == f"stargtp match: {message}\n"


def test_without_the_extra_cluster_is_a_clear_error(tmp_path: Path) -> None:
    # distributed made unimportable, as where the extra is not installed
    script = ("import sys; sys.modules['distributed'] = None; from stargtp.protocol.cli import main; "
              "sys.argv[0] = 'stargtp'; sys.exit(main())")
    done = subprocess.run([sys.executable, "-c", script, *_match(tmp_path / "r.jsonl", "--cluster", "local:2")[3:]],
                          cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 2
    assert done.stderr.startswith("stargtp match: --cluster ADDRESS: needs the cluster extra, "
                                  "pip install 'stargtp[cluster]' (")
    assert done.stderr.count("\n") == 1 and not (tmp_path / "r.jsonl").exists()
