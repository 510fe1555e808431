"""Learn the Tiny Islands placement policy (``engines/tiny_islands/policy.json``) from the
search's own values. ``gather`` plays games where every placement is chosen by play-outs: the
heuristic's best ``--candidates``, each played out over ``--futures`` common futures (the
play-outs of halving:N), keeping each candidate's mean final total and what lies around it
(``heuristic.policy_features``). ``fit`` finds the table that, added to the heuristic's value,
ranks a position's candidates as the play-outs do: the softmax of its values closest
(cross-entropy) to the softmax of the play-out means, every fifth position held out to report
how much the choices lose against the best by play-outs. Run by hand:

    python benchmarks/fit_tiny_islands_policy.py gather --games 600 --out data.npz [--start policy.json]
    python benchmarks/fit_tiny_islands_policy.py fit data.npz --out engines/tiny_islands/policy.json

``gather --teacher halving:16`` labels positions by another teacher: the bot of record's own
choice in its own games (committing to its islands), ``--margin`` points for it and 0 for the
heuristic's other best candidates; ``fit`` then also reports how often the ranking's first is
not the teacher's. On 600 games (seed 99, 15,600 positions, 31 min on both cores, the games
averaging 64.0) the heuristic's first differed from halving:16's choice in 56% of the held-out
positions, the policy of record's in 50%, and a table fitted to these labels in 52% (ridge
1e-4 to 1e-2, from scratch or on top of the policy of record; with count features added,
50%): what halving:N chooses beyond the policy of record is not in what lies around a cell.

The same arguments give the same data and the same fit (the shuffles and every play-out are
seeded from the game's number). Check a new policy with the bots' benchmark and the paired
trials before it replaces the package's file.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from datetime import date

if "numba" not in sys.modules:  # run as a script: one game a core (imported, numba has its threads)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from multiprocessing import Pool  # noqa: E402

import numpy as np  # noqa: E402

from scorebook.engines.tiny_islands import bots, heuristic, planner, search, weights  # noqa: E402
from scorebook.engines.tiny_islands.deck import two_deck_offers  # noqa: E402
from scorebook.engines.tiny_islands.engine import drawing_due, listed_region, score_board  # noqa: E402
from scorebook.engines.tiny_islands.metadata import CELLS, TURNS  # noqa: E402


def candidate_rows(tiles, land, cands, drawings_done, base) -> tuple[np.ndarray, np.ndarray]:
    """Per candidate placement (tile, cell): what lies around it (``heuristic.policy_features``) and
    the heuristic's own value with weights ``base`` (the policy is fitted on top of it)."""
    f = np.zeros((cands.shape[0], weights.N_POLICY), np.int8)
    h = np.zeros(cands.shape[0])
    for i in range(cands.shape[0]):
        heuristic.policy_features(tiles, land, cands[i, 0], cands[i, 1], drawings_done, f[i])
        h[i] = heuristic.weighted_value(tiles, land, cands[i, 0], cands[i, 1], 3 - drawings_done, 0, base)
    return f, h


class PositionLog:
    """What a gatherer keeps of one game: per position, each candidate's features and heuristic
    value (``candidate_rows``) and its label; then the game's final total."""

    def __init__(self, base: np.ndarray):
        self.base = base
        self.features, self.values, self.heuristic = [], [], []

    def add(self, tiles, land, cands, drawings_done, labels) -> None:
        f, h = candidate_rows(tiles, land, cands, drawings_done, self.base)
        self.features.append(f)
        self.values.append(labels)
        self.heuristic.append(h)

    def result(self, tiles, land) -> dict:
        return {"features": self.features, "values": self.values, "heuristic": self.heuristic,
                "total": int(score_board(tiles, land, 0)[8])}


def gather_game(job: tuple) -> dict:
    """One game's positions: per position, each candidate's features, heuristic value and mean
    play-out total; the game goes on with the best candidate by play-outs."""
    g, shuffle_seed, candidates, futures, w = job
    log = PositionLog(w[:weights.N_WEIGHTS].copy())  # the features are fitted on top of the heuristic's own value
    offers = two_deck_offers(np.random.default_rng([shuffle_seed, g]))
    bots.seed_random(g)
    tiles = np.zeros(CELLS, np.int64)
    land = np.zeros(CELLS, np.bool_)
    no_plan = np.zeros(CELLS, np.bool_)
    d = 0
    for t in range(TURNS):
        cands = search._top_placements(tiles, land, offers[t], d, 0, w, candidates, no_plan, False)
        if cands.shape[0] == 0:  # no legal placement (the game is lost): nothing more to learn from it
            break
        q = bots.eval_placements(tiles, land, offers, t, d, 0, cands, futures, g * 1000 + t, bots.TWO_DECK,
                                 w).mean(axis=1)
        log.add(tiles, land, cands, d, q)
        best = int(np.argmax(q))
        tiles[cands[best, 1]] = cands[best, 0]
        if drawing_due(t + 1):
            cells, n = planner._draw_now(tiles, land, offers, t, 0, 1, w, 0)
            _, region = listed_region(land, cells, n)
            land ^= region
            d += 1
    return log.result(tiles, land)


def teacher_game(job: tuple) -> dict:
    """One game played by the teacher (``halving:N``, the bot of record, committing to its
    islands); per position, the heuristic's best candidates (and the teacher's choice, when it
    is not among them), labelled ``margin`` points for the teacher's choice and 0 for the rest."""
    g, shuffle_seed, candidates, rollouts, margin = job
    w = bots.WEIGHTS
    log = PositionLog(w[:weights.N_WEIGHTS].copy())
    offers = two_deck_offers(np.random.default_rng([shuffle_seed, g]))
    placements, traces, lens = bots.play(offers, bots.HALVING, rollouts, g, 0, bots.TWO_DECK)
    tiles = np.zeros(CELLS, np.int64)
    land = np.zeros(CELLS, np.bool_)
    no_plan = np.zeros(CELLS, np.bool_)
    d = 0
    for t in range(TURNS):
        tile, cell = int(placements[t, 0]), int(placements[t, 1])
        if tile < 0:
            break
        cands = search._top_placements(tiles, land, offers[t], d, 0, w, candidates, no_plan, False)
        hit = np.flatnonzero((cands[:, 0] == tile) & (cands[:, 1] == cell))
        if hit.size == 0:  # the teacher chose outside the heuristic's best (under its island plan)
            cands = np.vstack([cands, np.array([[tile, cell]], np.int64)])
            hit = np.array([cands.shape[0] - 1])
        q = np.zeros(cands.shape[0])
        q[hit[0]] = margin
        log.add(tiles, land, cands, d, q)
        tiles[cell] = tile
        if drawing_due(t + 1):
            _, region = listed_region(land, traces[d], lens[d])
            land ^= region
            d += 1
    return log.result(tiles, land)


def gather(args) -> None:
    w = weights.HEURISTIC_WEIGHTS.copy()
    if args.start:  # a policy of an earlier fit plays: the next fit learns on its play-outs
        w = np.concatenate((w, weights.load_policy(open(args.start).read())))
    if args.teacher:
        rollouts = int(args.teacher.split(":")[1])
        jobs = [(g, args.shuffle_seed, args.candidates, rollouts, args.margin) for g in range(args.games)]
    else:
        jobs = [(g, args.shuffle_seed, args.candidates, args.futures, w) for g in range(args.games)]
    started = time.perf_counter()
    feats, values, heur, state, totals = [], [], [], [], []
    pool = Pool(args.workers) if args.workers > 1 else None
    one_game = teacher_game if args.teacher else gather_game
    games = pool.imap(one_game, jobs) if pool else map(one_game, jobs)
    try:
        for k, game in enumerate(games):
            for f, q, h in zip(game["features"], game["values"], game["heuristic"]):
                feats.append(f)
                values.append(q)
                heur.append(h)
                state.append(np.full(len(q), len(values) - 1))
            totals.append(game["total"])
            if (k + 1) % 20 == 0:
                print(f"{k + 1} games, {time.perf_counter() - started:.0f} s, mean total {np.mean(totals):.2f}",
                      file=sys.stderr)
    finally:
        if pool:
            pool.close()
    np.savez_compressed(args.out, features=np.concatenate(feats), values=np.concatenate(values),
                        heuristic=np.concatenate(heur), state=np.concatenate(state), totals=np.array(totals),
                        command="python " + " ".join(shlex.quote(a) for a in sys.argv),
                        settings=json.dumps({"games": args.games, "candidates": args.candidates,
                                             "futures": args.futures, "shuffle_seed": args.shuffle_seed,
                                             "start": args.start, "teacher": args.teacher,
                                             "margin": args.margin, "positions": len(values)}))


def _groups(state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First row and row count of each position (rows of a position are consecutive)."""
    starts = np.flatnonzero(np.r_[True, state[1:] != state[:-1]])
    return starts, np.diff(np.r_[starts, len(state)])


def _log_softmax(z: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Log of the softmax of z within each position."""
    top = np.maximum.reduceat(z, starts)
    norm = np.log(np.add.reduceat(np.exp(z - np.repeat(top, counts)), starts)) + top
    return z - np.repeat(norm, counts)


def fit_table(features: np.ndarray, heuristic: np.ndarray, values: np.ndarray, state: np.ndarray,
              temperature: float, ridge: float) -> tuple[np.ndarray, float]:
    """The policy table, and the scale a, that make softmax(a x (heuristic + table . features))
    within each position closest (cross-entropy) to softmax(values / temperature): the
    play-outs' preference among a position's candidates, not their totals, is what is fitted."""
    from scipy.optimize import minimize  # the fit's own need: the bots never import it

    starts, counts = _groups(state)
    x = np.column_stack([heuristic, features.astype(np.float64)])
    target = np.exp(_log_softmax(values / temperature, starts, counts))
    n = len(starts)

    def loss(theta):
        logp = _log_softmax(x @ theta, starts, counts)
        grad = x.T @ (np.exp(logp) - target) / n
        grad[1:] += 2 * ridge * theta[1:]
        return -(target * logp).sum() / n + ridge * (theta[1:] ** 2).sum(), grad

    start = np.zeros(x.shape[1])
    start[0] = 1.0  # the heuristic alone
    theta = minimize(loss, start, jac=True, method="L-BFGS-B", options={"maxiter": 500}).x
    return theta[1:] / theta[0], float(theta[0])


def chosen_loss(values: np.ndarray, score: np.ndarray, state: np.ndarray) -> float:
    """Mean over positions of the best candidate's play-out value minus that of the candidate
    ``score`` ranks first."""
    starts, counts = _groups(state)
    lost = [values[lo:lo + n].max() - values[lo + np.argmax(score[lo:lo + n])] for lo, n in zip(starts, counts)]
    return float(np.mean(lost))


def fit(args) -> None:
    data = np.load(args.data)
    state, features, heuristic, values = data["state"], data["features"], data["heuristic"], data["values"]
    teacher = json.loads(str(data["settings"])).get("teacher")
    held = state % 5 == 4  # every fifth position is held out of the fit, to report on
    table, scale = fit_table(features[~held], heuristic[~held], values[~held], state[~held], args.temperature,
                             args.ridge)
    report = {}
    for name, rows in (("fitted", ~held), ("held_out", held)):
        report[name] = {"positions": int(len(np.unique(state[rows]))),
                        "loss_heuristic": round(chosen_loss(values[rows], heuristic[rows], state[rows]), 4),
                        "loss_policy": round(chosen_loss(values[rows], heuristic[rows] + features[rows] @ table,
                                                         state[rows]), 4)}
        if teacher:  # labels, not play-out means: the loss is the margin times how often the first is not the teacher's
            margin = float(values.max())
            for key in ("heuristic", "policy"):
                report[name][f"disagreement_{key}"] = round(report[name][f"loss_{key}"] / margin, 4)
            package = chosen_loss(values[rows], heuristic[rows] + features[rows] @ weights.POLICY, state[rows])
            report[name]["disagreement_package_policy"] = round(package / margin, 4)
        print(f"{name}: {report[name]}")
    policy = {
        "about": "The Tiny Islands placement policy (weights.POLICY): added to the heuristic's value of every "
                 "placement, at the bot's own turn and in every play-out. Entry ((drawings_done * 8 + tile) * 4 + "
                 "slot) * 10 + held: slot 0 the 4 orthogonal neighbours, 1 the 4 diagonal ones, 2 the 16 cells two "
                 "steps away (held: 0 off the board, 1 empty water, 2 empty land, 2 + tile), slot 3 the cell "
                 "itself (held: 1 water, 2 land).",
        "made_by": [f"python benchmarks/fit_tiny_islands_policy.py {' '.join(map(shlex.quote, sys.argv[1:]))} "
                    f"(on {date.today().isoformat()}), from the data of: {data['command']}"],
        "fit": {"data": json.loads(str(data["settings"])), "temperature": args.temperature, "ridge": args.ridge,
                "scale": round(scale, 6), **report},
        "table": [round(float(v), 4) for v in table],
    }
    with open(args.out, "w") as f:
        f.write(policy_file_text(policy))


def policy_file_text(policy: dict) -> str:
    """The file's text: indented, with the table on one line (960 numbers)."""
    table = policy["table"]
    return json.dumps({**policy, "table": "TABLE"}, indent=1).replace('"TABLE"', json.dumps(table)) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    g = sub.add_parser("gather")
    g.add_argument("--games", type=int, default=600, help="two-deck shuffles played (600 made the policy of record)")
    g.add_argument("--candidates", type=int, default=24)
    g.add_argument("--futures", type=int, default=16)
    g.add_argument("--shuffle-seed", type=int, default=99)
    g.add_argument("--start", help="a policy file that chooses the candidates and plays the play-outs with the "
                                    "heuristic (default: the heuristic alone)")
    g.add_argument("--teacher", help="halving:N: label each position by that bot's own choice (the bot of record, "
                                      "with the package's policy) instead of by play-outs of every candidate")
    g.add_argument("--margin", type=float, default=5.0, help="with --teacher: the label, in points, of the "
                                                             "teacher's choice (the others get 0)")
    g.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    g.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("data")
    f.add_argument("--temperature", type=float, default=1.0, help="points: how sharply the play-outs' values "
                                                                  "make the target")
    f.add_argument("--ridge", type=float, default=1e-4)
    f.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.step == "gather":
        gather(args)
    else:
        fit(args)


if __name__ == "__main__":
    main()
