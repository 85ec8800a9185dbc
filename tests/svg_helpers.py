"""Reading the SVG pictures in tests: parse one and find elements by class."""

from __future__ import annotations

import xml.etree.ElementTree as ET


def parse(text: str) -> ET.Element:
    """One line of SVG, parsed (it must be exactly one ``<svg>`` element)."""
    assert "\n" not in text and text.startswith("<svg") and text.endswith("</svg>")
    return ET.fromstring(text)


def with_class(root: ET.Element, *classes: str) -> list[ET.Element]:
    """Elements whose class attribute holds every one of ``classes``."""
    return [e for e in root.iter() if set(classes) <= set((e.get("class") or "").split())]
