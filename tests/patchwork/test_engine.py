"""Patchwork's engine: its facts against the shared patch table, the placement tables, and
random games replayed through the jitted rules and the plain-Python reference side by side
(every legal-move set, every state, every score)."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

from scorebook.engines.patchwork import bots as B, pieces as P, reference as REF, rules as R, search as S

from ..conftest import SHARED, shared_file


def test_patches_match_the_shared_table():
    table = json.loads(shared_file(SHARED / "data" / "patchwork" / "patches.json").read_text())
    assert [p["id"] for p in table["patches"]] == list(range(P.N_PATCHES))
    for p in table["patches"]:
        i = p["id"]
        assert (int(P.COST[i]), int(P.TIME[i]), int(P.INCOME[i]), int(P.SIZE[i])) == (
            p["button_cost"], p["time_cost"], p["income"], p["size"])
        assert P.SHAPES[i] == p["shape"]
        assert len(P.distinct_orientations(i)) == p["orientations"]
    track = table["time_track"]
    assert (track["income_spaces"], track["leather_spaces"], track["last_space"]) == (
        P.INCOME_SPACES.tolist(), P.LEATHER_SPACES.tolist(), P.LAST_SPACE)
    totals = table["totals"]
    assert (int(P.SIZE.sum()), int(P.INCOME.sum()), int(P.COST.sum()), int(P.TIME.sum())) == (
        totals["squares"], totals["income"], totals["button_cost"], totals["time_cost"])


def test_placements_are_every_distinct_one():
    """Every placement row is a patch's distinct orientation inside the quilt, no two the same."""
    seen = set()
    for k in range(P.N_PLACEMENTS):
        cells = frozenset(P.cells_of(int(P.PL_LO[k]), int(P.PL_HI[k])))
        assert len(cells) == P.SIZE[P.PL_PATCH[k]]
        assert (int(P.PL_PATCH[k]), cells) not in seen
        seen.add((int(P.PL_PATCH[k]), cells))
    for patch in range(P.N_PATCHES):
        expected = {frozenset(r * 9 + c for r, c in sq) for sq in REF.placements(patch, set())}
        assert {c for p, c in seen if p == patch} == expected


def test_first_move_symmetry_keeps_one_move_per_class():
    s = R.new_state(P.REAL, np.zeros(0, np.int64))
    options = S.options_of(s)
    kept = S.first_move_classes(s, options)
    buys = options[kept][options[kept][:, 0] == R.BUY]
    assert len({(int(a), S.symmetric_key(int(R.placement_of(a, b)))) for _, a, b in buys}) == len(buys) < (
        options[:, 0] == R.BUY).sum()


def to_reference(move) -> tuple:
    kind, a, b = (int(v) for v in move)
    if kind == R.BUY:
        if b == R.NO_PLACE:
            return ("buy", a, None)
        k = int(R.placement_of(a, b))
        return ("buy", a, frozenset(divmod(c, 9) for c in P.cells_of(int(P.PL_LO[k]), int(P.PL_HI[k]))))
    if kind == R.SKIP:
        return ("skip", a)
    if kind == R.ADVANCE:
        return ("advance",)
    return ("leather", None if a < 0 else divmod(a, 9))


def plain(move: tuple) -> tuple:
    """A reference move comparable as a whole (a placement's squares sorted)."""
    return tuple(tuple(sorted(v)) if isinstance(v, frozenset) else v for v in move)


def same_state(s: np.ndarray, ref: REF.Game) -> None:
    for p in range(ref.n):
        b = R.SEAT_SIZE * p
        assert (int(s[R.TIME + b]), int(s[R.BUTTONS + b]), int(s[R.INCOME_NOW + b])) == (
            ref.times[p], ref.buttonss[p], ref.incomes[p])
        if ref.variant != "sim":
            assert {divmod(c, 9) for c in range(81) if R.board_cells(s, p) >> c & 1} == ref.quilts[p]
    assert int(s[R.TO_MOVE]) == ref.mover and int(s[R.DUE]) == ref.due and bool(R.is_over(s)) == ref.over()
    assert (None if s[R.SPECIAL] < 0 else int(s[R.SPECIAL])) == ref.special


@pytest.mark.parametrize("variant, seed", [("real", 1), ("real", 2), ("sim", 3), ("sim", 4), ("two-player", 5),
                                           ("two-player", 6)])
def test_random_games_agree_with_the_reference(variant, seed):
    rng = random.Random(seed)
    circle = rng.sample(range(1, 33), 32) + [0] if variant == "two-player" else []
    s = R.new_state(P.VARIANTS.index(variant), np.array(circle, np.int64))
    ref = REF.Game(variant, circle)
    while not ref.over():
        options = S.options_of(s)
        legal = ref.legal()
        assert {plain(to_reference(m)) for m in options} == {plain(m) for m in legal} and len(options) == len(legal)
        # mostly buys, so that games fill quilts and take leather patches
        buys = [m for m in options if m[0] == R.BUY]
        move = rng.choice(buys if buys and rng.random() < 0.8 else list(options))
        assert R.apply(s, *move) == R.OK
        ref.play(to_reference(move))
        same_state(s, ref)
    assert len(S.options_of(s)) == 0
    if variant == "two-player":
        finals = np.zeros(2, np.int64)
        R.two_player_finals(s, finals)
        assert finals.tolist() == ref.finals()
        assert R.score(s)["winner"] == (0 if ref.finals()[0] > ref.finals()[1] else 1 if ref.finals()[1] >
                                       ref.finals()[0] else ref.first_at_end)
    else:
        assert int(R.solo_total(s)) == ref.total() == R.score(s)["total"]


def test_an_illegal_move_leaves_the_state_unchanged():
    s = R.new_state(P.REAL, np.zeros(0, np.int64))
    before = s.copy()
    for move in [(R.BUY, 29, 0), (R.SKIP, 0, 0), (R.SKIP, 54, 0), (R.BUY, 0, 8 * 16 + 8), (R.LEATHER_MOVE, 3, 0),
                 (R.ADVANCE, 0, 0), (R.BUY, 40, 0)]:
        assert R.apply(s, *move) != R.OK
        assert np.array_equal(s, before)


@pytest.mark.parametrize("variant, expected, within", [("real", -6.62, 2.0), ("sim", 12.88, 1.0)])
def test_random_players_score_like_the_thesis(variant, expected, within):
    """Thesis Table 1 (10,000 games): weighted random -6.62 (real), 12.88 (simulated). Ours,
    over 2,000 games, is within a point on the simulated variant; on the real quilt both our
    implementations (jitted, and reference.py over 1,000 games: -5.37 +- 0.34) score about a
    point more than the thesis (BENCHMARKS.md), so within two there."""
    out = np.zeros((2000, 5), np.int64)
    B.random_games(P.VARIANTS.index(variant), True, 2000, 11, out)
    assert abs(out[:, 0].mean() - expected) < within
    assert (out[:, 1] >= 0).all() and (out[:, 2] >= 1).all()
