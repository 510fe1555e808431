"""Patchwork's boards in the report: the time track with its buttons, the leather patches still
on it and every seat's token; two players, the window of patches the mover may buy."""
from __future__ import annotations

import numpy as np

from scorebook import registry
from scorebook.analyze.patchwork import ANALYSIS
from scorebook.engines.patchwork import pieces as P, rules as R
from scorebook.records.formats import read_text

from ..conftest import SAMPLES


def _positions(name):
    path = SAMPLES / "patchwork" / name
    item = read_text(path.read_text(), str(path))[0]
    return list(registry.get_game("patchwork").notation.trace(item.record).positions)


def test_two_players_see_the_track_the_tokens_and_the_window():
    p = _positions("patchwork-best2-vbrz-two-player-s6-0001.pgn")[10]
    board = ANALYSIS.svg_board(p.before)
    s = p.before.state
    assert board.count('class="income-space"') == len(P.INCOME_SPACES)
    passed = max(int(s[R.TIME]), int(s[R.TIME + R.SEAT_SIZE]))
    assert board.count('class="leather-space"') == int((P.LEATHER_SPACES > passed).sum())
    assert 'class="token seat-0"' in board and 'class="token seat-1"' in board
    w = np.empty(R.WINDOW, np.int64)
    shown = w[:R.window(s, w)]
    assert board.count('class="window-patch"') == int(P.SIZE[shown].sum())
    assert all(f"B{int(patch)}: {int(P.COST[patch])}, {int(P.TIME[patch])}" in board for patch in shown)


def test_one_player_sees_the_track_and_no_window():
    p = _positions("patchwork-best2-real-85.pgn")[5]
    board = ANALYSIS.svg_board(p.before)
    assert board.count('class="token seat-0"') == 1 and 'class="window-patch"' not in board


def test_two_players_are_named_as_the_record_names_them_and_the_window_fits():
    path = SAMPLES / "patchwork" / "patchwork-best2-vbrz-two-player-s6-0001.pgn"
    item = read_text(path.read_text(), str(path))[0]
    names = item.record.players
    p = registry.get_game("patchwork").notation.trace(item.record).positions[10]
    board = ANALYSIS.svg_board(p.before)
    text = ANALYSIS.text_board(p.before)
    assert "player 1" not in board and "player 1" not in text
    assert all(name in board and f"{name}: time" in text for name in names)
    width = float(board.split('width="', 1)[1].split('"', 1)[0])
    from scorebook.analyze.patchwork import _window_width
    assert width >= 16 + _window_width(p.before.state)
