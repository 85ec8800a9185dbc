"""The controller-side tools: the match runner, the console, render, bench and demo."""


def plural(count: int, word: str) -> str:
    """A count and its noun, for people: ``1 run``, ``2 runs``, ``0 runs``."""
    return f"{count} {word}" + ("" if count == 1 else "s")
