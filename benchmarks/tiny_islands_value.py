"""Can a learned value stand in for the play-outs of a Tiny Islands board? A diagnostic.

halving:N values a move by heuristic play-outs to the end of the game, while the game itself
is played on by halving:N, which scores far more than its play-outs: a play-out ranks moves by
how the heuristic would finish them. A value learned from halving:N's own games, read at the
play-out's next drawing, would rank them by how the search finishes them, with less noise.
This script asks whether a linear one predicts well enough to try.

``gather`` plays halving:N games on two-deck shuffles and keeps, for each, the boards just
before its first two drawings, the regions drawn and the final breakdown. ``measure`` fits a
ridge regression of the final total on ``value_features`` of the board just after each drawing
(even games) and reports, on the odd games, how much of the final total's variance it explains
(R^2), beside ``--futures`` of halving:N's play-outs from the same boards (their mean,
calibrated linearly on the even games). Run by hand:

    python benchmarks/tiny_islands_value.py gather --games 400 --level 16 --out data.npz
    python benchmarks/tiny_islands_value.py measure data.npz [--out fit.json]

What it found (2026-11-25; BENCHMARKS.md, "a learned value in place of the play-outs"): on
400 halving:16 games (played with the held island of commit 168aeb2, since reverted), the value
explains nothing after the first drawing (R^2 about 0, the play-outs 0.06) and 0.20 after the
second (the play-outs 0.41): not worth a bot trial.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time

if "numba" not in sys.modules:  # run as a script: one game a core (imported, numba has its threads)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from multiprocessing import Pool  # noqa: E402

import numpy as np  # noqa: E402

from numba import njit  # noqa: E402

from scorebook.engines.tiny_islands import bots, engine as E  # noqa: E402
from scorebook.engines.tiny_islands.deck import two_deck_offers  # noqa: E402
from scorebook.engines.tiny_islands.metadata import (CELLS, CHURCH, DRAWING_AFTER_TURN, FOREST, HOUSE,  # noqa: E402
                                                      MOUNTAIN, SAND, SIZE, TILE_COUNT, TILE_IS_LAND, TURNS,
                                                      ZONE_CELLS)

FIRST_TWO = tuple(int(n) for n in DRAWING_AFTER_TURN[:2])  # placements before drawings 1 and 2
N_FEATURES = 24


@njit(cache=True)
def value_features(tiles, land, offers, t, out):
    """What the value reads of a board just after the drawing that follows turn t: a constant,
    the breakdown so far (8), empty land and water, land tiles on water and water tiles on land,
    the zones that keep an empty land cell and an empty water cell, the empty cells beside valid
    tiles that score by their neighbours (land near a Mountain; land beside, then diagonal to, a
    Forest; any near a House; land near a Church; the other side of the shore beside a Sand),
    and the Mountains, Forests, and Houses and Churches to come (expected: one tile a turn)."""
    out[:] = 0.0
    breakdown = E.score_board(tiles, land, 0)
    out[0] = 1.0
    for k in range(8):
        out[1 + k] = breakdown[k]
    for z in range(CELLS):
        if tiles[z] == 0:
            out[9 + (not land[z])] += 1
        elif TILE_IS_LAND[tiles[z]] != land[z]:
            out[11 + (not TILE_IS_LAND[tiles[z]])] += 1
    for k in range(ZONE_CELLS.shape[0]):
        has_land = has_water = False
        for i in range(SIZE):
            y = ZONE_CELLS[k, i]
            if tiles[y] == 0:
                if land[y]:
                    has_land = True
                else:
                    has_water = True
        out[13] += has_land
        out[14] += has_water
    for z in range(CELLS):
        t0 = tiles[z]
        if t0 == 0 or TILE_IS_LAND[t0] != land[z]:
            continue
        r, c = divmod(z, SIZE)
        for dr in range(-1, 2):
            for dc in range(-1, 2):
                rr, cc = r + dr, c + dc
                if (dr == 0 and dc == 0) or rr < 0 or rr >= SIZE or cc < 0 or cc >= SIZE:
                    continue
                y = rr * SIZE + cc
                if tiles[y] != 0:
                    continue
                side = dr == 0 or dc == 0
                if t0 == MOUNTAIN and land[y]:
                    out[15] += 1
                elif t0 == FOREST and land[y] and side:
                    out[16] += 1
                elif t0 == FOREST and land[y]:
                    out[17] += 1
                elif t0 == HOUSE:
                    out[18] += 1
                elif t0 == CHURCH and land[y]:
                    out[19] += 1
                elif t0 == SAND and land[y] != land[z] and side:
                    out[20] += 1
    seen = np.zeros(8, np.int64)
    for k in range(t + 1):
        seen[offers[k, 0]] += 1
        seen[offers[k, 2]] += 1
    rest = 0
    for tile in range(1, 8):
        rest += TILE_COUNT[tile] - seen[tile]
    if rest > 0:
        turns_left = TURNS - 1 - t
        out[21] = turns_left * (TILE_COUNT[MOUNTAIN] - seen[MOUNTAIN]) / rest
        out[22] = turns_left * (TILE_COUNT[FOREST] - seen[FOREST]) / rest
        out[23] = turns_left * (TILE_COUNT[HOUSE] - seen[HOUSE] + TILE_COUNT[CHURCH] - seen[CHURCH]) / rest
    return out


def gather_game(job: tuple) -> dict:
    """One halving:N game: the boards before its first two drawings, the regions drawn, and
    its final breakdown."""
    g, shuffle_seed, level, w = job
    offers = two_deck_offers(np.random.default_rng([shuffle_seed, g]))
    placements, traces, lens = bots.play_weighted(offers, bots.HALVING, level, g, 0, w, bots.TWO_DECK)
    final = E.replay(offers, placements, traces, lens, np.ones(3, np.bool_), TURNS, 0)[7]
    tiles = np.zeros(CELLS, np.int64)
    land = np.zeros(CELLS, np.bool_)
    out = {"t": [], "d": [], "tiles": [], "land": [], "region": []}
    d = 0
    for t in range(TURNS):
        if placements[t, 0] < 0:  # a game that got stuck: keep what it reached
            break
        tiles[placements[t, 1]] = placements[t, 0]
        if t + 1 in FIRST_TWO:
            region = E.listed_region(land, traces[d], lens[d])[1]
            for key, value in (("t", t), ("d", d), ("tiles", tiles.copy()), ("land", land.copy()),
                               ("region", region)):
                out[key].append(value)
            land = land ^ region
            d += 1
    out["offers"] = [offers] * len(out["t"])
    out["final"] = [np.array(final)] * len(out["t"])
    out["game"] = [g] * len(out["t"])
    return out


def gather(args) -> None:
    jobs = [(g, args.shuffle_seed, args.level, bots.WEIGHTS) for g in range(args.games)]
    started = time.perf_counter()
    if args.workers > 1:
        with Pool(args.workers) as pool:
            games = pool.map(gather_game, jobs, chunksize=1)
    else:  # in this process (a module loaded from its file, as the tests do, cannot be sent to a pool)
        games = [gather_game(job) for job in jobs]
    data = {key: np.array([x for game in games for x in game[key]])
            for key in ("offers", "t", "d", "tiles", "land", "region", "final", "game")}
    np.savez_compressed(args.out, command=shlex.join(sys.argv), **data)
    finals = np.array([game["final"][0][8] for game in games if game["final"]], float)
    print(f"{args.games} games of halving:{args.level}, mean {finals.mean():.2f}; {len(data['t'])} boards; "
          f"{time.perf_counter() - started:.0f} s")


def board_features(data) -> np.ndarray:
    """``value_features`` of each board just after its drawing."""
    x = np.zeros((len(data["t"]), N_FEATURES))
    for i in range(len(x)):
        value_features(data["tiles"][i], data["land"][i] ^ data["region"][i], data["offers"][i],
                       int(data["t"][i]), x[i])
    return x


def play_out_means(data, futures: int) -> np.ndarray:
    """The mean of ``futures`` heuristic play-outs (halving:N's, to the end) from each board."""
    means = np.zeros(len(data["t"]))
    for i in range(len(means)):
        means[i] = bots.eval_regions(data["tiles"][i], data["land"][i], data["offers"][i], int(data["t"][i]),
                                     int(data["d"][i]), 0, data["region"][i][None, :].copy(), futures, i,
                                     bots.TWO_DECK, bots.WEIGHTS).mean()
    return means


def _r2(predicted: np.ndarray, actual: np.ndarray) -> float:
    return float(1 - ((actual - predicted) ** 2).mean() / actual.var())


def fit_value(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Ridge regression of y on x (the constant, feature 0, not penalised)."""
    penalty = ridge * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    return np.linalg.solve(x.T @ x + penalty, x.T @ y)


def measure(args) -> dict:
    """Fit the value on the even games, report R^2 on the odd ones beside the play-outs'."""
    data = np.load(args.data)
    x = board_features(data)
    y = data["final"][:, 8].astype(float)
    train = data["game"] % 2 == 0
    means = play_out_means(data, args.futures) if args.futures else None
    source = str(data["command"]) if "command" in data.files else args.data
    report = {"data": source, "ridge": args.ridge, "futures": args.futures, "drawings": []}
    for d in range(2):
        rows = data["d"] == d
        held = rows & ~train
        weights = fit_value(x[rows & train], y[rows & train], args.ridge)
        row = {"drawing": d + 1, "boards": int(rows.sum()), "final_mean": round(float(y[rows].mean()), 3),
               "final_sd": round(float(y[rows].std()), 3), "value_r2": round(_r2(x[held] @ weights, y[held]), 4),
               "weights": [round(float(v), 5) for v in weights]}
        line = (f"after drawing {d + 1}: {row['boards']} boards, final total {row['final_mean']:.2f} "
                f"(sd {row['final_sd']:.2f}); held-out R^2 of the value {row['value_r2']:.3f}")
        if means is not None:
            slope, intercept = np.polyfit(means[rows & train], y[rows & train], 1)
            row["play_outs_r2"] = round(_r2(slope * means[held] + intercept, y[held]), 4)
            row["play_outs_mean"] = round(float(means[rows].mean()), 3)
            line += (f", of {args.futures} play-outs {row['play_outs_r2']:.3f} "
                     f"(their mean {row['play_outs_mean']:.2f})")
        print(line)
        report["drawings"].append(row)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f, indent=1)
    return report


def main() -> dict | None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gather")
    g.add_argument("--games", type=int, default=400, help="two-deck shuffles played")
    g.add_argument("--level", type=int, default=16, help="halving:N's N")
    g.add_argument("--shuffle-seed", type=int, default=777)
    g.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    g.add_argument("--out", required=True)
    m = sub.add_parser("measure")
    m.add_argument("data")
    m.add_argument("--ridge", type=float, default=1.0,
                   help="(1, 10, 100, 1000 measured: R^2 <= 0.01 after drawing 1)")
    m.add_argument("--futures", type=int, default=32, help="play-outs a board to compare the value with (0: none)")
    m.add_argument("--out", help="write the figures and the fitted weights here (JSON)")
    args = parser.parse_args()
    return gather(args) if args.command == "gather" else measure(args)


if __name__ == "__main__":
    main()
