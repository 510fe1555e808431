"""The Game of Islands' compiled reader (``records/game_of_islands_compiled.py``) against the
walk (``GameOfIslandsVisitor`` reading token by token), and the engine's jitted turn
(``engine.play_turn``) against ``Grid`` and ``apply``, the rules it plays: a record the
compiled reader reads is the walk's record (text, moves, scores, turns); anything else it
leaves to the walk, so every rejection is the walk's."""
from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from scorebook.engines.game_of_islands import engine as E
from scorebook.engines.game_of_islands.bots import GREEDY, RANDOM, play_game
from scorebook.engines.game_of_islands.game import ENGINE
from scorebook.errors import LENIENT, STRICT
from scorebook.records import game_of_islands as G
from scorebook.records.game_of_islands import bot_grid_text, render

from ..compiled_readers import compiled_and_walked as both_ways
from ..conftest import SAMPLES
from ..fuzzing import mutate

KINDS = {E.LINE: E.KIND_LINE, E.PASS: E.KIND_PASS, E.TIME: E.KIND_TIME}


def _random_action(rng: random.Random, grid: E.Grid):
    """A turn the rules may take or refuse: one of the legal ones, or a line, a pass or a
    timeout at random; its claims drawn with repeats from the islands, claimed or not, and a
    few dots anywhere (or off the grid)."""
    n = grid.n
    legal = ENGINE.legal_actions(grid)
    if legal and rng.random() < 0.6:
        kind, line, claims = rng.choice(legal)
    else:
        kind = rng.choices([E.LINE, E.PASS, E.TIME], [17, 2, 1])[0]
        line = tuple(rng.randrange(-1, n + 1) for _ in range(4)) if kind == E.LINE else None
        claims = ()
    islands = E.island_mask(n, grid.used, grid.diag)
    pool = list(claims) + [int(d) for d in np.flatnonzero(islands)] + \
        [rng.randrange(-1, n * n + 1) for _ in range(2)]
    if rng.random() < 0.5:
        claims = tuple(rng.choice(pool) for _ in range(rng.randrange(4)))
    return kind, line, tuple(claims)


@pytest.mark.parametrize("seed", range(6))
def test_the_jitted_turn_plays_as_the_grid_does(seed):
    """Random turns, legal and not, through ``apply`` (Grid) and ``play_turn``: the same code
    every time, and the same grid after (on past the grid's end: every refusal is compared)."""
    rng = random.Random(seed)
    grid = E.Grid(rng.choice([4, 5, 6, 8]), (False, False))
    twin = copy.deepcopy(grid)
    for _ in range(300):
        kind, line, claims = _random_action(rng, grid)
        n = grid.n
        pairs = np.array([(d % n, d // n) if 0 <= d < n * n else (-1, -1) for d in claims] or [(0, 0)], np.int64)
        meta = twin.scalars()
        code = E.play_turn(n, twin.used, twin.diag, twin.owner, meta, KINDS[kind], *(line or (-1, -1, -1, -1)),
                           pairs, len(claims))
        twin.take_scalars(meta)
        assert code == ENGINE.apply(grid, (kind, line, claims))
        assert (twin.used == grid.used).all() and (twin.diag == grid.diag).all() and (twin.owner == grid.owner).all()
        assert twin.scalars().tolist() == grid.scalars().tolist()


def _described(r) -> tuple:
    return (render(r), r.score, r.warnings, r.finished, [list(g.turns) for g in r.games],
            [(g.result, g.status, g.timed_out) for g in r.games])


def compiled_and_walked(text: str, policy=STRICT) -> list[bool]:
    """Read ``text`` both ways; assert they agree; which records the compiled reader read."""
    return both_ways(text, G.GameOfIslandsVisitor, _described, lambda r: [g.turns for g in r.games], policy)


def bot_grid(n: int, seed: int, first="Ann", second="Bob", tags=None) -> str:
    lines = play_game(n, (GREEDY, RANDOM)[seed % 2], RANDOM, seed, 2, 1000)
    return bot_grid_text(n, lines, {"Event": "t", "Grid": str(n), "First": first, "Second": second, **(tags or {})})[0]


def triad(seed: int) -> str:
    return "\n".join(bot_grid(n, seed + k, *(("Ann", "Bob") if k % 2 == 0 else ("Bob", "Ann")),
                              tags={"Match": f"m{seed}"}) for k, n in enumerate(E.TRIAD_GRIDS))


@pytest.mark.parametrize("seed", range(8))
def test_bot_grids_and_triads_read_compiled_as_the_walk_reads_them(seed):
    assert compiled_and_walked(bot_grid(4 + seed, seed)) == [True]
    if seed < 3:
        assert compiled_and_walked(triad(seed)) == [True]


def test_the_samples_and_the_shared_records_read_alike():
    paths = sorted(p for p in (SAMPLES / "game-of-islands").rglob("*.pgn"))
    shared = SAMPLES.parent.parent / "shared" / "data" / "goi"
    paths += sorted(shared.rglob("*.pgn")) if shared.is_dir() else []
    read = [flag for p in paths for flag in compiled_and_walked(p.read_text())]
    assert any(read)


def test_written_variations_read_alike():
    """Lower case, a line written from its other end, claims written apart or stuck on, a
    second's number "3...", a timeout, the final claim-only turn: read compiled, as the walk
    reads them; a comment, a move stuck to its number: left to the walk."""
    head = '[Event "t"]\n[Grid "10"]\n[First "Ann"]\n[Second "Bob"]\n[Result "*"]\n\n'
    for movetext, compiled in [("1. i1-j2, j1 H3-H1 *", True), ("1. J2-I1,J1 1... H1-H3 *", True),
                               ("1. I1-J2, J1 time 2. A1-A2 time 3. B1-B2 *", True),
                               ("1. I1-J2 {why} J1-J3 *", False), ("1.I1-J2 *", False)]:
        assert compiled_and_walked(head + movetext + "\n") == [compiled], movetext
    grid = bot_grid(4, 1)
    body, result = grid.rstrip().rsplit(" ", 1)
    turns = sum(1 for w in body.split("\n\n", 1)[1].split() if w[0].isalpha() or w == "--")
    final = (" --" if turns % 2 == 1 else f" {turns // 2 + 1}. --")
    assert compiled_and_walked(body + final + f" {result}\n") == [True]


def test_stated_results_the_replay_contradicts_are_the_walks():
    grid = bot_grid(5, 3)
    body, result = grid.rstrip().rsplit(" ", 1)
    a, b = result.split("-")
    wrong = f"{int(a) + 1}-{b}"
    for text in (grid.replace(f'[Result "{result}"]', f'[Result "{wrong}"]'), body + f" {wrong}\n"):
        for policy in (STRICT, LENIENT):
            assert compiled_and_walked(text, policy) == [False]
    match = triad(7).replace('[Match "m7"]', '[Match "m7"]\n[MatchResult "1/2-1/2"]', 1)
    for policy in (STRICT, LENIENT):
        compiled_and_walked(match, policy)


def test_mutated_records_are_read_or_refused_as_the_walk_does():
    """500 mutations (the fuzzers' own) of bot grids, triads and the samples: the same outcome."""
    rng = random.Random(86)
    bases = [bot_grid(4 + k, 20 + k) for k in range(5)] + [triad(30)]
    bases += [p.read_text() for p in sorted((SAMPLES / "game-of-islands").glob("*.pgn"))]
    read = 0
    for k in range(500):
        read += sum(compiled_and_walked(mutate(bases[k % len(bases)], rng)))
    assert read > 0
