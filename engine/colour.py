"""Colours shared by both games: small ints, so boards are plain lists."""

EMPTY = 0
BLACK = 1
WHITE = 2

COLOURS = (BLACK, WHITE)


def opponent(colour: int) -> int:
    """The other player: BLACK <-> WHITE."""
    return 3 - colour


def colour_name(colour: int) -> str:
    """``"black"`` or ``"white"``."""
    return "black" if colour == BLACK else "white"


def parse_colour(text: str) -> int:
    """Read ``b``, ``w``, ``black`` or ``white`` in any case; ValueError otherwise."""
    word = text.lower()
    if word in ("b", "black"):
        return BLACK
    if word in ("w", "white"):
        return WHITE
    raise ValueError(f"invalid colour {text!r}")
