"""Per-move expected-score loss: for every move of a record, the value of the bot's best move
and of the move played, from the mover's side, in the game's own points. The game-neutral
part: each game's evaluator is its ``analyze/<game>.py`` (found through the registry).

loss = max(0, best - played). Where a value is estimated by sampling, ``stderr`` is the
standard error of the paired difference best - played (common random numbers make it small);
``topped_up`` gives the best and the played move more futures while that error is above
``TARGET_STDERR``. Classes come from the loss and the game's thresholds (game.json).

>>> classify(0.2, "tiny-islands"), classify(0.0, "tiny-islands", best=True), classify(7, "tiny-islands")
('good', 'best', 'blunder')
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from scorebook import registry
from scorebook.errors import UsageError

# 0.9.0: two-player Patchwork's play-outs searched, the end solved; a Game of Islands claim missed costs two points.
# 0.8.2: Iwoki's best move or line that draws names the tile it takes (draw=st35), as the record writes it.
# 0.8.1: Tiny Islands' line with TinyBot's network too; no line after a move tied with the best within the error.
# 0.8.0: the bot's line after a mistake or a blunder in every game; The Game of Islands' points in hand (so_far).
# 0.7.0: a move within one standard error of the best (or, exact, level with it) is best too, shown as a tie.
# 0.6.0: Tiny Islands play-outs read the learned window value after the first drawing, as halving:N's do.
# 0.5.0: "best" only for the bot's own best move (a move below the first threshold is "good"); Iwoki's bot named by
# its option (greedy samples:N). 0.4.0: Tiny Islands play-outs as halving:N's (screened planner), wider last drawing
ENGINE_VERSION = "0.9.0"

CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")


def thresholds(game: str) -> list[tuple[str, float]]:
    """The game's loss thresholds (points), mildest class first; stored with every report."""
    return list(registry.get_game(game).info.analysis.thresholds.items())


def mark_ties(report: dict) -> dict:
    """A move classed best that is not the bot's own is a tie: ``"tied": true`` (derived, so a
    stored report reads back the same)."""
    for m in report.get("moves", []):
        if m.get("class") == "best" and m.get("played") != m.get("best"):
            m["tied"] = True
    return report


def wants_line(loss: float, game: str, stderr: float | None = None) -> bool:
    """Whether a move's row carries the bot's line after its best move: where the move played
    is a mistake or a blunder, the moves a reader looks into, and not level with the best
    within the error of the values (``stderr``: a tie is classed best, ``analyze_record``); not
    at every move, for each step of a line costs the bot a choice as dear as judging the move
    (lines at inaccuracies too made an Iwoki analysis of bot games 4 times as long,
    benchmarks/history)."""
    return loss > max(stderr or 0.0, 1e-9) and classify(loss, game) in ("mistake", "blunder")


def classify(loss: float, game: str, best: bool = False) -> str:
    """``best`` when the move played is the bot's best, or level with it within the error of
    the values (a tie); otherwise the class of the highest threshold the loss reaches (``good``
    from 0)."""
    if best:
        return "best"
    label = thresholds(game)[0][0]
    for name, threshold in thresholds(game):
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
    cls: str = ""
    futures: int | None = None  # sampled futures behind value_best and value_played, where sampled
    top: list[dict] = field(default_factory=list)  # the bot's best candidates, best first (``top_moves``)
    line: list[str] = field(default_factory=list)  # the bot's continuation after its best move, where it has one
    # the points already in hand from the mover's side, where the values are of the rest of the
    # game only (a Game of Islands grid): the chart adds them to show the expected final margin
    so_far: float | None = None

    def as_dict(self) -> dict:
        out = {"ply": self.ply, "player": self.player, "played": self.played, "best": self.best,
               "value_best": round(self.value_best, 3), "value_played": round(self.value_played, 3),
               "loss": round(self.loss, 3), "stderr": None if self.stderr is None else round(self.stderr, 3),
               "class": self.cls, "rank": self.rank, "candidates": self.candidates}
        if self.game != 1:
            out["game"] = self.game
        if self.exact is not None:
            out["exact"] = self.exact
        if self.futures is not None:
            out["futures"] = self.futures
        if self.top:
            out["top"] = self.top
        if self.line:
            out["line"] = self.line
        if self.so_far is not None:
            out["so_far"] = self.so_far
        return out


TOP_MOVES = 3  # candidates a report shows per move
LINE_MOVES = 5  # moves of the bot's line a report shows after its best move


def top_moves(names: list[str], means, stderrs=None, first: int | None = None, k: int = TOP_MOVES) -> list[dict]:
    """The ``k`` best candidates, best first (``first``, the bot's pick, leads where given):
    each its move, value and the standard error of that value (None where it is exact).

    >>> top_moves(["a", "b", "c"], [1.0, 3.0, 2.0], [0.1, 0.2, 0.3], k=2)
    [{'move': 'b', 'value': 3.0, 'stderr': 0.2}, {'move': 'c', 'value': 2.0, 'stderr': 0.3}]
    """
    means = np.asarray(means, dtype=float)
    order = [int(i) for i in np.argsort(-means, kind="stable")]
    if first is not None:
        order = [first] + [i for i in order if i != first]
    out: list[dict] = []
    for i in order:  # a move listed twice (the bot's pick also among the candidates) once
        if len(out) < k and all(t["move"] != names[i] for t in out):
            out.append({"move": names[i], "value": round(float(means[i]), 3),
                        "stderr": None if stderrs is None else round(float(stderrs[i]), 3)})
    return out


def sampled_top(names: list[str], values: np.ndarray, first: int | None = None) -> list[dict]:
    """``top_moves`` of sampled values (a row a candidate, a column a future): each mean with
    its standard error."""
    return top_moves(names, values.mean(axis=1), base_stderr(values), first)


def base_stderr(values: np.ndarray):
    """Each candidate's standard error over the futures all of them share (the first round of
    ``topped_up``; the best and the played move may have more behind their values)."""
    n = values.shape[1]
    return values.std(axis=1, ddof=1) / np.sqrt(n) if n > 1 else None


def paired(values: np.ndarray, best: int, played: int) -> tuple[float, float, float | None]:
    """Means of two candidates and the standard error of their paired difference."""
    vb, vp = float(values[best].mean()), float(values[played].mean())
    n = values.shape[1]
    if n < 2:
        return vb, vp, None
    diff = values[best] - values[played]
    return vb, vp, float(diff.std(ddof=1) / math.sqrt(n))


def with_played(candidates: np.ndarray, played: np.ndarray) -> tuple[np.ndarray, int]:
    """The candidate moves (one a row) with the move played among them, and its row: a move
    the bot would not weigh is added last."""
    match = np.flatnonzero((candidates == played).all(axis=1))
    if match.size:
        return candidates, int(match[0])
    return np.vstack([candidates, played]), candidates.shape[0]


def verdict(values: np.ndarray, played: int) -> tuple[int, float, float, float, float | None, int]:
    """From sampled values (a row a candidate, the same futures in every column): the best
    row, its value and the played one's, the loss, its paired standard error, the played
    move's rank."""
    means = values.mean(axis=1)
    best = int(np.argmax(means))
    vb, vp, se = paired(values, best, played)
    return best, vb, vp, max(0.0, vb - vp), se, rank(means, played)


TARGET_STDERR = 0.25  # points: Tiny Islands tops up the futures of a move until its loss is this sure


def topped_up(values: np.ndarray, played: int, more, cap: int, target: float = TARGET_STDERR):
    """The best and the played candidate after topping up: while the standard error of their
    paired difference is above ``target`` (points), the two get a round of fresh futures, common
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
        if best == played or se <= target or room <= 0:
            vp = float(np.concatenate(list(samples[played].values())).mean())
            ranking = np.array([vp + lead(c, played)[0] for c in range(len(samples))])
            return best, vp + float(diff.mean()), vp, se, ranking, n
        extra = min(room, n, max(sizes[0], math.ceil(n * (se / target) ** 2 * 1.1) - n))
        k = len(sizes)
        sizes.append(extra)
        spent += 2 * extra
        new = more([best, played], extra, k)
        samples[best][k] = new[0]
        samples[played][k] = new[1]


def rank(means: np.ndarray, i: int) -> int:
    return int((means > means[i] + 1e-9).sum()) + 1


def seen_from_first_seat(m: dict, scale: str) -> tuple[float, float]:
    """A move's two values (best, played) from the first seat's side in a two-player game:
    a margin negated, a share of a win (in %) taken from 100, where the second seat moved. A
    value of the rest of the game only has the points in hand added (``so_far``): the
    expected final margin.

    >>> seen_from_first_seat({"player": 1, "value_best": 3.0, "value_played": -2.0}, "margin")
    (-3.0, 2.0)
    >>> seen_from_first_seat({"player": 1, "value_best": 3.0, "value_played": -2.0, "so_far": -6}, "margin")
    (3.0, 8.0)
    >>> seen_from_first_seat({"player": 1, "value_best": 70.0, "value_played": 40.0}, "share")
    (30.0, 60.0)
    """
    vb, vp = m["value_best"] + m.get("so_far", 0), m["value_played"] + m.get("so_far", 0)
    if m["player"] == 0:
        return vb, vp
    return (-vb, -vp) if scale == "margin" else (100 - vb, 100 - vp)


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
                     "best_move_rate": round(100.0 * counts["best"] / len(mine), 1),  # ties included
                     "classes": counts}
    return out


def analyze_record(game: str, trace, *, seed: int = 0, options: dict | None = None, progress=None,
                   players: list[str] | None = None, kept: list | None = None) -> dict:
    """The full report of one walked record (a ``records.replay.Trace``): moves, summary,
    thresholds, bot and settings. ``options``: the game's analysis options (defaults from its
    game.json); ``players``: the names the summary gives (default: the record's). A record
    that does not replay (a trace with an error) is never judged. ``kept``: the list the
    moves' rows go into as each is judged (``Analysis.evaluate``)."""
    if trace.error is not None:
        raise UsageError(f"a record that does not replay is not analysed: {trace.error.describe()}")
    players = players or trace.players or ["player"]
    analysis = registry.get_game(game).analysis
    declared = registry.get_game(game).info.analysis
    with_file = declared.uses is not None and declared.uses in (options or {})
    full = dict(declared.options_with_file if with_file else declared.options, **(options or {}))
    rows, settings = analysis.evaluate(trace, seed=seed, options=full, progress=progress, kept=kept)
    return report_of(game, rows, bot=analysis.bot_name(full), settings=settings, seed=seed, players=players)


def report_of(game: str, rows: list[MoveRow], *, bot: str, settings: dict, seed: int, players: list[str]) -> dict:
    """The report of judged moves (all of a record's, or those a stopped job finished): each
    classed, the summary per player."""
    for r in rows:  # the bot's own move, or one as good within the error of the values: best (a tie if not the same)
        r.cls = classify(r.loss, game, best=r.played == r.best or r.loss <= max(r.stderr or 0.0, 1e-9))
    return mark_ties({"bot": bot, "settings": settings, "seed": seed,
                      "engine_version": ENGINE_VERSION, "thresholds": thresholds(game),
                      "moves": [r.as_dict() for r in rows], "summary": summarize(rows, game, players)})
