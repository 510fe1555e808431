"""SVG with ElementTree only (as python-chess draws its boards): the elements every game's
board is made of, the colours they share, and the legend.

The move played and the bot's best are marked in colours no piece of any game uses: the
played move solid orange, the best dashed purple.

>>> s = Svg(40, 20)
>>> _ = s.rect(0, 0, 10, 10, fill="#fff"), s.text(20, 15, "a", font_size=9)
>>> s.to_string()
'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20" class="board"><rect x="0" y="0" width="10" height="10" fill="#fff" /><text x="20" y="15" font-size="9">a</text></svg>'
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

PLAYED = "#e6550d"  # orange: the move played
BEST = "#6a3d9a"  # purple, dashed: the bot's best move
BEST_DASH = "5,3"
INK = "#333"
GRID = "#bbb"


def _num(v) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


class Svg:
    """An SVG document built element by element."""

    def __init__(self, width, height, css_class: str = "board", title: str | None = None):
        self.root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": _num(width),
                                       "height": _num(height), "viewBox": f"0 0 {_num(width)} {_num(height)}",
                                       "class": css_class})
        if title:
            ET.SubElement(self.root, "title").text = title

    def _add(self, tag: str, attrs: dict, parent=None):
        el = ET.SubElement(self.root if parent is None else parent,
                           tag, {k.rstrip("_").replace("_", "-"): _num(v) for k, v in attrs.items() if v is not None})
        return el

    def group(self, **attrs):
        return self._add("g", attrs)

    def rect(self, x, y, w, h, parent=None, **attrs):
        return self._add("rect", {"x": x, "y": y, "width": w, "height": h, **attrs}, parent)

    def line(self, x1, y1, x2, y2, parent=None, **attrs):
        return self._add("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, **attrs}, parent)

    def circle(self, cx, cy, r, parent=None, **attrs):
        return self._add("circle", {"cx": cx, "cy": cy, "r": r, **attrs}, parent)

    def polygon(self, points, parent=None, **attrs):
        return self._add("polygon", {"points": " ".join(f"{_num(x)},{_num(y)}" for x, y in points), **attrs}, parent)

    def polyline(self, points, parent=None, **attrs):
        return self._add("polyline", {"points": " ".join(f"{_num(x)},{_num(y)}" for x, y in points), **attrs},
                         parent)

    def text(self, x, y, content, parent=None, **attrs):
        el = self._add("text", {"x": x, "y": y, **attrs}, parent)
        el.text = str(content)
        return el

    def mark(self, kind: str, tag: str, attrs: dict):
        """The played (``kind`` "played") or best move's mark: class ``mark``, the shared colours."""
        style = {"stroke": PLAYED, "stroke_width": 3, "fill": "none"} if kind == "played" else \
            {"stroke": BEST, "stroke_width": 3, "fill": "none", "stroke_dasharray": BEST_DASH}
        return self._add(tag, {**attrs, **style, "class": f"mark {kind}"})

    def to_string(self) -> str:
        return ET.tostring(self.root, encoding="unicode")


def legend(entries: list[tuple[str, dict]]) -> str:
    """A legend: (label, swatch rect attributes) each, then the move played and the bot's
    best, in one row."""
    entries = entries + [("move played", {"fill": "none", "stroke": PLAYED, "stroke_width": 3}),
                         ("bot's best", {"fill": "none", "stroke": BEST, "stroke_width": 3,
                                         "stroke_dasharray": BEST_DASH})]
    width = sum(30 + 6.5 * len(label) for label, _ in entries)
    s = Svg(width, 20, css_class="legend")
    x = 2
    for label, attrs in entries:
        s.rect(x, 4, 12, 12, **attrs)
        s.text(x + 17, 14, label, font_size=12)
        x += 30 + 6.5 * len(label)
    return s.to_string()
