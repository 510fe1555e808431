"""Pairing engines of tournaments a director runs: the Swiss (FIDE Dutch through py4swiss)
against an independent implementation (caissify-pairings' Dutch engine, re-pairing every round
of the TRF) on simulated tournaments with byes, absences and late entries; the round robin
against FIDE's Berger tables; the seating of tables' invariants; the fold for large fields."""
from __future__ import annotations

import random
import warnings
from collections import Counter

import pytest

from scorebook.tournaments import pairing, trf
from scorebook.tournaments.model import Entrant, Table, Tournament
from scorebook.tournaments.standings import totals

# FIDE Handbook C.05, Annex 1: the Berger tables for 4, 6 and 8 players (first seat first)
FIDE_BERGER = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: ["1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3", "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"],
}


@pytest.mark.parametrize("n", sorted(FIDE_BERGER))
def test_round_robin_is_fides_berger_table(n):
    for r, expected in enumerate(FIDE_BERGER[n], 1):
        assert " ".join(f"{a}-{b}" for a, b in pairing.berger(n, r)) == expected


def test_round_robin_meets_everyone_once_and_a_double_reverses_the_seats():
    t = Tournament(event="rr", game="iwoki", format="double-round-robin", rounds=10)
    t.entrants = [Entrant(name=f"P{k}") for k in range(5)]  # odd: a bye each round
    seen = Counter()
    for r in range(1, 11):
        tables = pairing.round_robin(t, r)
        assert sorted(s for x in tables for s in x.seats) == sorted(e.name for e in t.entrants)
        assert sum(x.kind == "bye" for x in tables) == 1
        seen.update(tuple(x.seats) for x in tables if x.kind == "game")
    assert all(seen[a, b] == 1 and seen[b, a] == 1 for a, b in list(seen))
    assert len(seen) == 20  # 10 pairs, each with either player first once


def simulate(n: int, rounds: int, seed: int, *, absences: int = 0, late: int = 0, size: int = 2,
             fmt: str = "swiss") -> Tournament:
    """A tournament played out with results drawn from the players' ratings."""
    rng = random.Random(seed)
    t = Tournament(event=f"sim {seed}", game="iwoki", format=fmt, rounds=rounds, table_size=size,
                   placement=[4, 2, 1, 0])
    t.entrants = [Entrant(name=f"P{k:03d}", rating=rng.randint(1200, 2400)) for k in range(n)]
    for k in range(late):
        t.entrants.append(Entrant(name=f"Late{k}", rating=rng.randint(1200, 2400), joined=rng.randint(2, rounds)))
    for _ in range(absences):
        rng.choice(t.entrants).absent.append(rng.randint(2, rounds))
    rating = {e.name: e.rating for e in t.entrants}
    for r in range(1, rounds + 1):
        tables = pairing.pair_round(t, r, totals(t))
        for x in tables:
            if x.kind != "game":
                continue
            if len(x.seats) == 2:
                a, b = x.seats
                expected = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
                u = rng.random()
                x.places = [1, 2] if u < 0.8 * expected else [1, 1] if u < 0.8 * expected + 0.2 else [2, 1]
            else:
                order = sorted(x.seats, key=lambda s: -rating[s] * rng.random())
                x.places = [order.index(s) + 1 for s in x.seats]
            x.source = "director"
        t.tables += tables
    return t


@pytest.mark.parametrize("n,rounds,seed,absences,late", [(21, 7, 1, 0, 0), (30, 6, 2, 4, 0), (17, 5, 3, 3, 2)])
def test_swiss_pairings_equal_an_independent_dutch_implementation(n, rounds, seed, absences, late):
    from caissify_pairings.fpc import check_trf
    t = simulate(n, rounds, seed, absences=absences, late=late)
    assert any(x.kind == "bye" for x in t.tables) or (n + late) % 2 == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = check_trf(trf.write(t))
    mismatched = [(r["round"], r["discrepancies"][:2]) for r in report["rounds"] if not r["match"]]
    assert report["summary"]["rounds_checked"] == rounds
    assert not mismatched


def test_swiss_gives_a_player_one_bye_at_most_and_never_a_rematch_in_a_long_enough_event():
    t = simulate(11, 5, 7)
    byes = Counter(x.seats[0] for x in t.tables if x.kind == "bye")
    assert byes and max(byes.values()) == 1
    pairs = Counter(tuple(sorted(x.seats)) for x in t.tables if x.kind == "game")
    assert max(pairs.values()) == 1


def test_forbidden_pairs_never_meet():
    t = Tournament(event="f", game="iwoki", format="swiss", rounds=1)
    t.entrants = [Entrant(name=f"P{k}", rating=2000 - k) for k in range(4)]
    plain = pairing.pair_round(t, 1, {})
    first = tuple(plain[0].seats)
    t.forbidden = [first]
    assert all(set(x.seats) != set(first) for x in pairing.pair_round(t, 1, {}))


def test_the_fold_for_large_fields_pairs_everyone_once_without_rematches():
    t = simulate(pairing.FAST_ABOVE + 21, 5, 11)
    for r in range(1, 6):
        seats = [s for x in t.round_tables(r) for s in x.seats]
        assert sorted(seats) == sorted(e.name for e in t.entrants)
    pairs = Counter(tuple(sorted(x.seats)) for x in t.tables if x.kind == "game")
    assert max(pairs.values()) == 1
    assert max(Counter(x.seats[0] for x in t.tables if x.kind == "bye").values()) == 1


@pytest.mark.parametrize("seed", range(12))
def test_seating_fills_tables_and_never_costs_more_than_the_block_fill(seed):
    rng = random.Random(seed)
    size = rng.randint(3, 8)
    n = rng.randint(size, 40)
    t = simulate(n, 3, seed, size=size, fmt="tables")
    r = 4
    points = totals(t)
    playing = [e.name for e in t.entrants]
    tables = pairing.seat_tables(t, r, playing, points)
    sizes = sorted(len(x.seats) for x in tables)
    assert max(sizes) <= size and max(sizes) - min(sizes) <= 1
    assert len(tables) == -(-n // size)
    assert sorted(s for x in tables for s in x.seats) == sorted(playing)
    met, first = pairing.history(t, r)
    order = {e.name: k for k, e in enumerate(trf.numbering(t))}
    block = pairing.block_fill(playing, points, order, size)
    assert pairing.seating_cost([x.seats for x in tables], points, met, first) <= \
        pairing.seating_cost(block, points, met, first) + 1e-9


def test_table_sizes_are_as_many_full_tables_as_can_be():
    assert pairing.table_sizes(10, 4) == [4, 3, 3]
    assert pairing.table_sizes(12, 4) == [4, 4, 4]
    assert pairing.table_sizes(13, 4) == [4, 3, 3, 3]
    assert pairing.table_sizes(7, 8) == [7]
    assert pairing.table_sizes(9, 7) == [5, 4]  # 7 and 6 cannot seat 9: as even as can be


def test_the_fold_gives_the_first_seat_to_who_is_owed_it():
    """Seated first as often as second, the one who had the second seat last takes the first
    (the fold gave it to the one who had just had it)."""
    t = Tournament(event="owed", game="iwoki", format="swiss", rounds=3)
    t.entrants = [Entrant(name=n, absent=[3] if n in "XY" else []) for n in "ABXY"]
    for r, tables in ((1, [["A", "X"], ["Y", "B"]]), (2, [["Y", "A"], ["B", "X"]])):
        t.tables += [Table(round=r, table=k, seats=s, places=[1, 1], source="director")
                     for k, s in enumerate(tables, 1)]
    assert [x.seats for x in pairing.fast_swiss(t, 3)] == [["A", "B"]]
    t.tables[2].seats, t.tables[3].seats = ["A", "Y"], ["X", "B"]  # now A had it last: B is owed it
    assert [x.seats for x in pairing.fast_swiss(t, 3)] == [["B", "A"]]
