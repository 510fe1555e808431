"""Tsuro's boards in the report: the move played in its square, the bot's best tile beside the
board (not on top of it), every hand drawn as tiles."""
from __future__ import annotations

import re

from scorebook import registry
from scorebook.analyze.tsuro import ANALYSIS, CELL
from scorebook.engines.tsuro import rules as R
from scorebook.records.formats import read_text

from ..conftest import SAMPLES

SAMPLE = SAMPLES / "tsuro" / "tsuro-mc8-simple-random-s6-0001.pgn"


def test_the_best_tile_is_beside_the_board_and_the_hands_are_tiles():
    item = read_text(SAMPLE.read_text(), str(SAMPLE))[0]
    positions = list(registry.get_game("tsuro").notation.trace(item.record).positions)
    p = positions[5]
    s, _ = p.before
    played = ANALYSIS.move_mark(p)
    other = next(t for t in range(35) if t not in R.hand(s, p.player))  # some other tile on the same square
    best = re.sub(r"^\d+", str(other), played)
    board = ANALYSIS.svg_board(p.before, played, best)
    marks = {kind: float(re.search(rf'<rect x="([\d.]+)"[^>]*class="mark {kind}"', board).group(1))
             for kind in ("played", "best")}
    board_right = 20 + R.COLS * CELL
    assert marks["played"] < board_right < marks["best"]
    assert board.count('class="hand-tile"') == sum(len(R.hand(s, q)) for q in range(int(s[R.N])))
