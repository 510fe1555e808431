"""Iwoki's boards in the report: each number in the colour of the seat that laid it, a
placement's tile drawn in its gap with its face and rotation, a draw or a pass in words."""
from __future__ import annotations

from scorebook import registry
from scorebook.analyze.iwoki import ANALYSIS, SEAT_INK
from scorebook.engines.iwoki import engine as IE
from scorebook.engines.iwoki.metadata import EMPTY, N_HEX_GAPS
from scorebook.records.formats import read_text

from ..conftest import SAMPLES

SAMPLE = SAMPLES / "iwoki" / "iwoki-minimax2-greedy-s5-0002.pgn"


def _positions():
    item = read_text(SAMPLE.read_text(), str(SAMPLE))[0]
    return list(registry.get_game("iwoki").notation.trace(item.record).positions)


def test_every_number_is_coloured_by_the_seat_that_laid_it():
    positions = _positions()
    s, owner = positions[-1].state
    laid = s[IE.HEXVAL:IE.HEXVAL + N_HEX_GAPS * 6] != EMPTY
    assert ((owner >= 0) == laid).all() and set(owner[laid].tolist()) == {0, 1}
    board = ANALYSIS.svg_board(positions[-1].state)
    assert board.count(f'fill="{SEAT_INK[0]}"') == int((owner == 0).sum())
    assert board.count(f'fill="{SEAT_INK[1]}"') == int((owner == 1).sum())


def test_a_placement_shows_its_tile_and_a_draw_its_words():
    positions = _positions()
    hexes = next(p for p in positions if "@H" in p.move and "_" not in p.move.split()[-1])
    board = ANALYSIS.svg_board(hexes.before, ANALYSIS.move_mark(hexes), None)
    assert board.count('class="tile-number played"') == 6 and 'class="mark played"' in board
    small = next(p for p in positions if "_" in p.move.split()[-1])
    board = ANALYSIS.svg_board(small.before, None, ANALYSIS.move_mark(small))
    assert board.count('class="tile-number best"') == 3
    draw = next(p for p in positions if "draw=" in p.move)
    board = ANALYSIS.svg_board(draw.before, ANALYSIS.move_mark(draw), "pass")
    assert 'class="word played"' in board and "draw st" in board and 'class="word best"' in board


def test_a_best_move_in_the_played_gap_is_drawn_apart_and_no_name_lies_under_numbers():
    """The bot's best in the gap of the move played would lay its numbers on the played ones:
    its gap is outlined on the board and drawn again under it, apart, with the best's numbers
    (and said in words); a gap whose middle a tile's numbers cover shows no name under them."""
    from scorebook.engines.iwoki.metadata import HEX_GAP_NAMES
    positions = _positions()
    hexes = next(p for p in positions if "@H" in p.move and "_" not in p.move.split()[-1])
    played = ANALYSIS.move_mark(hexes)
    gap = played.rsplit("@", 1)[1]
    other_face = played.replace("A", "#").replace("B", "A").replace("#", "B") if "@" in played else played
    board = ANALYSIS.svg_board(hexes.before, played, other_face)
    assert board.count('class="tile-number played"') == 6 and board.count('class="tile-number best"') == 6
    assert board.count('class="apart"') == 1 and f"bot's best: {other_face}" in board
    assert 'class="word best"' in board and board.count('class="mark best"') == 2  # on the board and apart
    assert f">{gap}</text>" not in board  # the name of the gap the numbers cover
    assert f">{next(n for n in HEX_GAP_NAMES if n != gap)}</text>" in board  # other gaps keep theirs
    same = ANALYSIS.svg_board(hexes.before, played, played)  # the bot's own move: drawn once
    assert 'class="apart"' not in same and 'class="tile-number best"' not in same


def test_hands_and_colours_are_named_by_the_players():
    positions = _positions()
    board = ANALYSIS.svg_board(positions[5].before, None, None, ("ann", "bob"))
    assert "ann's hand:" in board and "First" not in board
    assert "ann's numbers" in ANALYSIS.legend(("ann", "bob")) and "bob's numbers" in ANALYSIS.legend(("ann", "bob"))
    assert "First's hand:" in ANALYSIS.text_board(positions[5].before)  # a record naming no player
