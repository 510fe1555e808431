"""The ratings' own Plackett-Luce update gives openskill's ``PlackettLuce`` floats exactly
(the reference, with its defaults), on random games of two to eight players with ties, new
players and long-rated ones: an archive's kept ratings do not change with the code."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorebook.analyze import plackett_luce

openskill = pytest.importorskip("openskill.models", reason="openskill is the reference")
MODEL = openskill.PlackettLuce(mu=plackett_luce.MU, sigma=plackett_luce.SIGMA)


def _reference(ratings, places):
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=list(places))]


ratings = st.tuples(st.floats(-20, 70, allow_nan=False), st.floats(0.05, 9.0, allow_nan=False))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(ratings, st.integers(1, 8)), min_size=2, max_size=8))
def test_every_rating_is_openskills_float(players):
    given_ratings = [r for r, _ in players]
    places = [p for _, p in players]
    assert plackett_luce.rate(given_ratings, places) == _reference(given_ratings, places)


def test_a_season_of_games_rates_as_openskill_does():
    """Ratings carried from game to game (each game's output the next one's input), with the
    ties Tsuro and a triad give: no drift between the two, after thousands of updates."""
    rng = random.Random(7)
    ours = {name: (plackett_luce.MU, plackett_luce.SIGMA) for name in "ABCDEFGHIJ"}
    theirs = dict(ours)
    for _ in range(3000):
        seated = rng.sample(sorted(ours), rng.randint(2, 8))
        places = [rng.randint(1, len(seated)) for _ in seated]
        for table, rated in ((ours, plackett_luce.rate([ours[n] for n in seated], places)),
                             (theirs, _reference([theirs[n] for n in seated], places))):
            table.update(zip(seated, rated))
    assert ours == theirs
    assert len({round(mu, 6) for mu, _ in ours.values()}) == len(ours)  # the games did rate them apart
