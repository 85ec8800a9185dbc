"""Every doctest of the ``stargtp.engine`` and ``stargtp.protocol`` packages runs, one case
per module (a module without examples passes trivially); so do the examples
of the test helpers that have some. And every name in a module's ``__all__``
exists, so ``from MODULE import *`` works.

The modules are found by walking the packages (:func:`pkgutil.walk_packages`)
when the tests are collected, so a module that is added, split or removed is
picked up without a change here. A module that cannot be imported fails its
own case (a package that cannot be imported is listed under its own name).
"""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil

import pytest

PACKAGES = ("stargtp.engine", "stargtp.protocol")
TEST_HELPERS = ("tests.diagrams", "tests.third_game")
"""Helper modules of tests/ whose docstrings hold examples too."""
EXTRAS = {"stargtp.protocol.tools.match.cluster": "distributed"}
"""Modules of an optional extra, and the package the extra brings: skipped
where it is not installed (never on CI, which installs every extra)."""


def module_names() -> list[str]:
    """Every module and package of PACKAGES, in walk order."""
    names: list[str] = []
    for package_name in PACKAGES:
        names.append(package_name)
        package = importlib.import_module(package_name)
        # onerror: a subpackage whose import fails is still listed (it fails
        # its own case below) instead of breaking the collection.
        for info in pkgutil.walk_packages(package.__path__, package_name + ".", onerror=names.append):
            names.append(info.name)
    return list(dict.fromkeys(names + list(TEST_HELPERS)))


MODULES = module_names()


def run_doctests(module) -> tuple[doctest.TestResults, str]:
    """The module's doctests as ``doctest.testmod`` runs them (the module's
    globals, default option flags); the results and the failure report."""
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(verbose=False)
    report: list[str] = []
    for test in finder.find(module, module.__name__):
        runner.run(test, out=report.append)
    return runner.summarize(verbose=False), "".join(report)


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    if name in EXTRAS and not os.environ.get("CI"):
        pytest.importorskip(EXTRAS[name])
    module = importlib.import_module(name)
    results, report = run_doctests(module)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples failed:\n{report}"


@pytest.mark.parametrize("name", [name for name in MODULES if name.startswith(PACKAGES)])
def test_every_name_in_all_exists(name: str) -> None:
    """``from MODULE import *`` works: each name of ``__all__`` is defined."""
    if name in EXTRAS and not os.environ.get("CI"):
        pytest.importorskip(EXTRAS[name])
    module = importlib.import_module(name)
    exported = getattr(module, "__all__", [])
    assert [n for n in exported if not hasattr(module, n)] == []
    namespace: dict[str, object] = {}
    exec(f"from {name} import *", namespace)
    assert set(exported) <= set(namespace)


def test_the_walk_finds_the_packages() -> None:
    """A guard against a walk that silently finds nothing."""
    assert {"stargtp.engine.game", "stargtp.engine.games", "stargtp.protocol.framing", "stargtp.protocol.registry"} <= set(MODULES)
    assert len(MODULES) >= 20
