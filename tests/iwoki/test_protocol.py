"""Iwoki through the engines' protocol: random games written as records replay to the same
tally; illegal actions are refused with their code and change nothing."""
from __future__ import annotations

import numpy as np

from scorebook.engines.iwoki import engine as E
from scorebook.engines.iwoki.game import ENGINE
from scorebook.engines.protocol import BotSpec, OK, Played
from scorebook.records.ingest import ingest_text
from scorebook.records.iwoki import NOTATION


def test_protocol_games_replay_as_records_to_the_same_tally(store):
    rng = np.random.default_rng(2)
    for g in range(4):
        setup = ENGINE.new_game(rng, {"rules": ("simulator-2021", "official")[g % 2]})
        s = ENGINE.initial_state(setup)
        moves = []
        while not ENGINE.is_terminal(s):
            actions = ENGINE.legal_actions(s)
            a = actions[int(rng.integers(len(actions)))]
            seat = ENGINE.to_move(s)
            tile = E.hand(s, seat, a[0])[a[1]] if a[0] in (E.SMALL, E.HEX) else E.pile_top(s) if a[0] == E.DRAW else -1
            assert ENGINE.apply(s, a) == OK
            moves.append((seat, *a, tile))
        seats = [("A", BotSpec("random")), ("B", BotSpec("random"))]
        text = NOTATION.write_played(setup, Played(moves, 0.0), seats, {"Round": str(g)}, {"seed": 1, "game": g})
        out = ingest_text(store, text, f"g{g}.pgn")[0]
        assert out["status"] == "ingested" and out["score"] == ENGINE.score(s)


def test_illegal_actions_are_refused_and_change_nothing():
    s = ENGINE.new_game(np.random.default_rng(4), {})
    before = s.copy()
    first = ENGINE.legal_actions(s)[0]
    for action, code in (((E.DRAW, 0, 0, 0, 0), "draw-not-allowed"), ((E.PASS, 0, 0, 0, 0), "pass-not-allowed"),
                         ((first[0], first[1], first[2] + 1, first[3], first[4]), "illegal-placement")):
        assert ENGINE.code_name(ENGINE.apply(s, action)) == code
        assert (s == before).all()
