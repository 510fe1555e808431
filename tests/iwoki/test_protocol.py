"""Iwoki through the engines' protocol: illegal actions are refused with their code and change
nothing (random games written as records: tests/test_round_trip.py)."""
from __future__ import annotations

import numpy as np

from scorebook.engines.iwoki import engine as E
from scorebook.engines.iwoki.game import ENGINE


def test_illegal_actions_are_refused_and_change_nothing():
    s = ENGINE.new_game(np.random.default_rng(4), {})
    before = s.copy()
    first = ENGINE.legal_actions(s)[0]
    for action, code in (((E.DRAW, 0, 0, 0, 0), "draw-not-allowed"), ((E.PASS, 0, 0, 0, 0), "pass-not-allowed"),
                         ((first[0], first[1], first[2] + 1, first[3], first[4]), "illegal-placement")):
        assert ENGINE.code_name(ENGINE.apply(s, action)) == code
        assert (s == before).all()
