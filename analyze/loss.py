"""Per-move expected-score loss: for every move of a record, the value of the bot's best move
and of the move played, from the mover's side, in the game's own points.

loss = max(0, best - played). Where a value is estimated by sampling, ``stderr`` is the
standard error of the paired difference best - played (common random numbers make it small).

* Tiny Islands: expected final score under the heuristic bot's policy, over futures drawn
  from the cards not seen yet under the record's deck model; placements against the
  heuristic's best candidates plus the move played; drawings against the shoreline the
  bot's planner draws. The best and the played move get more futures while the standard
  error of the loss is above ``TARGET_STDERR`` (``_topped_up``), up to ``max_rollouts``.
* The Game of Islands: the final point margin under search (exact when the rest of the
  grid fits the search, else the depth-limited estimate: ``exact`` says which); a claim the
  mover missed counts as lost points.
* Iwoki: expected final-tally difference, the unseen tiles redealt consistently with what the
  mover knows, each option followed by Greedy play to the end.

>>> classify(0.2, "tiny-islands"), classify(7, "tiny-islands")
('best', 'blunder')
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

ENGINE_VERSION = "0.4.0"  # 0.4.0: Tiny Islands play-outs as halving:N's (screened planner), wider last drawing

# loss thresholds (points) per game, from the mildest class up; stored with every report
THRESHOLDS: dict[str, list[tuple[str, float]]] = {
    "tiny-islands": [("good", 0.5), ("inaccuracy", 1.5), ("mistake", 3.0), ("blunder", 6.0)],
    "game-of-islands": [("good", 0.5), ("inaccuracy", 1.0), ("mistake", 2.0), ("blunder", 5.0)],
    "iwoki": [("good", 1.0), ("inaccuracy", 3.0), ("mistake", 6.0), ("blunder", 12.0)],
}
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
DEFAULT_BOT = {"tiny-islands": "heuristic rollouts:24 candidates:8 max-rollouts:4096", "game-of-islands": "search depth:2",
               "iwoki": "greedy rollouts:24"}


def classify(loss: float, game: str) -> str:
    label = "best"
    for name, threshold in THRESHOLDS[game]:
        if loss >= threshold:
            label = name
    return label


@dataclass
class MoveRow:
    ply: int
    player: int
    played: str
    best: str
    value_best: float
    value_played: float
    loss: float
    stderr: float | None
    rank: int
    candidates: int
    game: int = 1
    exact: bool | None = None
    pv: list[str] = field(default_factory=list)
    cls: str = ""
    futures: int | None = None  # sampled futures behind value_best and value_played, where sampled

    def as_dict(self) -> dict:
        out = {"ply": self.ply, "player": self.player, "played": self.played, "best": self.best,
               "value_best": round(self.value_best, 3), "value_played": round(self.value_played, 3),
               "loss": round(self.loss, 3), "stderr": None if self.stderr is None else round(self.stderr, 3),
               "class": self.cls, "rank": self.rank, "candidates": self.candidates}
        if self.game != 1:
            out["game"] = self.game
        if self.exact is not None:
            out["exact"] = self.exact
        if self.pv:
            out["pv"] = self.pv
        if self.futures is not None:
            out["futures"] = self.futures
        return out


def _paired(values: np.ndarray, best: int, played: int) -> tuple[float, float, float | None]:
    """Means of two candidates and the standard error of their paired difference."""
    vb, vp = float(values[best].mean()), float(values[played].mean())
    n = values.shape[1]
    if n < 2:
        return vb, vp, None
    diff = values[best] - values[played]
    return vb, vp, float(diff.std(ddof=1) / math.sqrt(n))


TARGET_STDERR = 0.25  # points: Tiny Islands tops up the futures of a move until its loss is this sure


def _topped_up(values: np.ndarray, played: int, more, cap: int):
    """The best and the played candidate after topping up: while the standard error of their
    paired difference is above ``TARGET_STDERR``, the two get a round of fresh futures, common
    to both (at most doubling the futures behind them), until ``cap`` futures stand behind the
    pair (the base ones included).

    Candidates are compared pairwise over the futures they share, so no future is wasted: a
    candidate ahead of the best on their shared futures is played out on the next round it
    missed (a round's futures are fixed by its number), and takes over once it has them all
    and is still ahead. The best and the played move always share every future drawn for the
    move. Top-ups and catch-ups together play out at most ``4 * cap`` futures.
    ``more(cands, n, round)`` -> float64[len(cands), n] evaluates candidates ``cands`` over the
    n futures of that round. Returns (best, value best, value played, stderr, values, futures
    behind the two values), where ``values`` ranks the candidates: the played move's mean plus
    each one's lead over it on their shared futures."""
    sizes = [values.shape[1]]  # futures in each round (round 0: the base futures, every candidate)
    samples = [{0: row} for row in values]  # per candidate: round -> its values on that round
    spent = 0

    def lead(c, over):  # mean of c - over on the futures they share, and those differences
        common = [k for k in samples[c] if k in samples[over]]
        diff = np.concatenate([samples[c][k] - samples[over][k] for k in common])
        return float(diff.mean()), diff

    best = int(np.argmax(values.mean(axis=1)))
    while True:
        leads = [(lead(c, best)[0], c) for c in range(len(samples)) if c != best]
        ahead, challenger = max(leads) if leads else (0.0, best)
        if ahead > 0:
            missing = [k for k in range(len(sizes)) if k not in samples[challenger]]
            if not missing:
                best = challenger  # ahead on every future the best had
                continue
            if spent + sizes[missing[0]] <= 4 * cap:
                samples[challenger][missing[0]] = more([challenger], sizes[missing[0]], missing[0])[0]
                spent += sizes[missing[0]]
                continue
        n = sum(sizes)
        diff = lead(best, played)[1]
        se = float(diff.std(ddof=1) / math.sqrt(n)) if n > 1 and best != played else 0.0
        room = min(cap - n, (4 * cap - spent) // 2)
        if best == played or se <= TARGET_STDERR or room <= 0:
            vp = float(np.concatenate(list(samples[played].values())).mean())
            ranking = np.array([vp + lead(c, played)[0] for c in range(len(samples))])
            return best, vp + float(diff.mean()), vp, se, ranking, n
        extra = min(room, n, max(sizes[0], math.ceil(n * (se / TARGET_STDERR) ** 2 * 1.1) - n))
        k = len(sizes)
        sizes.append(extra)
        spent += 2 * extra
        new = more([best, played], extra, k)
        samples[best][k] = new[0]
        samples[played][k] = new[1]


def _rank(means: np.ndarray, i: int) -> int:
    return int((means > means[i] + 1e-9).sum()) + 1


# ------------------------------------------------------------------ Tiny Islands

def analyze_tiny_islands(record, *, rollouts: int = 24, candidates: int = 8, max_rollouts: int = 4096, seed: int = 0,
                         progress=None):
    from scorebook.engines.tiny_islands import bots
    from scorebook.engines.tiny_islands.metadata import CELLS, DECK_MODELS, DRAWING_AFTER_TURN, TILE_LETTERS, ZONE_MASK, cell_name
    from scorebook.records import tiny_islands as ti
    result = ti.replay(record)
    wave_rule = 1 if record.rules == "tinybot" else 0
    deck_model = DECK_MODELS.index(result.deck) if result.deck in DECK_MODELS else 0  # futures drawn under the record's deck model
    offers = np.array([(o.tile1, o.zone1, o.tile2, o.zone2) for o in record.offers], np.int64)
    if len(offers) < 26:  # an unfinished game: pad with a sampled future, never read before its turn
        pad = np.zeros((26, 4), np.int64)
        pad[:len(offers)] = offers
        offers = pad
    tiles = np.zeros(CELLS, np.int64)
    land = np.zeros(CELLS, np.bool_)
    rows = []
    d = 0
    for t, p in enumerate(record.placements):
        o = offers[t]
        cands = []
        for k in range(2):
            for z in range(CELLS):
                if tiles[z] == 0 and ZONE_MASK[o[2 * k + 1], z] and (o[2 * k], z) not in cands:
                    cands.append((int(o[2 * k]), z))
        heur = [bots.placement_value(tiles, land, tile, z, 3 - d, wave_rule) for tile, z in cands]
        order = list(np.argsort(-np.array(heur), kind="stable")[:candidates])
        chosen = [cands[i] for i in order]
        played = (p.tile, p.cell)
        if played not in chosen:
            chosen.append(played)
        arr = np.array(chosen, np.int64)
        values = bots.eval_placements(tiles, land, offers, t, d, wave_rule, arr, rollouts, seed + t, deck_model)
        i = chosen.index(played)

        def more(pair, n, k, arr=arr, t=t, d=d, tiles=tiles.copy(), land=land):  # fresh futures per round
            return bots.eval_placements(tiles, land, offers, t, d, wave_rule, arr[pair], n, seed + 1000 * k + t,
                                        deck_model)
        b, vb, vp, se, means, used = _topped_up(values, i, more, max_rollouts)
        name = lambda c: TILE_LETTERS[c[0]] + cell_name(c[1])  # noqa: E731
        rows.append(MoveRow(ti.ply_of_turn(t), 0, name(played), name(chosen[b]), vb, vp, max(0.0, vb - vp), se,
                            _rank(means, i), len(chosen), futures=used))
        tiles[p.cell] = p.tile
        if progress:
            progress()
        if d < len(record.drawings) and t + 1 == DRAWING_AFTER_TURN[d]:
            played_region = result.regions[d]
            bot_region = bots.planned_region(tiles, land, offers, t, wave_rule)
            regions = np.array([bot_region, played_region])
            text = lambda m: "(" + " ".join(cell_name(int(z)) for z in np.flatnonzero(m)) + ")"  # noqa: E731
            if t + 1 >= 26:  # the last drawing: the final score, exact
                values = bots.eval_regions(tiles, land, offers, t, d, wave_rule, regions, 1, seed + 100 + t,
                                           deck_model)
                means = values[:, 0]
                b = int(np.argmax(means))
                vb, vp, se, used = float(means[b]), float(means[1]), None, 1
            else:
                values = bots.eval_regions(tiles, land, offers, t, d, wave_rule, regions, rollouts, seed + 100 + t,
                                           deck_model)

                def more(pair, n, k, regions=regions, t=t, d=d, tiles=tiles.copy(), land=land):
                    return bots.eval_regions(tiles, land, offers, t, d, wave_rule, regions[pair], n,
                                             seed + 1000 * k + 100 + t, deck_model)
                b, vb, vp, se, means, used = _topped_up(values, 1, more, max_rollouts)
            rows.append(MoveRow(ti.ply_of_drawing(d), 0, text(played_region), text(regions[b]), vb, vp,
                                max(0.0, vb - vp), se, _rank(means, 1), 2, futures=used))
            land = land ^ played_region
            d += 1
    return rows, {"bot": f"heuristic rollouts:{rollouts} candidates:{candidates} max-rollouts:{max_rollouts}",
                  "rollouts": rollouts, "candidates": candidates, "max_rollouts": max_rollouts,
                  "target_stderr": TARGET_STDERR, "deck": DECK_MODELS[deck_model]}


# ------------------------------------------------------------------ The Game of Islands

def analyze_game_of_islands(record, *, depth: int = 2, budget: int = 2_000_000, seed: int = 0, progress=None):
    from scorebook.engines.game_of_islands import bots, engine as G
    from scorebook.records import game_of_islands as goi
    rows = []
    for number, g in enumerate(record.games, 1):
        n = g.grid
        used, diag, owner = G.new_state(n)
        for ply, turn in enumerate(g.turns, 1):
            mover = (ply - 1) % 2
            player = 0 if (g.first == record.players[0]) == (mover == 0) else 1
            if turn.kind == "line":
                # value of each line: searched deeper when few lines are left
                left = G.count_legal_lines(n, used, diag)
                d = depth if left <= 400 else 1
                value, _, complete = bots.solve(n, used, diag, owner, budget) if left <= 18 else (0, 0, False)
                lines, values, exact = bots.line_values(n, used, diag, owner, max(d, 64) if complete else d, budget)
                exact = bool(exact or complete)
                canon = [goi.canonical_line(*map(int, l)) for l in lines]
                played_line = goi.canonical_line(*turn.line)
                i = canon.index(played_line)
                b = int(np.argmax(values))
                G.apply_line(n, used, diag, *turn.line)
                available = [dd for dd in range(n * n) if owner[dd] < 0 and G.is_island(n, used, diag, dd % n, dd // n)]
                missed = len([dd for dd in available if dd not in turn.claims])
                vb, vp = float(values[b]), float(values[i]) - missed
                name = lambda l: f"{goi.dot_name(n, l[1] * n + l[0])}-{goi.dot_name(n, l[3] * n + l[2])}"  # noqa
                rows.append(MoveRow(ply, player, goi._turn_text(n, turn), name(canon[b]), vb, vp, max(0.0, vb - vp),
                                    None, int((values > values[i]).sum()) + 1, len(values), number, exact))
            for dd in turn.claims:
                owner[dd] = mover
            if progress:
                progress()
    return rows, {"bot": f"search depth:{depth}", "depth": depth, "budget": budget}


# ------------------------------------------------------------------ Iwoki

def analyze_iwoki(record, *, samples: int = 24, seed: int = 0, progress=None):
    from scorebook.engines.iwoki import agents as A, engine as IE
    from scorebook.engines.iwoki.metadata import HEX_GAP_INDEX, SMALL_GAP_INDEX, parse_tile
    from scorebook.records import iwoki as IW
    s = IW._initial_state(record.header, record.rules, IW._Where())
    rows = []
    for ply, a in enumerate(record.actions, 1):
        opts, values = A.option_values(s, samples, seed + ply)
        p = int(s[IE.TO_MOVE])
        played = _iwoki_option_index(s, opts, a, parse_tile, SMALL_GAP_INDEX, HEX_GAP_INDEX)
        means = values.mean(axis=1)
        b = int(np.argmax(means))
        vb, vp, se = _paired(values, b, played)
        rows.append(MoveRow(ply, p, a.text(), _iwoki_option_text(s, opts[b]), vb, vp, max(0.0, vb - vp), se,
                            _rank(means, played), len(opts)))
        IE.apply_option(s, opts[played])
        if progress:
            progress()
    return rows, {"bot": f"greedy rollouts:{samples}", "samples": samples}


def _iwoki_option_index(s, opts, a, parse_tile, small_gaps, hex_gaps) -> int:
    from scorebook.engines.iwoki import engine as IE
    from scorebook.engines.iwoki.metadata import HAND_HEX, HAND_SMALL, N_HEX_TILES, N_SMALL_TILES
    p = int(s[IE.TO_MOVE])
    for j, o in enumerate(opts):
        if a.type == "draw" and o[0] == IE.DRAW or a.type == "pass" and o[0] == IE.PASS:
            return j
        if a.type.startswith("place") and o[0] in (IE.SMALL, IE.HEX):
            kind, tile = parse_tile(a.tile)
            if (kind == "small") != (o[0] == IE.SMALL):
                continue
            hand = HAND_SMALL + p * N_SMALL_TILES if kind == "small" else HAND_HEX + p * N_HEX_TILES
            orient = ("+-".index(a.face) * 3 if kind == "small" else "AB".index(a.face) * 6) + a.rotation
            gap = (small_gaps if kind == "small" else hex_gaps)[a.gap]
            if s[hand + o[1]] == tile and o[2] == gap and o[3] == orient:
                return j
    raise ValueError(f"action {a.text()} is not among the options")


def _iwoki_option_text(s, o) -> str:
    from scorebook.engines.iwoki import engine as IE
    from scorebook.engines.iwoki.metadata import (HAND_HEX, HAND_SMALL, HEX_GAP_NAMES, N_HEX_TILES, N_SMALL_TILES,
                                        SMALL_GAP_NAMES)
    p = int(s[IE.TO_MOVE])
    if o[0] == IE.SMALL:
        return f"st{s[HAND_SMALL + p * N_SMALL_TILES + o[1]] + 1}{'+-'[o[3] // 3]}{o[3] % 3}@{SMALL_GAP_NAMES[o[2]]}"
    if o[0] == IE.HEX:
        return f"ht{s[HAND_HEX + p * N_HEX_TILES + o[1]] + 1}{'AB'[o[3] // 6]}{o[3] % 6}@{HEX_GAP_NAMES[o[2]]}"
    return "draw" if o[0] == IE.DRAW else "pass"


# ------------------------------------------------------------------ the report

def summarize(rows: list[MoveRow], game: str, players: list[str]) -> dict:
    out = {}
    for seat, name in enumerate(players or ["player"]):
        mine = [r for r in rows if r.player == seat]
        if not mine:
            continue
        counts = {c: sum(1 for r in mine if r.cls == c) for c in CLASSES}
        total = sum(r.loss for r in mine)
        out[name] = {"moves": len(mine), "total_loss": round(total, 3), "mean_loss": round(total / len(mine), 3),
                     "accuracy": round(100.0 * (counts["best"] + counts["good"]) / len(mine), 1),
                     "best_move_rate": round(100.0 * sum(1 for r in mine if r.rank == 1) / len(mine), 1),
                     "classes": counts}
    return out


def analyze_record(game: str, record, players: list[str], *, seed: int = 0, options: dict | None = None,
                   progress=None) -> dict:
    """The full report of one record: moves, summary, thresholds, bot and settings."""
    options = options or {}
    if game == "tiny-islands":
        rows, settings = analyze_tiny_islands(record, seed=seed, progress=progress, **options)
    elif game == "game-of-islands":
        rows, settings = analyze_game_of_islands(record, seed=seed, progress=progress, **options)
    elif game == "iwoki":
        rows, settings = analyze_iwoki(record, seed=seed, progress=progress, **options)
    else:
        raise ValueError(game)
    for r in rows:
        r.cls = classify(r.loss, game) if r.rank != 1 or r.loss > 0 else "best"
    return {"bot": settings.pop("bot"), "settings": settings, "seed": seed, "engine_version": ENGINE_VERSION,
            "thresholds": THRESHOLDS[game], "moves": [r.as_dict() for r in rows],
            "summary": summarize(rows, game, players)}
