"""The Weng-Lin Plackett-Luce update of openskill's ``PlackettLuce`` model (Weng & Lin 2011,
Algorithm 4), for what the ratings ask of it: one player a side, players ranked by their
places, the model's defaults. Each rating is a ``(mu, sigma)`` pair.

The arithmetic is openskill's, step for step and in its order, so that every rating it gives
is the same float (``tests/test_plackett_luce.py`` checks it against openskill on random
games): an archive's kept ratings do not change with the code that computes them. openskill's
own ``rate`` copies every rating and draws a uuid for each new one; an update here is a few
float operations a player (the ratings' upkeep after an ingest rates every new game).

openskill averages the change of the players that tie over a tie's group, but the average is
taken over ratings already changed in place, so it adds nothing: no step here does it.
"""
from __future__ import annotations

import math

MU, SIGMA = 25.0, 25.0 / 3  # openskill's defaults: a new player
BETA = SIGMA / 2
TAU = MU / 300  # the additive dynamics: sigma grows a little before each game
KAPPA = 0.0001  # the least factor sigma's square may be multiplied by


def rate(ratings: list[tuple[float, float]], places: list) -> list[tuple[float, float]]:
    """The players' ratings after a game where they finished at ``places`` (1 best; equal
    places tie), in the players' order."""
    tau_squared = TAU * TAU
    order = sorted(range(len(places)), key=lambda i: places[i])  # stable, as openskill's sort
    ranks = [int(places[i]) for i in order]
    mus = [ratings[i][0] for i in order]
    sigmas = [math.sqrt(ratings[i][1] * ratings[i][1] + tau_squared) for i in order]
    squares = [s ** 2 for s in sigmas]  # a team's sigma squared, of its one player
    beta_squared = BETA ** 2
    collective = 0.0
    for square in squares:
        collective += square + beta_squared
    c = math.sqrt(collective)
    exps = [math.exp(mu / c) for mu in mus]
    n = len(ranks)
    sum_q = [0.0] * n
    for i in range(n):
        for q in range(n):
            if ranks[i] >= ranks[q]:
                sum_q[q] += exps[i]
    tied = [ranks.count(r) for r in ranks]
    out: list = [None] * n
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            share = exps[i] / sum_q[q]
            if ranks[q] <= ranks[i]:
                delta += share * (1 - share) / tied[q]
                if q == i:
                    omega += (1 - share) / tied[q]
                else:
                    omega -= share / tied[q]
        omega *= squares[i] / c
        delta *= squares[i] / c ** 2
        delta *= math.sqrt(squares[i]) / c  # the default gamma
        # openskill scales both by the player's share of the team's sigma squared and by a
        # weight (multiplied, or divided where omega < 0): with one player a side both are
        # exactly 1.0, and a product or quotient by 1.0 is the same float, so neither is here
        out[order[i]] = (mus[i] + omega, sigmas[i] * math.sqrt(max(1 - delta, KAPPA)))
    return out
