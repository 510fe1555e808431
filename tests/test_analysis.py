"""Analysis, game-neutral: the top-up of sampled values, classes, a batch that resumes and
survives a failing record."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.analyze.loss import TARGET_STDERR, classify, topped_up
from scorebook.analyze.run import analyze_all
from scorebook.engines.game_of_islands.bots import GREEDY as GOI_GREEDY, play_game as goi_play
from scorebook.errors import UsageError
from scorebook.records.game_of_islands import bot_grid_text
from scorebook.records.ingest import ingest_text


def test_classes_follow_the_thresholds():
    assert classify(0, "game-of-islands", best=True) == "best"
    # a move that is not the bot's best is never "best", however small its loss
    assert [classify(x, "game-of-islands") for x in (0, 0.5, 1, 2, 5)] == \
        ["good", "good", "inaccuracy", "mistake", "blunder"]


def test_analyze_all_resumes(store):
    for seed in (1, 2, 3):
        lines = goi_play(6, GOI_GREEDY, GOI_GREEDY, seed, 2, 1000)
        text, _ = bot_grid_text(6, lines, {"Grid": "6", "First": "A", "Second": "B"})
        ingest_text(store, text, f"g{seed}.pgn")
    done = analyze_all(store, None, 0, jobs=1)
    assert len(done) == 3
    assert analyze_all(store, None, 0, jobs=1) == []  # nothing left: resumes without redoing
    store.db.execute("DELETE FROM analyses WHERE id = (SELECT max(id) FROM analyses)")
    assert len(analyze_all(store, None, 0, jobs=2)) == 1
    assert len(analyze_all(store, "depth:1", 0, jobs=1, force=True)) == 3  # --force: every record again
    assert analyze_all(store, "samples:5", 0, jobs=1) == []  # options of games with no records here


def test_a_bot_spec_that_no_game_takes_is_a_usage_error(store):
    with pytest.raises(UsageError, match="fits no game"):
        analyze_all(store, "heuristic", 0, jobs=1)


def _fake_futures(true, calls):
    """``more`` for topped_up: a round's futures are fixed by its number (as seeds make them),
    common noise for every candidate on a future plus a little of each one's own."""
    def more(cands, n, k):
        calls.append((tuple(cands), n, k))
        rng = np.random.default_rng(k)
        shared, own = rng.normal(0, 5, n), rng.normal(0, 2, (len(true), n))
        return np.array([true[c] + shared + own[c] for c in cands])
    return more


def test_top_up_plays_the_best_and_the_played_move_until_the_loss_is_sure():
    calls = []
    more = _fake_futures(np.array([10.0, 6.0, 8.0]), calls)
    base = more([0, 1, 2], 8, 0)
    calls.clear()
    best, vb, vp, se, ranking, used = topped_up(base.copy(), 2, more, 4096)
    assert se <= TARGET_STDERR and used <= 4096 and calls
    assert best == 0 and abs((vb - vp) - 2.0) < 4 * TARGET_STDERR
    rounds = [k for cands, _, k in calls if len(cands) == 2]
    assert rounds == list(range(1, len(rounds) + 1))  # a fresh round of futures each time
    assert all(cands[1] == 2 for cands, _, _ in calls if len(cands) == 2)  # the played move in every round
    # the values are the means over every future behind the pair: base and rounds alike
    assert used == 8 + sum(n for cands, n, _ in calls if len(cands) == 2)
    assert list(np.argsort(-ranking)) == [0, 2, 1]
    # a capped top-up stops at the cap; the move played as best costs nothing and no futures
    assert topped_up(base.copy(), 2, more, 40)[5] <= 40
    calls.clear()
    assert topped_up(base.copy(), 0, more, 4096)[3] == 0.0 and not calls


def test_top_up_catches_a_challenger_up_on_the_same_futures():
    # 0 looks best on the base futures and gets the rounds beside the played move 2, which
    # overtakes it; then 1, ahead of 2 on the base futures, is played out on the very rounds
    # it missed (the same numbers and sizes) and, truly best, takes over
    calls = []
    true = np.array([8.0, 10.0, 9.0])
    more = _fake_futures(true, calls)
    base = more([0, 1, 2], 8, 0)
    base[0] += 8  # a lucky start for 0 (ahead of 1 and 2 on the base futures)
    assert base[0].mean() > base[1].mean() > base[2].mean()
    best, vb, vp, se, ranking, used = topped_up(base.copy(), 2, more, 4096)
    assert best == 1 and se <= TARGET_STDERR
    rounds = {k: n for cands, n, k in calls if len(cands) == 2}
    catch_ups = [(k, n) for cands, n, k in calls if cands == (1,)]
    assert catch_ups and all(rounds[k] == n for k, n in catch_ups)
    assert abs((vb - vp) - 1.0) < 4 * TARGET_STDERR


def test_a_failing_record_does_not_stop_the_batch(store, monkeypatch):
    import scorebook.analyze.run as run
    for seed in (1, 2):
        lines = goi_play(6, GOI_GREEDY, GOI_GREEDY, seed, 2, 1000)
        text, _ = bot_grid_text(6, lines, {"Grid": "6", "First": "A", "Second": "B"})
        ingest_text(store, text, f"g{seed}.pgn")
    real = run.compute
    calls = []

    def flaky(row, spec, seed, progress=None, **kwargs):
        calls.append(row["id"])
        if len(calls) == 1:
            raise RuntimeError("boom")
        return real(row, spec, seed, progress, **kwargs)
    monkeypatch.setattr(run, "compute", flaky)
    out = analyze_all(store, None, 0, jobs=1)
    assert [("error" in r) for r in out] == [True, False]
    assert len(analyze_all(store, None, 0, jobs=1)) == 1  # the failed one is still to do


def test_a_move_level_with_the_best_within_its_error_is_a_tied_best_and_says_so(run_cli):
    """Never 'best' beside another move without saying so: a move whose loss is within one
    standard error of the bot's best (exact: level with it) is best, marked as a tie, in the
    JSON, the table and a stored report read back."""
    from .conftest import SAMPLES, cli_json
    sample = SAMPLES / "tsuro" / "tsuro-random-1-simple-2-random-3-simple-4-random-5-s2-0001.pgn"
    rid = cli_json(run_cli("ingest", str(sample), "--json"))["records"][0]["id"]
    report = cli_json(run_cli("analyze", rid, "--bot", "samples:8", "--json"))
    tied = [m for m in report["moves"] if m.get("tied")]
    assert tied and all(m["class"] == "best" and m["played"] != m["best"] and m["loss"] <= (m["stderr"] or 0) + 1e-9
                        for m in tied)
    assert all(m["played"] == m["best"] for m in report["moves"] if m["class"] == "best" and not m.get("tied"))
    again = cli_json(run_cli("analyze", rid, "--bot", "samples:8", "--json"))  # read back from the store
    assert again["moves"] == report["moves"]
    assert "best (tied)" in run_cli("analyze", rid, "--bot", "samples:8").stdout
