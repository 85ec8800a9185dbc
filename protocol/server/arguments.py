"""Reading command arguments: counts, integers, numbers, colours. Every
failure is a ``syntax error: ...`` (:func:`stargtp.protocol.registry.syntax_error`).

>>> parse_int("+7"), parse_number("1e2"), expect_count(("b",), 1)
(7, 100.0, None)
"""

from __future__ import annotations

import math
import re

from stargtp.engine.colour import parse_colour
from stargtp.protocol.registry import syntax_error

Args = tuple[str, ...]
"""A command's arguments, as the framing split them."""

INTEGER = re.compile(r"[+-]?[0-9]+")
NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
MAX_INTEGER_DIGITS = 18  # keeps int() far from Python's digit limit; bigger is out of range anyway


def expect_count(args: Args, *counts: int) -> None:
    """Fail unless there are exactly one of ``counts`` arguments."""
    if len(args) in counts:
        return
    if counts == (0,):
        raise syntax_error("expected no arguments")
    wanted = " or ".join(str(c) for c in counts)
    plural = "" if counts == (1,) else "s"
    raise syntax_error(f"expected {wanted} argument{plural}")


def parse_int(text: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """A decimal integer (ASCII digits only), optionally range-checked."""
    if not INTEGER.fullmatch(text):
        raise syntax_error("expected an integer")
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > MAX_INTEGER_DIGITS:
        raise syntax_error("integer out of range")
    value = int(text)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        if maximum is None:
            raise syntax_error(f"expected an integer >= {minimum}")
        raise syntax_error(f"expected an integer from {minimum} to {maximum}")
    return value


def parse_number(text: str, minimum: float | None = None) -> float:
    """A finite decimal number such as ``6.5``, ``-3`` or ``1e2``."""
    if not NUMBER.fullmatch(text):
        raise syntax_error("expected a number")
    value = float(text)
    if not math.isfinite(value):
        raise syntax_error("number out of range")
    if minimum is not None and value < minimum:
        raise syntax_error(f"expected a number >= {minimum:g}")
    return value


def parse_colour_arg(text: str) -> int:
    try:
        return parse_colour(text)
    except ValueError:
        raise syntax_error("invalid colour") from None
