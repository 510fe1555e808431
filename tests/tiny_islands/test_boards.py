"""Tiny Islands' boards in the report: tiles as coloured discs with their letters (a legend
names each), before a placement the two offered zones dashed and the tile played and the bot's
best drawn in their cells, before a drawing the two regions tinted."""
from __future__ import annotations

import re

from scorebook.analyze.tiny_islands import ANALYSIS, TILE_COLOURS
from scorebook.engines.tiny_islands.metadata import TILE_LETTERS, TILE_NAMES, ZONE_MASK
from scorebook.records.formats import read_text

from ..conftest import SAMPLES

SAMPLE = SAMPLES / "tiny-islands" / "tiny-islands-mc4-s9-0001.pgn"


def _positions():
    item = read_text(SAMPLE.read_text(), str(SAMPLE))[0]
    from scorebook import registry
    return list(registry.get_game("tiny-islands").notation.trace(item.record).positions), item.record


def test_before_a_placement_the_offer_and_both_tiles_are_drawn():
    positions, record = _positions()
    p = next(p for p in positions if p.ply == 5)
    offer = record.offers[4]
    assert p.before[2] == (offer.tile1, offer.zone1, offer.tile2, offer.zone2)
    played, best = ANALYSIS.move_mark(p), "hb2" if ANALYSIS.move_mark(p) != "hb2" else "fb2"
    board = ANALYSIS.svg_board(p.before, played, best)
    on_board = int((p.before[0] > 0).sum())
    assert board.count('class="tile"') == on_board + 2  # and the two moves' tiles, in their cells
    # each offered zone outlined: a row or a column has 20 cell sides around it, a 3x3 square 12
    def perimeter(zone):
        rows, cols = {int(c) // 9 for c in ZONE_MASK[zone].nonzero()[0]}, {int(c) % 9 for c in ZONE_MASK[zone].nonzero()[0]}
        return 20 if 1 in (len(rows), len(cols)) else 12
    assert board.count('class="zone"') == perimeter(offer.zone1) + perimeter(offer.zone2)
    assert TILE_COLOURS[played[0]] in board


def test_before_a_drawing_the_regions_are_tinted_and_the_legend_names_every_tile():
    positions, _ = _positions()
    drawing = next(p for p in positions if p.move.startswith("("))
    region = drawing.move
    board = ANALYSIS.svg_board(drawing.before, region, None)
    assert board.count('class="region played"') == len(region.strip("()").split())
    assert len(drawing.before) == 2 and 'class="zone"' not in board  # no offer before a drawing
    legend = ANALYSIS.legend()
    assert all(name in legend for name in TILE_NAMES[1:]) and "offered zone" in legend
    assert set(TILE_COLOURS) == set(TILE_LETTERS[1:]) and len(set(TILE_COLOURS.values())) == len(TILE_COLOURS)
    assert not re.search(r"#e6550d|#6a3d9a", " ".join(TILE_COLOURS.values()))  # never the marks' colours
