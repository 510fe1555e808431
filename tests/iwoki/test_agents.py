"""Iwoki agents: Greedy's tie order, Minimax against a plain minimax without pruning, play."""
from __future__ import annotations

import numpy as np

from scorebook.engines.iwoki import agents as A
from scorebook.engines.iwoki import engine as E

from ..conftest import cli_json


def plain_minimax(s, depth, root):
    """Exhaustive minimax without pruning, in plain Python over the same rules."""
    if depth == 0 or E.game_over(s):
        return int(E.tally_margin(s, root))
    values = []
    for opt in E.options(s):
        child = s.copy()
        E.apply_option(child, opt)
        values.append(plain_minimax(child, depth - 1, root) if not E.game_over(child) and depth > 1
                      else int(E.tally_margin(child, root)))
    return max(values) if s[E.TO_MOVE] == root else min(values)


def positions(count=6, moves=5):
    out = []
    for g in range(count):
        s = A.deal(np.random.default_rng([3, g]), 0)
        acts, _ = A.play_game(s, A.GREEDY, A.RANDOM, 0, 0, g, 1 << 40, 16)
        for o in acts[:moves + g % 4]:
            E.apply_option(s, o[:5])
        out.append(s)
    return out


def test_alpha_beta_equals_plain_minimax():
    for s in positions():
        root = int(s[E.TO_MOVE])
        for depth in (1, 2, 3):
            stats = np.zeros(2, np.int64)
            i, value = A.minimax(s, depth, 1 << 40, stats, False)
            assert value == plain_minimax(s, depth, root)
            # the chosen option reaches that value, and no earlier option does
            opts = E.options(s)
            reach = []
            for opt in opts[: i + 1]:
                child = s.copy()
                E.apply_option(child, opt)
                reach.append(plain_minimax(child, depth - 1, root) if depth > 1 and not E.game_over(child)
                             else int(E.tally_margin(child, root)))
            assert reach[-1] == value and all(r < value for r in reach[:-1])


def test_greedy_takes_the_first_highest_option():
    for s in positions(4, 3):
        opts = E.options(s)
        i = A.greedy_index(opts)
        assert opts[i, 4] == opts[:, 4].max() and (opts[:i, 4] < opts[i, 4]).all()


def test_agents_beat_random():
    diffs = []
    for g in range(10):
        s = A.deal(np.random.default_rng([9, g]), 0)
        _, stats = A.play_game(s, A.GREEDY, A.RANDOM, 0, 0, g, 1 << 40, 16)
        diffs.append(stats[0, 2] - stats[1, 2])
    assert np.mean(diffs) > 10


def test_cli_play_iwoki(run_cli):
    doc = cli_json(run_cli("play", "iwoki", "--players", "minimax:2,random", "--games", "2", "--seed", "3",
                           "--json"))
    assert [g["status"] for g in doc["games"]] == ["ingested", "ingested"]
    s = doc["summary"]
    assert s["games"] == 2 and s["wins"] + s["losses"] + s["draws"] == 2
    assert s["mean_nodes"][0] > 0 and s["mean_nodes"][1] == 0  # minimax searches, random does not
    assert all(isinstance(g["seconds"], float) for g in doc["games"])
    again = cli_json(run_cli("play", "iwoki", "--players", "minimax:2,random", "--games", "2", "--seed", "3",
                             "--json"))
    assert [g["status"] for g in again["games"]] == ["duplicate", "duplicate"]  # same seed, same games


def plain_options(s):
    """The option list of spec §7, enumerated slot by slot in plain Python (later moves)."""
    from scorebook.engines.iwoki.metadata import (HAND_HEX, HAND_SMALL, N_HAND_HEX, N_HAND_SMALL, N_HEX_TILES, N_SMALL_TILES)
    p = int(s[E.TO_MOVE])
    out = []
    rules = int(s[E.RULES])
    for face in (1, 0):
        for i in range(int(s[N_HAND_SMALL + p])):
            tile = int(s[HAND_SMALL + p * N_SMALL_TILES + i])
            for g in range(int(s[E.N_OPEN_SMALL])):
                gap = int(s[E.OPEN_SMALL + g])
                board = np.array([s[E.SLOTVAL + gap * 3 + j] for j in range(3)])
                for rot in range(3):
                    legal, pts = E.placement_points(board, E.small_results(tile, face, rot), False, rules)
                    if legal:
                        out.append((E.SMALL, i, gap, face * 3 + rot, int(pts)))
    for i in range(int(s[N_HAND_HEX + p])):
        tile = int(s[HAND_HEX + p * N_HEX_TILES + i])
        for g in range(int(s[E.N_OPEN_HEX])):
            gap = int(s[E.OPEN_HEX + g])
            board = np.array([s[E.HEXVAL + gap * 6 + j] for j in range(6)])
            for o in range(12):
                legal, pts = E.placement_points(board, E.hex_vertices(tile, o // 6, o % 6), True, rules)
                if legal:
                    out.append((E.HEX, i, gap, o, int(pts)))
    if E.can_draw(s):
        out.append((E.DRAW, 0, 0, 0, 0))
    if not out:
        out.append((E.PASS, 0, 0, 0, 0))
    return out


def test_option_list_equals_a_plain_enumeration():
    checked = 0
    for g in range(12):
        for rules in (E.SIMULATOR, E.OFFICIAL):
            s = A.deal(np.random.default_rng([4, g]), rules)
            acts, _ = A.play_game(s, A.RANDOM, A.GREEDY, 0, 0, g, 1 << 40, 16)
            for o in acts[:-1]:
                E.apply_option(s, o[:5])
                if not s[E.FIRST] and not E.game_over(s):
                    assert [tuple(int(v) for v in row) for row in E.options(s)] == plain_options(s)
                    checked += 1
    assert checked > 300
