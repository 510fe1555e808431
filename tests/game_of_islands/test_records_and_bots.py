"""Game of Islands: round trips of random games on every tournament grid, canonical export,
engine invariants, bots and play."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.engines.game_of_islands import engine as E
from scorebook.engines.game_of_islands.bots import GREEDY, RANDOM, SEARCH, play_game, solve
from scorebook.records import game_of_islands as goi
from scorebook.records.formats import read_text
from scorebook.records.ingest import ingest_text
from scorebook.records.game_of_islands import bot_grid_text

from ..conftest import cli_json


@pytest.mark.parametrize("n", [10, 12, 14])
def test_random_games_round_trip(n, store):
    for seed in range(6):
        lines = play_game(n, RANDOM, RANDOM, seed, 2, 1000)
        text, points = bot_grid_text(n, lines, {"Event": "rt", "Grid": str(n), "First": "A", "Second": "B"})
        out = ingest_text(store, text, "rt.pgn")[0]
        assert out["status"] == "ingested" and out["score"]["points"] == points
        stored = store.get(out["id"])["text"]
        again = ingest_text(store, stored, "again.pgn")[0]
        assert again["status"] == "duplicate" and again["id"] == out["id"]
        record = read_text(stored, "x", "pgn")[0].record
        assert goi.render(record)[0] == stored


def test_export_writes_lines_in_canonical_direction(run_cli):
    text = ('[Grid "10"]\n[First "A"]\n[Second "B"]\n[Result "*"]\n\n'
            "1. j2-i1, j1 h3-h1 2. c5-e3 *\n")
    rid = cli_json(run_cli("ingest", "-", "--json", input=text))["records"][0]["id"]
    exported = run_cli("export", rid).output
    assert "1. I1-J2, J1 H1-H3 2. C5-E3 *" in exported
    assert exported.startswith('[Game "game-of-islands"]')


def test_island_rules_from_the_spec():
    n = 10
    used, diag, owner = E.new_state(n)
    E.apply_line(n, used, diag, 8, 0, 9, 1)  # I1-J2
    # J1 is an island: J1-I2 would cross I1-J2 and its other neighbours are used
    assert E.is_island(n, used, diag, 9, 0)
    assert E.line_code(n, used, diag, 9, 0, 8, 1) == E.CROSSING
    assert not E.is_island(n, used, diag, 8, 1)


def test_legal_lines_are_exactly_the_legal_ones():
    rng = np.random.default_rng(3)
    for seed in range(40):
        n = int(rng.integers(4, 9))
        used, diag, owner = E.new_state(n)
        np.random.seed(seed)
        for _ in range(int(rng.integers(0, 8))):
            x1, y1, x2, y2 = E.random_line(n, used, diag)
            if x1 < 0:
                break
            E.apply_line(n, used, diag, x1, y1, x2, y2)
        listed = {tuple(int(v) for v in l) for l in E.legal_lines(n, used, diag)}
        brute = set()
        for a in range(n * n):
            for b in range(n * n):
                x1, y1, x2, y2 = a % n, a // n, b % n, b // n
                if (x1, y1) < (x2, y2) and E.line_code(n, used, diag, x1, y1, x2, y2) == E.OK:
                    brute.add((x1, y1, x2, y2) if (x2 - x1, y2 - y1) != (-1, 1) else None)
        norm = {goi.canonical_line(*l) for l in listed}
        assert norm == {l for l in brute if l}
        assert E.count_legal_lines(n, used, diag) == len(listed)
        assert E.has_legal_line(n, used, diag) == bool(listed)


def test_playouts_end_with_no_legal_line_and_all_islands_claimed():
    for n in (4, 7, 10):
        np.random.seed(n)
        used, diag, owner = E.new_state(n)
        points = E.playout(n, used, diag, owner, 0)
        assert points.sum() >= 5  # a bonus was given
        assert (used == 0).all()  # the playout works on copies


def test_solve_is_exact_on_a_tiny_grid():
    # on 4x4 the search solves the whole game from the start; the first player's exact
    # margin must equal the best of its moves by brute force at the next level
    n = 4
    used, diag, owner = E.new_state(n)
    value, nodes, complete = solve(n, used, diag, owner, 10**8)
    assert complete and nodes > 100
    best = -99
    for line in E.legal_lines(n, used, diag):
        E.apply_line(n, used, diag, *[int(v) for v in line])
        gain = len([d for d in range(n * n) if E.is_island(n, used, diag, d % n, d // n)])
        if E.has_legal_line(n, used, diag):
            reply, _, _ = solve(n, used, diag, owner, 10**8)
            best = max(best, gain - reply)
        else:
            best = max(best, gain + 5)
        used, diag, owner = E.new_state(n)
    assert value == best


def test_search_beats_random_and_greedy_beats_random():
    margins = []
    for seed in range(4):
        for bots in ((GREEDY, RANDOM), (SEARCH, RANDOM)):
            lines = play_game(8, bots[0], bots[1], seed, 3, 20000)
            _, points = bot_grid_text(8, lines, {"Grid": "8", "First": "A", "Second": "B"})
            margins.append(points[0] - points[1])
    assert sum(m > 0 for m in margins) >= 7


def test_cli_play_game_of_islands(run_cli, tmp_path):
    doc = cli_json(run_cli("play", "game-of-islands", "--grid", "6", "--players", "greedy,random",
                           "--games", "2", "--seed", "4", "--json", "--out", str(tmp_path)))
    assert [g["status"] for g in doc["games"]] == ["ingested"] * 2
    s = doc["summary"]
    assert doc["players"] == ["greedy", "random"] and s["wins"] + s["losses"] + s["draws"] == 2
    # one outcome shape: the margin from greedy's side, whichever seat it had
    assert [g["players"] for g in doc["games"]] == [["greedy", "random"], ["random", "greedy"]]
    for g, p in zip(doc["games"], ([0, 1], [1, 0])):
        assert g["value"] == g["score"]["points"][p[0]] - g["score"]["points"][p[1]]
        assert isinstance(g["seconds"], float)
    triad = cli_json(run_cli("play", "game-of-islands", "--triad", "--players", "greedy,random",
                             "--games", "1", "--seed", "5", "--json"))
    score = triad["games"][0]["score"]
    assert [g["grid"] for g in score["games"]] == [10, 12, 14] and score["result"] in ("1-0", "0-1", "1/2-1/2")
    assert run_cli("play", "game-of-islands", "--players", "greedy,nobody").exit_code == 2


def test_engine_agrees_with_the_plain_python_reference():
    from scorebook.engines.game_of_islands import reference as R
    rng = np.random.default_rng(9)
    for seed in range(60):
        n = int(rng.integers(4, 11))
        used, diag, owner = E.new_state(n)
        ref = R.Grid(n)
        np.random.seed(seed)
        for _ in range(int(rng.integers(0, 3 * n))):
            x1, y1, x2, y2 = E.random_line(n, used, diag)
            if x1 < 0:
                break
            E.apply_line(n, used, diag, x1, y1, x2, y2)
            ref.draw((x1, y1), (x2, y2))
        islands = E.island_mask(n, used, diag)
        for y in range(n):
            for x in range(n):
                assert bool(islands[y * n + x]) == ref.is_island((x, y)), (seed, x, y)
        steps = {(x, y, dx, dy) for x, y, dx, dy in ref.legal_steps()}
        jit_steps = {(x, y, dx, dy) for y in range(n) for x in range(n) for dx, dy in E.FORWARD
                     if E.step_ok(n, used, diag, x, y, dx, dy)}
        assert steps == jit_steps
