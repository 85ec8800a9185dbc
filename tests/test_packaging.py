"""The distribution: one top-level import package, ``stargtp``, and no
process of stargtp that imports anything from the working directory.

The wheel is built from this checkout (``pip wheel --no-build-isolation``,
with the setuptools of the test environment) and checked file by file; it is
then installed into a folder of its own and imported from outside the
repository, so a packaging mistake fails here even when the suite runs
against an editable install.

The working-directory tests run every entry point that starts processes
(``serve``, ``match``, ``gui``, ``bench``, ``play``) through the installed
console script, from a folder that holds packages named ``engine``,
``protocol`` and ``stargtp``, and compare the answers with the same run from
an empty folder. Two kinds of such packages: ones that only assign a name
(imported by mistake, they silently replace ours: the 0.1 release played
its fallback moves) and ones that raise on import.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import urllib.request
import zipfile
from functools import cache
from pathlib import Path

import pytest

from tests.gtp_helpers import HANG_SECONDS, terminate

REPO = Path(__file__).resolve().parent.parent
STARGTP = str(Path(sys.executable).parent / "stargtp")
"""The installed console script, beside this interpreter."""

SOURCE_FOLDERS = {"engine": "stargtp.engine", "protocol": "stargtp.protocol"}


# -- the wheel -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("build")
    # Build from a copy of the checkout, so that no build folder is left in it.
    source = build / "stargtp"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "node_modules", "__pycache__", "build", "*.egg-info", ".pytest_cache"))
    completed = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                                "--quiet", "-w", str(out), str(source)],
                               capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr
    (path,) = out.glob("stargtp-*.whl")
    return path


def source_files() -> set[str]:
    """Every file the wheel must hold, by its installed name."""
    names = set()
    for folder, package in SOURCE_FOLDERS.items():
        for path in (REPO / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                names.add(package.replace(".", "/") + "/" + path.relative_to(REPO / folder).as_posix())
    return names


def test_the_wheel_has_one_top_level_package_and_every_source_file(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (top_level,) = [n for n in names if n.endswith(".dist-info/top_level.txt")]
        assert archive.read(top_level).decode().split() == ["stargtp"]
        (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        assert "stargtp = stargtp.protocol.cli:main" in archive.read(entry_points).decode()
    installed = {n for n in names if ".dist-info/" not in n}
    assert {n.split("/")[0] for n in installed} == {"stargtp"}
    assert installed == source_files()


def test_every_source_package_is_listed_in_pyproject() -> None:
    """setuptools is given the packages one by one (they are mapped from
    ``engine/`` and ``protocol/``), so a new subpackage must be added there."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    found = set()
    for folder, package in SOURCE_FOLDERS.items():
        assert config["package-dir"][package] == folder
        for init in (REPO / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(REPO / folder).parts
            found.add(".".join((package, *parts)))
    assert set(config["packages"]) == found


def test_the_installed_wheel_imports_outside_the_repository(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    completed = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                                "--no-compile", "--target", str(target), str(wheel)],
                               capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import stargtp.protocol, stargtp.engine.games, stargtp.protocol.cli as cli; "
            "print(stargtp.protocol.__file__); print(stargtp.engine.games.__file__); print(cli.version_text())")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(target)
    completed = subprocess.run([sys.executable, "-P", "-c", code], cwd=elsewhere, env=env,
                               capture_output=True, text=True, timeout=HANG_SECONDS)
    assert completed.returncode == 0, completed.stderr
    protocol_file, games_file, version = completed.stdout.splitlines()
    assert Path(protocol_file).is_relative_to(target) and Path(games_file).is_relative_to(target)
    assert version == "stargtp " + version_in_source()


def version_in_source() -> str:
    match = re.search(r'^__version__ = "([^"]+)"$', (REPO / "protocol" / "__init__.py").read_text(), re.M)
    assert match
    return match.group(1)


def test_the_version_is_written_once_and_the_changelog_has_it() -> None:
    from stargtp.protocol.cli import version_text
    from stargtp.protocol.server.commands import engine_version

    version = version_in_source()
    assert engine_version() == version and version_text() == f"stargtp {version}"
    assert 'dynamic = ["version"]' in (REPO / "pyproject.toml").read_text()
    assert f"## [{version}]" in (REPO / "CHANGELOG.md").read_text()


# -- nothing from the working directory ----------------------------------------------

TRAPS = {
    "assign": "IMPORTED_FROM_THE_WORKING_DIRECTORY = True\n",
    "raise": "raise RuntimeError('imported from the working directory')\n",
}


def make_folder(root: Path, trap: str | None) -> Path:
    """An empty folder, or one with packages named like ours that ``trap``s."""
    folder = root / (trap or "empty")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    if trap:
        for package in ("engine", "protocol", "stargtp", "stargtp/engine", "stargtp/protocol",
                        "protocol/server", "engine/search"):
            (folder / package).mkdir(parents=True, exist_ok=True)
            (folder / package / "__init__.py").write_text(TRAPS[trap])
        for module in ("engine/games.py", "protocol/cli.py", "protocol/server/workers.py"):
            (folder / module).write_text(TRAPS[trap])
    return folder


def clean_env() -> dict[str, str]:
    """The user's environment: no PYTHONPATH, nothing of the test run."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}


def run(argv: list[str], folder: Path, stdin: str = "") -> str:
    completed = subprocess.run([STARGTP, *argv], input=stdin, cwd=folder, env=clean_env(),
                               capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr
    assert "working directory" not in completed.stderr, completed.stderr
    return completed.stdout


def successes(answer: str) -> str:
    """The protocol answer, asserting that every response is a success."""
    assert all(response.startswith("=") for response in answer.strip("\n").split("\n\n")), answer
    return answer


def serve(folder: Path) -> str:
    return successes(run(["serve", "--seed", "3", "--workers", "2", "--playouts", "300"], folder,
               "boardsize 4\nplay b *40\ngenmove w\ngenmove b\ngame amazons\nboardsize 6\ngenmove w\nquit\n"))


def match(folder: Path) -> str:
    engine = f"{STARGTP} serve --workers 1 --playouts 150 --seed"
    run(["match", "--black", f"{engine} 1", "--white", f"{engine} 2", "--games", "2", "--size", "3",
         "--results", "results.jsonl"], folder)
    records = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    games = [r for r in records if r["type"] == "game"]
    assert len(games) == 2
    return json.dumps([(g["key"], g["result"], [m["move"] for m in g["moves"]]) for g in games])


def gui(folder: Path) -> str:
    process = subprocess.Popen([STARGTP, "gui", "--port", "0", "--workers", "1", "--seed", "1",
                                "--playouts", "200"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=folder, env=clean_env())
    try:
        line = process.stderr.readline().decode()
        found = re.fullmatch(r"stargtp: gui at (http://127\.0\.0\.1:\d+)/\n", line)
        assert found, line + process.stderr.read().decode() if process.poll() is not None else line
        base = found.group(1)

        def post(path: str, body: str) -> bytes:
            request = urllib.request.Request(base + path, data=body.encode(), method="POST")
            with urllib.request.urlopen(request, timeout=HANG_SECONDS) as answer:
                return answer.read()

        token = json.loads(post("/session", ""))["session"]
        return successes(post(f"/gtp?session={token}", "boardsize 4\nplay b *40\ngenmove w\n").decode())
    finally:
        terminate(process)


def bench(folder: Path) -> str:
    # Speeds differ from run to run; what must agree is that the timed work
    # ran in its worker processes (a failed import there ends the run).
    data = json.loads(run(["bench", "--size", "3", "--seconds", "0.2", "--runs", "1", "--workers", "2",
                           "--json"], folder))
    assert data["iterations_per_s"] > 0 and data["parallel_iterations_per_s"] > 0
    return json.dumps(sorted(data))


def play(folder: Path) -> str:
    script = "S20\nhint\n" + "pass\n" * 12 + "quit\n"
    return run(["play", "--size", "2", "--seed", "1", "--playouts", "100", "--plain"], folder, script)


ENTRY_POINTS = {"serve": serve, "match": match, "gui": gui, "bench": bench, "play": play}


@cache
def from_an_empty_folder(name: str, root: str) -> str:
    return ENTRY_POINTS[name](make_folder(Path(root), None))


@pytest.mark.parametrize("trap", sorted(TRAPS))
@pytest.mark.parametrize("name", list(ENTRY_POINTS))
def test_no_process_imports_from_the_working_directory(name: str, trap: str, tmp_path_factory) -> None:
    assert Path(STARGTP).exists(), "the stargtp console script is installed beside the interpreter"
    root = tmp_path_factory.getbasetemp() / f"cwd-{name}"
    root.mkdir(exist_ok=True)
    expected = from_an_empty_folder(name, str(root))
    assert ENTRY_POINTS[name](make_folder(root, trap)) == expected
