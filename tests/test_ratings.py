"""Ratings from the archive (``scorebook ratings``) and bot ladders (``play --ladder``), on
constructed archives."""
from __future__ import annotations

import json
import random

import pytest


from scorebook import registry
from scorebook.analyze.ratings import Result, rate, ratings
from scorebook.records.ingest import ingest_text

from .conftest import SAMPLES, cli_json


def _games(results: list[tuple], game: str = "iwoki") -> list[Result]:
    """(players, places) per game, each on its own day in the order given."""
    return [Result(game, f"r{i:04d}", f"2026-01-{1 + i // 40:02d}", list(players), list(places))
            for i, (players, places) in enumerate(results)]


def _by_player(doc: dict) -> dict:
    return {r["player"]: r for r in doc["ratings"]}


def test_a_player_who_beats_everyone_ranks_first():
    rng = random.Random(1)
    names = ["champ", "b", "c", "d", "e"]
    results = []
    for _ in range(60):
        a, b = rng.sample(names, 2)
        winner = "champ" if "champ" in (a, b) else rng.choice([a, b])
        results.append(([a, b], [1 if a == winner else 2, 1 if b == winner else 2]))
    doc = rate(_games(results))
    assert doc["ratings"][0]["player"] == "champ" and doc["ratings"][0]["rank"] == 1
    champ = _by_player(doc)["champ"]
    assert champ["losses"] == 0 and champ["wins"] == champ["games"] > 0


def test_uncertainty_shrinks_with_games():
    sigmas = [_by_player(rate(_games([(["a", "b"], [1 + (i % 2), 2 - (i % 2)]) for i in range(n)])))["a"]["sigma"]
              for n in (1, 4, 16, 64)]
    assert sigmas == sorted(sigmas, reverse=True) and sigmas[-1] < sigmas[0] / 2


def test_ties_and_shared_wins():
    """Two who share a place are moved alike; a shared win counts as shared, not as a win."""
    doc = rate(_games([(["a", "b", "c"], [1, 1, 3])] * 5, "tsuro"))
    a, b, c = (_by_player(doc)[n] for n in "abc")
    assert a["mu"] == b["mu"] > c["mu"] and a["shared"] == 5 and a["wins"] == 0 and c["losses"] == 5
    draws = rate(_games([(["x", "y"], [1, 1])] * 4))
    x, y = (_by_player(draws)[n] for n in "xy")
    assert x["mu"] == y["mu"] and x["shared"] == 4


def test_tsuro_places_are_the_winners_then_the_elimination_turns():
    tsuro = registry.get_game("tsuro").notation
    score = {"players": ["a", "b", "c", "d"], "winners": [2], "eliminated_turn": [9, 20, None, 9]}
    assert tsuro.seat_ranks(score) == [3, 2, 1, 3]
    shared = {"players": ["a", "b", "c"], "winners": [0, 2], "eliminated_turn": [35, 12, 35]}
    assert tsuro.seat_ranks(shared) == [1, 3, 1]


def test_a_drawn_triad_is_a_shared_place():
    goi = registry.get_game("game-of-islands").notation
    assert goi.seat_ranks({"totals": [17, 16], "margin": 1, "result": "1/2-1/2"}) == [1, 1]
    assert goi.seat_ranks({"totals": [15, 17], "margin": -2, "result": "0-1"}) == [2, 1]


def test_solo_games_get_a_summary_not_a_rating():
    games = [Result("tiny-islands", f"t{i}", "2026-01-01", ["p"], None, float(t)) for i, t in enumerate((60, 64, 68))]
    doc = rate(games)
    assert doc["ratings"] == []
    assert doc["solo"] == [{"game": "tiny-islands", "player": "p", "mean": 64.0, "stderr": 2.31, "best": 68.0,
                            "games": 3, "rank": 1}]


def _records() -> list[str]:
    """Texts of the bundled two-player and multi-player samples."""
    texts = []
    for folder in ("tsuro", "iwoki", "game-of-islands"):
        texts += [p.read_text() for p in sorted((SAMPLES / folder).glob("*.pgn"))]
    return texts


def test_the_same_archive_in_another_order_of_ingest_rates_the_same(tmp_path):
    from scorebook.records.store import Store
    texts = _records()
    docs = []
    for k, order in enumerate((texts, texts[::-1])):
        store = Store(str(tmp_path / f"{k}.db"))
        for t in order:
            ingest_text(store, t, "t.pgn", "pgn")
        docs.append(ratings(store))
    assert docs[0]["ratings"] == docs[1]["ratings"] and docs[0]["games"] == docs[1]["games"] > 5


def test_games_are_rated_in_the_order_played_by_their_date_tag(tmp_path):
    """Two records of one pairing, dated: ingested in either order, the later one counts last."""
    from scorebook.records.store import Store
    sample = (SAMPLES / "tsuro" / "tsuro-simple-random-s5-0001.pgn").read_text()
    first = sample.replace('[Game "tsuro"]', '[Game "tsuro"]\n[Date "2026.03.01"]')
    second = (SAMPLES / "tsuro" / "tsuro-simple-random-s5-0002.pgn").read_text().replace(
        '[Game "tsuro"]', '[Game "tsuro"]\n[Date "2026.01.01"]')
    docs = []
    for k, order in enumerate(((first, second), (second, first))):
        store = Store(str(tmp_path / f"{k}.db"))
        for t in order:
            ingest_text(store, t, "t.pgn", "pgn")
        docs.append(ratings(store, since="2026-01-01"))
    assert docs[0] == docs[1]
    assert ratings(Store(str(tmp_path / "0.db")), since="2026-02-01")["games"] == 1


def test_ratings_command_in_every_format(run_cli):
    cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    doc = cli_json(run_cli("ratings", "--json"))
    assert {r["game"] for r in doc["ratings"]} >= {"tsuro", "iwoki", "game-of-islands"}
    assert {r["game"] for r in doc["solo"]} >= {"tiny-islands"}
    table = run_cli("ratings", "--game", "tsuro")
    assert table.exit_code == 0 and "rating" in table.stdout and "games rated" in table.stdout
    csv_lines = run_cli("ratings", "--csv").stdout.splitlines()
    assert csv_lines[0].startswith("kind,game,rank,player,rating")
    assert {line.split(",")[0] for line in csv_lines[1:]} == {"rating", "solo"}
    assert all(json.loads(line)["kind"] in ("rating", "solo") for line in run_cli("ratings", "--nl").stdout.splitlines())
    assert run_cli("ratings", "--since", "last week").exit_code == 2


def test_the_ratings_table_shows_the_first_places_of_each_game_unless_told(run_cli):
    """A table of every player of a big archive is not read: the table shows the first places
    of each game (100) and says how many players it left out; --limit N and --limit 0 choose,
    and the other formats give every row unless told."""
    cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    every = cli_json(run_cli("ratings", "--json"))
    rows = every["ratings"] + every["solo"]
    top = [(r["game"], r["player"]) for r in rows if r["rank"] <= 2]
    assert 0 < len(top) < len(rows)
    limited = cli_json(run_cli("ratings", "--json", "--limit", "2"))
    assert [(r["game"], r["player"]) for r in limited["ratings"] + limited["solo"]] == top
    assert len(run_cli("ratings", "--nl", "--limit", "2").stdout.splitlines()) == len(top)
    table = run_cli("ratings", "--limit", "2").stdout
    assert table.splitlines()[-1].endswith(f"; {len(rows) - len(top)} players below the first 2 places of their "
                                           "game not shown: --limit N for more, --limit 0 for all")
    assert run_cli("ratings").stdout.splitlines()[-1] == run_cli("ratings", "--limit", "0").stdout.splitlines()[-1] \
        == f"{every['games']} games rated"  # no game of the samples has 100 players


def test_a_ladder_plays_every_pair_with_seats_rotating_and_rates_them(run_cli):
    doc = cli_json(run_cli("play", "iwoki", "--ladder", "random,greedy,minimax:1", "--games", "2", "--json"))
    assert len(doc["matches"]) == 3 and doc["games"] == 6  # three pairs, two games each
    rows = doc["ratings"]["ratings"]
    assert sorted(r["player"] for r in rows) == ["greedy", "minimax:1", "random"] and all(r["games"] == 4 for r in rows)


def test_a_ladder_seats_everyone_together_where_the_game_allows_and_plays_solo_games_alone(run_cli):
    doc = cli_json(run_cli("play", "tsuro", "--ladder", "random,simple,mc:2", "--games", "3", "--json"))
    assert len(doc["matches"]) == 1 and all(r["games"] == 3 for r in doc["ratings"]["ratings"])
    solo = cli_json(run_cli("play", "tiny-islands", "--ladder", "random,heuristic", "--games", "2", "--json"))
    assert [r["player"] for r in solo["ratings"]["solo"]] == ["heuristic", "random"]
    assert run_cli("play", "tsuro", "--ladder", "simple,simple").exit_code == 2
    assert run_cli("play", "tsuro", "--ladder", "simple,mc:2", "--players", "simple").exit_code == 2


def test_the_ratings_page_escapes_names_and_the_standings_page_has_a_ratings_section(run_cli, tmp_path):
    from scorebook.analyze.html import render_standings
    from scorebook.service.pages import ratings_page
    text = (SAMPLES / "iwoki" / "iwoki-minimax2-greedy-s5-0001.pgn").read_text()
    hostile = text.replace("minimax:2", "<script>alert(1)</script>", 1)
    cli_json(run_cli("ingest", "-", "--json", input=hostile))
    _, page = ratings_page(run_cli.db, None)  # (title, body): the site draws its page around it
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page and "<h2>iwoki</h2>" in page
    doc = {"event": "e", "tiebreaks": ["points"], "standings": [{"rank": 1, "player": "a", "points": 1}],
           "ratings": rate(_games([(["a", "b"], [1, 2])]))["ratings"]}
    assert "<h2>Ratings</h2>" in render_standings(doc)


@pytest.mark.parametrize("every", [None, 2])
def test_kept_ratings_equal_a_full_recomputation_as_records_arrive_out_of_date_order(tmp_path, monkeypatch, every):
    """Records stored one at a time, each followed by the update ingest makes, their dates
    shuffled (some before the latest rated): the kept ratings are exactly those of rating the
    whole archive again in order, and so is a rebuild; with checkpoints every two games too
    (a game rated again from the checkpoint before the one that arrived late)."""
    from scorebook.analyze import ratings as ratings_module
    from scorebook.analyze.ratings import rebuild, results, update
    if every:
        monkeypatch.setattr(ratings_module, "CHECKPOINT_EVERY", every)
    from scorebook.records.store import Store
    rng = random.Random(5)
    texts = [t.replace("\n\n", f'\n[Date "2026.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}"]\n\n', 1)
             if "[Date " not in t else t for t in _records() + [
                 p.read_text() for p in sorted((SAMPLES / "tiny-islands").glob("tiny-islands-*.pgn"))
                 + sorted((SAMPLES / "patchwork").glob("patchwork-best2-real*.pgn"))]]
    rng.shuffle(texts)
    store = Store(str(tmp_path / "kept.db"))
    for t in texts:
        games = {o["game"] for o in ingest_text(store, t, "t.pgn", "pgn") if o["status"] == "ingested"}
        update(store, sorted(games))
    full = rate(results(store))
    assert full["ratings"] and full["solo"]
    mark, rows = store.ratings_kept("tsuro")
    assert mark is not None and rows
    kept = ratings(store)
    assert kept["ratings"] == full["ratings"] and kept["solo"] == full["solo"]
    assert kept["games"] == len(results(store))
    before = {g.id: store.ratings_kept(g.id) for g in registry.games()}
    assert rebuild(store) == len(results(store))
    assert {g.id: store.ratings_kept(g.id) for g in registry.games()} == before


def test_kept_ratings_equal_a_full_recomputation_when_late_games_arrive_several_at_once(tmp_path, monkeypatch):
    """Records stored a few at a time, each batch followed by one update, their dates shuffled
    and some without a date (rated on the day they were stored): a game rated again from a
    checkpoint reads the results stored before the batch from the checkpoint's date and merges
    the batch's own in, and the kept ratings are exactly those of rating the archive again."""
    from scorebook.analyze import ratings as ratings_module
    from scorebook.analyze.ratings import results, update
    from scorebook.records.store import Store
    monkeypatch.setattr(ratings_module, "CHECKPOINT_EVERY", 3)
    monkeypatch.setattr(ratings_module, "RECENT_EVERY", 2)
    rng = random.Random(11)
    template = (SAMPLES / "tsuro" / "tsuro-simple-random-s5-0001.pgn").read_text()
    texts = [template.replace('[Round "1"]', f'[Round "{k}"]' if k % 5 == 0 else
                              f'[Date "2026.{rng.randint(1, 3):02d}.{rng.randint(1, 28):02d}"]\n[Round "{k}"]')
             for k in range(1, 31)]
    store = Store(str(tmp_path / "batches.db"))
    for start in range(0, len(texts), 4):
        for t in texts[start:start + 4]:
            ingest_text(store, t, "t.pgn", "pgn")
        update(store, ["tsuro"])
    chosen = results(store, "tsuro")
    assert len(chosen) == 30 and any(r.date > "2026-03-28" for r in chosen)  # the undated: today
    assert ratings(store, "tsuro")["ratings"] == rate(chosen)["ratings"]
    assert store.ratings_kept("tsuro")[0][2] == 30


def test_a_ladders_progress_counts_over_the_whole_ladder(run_cli):
    """One line a game, numbered through the ladder (three pairs of two games: 1/6 to 6/6),
    not from 1 again at each pairing."""
    result = run_cli("play", "iwoki", "--ladder", "random,greedy,minimax:1", "--games", "2")
    numbers = [line.split(":")[0] for line in result.stderr.splitlines() if line.startswith("game ")]
    assert numbers == [f"game {k}/6" for k in range(1, 7)]


def test_a_match_summary_counts_in_words():
    from scorebook.cli.bots import summary_line
    one = summary_line({"players": ["a", "b"], "wins": 1, "losses": 0, "draws": 0, "mean": 2.0, "stderr": None,
                        "games": 1})
    assert one == "a vs b: 1 win, 0 losses, 0 draws; mean margin +2.00 over 1 game"


def _ten_games_then_a_late_one(path, monkeypatch):
    """A store of ten Tsuro games dated in order, rated one by one with checkpoints every
    three, and the text of an eleventh dated between the seventh and the eighth."""
    from scorebook.analyze import ratings as ratings_module
    from scorebook.analyze.ratings import update
    from scorebook.records.store import Store
    monkeypatch.setattr(ratings_module, "CHECKPOINT_EVERY", 3)
    template = (SAMPLES / "tsuro" / "tsuro-simple-random-s5-0001.pgn").read_text()
    texts = [template.replace('[Round "1"]', f'[Date "2026.03.{day:02d}"]\n[Round "{day}"]')
             for day in (1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 14)]
    store = Store(str(path))
    for t in texts[:10]:
        ingest_text(store, t, "t.pgn", "pgn")
        update(store, ["tsuro"])
    return store, texts[10]


def test_a_late_game_is_rated_again_from_the_checkpoint_before_it(tmp_path, monkeypatch):
    """Ten Tsuro games in date order, checkpoints every three; then one dated between the
    seventh and the eighth: only the games after the sixth are rated again, and the ratings
    are those of rating all eleven in order."""
    from scorebook.analyze.ratings import Ledger, results, update
    store, late = _ten_games_then_a_late_one(tmp_path / "late.db", monkeypatch)
    applied = []
    real_apply = Ledger.apply
    monkeypatch.setattr(Ledger, "apply", lambda self, r: applied.append(r.date) or real_apply(self, r))
    ingest_text(store, late, "late.pgn", "pgn")
    update(store, ["tsuro"])
    assert sorted(applied) == ["2026-03-13", "2026-03-14", "2026-03-15", "2026-03-17", "2026-03-19"]
    assert ratings(store, "tsuro")["ratings"] == rate(results(store, "tsuro"))["ratings"]


def test_a_checkpoint_kept_as_objects_before_the_compact_form_still_rates_a_late_game(tmp_path, monkeypatch):
    """Checkpoints are kept as rows of values (``Ledger.snapshot``); an archive's checkpoints
    written before that, as the rows' objects, are read as well: a late game rated again from
    one gives the ratings of rating every game in order."""
    import json
    from scorebook.analyze.ratings import Ledger, results, update
    store, late = _ten_games_then_a_late_one(tmp_path / "old-checkpoints.db", monkeypatch)
    kept = store.db.execute("SELECT games, ledger FROM ratings_checkpoints WHERE game = 'tsuro'").fetchall()
    assert [n for n, _ in kept] == [3, 6, 9]
    for n, ledger in kept:  # as an older Scorebook wrote them
        compact = json.loads(ledger)
        assert set(compact) == {"ratings", "solo"} and compact["ratings"]
        old = Ledger()
        old.load(compact)
        store.db.execute("UPDATE ratings_checkpoints SET ledger = ? WHERE game = 'tsuro' AND games = ?",
                         [json.dumps(old.rows()), n])
    store.db.conn.commit()
    ingest_text(store, late, "late.pgn", "pgn")
    update(store, ["tsuro"])
    assert ratings(store, "tsuro")["ratings"] == rate(results(store, "tsuro"))["ratings"]


def test_recent_games_keep_dense_checkpoints_thinned_behind(tmp_path, monkeypatch):
    """Checkpoints every five games, and every two among the last six: after thirteen Tsuro
    games in date order, those kept are after 5, 8, 10 and 12 games (6 was thinned). One dated
    between the ninth and the tenth is rated again from the eighth, not from the fifth, and the
    ratings are those of rating all fourteen in order."""
    from scorebook.analyze import ratings as ratings_module
    from scorebook.analyze.ratings import Ledger, results, update
    from scorebook.records.store import Store
    monkeypatch.setattr(ratings_module, "CHECKPOINT_EVERY", 5)
    monkeypatch.setattr(ratings_module, "RECENT_EVERY", 2)
    monkeypatch.setattr(ratings_module, "RECENT_SPAN", 6)
    template = (SAMPLES / "tsuro" / "tsuro-simple-random-s5-0001.pgn").read_text()
    days = list(range(1, 27, 2)) + [18]
    texts = [template.replace('[Round "1"]', f'[Date "2026.03.{day:02d}"]\n[Round "{day}"]') for day in days]
    store = Store(str(tmp_path / "recent.db"))
    for t in texts[:13]:
        ingest_text(store, t, "t.pgn", "pgn")
        update(store, ["tsuro"])
    assert [n for n, _ in store.ratings_checkpoints("tsuro")] == [5, 8, 10, 12]
    applied = []
    real_apply = Ledger.apply
    monkeypatch.setattr(Ledger, "apply", lambda self, r: applied.append(r.date) or real_apply(self, r))
    ingest_text(store, texts[13], "late.pgn", "pgn")
    update(store, ["tsuro"])
    assert sorted(applied) == ["2026-03-17", "2026-03-18", "2026-03-19", "2026-03-21", "2026-03-23", "2026-03-25"]
    assert ratings(store, "tsuro")["ratings"] == rate(results(store, "tsuro"))["ratings"]
    assert [n for n, _ in store.ratings_checkpoints("tsuro")] == [5, 10, 12, 14]
