"""Iwoki analysis: a pass when a scoring placement exists is a big loss; bot options are checked."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.analyze.run import resolve
from scorebook.engines.iwoki import agents as A
from scorebook.engines.iwoki import engine as IE
from scorebook.errors import UsageError


def test_iwoki_pass_when_a_scoring_placement_exists_is_a_big_loss():
    s = A.deal(np.random.default_rng(5), 0)
    acts, _ = A.play_game(s, A.GREEDY, A.GREEDY, 0, 0, 1, 1 << 40, 16)
    for o in acts[:6]:
        IE.apply_option(s, o[:5])
    opts, values = A.option_values(s, 24, 3)
    means = values.mean(axis=1)
    scoring = [j for j in range(len(opts)) if opts[j, 0] in (IE.SMALL, IE.HEX) and opts[j, 4] > 0]
    assert scoring
    # a pass instead: the same state with the turn handed over and a white token taken
    passed = s.copy()
    IE.pass_turn(passed)
    _, after = A.option_values(passed, 24, 3)
    value_pass = -after.mean(axis=1).max()  # from the mover's side: the opponent's best, negated
    assert means.max() - value_pass >= 3.0


def test_bot_specs():
    assert resolve("iwoki", "samples:48")[1] == {"samples": 48}
    with pytest.raises(UsageError):
        resolve("iwoki", "depth:3")


def test_a_draw_the_bot_would_make_too_is_the_best_move_written_as_the_record_writes_it(run_cli):
    """The bot's best move and line are written by the notation's own action_text: a draw
    names the tile it takes (draw=st35), so a draw played where the bot draws too is the best
    move, not a tie between 'draw=st35' and 'draw'."""
    import json
    from ..conftest import SAMPLES
    rid = json.loads(run_cli("ingest", str(SAMPLES / "iwoki" / "iwoki-minimax2-greedy-s5-0001.pgn"),
                             "--json").stdout)["records"][0]["id"]
    moves = json.loads(run_cli("analyze", rid, "--bot", "samples:4", "--json").stdout)["moves"]
    draws = [m for m in moves if m["played"].startswith("draw")]
    assert draws and all(m["played"].startswith("draw=st") for m in draws)
    texts = [m["best"] for m in moves] + [c["move"] for m in moves for c in m.get("top", [])] + \
        [x for m in moves for x in m.get("line", [])]
    assert "draw" not in texts and any(t.startswith("draw=st") for t in texts)
    same = [m for m in draws if m["best"] == m["played"]]
    assert same and all(m["class"] == "best" and not m.get("tied") for m in same)
