"""Patchwork analysis: a skip that leaves the quilt open while a patch fits is a clearly
larger loss than the best move; two-player values carry paired standard errors; boards."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.analyze.loss import classify
from scorebook.analyze.patchwork import ANALYSIS, move_cells
from scorebook.analyze.run import resolve
from scorebook.engines.patchwork import pieces as P, rules as R, search as S
from scorebook.records.formats import read_text
from scorebook.records.patchwork import NOTATION

from ..conftest import SAMPLES

OPTIONS = {"effort": 1, "playouts": 16}


def record_of(text: str):
    items = read_text(text, "t.pgn", "pgn")
    assert items[0].error is None, items[0].error
    return items[0].record


def test_skipping_to_the_end_with_the_quilt_open_is_a_blunder():
    opening = "B20 B30 B32"
    s = R.new_state(P.SIM, np.zeros(0, np.int64))
    for token in opening.split():
        R.apply(s, R.BUY, int(token[1:]), R.NO_PLACE)
    bad = f"S{P.LAST_SPACE - int(s[R.TIME])}"
    record = record_of(f'[Game "patchwork-solo"]\n[Variant "sim"]\n\n{opening} {bad}\n')
    rows, settings = ANALYSIS.evaluate(NOTATION.trace(record), seed=0, options=OPTIONS)
    assert settings == {"effort": 1} and [r.played for r in rows] == opening.split() + [bad]
    skip = rows[3]
    assert skip.best.startswith("B") and skip.value_best >= 70 and skip.value_played == record.score["total"]
    assert skip.loss > 100 and classify(skip.loss, "patchwork") == "blunder"
    assert max(r.loss for r in rows[:3]) < skip.loss / 10


def test_a_game_that_reaches_85_loses_nothing():
    """85 is the real quilt's maximum: no move of a game that reaches it loses a point."""
    record = record_of((SAMPLES / "patchwork" / "patchwork-best2-real-85.pgn").read_text())
    rows, _ = ANALYSIS.evaluate(NOTATION.trace(record), seed=0, options={"effort": 2, "playouts": 16})
    assert all(r.loss == 0 and r.value_played == 85 for r in rows)


@pytest.mark.slow
def test_the_84_game_loses_its_point_where_it_leaves_the_85_plans():
    record = record_of((SAMPLES / "patchwork" / "patchwork-best2-real-s3-0001.pgn").read_text())
    rows, _ = ANALYSIS.evaluate(NOTATION.trace(record), seed=0, options={"effort": 2, "playouts": 16})
    assert [(r.ply, r.played, r.loss) for r in rows if r.loss] == [(3, "B6@d8r0m", 1.0)]
    assert rows[0].value_best == 85 and rows[-1].value_played == 84


def test_two_player_values_are_margins_with_paired_errors():
    record = record_of((SAMPLES / "patchwork" / "patchwork-best2-vbrz-two-player-s6-0001.pgn").read_text())
    cheap = {"playouts": 8, "max-playouts": 16, "searched": 2}
    rows, settings = ANALYSIS.evaluate(NOTATION.trace(record), seed=1, options=cheap)
    assert settings == dict(cheap, solve=2000)
    assert len(rows) == len(record.moves) and {r.player for r in rows} == {0, 1}
    for r in rows:  # sampled, then, near the end, solved: exact values, no error
        assert r.loss == max(0.0, r.value_best - r.value_played) and r.best[:2] in ("1:", "2:")
        assert (r.stderr is None) == bool(r.exact) and (r.stderr or 0) >= 0 and 1 <= r.rank <= r.candidates
    solved = [bool(r.exact) for r in rows]
    assert not solved[0] and solved[-1] and solved == sorted(solved)  # from some ply on, to the end
    last = rows[-1]  # the last move's value is the game's own final margin
    margin = record.score["final"][last.player] - record.score["final"][1 - last.player]
    assert last.value_played == margin


def test_an_advance_is_not_worth_more_for_the_guided_players_buying_after_it():
    """The guided player never advances while it can afford a window patch of positive value
    (Eq. 4), so after an advance its play-outs bought a cheap patch where advancing was better:
    at ply 3 of this game the advance was valued +15.5, every purchase -7 to -13 (a 28-point
    blunder), where best:8's self-play from there gives the advance -2.5 and the purchases -1.5
    to +3.75. Searched play-outs (each decision weighed by play-outs) value them alike."""
    record = record_of((SAMPLES / "patchwork" / "patchwork-best2-vbrz-two-player-s6-0001.pgn").read_text())
    s = NOTATION.trace(record).positions[2].before.state
    candidates = S.candidate_options(s, 3)
    advance = int(np.flatnonzero(candidates[:, 0] == R.ADVANCE)[0])
    guided = S.duel_values(s, candidates, 32, 3).mean(axis=1)
    searched = np.empty((candidates.shape[0], 32))
    S.searched_values(s, candidates, 32, 4, 3, searched)
    lead = lambda v: v[advance] - np.delete(v, advance).max()  # noqa: E731
    assert lead(guided) > 15  # the defect, as the guided play-outs alone still show it
    assert abs(lead(searched.mean(axis=1))) < 5  # under the mistake threshold, as best:8's self-play


def test_the_end_solved_is_the_final_margin_of_its_own_line():
    """From the middle of the track the rest of the game is solved (both seats limited to the
    advance and each patch's snuggest placement): a solved value is the final margin of the
    line the solve plays, move by move, and the next position's best from the same side."""
    record = record_of((SAMPLES / "patchwork" / "patchwork-best2-vbrz-two-player-s6-0002.pgn").read_text())
    positions = NOTATION.trace(record).positions
    s = positions[30].before.state
    assert S.solvable(s, 44)
    table = S.new_table()
    options = np.empty((1 + R.WINDOW, 3), np.int64)
    n = S.duel_options(s, options)
    values = np.empty(n)
    assert S.solved_values(s, options[:n], *table, 10 ** 7, values)
    t, seat = s.copy(), int(s[R.TO_MOVE])
    move = options[int(np.argmax(values))]
    while not R.is_over(t):  # the solve's own line, each seat's best in turn
        assert R.apply(t, *(int(v) for v in move)) == R.OK
        if R.is_over(t):
            break
        m = int(S.duel_options(t, options))
        line_values = np.empty(m)
        assert S.solved_values(t, options[:m], *table, 10 ** 7, line_values)
        move = options[int(np.argmax(line_values))].copy()
    finals = np.zeros(2, np.int64)
    R.two_player_finals(t, finals)
    assert values.max() == finals[seat] - finals[1 - seat]
    assert not S.solved_values(positions[0].before.state, options[:1], *S.new_table(), 1000, values[:1])  # over budget


def test_boards_mark_the_squares_of_the_moves():
    record = record_of((SAMPLES / "patchwork" / "patchwork-best2-real-s3-0001.pgn").read_text())
    second = NOTATION.trace(record).positions[1]
    before, after, played, patch = second.before, second.state, second.move, second.action[1]
    svg = ANALYSIS.svg_board(before, played, played)
    size = len(move_cells(played, False)[1])
    assert svg.count('class="mark played"') == size == svg.count('class="mark best"') == P.SIZE[patch]
    text = ANALYSIS.text_board(after)
    assert text.count(f"{patch:3d}") == size and "buttons" in text
    state = ANALYSIS.state_json(after)
    assert sum(row.count(patch) for row in state["seats"][0]["quilt"]) == size
    assert "<svg" in ANALYSIS.legend()


def test_bot_specs():
    assert resolve("patchwork", "effort:3") == ("best:3 playouts:32 max-playouts:256 searched:4 solve:2000", {"effort": 3})
