"""The file policy of ``loadsgf`` under ``--file-dir`` (stargtp.protocol.server.files):
which names lead where, checked case by case and against the realpath
reference over seeded random trees, and the file read being the file checked
while another process swaps names for links."""

from __future__ import annotations

import collections
import os
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from stargtp.protocol.server import files
from stargtp.protocol.server.files import OUTSIDE, FileRefused
from tests.gtp_helpers import RACE_LOADS, RACE_SECONDS, Swapper


def outcome(root: Path, path: str) -> str:
    """What ``loadsgf path`` gets under ``--file-dir root``: the file's text,
    or ``refused: reason``."""
    try:
        return files.load(path, True, str(root)).decode()
    except FileRefused as exc:
        return f"refused: {exc}"


def make_tree(tmp_path: Path) -> Path:
    """DIR = tmp/records holding a.sgf, sub/b.sgf, sub/deep/c.sgf; outside
    it tmp/secret.sgf, tmp/out/d.sgf and tmp/alias, a link to DIR. Each file
    holds its own name."""
    root = tmp_path / "records"
    (root / "sub" / "deep").mkdir(parents=True)
    (tmp_path / "out").mkdir()
    for name in ("records/a.sgf", "records/sub/b.sgf", "records/sub/deep/c.sgf", "secret.sgf",
                 "out/d.sgf"):
        (tmp_path / name).write_text(Path(name).name)
    os.symlink(root, tmp_path / "alias")
    return root


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path)


def test_paths_and_links_that_stay_inside_are_read(tree: Path) -> None:
    tmp = tree.parent
    os.symlink("a.sgf", tree / "to-a.sgf")  # a link to a file
    os.symlink("sub/deep", tree / "deep")  # a link to a directory
    os.symlink("../a.sgf", tree / "sub" / "up.sgf")  # up, still inside
    os.symlink("to-a.sgf", tree / "chain.sgf")  # a link to a link
    os.symlink(tree / "sub", tree / "absolute")  # an absolute target inside
    os.symlink(tmp / "alias" / "sub" / "b.sgf", tree / "via-alias.sgf")  # DIR spelled through a link
    os.symlink(tmp / "out" / ".." / "records" / "a.sgf", tree / "out-and-back.sgf")
    os.symlink("../records/a.sgf", tree / "climb-and-back.sgf")
    cases = {
        "a.sgf": "a.sgf", "./sub//b.sgf": "b.sgf", "sub/deep/../b.sgf": "b.sgf",
        "to-a.sgf": "a.sgf", "deep/c.sgf": "c.sgf", "deep/../b.sgf": "b.sgf",  # .. of the target
        "sub/up.sgf": "a.sgf", "chain.sgf": "a.sgf", "absolute/b.sgf": "b.sgf",
        "via-alias.sgf": "b.sgf", "out-and-back.sgf": "a.sgf", "climb-and-back.sgf": "a.sgf",
        "../records/a.sgf": "a.sgf", str(tree / "sub" / "b.sgf"): "b.sgf",
        str(tmp / "alias" / "a.sgf"): "a.sgf", str(tmp / "out" / ".." / "records" / "a.sgf"): "a.sgf",
    }
    assert {path: outcome(tree, path) for path in cases} == cases


def test_whatever_leads_out_is_refused(tree: Path) -> None:
    tmp = tree.parent
    os.symlink(tmp / "secret.sgf", tree / "secret.sgf")
    os.symlink("../secret.sgf", tree / "relative-secret.sgf")
    os.symlink(tmp / "out", tree / "out")  # a directory outside
    os.symlink("..", tree / "sub" / "parent")  # DIR itself, then above it
    os.symlink("../../out/d.sgf", tree / "sub" / "d.sgf")
    os.symlink("gone.sgf", tree / "dangling-inside.sgf")
    os.symlink("../gone.sgf", tree / "dangling-outside.sgf")
    outside = f"refused: {OUTSIDE}"
    cases = {
        "../secret.sgf": outside, str(tmp / "secret.sgf"): outside, "/etc/passwd": outside,
        "secret.sgf": outside, "relative-secret.sgf": outside, "out/d.sgf": outside,
        "sub/parent/a.sgf": "a.sgf", "sub/parent/../secret.sgf": outside, "sub/d.sgf": outside,
        "sub/../../secret.sgf": outside, "../../../../../../../../etc/passwd": outside,
        "dangling-outside.sgf": outside, str(tmp / "missing" / "x.sgf"): outside,
        "dangling-inside.sgf": "refused: no such file", "missing.sgf": "refused: no such file",
        "missing/../a.sgf": "refused: no such file", "a.sgf/x.sgf": "refused: not a directory",
        ".": "refused: is a directory", "sub": "refused: is a directory", "sub/..": "refused: is a directory",
        str(tree): "refused: is a directory",
    }
    assert {path: outcome(tree, path) for path in cases} == cases


def test_link_loops_and_special_files_are_refused(tree: Path) -> None:
    os.symlink("loop.sgf", tree / "loop.sgf")
    os.symlink("ping.sgf", tree / "pong.sgf")
    os.symlink("pong.sgf", tree / "ping.sgf")
    os.symlink("loop-dir/x", tree / "loop-dir")
    chain = [f"link{index}" for index in range(files.MAX_LINKS + 1)] + ["a.sgf"]
    for name, target in zip(chain, chain[1:]):
        os.symlink(target, tree / name)
    os.mkfifo(tree / "pipe.sgf")  # without O_NONBLOCK, opening it would block for ever
    os.symlink("pipe.sgf", tree / "to-pipe.sgf")
    os.symlink("/dev/null", tree / "null.sgf")
    (tree / "big.sgf").write_bytes(b"(" * (files.MAX_FILE_BYTES + 1))
    loop = "refused: too many levels of symbolic links"
    cases = {
        "loop.sgf": loop, "ping.sgf": loop, "loop-dir/a.sgf": loop,
        "link0": loop, "link1": "a.sgf",  # MAX_LINKS links are followed, one more is a loop
        "pipe.sgf": "refused: not a regular file", "to-pipe.sgf": "refused: not a regular file",
        "null.sgf": f"refused: {OUTSIDE}",
        "big.sgf": f"refused: file too large (more than {files.MAX_FILE_BYTES} bytes)",
    }
    assert {path: outcome(tree, path) for path in cases} == cases


def test_names_that_cannot_be_searched_or_read_are_refused(tree: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads everything")
    (tree / "sub").chmod(0o100)  # searchable, not readable: files in it can still be read
    (tree / "sub" / "deep" / "c.sgf").chmod(0)
    (tree / "closed").mkdir(mode=0)
    try:
        assert outcome(tree, "sub/b.sgf") == "b.sgf"
        assert outcome(tree, "sub/deep/c.sgf") == "refused: permission denied"
        assert outcome(tree, "closed/x.sgf") == "refused: permission denied"
    finally:
        (tree / "sub").chmod(0o755)
        (tree / "closed").chmod(0o755)


def realpath_reference(root: Path, path: str) -> set[str]:
    """The obvious rule, right for a tree nobody changes (what the server did
    before it walked names itself): a file is inside if its
    ``os.path.realpath`` is, and the kernel opens the path as given. The
    outcomes allowed: the content, when both agree; refused as outside when
    realpath says so; the kernel's reason when it cannot open the path, and
    then "outside" too, since realpath takes a name that does not exist for
    a directory (``missing/../..``) and the kernel does not."""
    target = os.path.realpath(os.path.join(root, path))
    inside = os.path.commonpath([root, target]) == str(root)
    try:
        with open(os.path.join(root, path), "rb") as stream:
            content = stream.read().decode()
    except OSError as exc:
        return {f"refused: {files._reason(exc)}", f"refused: {OUTSIDE}"}
    return {content} if inside else {f"refused: {OUTSIDE}"}


LINK_TARGETS = ["a.sgf", "sub", "sub/b.sgf", "sub/deep", "deep/c.sgf", "b.sgf", "..", "../..", ".",
                "../records/a.sgf", "../secret.sgf", "../../secret.sgf", "../out", "../alias/sub",
                "{tmp}/records/a.sgf", "{tmp}/alias/sub/b.sgf", "{tmp}/out/../records/sub",
                "{tmp}/secret.sgf", "{tmp}/out", "{tmp}/records", "l0", "l1", "m0", "../l2", "missing",
                "missing/../a.sgf", "a.sgf/x", "../m1"]


def random_path(rng: random.Random, start: Path, base: Path) -> str:
    """A path that goes through names that exist (mostly), found by walking
    the tree as the kernel sees it from ``start``: one to four names, each
    picked among those of the directory reached, ``..``, ``.`` and a missing
    one; it ends early at a file, or where it leaves ``base`` (whose
    surroundings change from run to run)."""
    names: list[str] = []
    here = str(start)
    for _ in range(rng.randint(1, 4)):
        entries = sorted(os.listdir(here))
        name = rng.choice(entries + ["..", ".", "missing"])
        names.append(name)
        here = os.path.join(here, name)
        if not os.path.isdir(here) or not os.path.realpath(here).startswith(f"{base}/"):
            break
    return "/".join(names)


def test_for_a_tree_nobody_changes_the_walk_agrees_with_realpath(tmp_path: Path) -> None:
    # Ten seeded trees of links (l0..l3 in DIR, m0..m2 in DIR/sub) to files,
    # directories, links, loops, nothing, inside and out; 300 seeded paths
    # each, relative and absolute. Where nobody changes names, walking them
    # one by one reads what realpath-then-open reads.
    rng = random.Random(2026)
    tally: collections.Counter[str] = collections.Counter()
    for index in range(10):
        base = Path(os.path.realpath(tmp_path)) / f"t{index}"
        base.mkdir()
        root = make_tree(base)
        for name in ("l0", "l1", "l2", "l3", "sub/m0", "sub/m1", "sub/m2"):
            os.symlink(rng.choice(LINK_TARGETS).format(tmp=base), root / name)
        for _ in range(300):
            start = rng.choice(["", "", "", f"{base}/records/", f"{base}/alias/", f"{base}/"])
            path = start + random_path(rng, Path(start or root), base)
            got = outcome(root, path)
            assert got in realpath_reference(root, path), (index, path, got)
            links = any(name in ("l0", "l1", "l2", "l3", "m0", "m1", "m2", "alias") for name in path.split("/"))
            tally[("read" if not got.startswith("refused: ") else got[9:]) + (" via a link" if links else "")] += 1
    assert tally == {  # the seeded trees and paths reach every case, through links too
        "read": 271, "read via a link": 364,
        f"{OUTSIDE}": 606, f"{OUTSIDE} via a link": 413,
        "no such file": 287, "no such file via a link": 390,
        "is a directory": 196, "is a directory via a link": 338,
        "not a directory via a link": 66, "too many levels of symbolic links via a link": 69}


FLIPPED = "refused: too many levels of symbolic links"
"""A safe refusal a race may also get, now and then: the name was a link when
opened and not when read back, over and over, and each look again counts as a
link, up to files.MAX_LINKS (seen once in 2,000 loads on an idle machine)."""


def race(load: Callable[[], str], states: set[str]) -> collections.Counter[str]:
    """The outcomes of calls of ``load()``: RACE_LOADS of them at least, and
    more until every one of ``states`` has been seen (fewer if RACE_SECONDS
    pass)."""
    deadline = time.monotonic() + RACE_SECONDS
    outcomes: collections.Counter[str] = collections.Counter()
    while ((outcomes.total() < RACE_LOADS or not states <= outcomes.keys())
           and time.monotonic() < deadline):
        outcomes[load()] += 1
    return outcomes


def test_a_name_swapped_for_a_link_out_is_never_read_through(tree: Path) -> None:
    # race.sgf is a regular file one moment, a link to the secret the next.
    # What is read is what was checked: race.sgf, or nothing.
    (tree / "race.sgf").write_text("race.sgf")
    os.symlink(tree.parent / "secret.sgf", tree / "race.link")
    with Swapper(tree / "race.sgf", tree / "race.link"):
        states = {"race.sgf", f"refused: {OUTSIDE}"}
        outcomes = race(lambda: outcome(tree, "race.sgf"), states)
    # Both states were seen (the race did run), and nothing else but FLIPPED.
    assert states <= set(outcomes) <= states | {FLIPPED}, outcomes


def test_a_directory_swapped_for_a_link_out_is_never_walked_through(tree: Path) -> None:
    # way is a directory holding b.sgf one moment, a link to a directory
    # outside holding its own b.sgf the next: the walk never goes through the
    # outside one.
    (tree / "way").mkdir()
    (tree / "way" / "b.sgf").write_text("b.sgf")
    (tree.parent / "out" / "b.sgf").write_text("outside b.sgf")
    os.symlink(tree.parent / "out", tree / "way.link")
    with Swapper(tree / "way", tree / "way.link"):
        states = {"b.sgf", f"refused: {OUTSIDE}"}
        outcomes = race(lambda: outcome(tree, "way/b.sgf"), states)
    assert states <= set(outcomes) <= states | {FLIPPED}, outcomes


def test_the_answer_tells_nothing_of_which_names_exist_outside(tmp_path: Path) -> None:
    # An absolute path that goes out and back in through a name outside DIR
    # gets the same answer whether that name exists (a file, a directory) or
    # not: otherwise a client could probe the server's disk name by name.
    # (It did: a missing name was refused and an existing one read.)
    base = Path(os.path.realpath(tmp_path))
    root = make_tree(base)
    answers = {outcome(root, f"{base}/{name}/../records/a.sgf") for name in ("secret.sgf", "out", "missing")}
    assert answers == {"a.sgf"}
    answers = {outcome(root, f"{base}/{name}/../out/d.sgf") for name in ("secret.sgf", "out", "missing")}
    assert answers == {"refused: the path is outside the server's file directory"}
