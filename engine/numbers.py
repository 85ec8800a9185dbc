"""Numbers as the protocol writes them (komi, score margins)."""

from __future__ import annotations


def format_number(value: float) -> str:
    """``3`` for 3.0, ``2.5`` for 2.5: no float noise, no trailing zeros.

    >>> format_number(3.0), format_number(-0.5), format_number(1e-9)
    ('3', '-0.5', '0')
    """
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text
