"""Tsuro's bots through ``play`` (2 to 8 seats, both refill rules), the records they write
read back, and the determinized player's view of what it cannot see."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.engines.tsuro import bots as B, rules as R

from ..conftest import cli_json


@pytest.mark.parametrize("players, refill", [("simple,random", "round_robin"), ("random,simple,random", "holder_first"),
                                             ("mc:2,simple", "round_robin"), (",".join(["random"] * 8), "holder_first")])
def test_bots_play_games_that_ingest(run_cli, players, refill):
    out = cli_json(run_cli("play", "tsuro", "--players", players, "--refill", refill, "--games", "2", "--seed", "4",
                           "--json"))
    n = len(players.split(","))
    assert [g["status"] for g in out["games"]] == ["ingested", "ingested"]
    for g in out["games"]:
        score = g["score"]
        assert len(score["players"]) == n and score["winners"] and len(score["cause"]) == n
        assert all((t is None) == (c is None) for t, c in zip(score["eliminated_turn"], score["cause"]))


def test_player_counts_are_checked(run_cli):
    assert run_cli("play", "tsuro", "--players", "random").exit_code == 2
    assert run_cli("play", "tsuro", "--players", ",".join(["random"] * 9)).exit_code == 2


def test_a_determinized_world_keeps_what_the_seat_sees():
    s = R.new_state(4, np.array([0, 17, 100, 200]), np.arange(35), 0, 1)
    world = B.determinize(s, 2, B.new_rng(3, 0))
    assert R.hand(world, 2) == R.hand(s, 2)
    assert np.array_equal(world[R.BOARD:R.HANDS], s[R.BOARD:R.HANDS])
    unseen = sorted(t for q in (0, 1, 3) for t in R.hand(s, q)) + R.deck(s)
    assert sorted(t for q in (0, 1, 3) for t in R.hand(world, q)) + R.deck(world) != [] and \
        sorted([t for q in (0, 1, 3) for t in R.hand(world, q)] + R.deck(world)) == sorted(unseen)
    assert [len(R.hand(world, q)) for q in range(4)] == [len(R.hand(s, q)) for q in range(4)]


def test_mc_beats_random_more_often_than_not():
    wins = 0
    for g in range(12):
        rng = np.random.default_rng(g)
        edge = [sq * 8 + p for sq in range(R.SQUARES) for p in range(8) if R.is_edge_point(sq, p)]
        s = R.new_state(2, np.array(rng.choice(edge, 2, replace=False)), rng.permutation(35), 0, g)
        rr = B.new_rng(g, 9)
        events = np.zeros((B.EVENTS, 3), np.int64)
        me = g % 2
        while not s[R.OVER]:
            if s[R.TO_MOVE] == me:
                t, r = B.mc_choice(s, 8, g * 100 + int(s[R.PLACED]))
            else:
                t, r = B.cheap_choice(s, B.RANDOM, rr)
            assert R.turn(s, t, r, R.NO_ORDER, events) == R.OK
        wins += R.win_share(s, me)
    assert wins >= 8
