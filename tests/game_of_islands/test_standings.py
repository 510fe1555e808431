"""Tournament standings: a hand-checked 6-player round robin whose order needs OMB, then
P-Zero, then G-score; shared ranks; seniority; the tournament file."""
from __future__ import annotations

import json

import pytest

from scorebook.analyze.standings import Match, standings, standings_from_file
from scorebook.engines.game_of_islands.engine import DEFAULT_TIEBREAKS, match_result
from scorebook.errors import UsageError
from scorebook.records.formats import is_tournament
from ..conftest import SAMPLES, cli_json

CHAIN = list(DEFAULT_TIEBREAKS)

# (first, second, first's total, second's total); margins from the first player's side
ROUND_ROBIN = [
    ("A", "B", 20, 20), ("A", "C", 24, 20), ("A", "D", 22, 18), ("A", "E", 17, 20), ("A", "F", 25, 20),
    ("B", "C", 23, 20), ("B", "D", 19, 19), ("B", "E", 21, 17), ("B", "F", 18, 17),
    ("C", "D", 20, 18), ("C", "E", 22, 18), ("C", "F", 16, 16),
    ("D", "E", 21, 18), ("D", "F", 19, 17),
    ("E", "F", 15, 15),
]


def matches():
    return [Match(f"{i + 1}.1", (a, b), (ta, tb), match_result(ta - tb)) for i, (a, b, ta, tb) in enumerate(ROUND_ROBIN)]


def test_hand_checked_round_robin():
    table = standings(list("ABCDEF"), matches(), CHAIN)["standings"]
    by = {r["player"]: r for r in table}
    # worked out by hand:
    # A and B have 3.5 points; OMB 10 against 8 puts A first.
    assert (by["A"]["points"], by["A"]["omb"], by["B"]["points"], by["B"]["omb"]) == (3.5, 10, 3.5, 8)
    # C and D have 2.5 points and OMB -1; C beat D (20-18), so P-Zero 1 against 0.
    assert (by["C"]["points"], by["C"]["omb"], by["D"]["points"], by["D"]["omb"]) == (2.5, -1, 2.5, -1)
    assert (by["C"]["p_zero"], by["D"]["p_zero"]) == (1.0, 0.0)
    # E and F have 1.5 points, OMB -8 and drew each other (P-Zero 0.5 each); G-score 88 against 85.
    assert (by["E"]["omb"], by["F"]["omb"], by["E"]["p_zero"], by["F"]["p_zero"]) == (-8, -8, 0.5, 0.5)
    assert (by["E"]["g_score"], by["F"]["g_score"]) == (88, 85)
    assert [r["player"] for r in table] == list("ABCDEF")
    assert [r["rank"] for r in table] == [1, 2, 3, 4, 5, 6]
    assert by["A"]["p_zero"] == 0.0  # alone once OMB has split A from B


def test_remaining_ties_share_a_rank_and_seniority_breaks_them_when_given():
    m = [Match("1", ("A", "B"), (10, 10), "1/2-1/2"), Match("2", ("C", "D"), (10, 10), "1/2-1/2")]
    table = standings(list("ABCD"), m, CHAIN)["standings"]
    assert [r["rank"] for r in table] == [1, 1, 1, 1]
    table = standings(list("ABCD"), m, CHAIN, seniority={"C": 1, "A": 2})["standings"]
    assert [(r["player"], r["rank"]) for r in table] == [("C", 1), ("A", 2), ("B", 3), ("D", 3)]


def test_the_chain_is_data():
    m = matches()
    out = standings(list("ABCDEF"), m, chain=["points", "g_score"])
    assert out["tiebreaks"] == ["points", "g_score"] and set(out["standings"][0]) == {"rank", "player", "points",
                                                                                         "g_score"}
    # by G-score alone A (108) stays ahead of B (101)
    assert [r["player"] for r in out["standings"]][:2] == ["A", "B"]


def test_tournament_file_errors(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"event": "x", "players": [{"name": "A"}], "tiebreaks": ["omb"]}))
    with pytest.raises(UsageError):
        standings_from_file(str(path))
    path.write_text("{not json")
    with pytest.raises(UsageError):
        standings_from_file(str(path))
    path.write_text(json.dumps({"event": "x", "players": [], "matches": [{"players": ["A", "B"], "file": "nope.pgn"}]}))
    with pytest.raises(UsageError):
        standings_from_file(str(path))


ROUND_ROBIN_DIR = SAMPLES / "game-of-islands" / "bot-round-robin"


def test_an_ingested_tournament_ranks_by_its_event_name_as_its_file_does(run_cli):
    path = str(ROUND_ROBIN_DIR / "tournament.json")
    doc = cli_json(run_cli("ingest", path, "--json"))
    assert doc["summary"] == {"ingested": 3, "duplicates": 0, "rejected": 0}
    assert [(t["event"], t["status"], t["matches"], t["players"]) for t in doc["tournaments"]] == \
        [("Scorebook bot round robin", "ingested", 3, 3)]
    by_file = cli_json(run_cli("standings", path, "--json"))
    assert cli_json(run_cli("standings", "Scorebook bot round robin", "--json")) == by_file
    assert [r["seniority"] for r in by_file["standings"]] == [1, 2, None]  # kept from the file
    again = cli_json(run_cli("ingest", path, "--json"))
    assert again["summary"]["duplicates"] == 3 and again["tournaments"][0]["status"] == "duplicate"


def test_a_tournament_keeps_its_inline_matches_and_later_matches_of_its_event_join(run_cli, tmp_path):
    files = sorted(ROUND_ROBIN_DIR.glob("*.pgn"))
    spec = json.loads((ROUND_ROBIN_DIR / "tournament.json").read_text())
    spec["matches"] = [{"players": ["greedy", "random"], "pgn": files[0].read_text()}]
    (tmp_path / "t.json").write_text(json.dumps(spec))
    doc = cli_json(run_cli("ingest", str(tmp_path / "t.json"), "--json"))
    assert [r["source"] for r in doc["records"]] == [f"{tmp_path / 't.json'}#matches[1]"]
    first = cli_json(run_cli("standings", spec["event"], "--json"))
    assert [m["match"] for m in first["matches"]] == ["22.1"]
    later = tmp_path / "later.pgn"  # a match played afterwards, under the tournament's Event tag
    later.write_text(files[1].read_text().replace("scorebook play seed 23", spec["event"]))
    cli_json(run_cli("ingest", str(later), "--json"))
    second = cli_json(run_cli("standings", spec["event"], "--json"))
    assert [m["match"] for m in second["matches"]] == ["22.1", "23.1"]
    assert second["tiebreaks"] == spec["tiebreaks"]
    assert {r["player"]: r["seniority"] for r in second["standings"]} == {"search": 1, "greedy": 2, "random": None}
    spec["players"][0]["seniority"] = 3  # the file changed: ingesting it again replaces what was kept
    (tmp_path / "t.json").write_text(json.dumps(spec))
    assert cli_json(run_cli("ingest", str(tmp_path / "t.json"), "--json"))["tournaments"][0]["status"] == "updated"
    third = cli_json(run_cli("standings", spec["event"], "--json"))
    assert {r["player"]: r["seniority"] for r in third["standings"]}["search"] == 3


def test_a_tournament_that_cannot_be_ranked_is_rejected_whole(run_cli, tmp_path):
    spec = json.loads((ROUND_ROBIN_DIR / "tournament.json").read_text())
    for m in spec["matches"]:
        m["file"] = str(ROUND_ROBIN_DIR / m["file"])
    spec["matches"][2]["players"] = ["search", "nobody"]  # not who played it
    (tmp_path / "t.json").write_text(json.dumps(spec))
    result = run_cli("ingest", str(tmp_path / "t.json"), "--json")
    doc = cli_json(result)
    assert result.exit_code == 1 and doc["summary"] == {"ingested": 0, "duplicates": 0, "rejected": 1}
    err = doc["records"][0]["errors"][0]
    assert (err["code"], err["line"], err["column"]) == ("bad-tournament", 1, 1) and "nobody" in err["message"]
    assert cli_json(run_cli("list", "--json"))["records"] == []  # none of its records either


def test_a_folder_ingests_the_tournament_files_it_holds_and_standings_takes_the_folder(run_cli, tmp_path):
    doc = cli_json(run_cli("ingest", str(SAMPLES / "game-of-islands"), "--json"))
    assert doc["summary"]["rejected"] == 0 and doc["summary"]["duplicates"] == 0  # its records once, not twice
    assert [(t["event"], t["status"]) for t in doc["tournaments"]] == [("Scorebook bot round robin", "ingested")]
    by_file = cli_json(run_cli("standings", str(ROUND_ROBIN_DIR / "tournament.json"), "--json"))
    assert cli_json(run_cli("standings", "Scorebook bot round robin", "--json")) == by_file
    assert cli_json(run_cli("standings", str(ROUND_ROBIN_DIR), "--json")) == by_file
    forced = cli_json(run_cli("ingest", "--format", "pgn", str(ROUND_ROBIN_DIR), "--json"))
    assert forced["tournaments"] == [] and forced["skipped"] == [str(ROUND_ROBIN_DIR / "tournament.json")]
    for name in ("none", "two"):
        (tmp_path / name).mkdir()
    for copy in ("a.json", "b.json"):
        (tmp_path / "two" / copy).write_text((ROUND_ROBIN_DIR / "tournament.json").read_text())
    for name, why in (("none", "no tournament file"), ("two", "2 tournament files")):
        result = run_cli("standings", str(tmp_path / name), "--json")
        assert result.exit_code == 2 and why in cli_json(result)["error"]["message"]


def test_only_a_tournament_is_taken_for_one(run_cli, tmp_path):
    """JSON with records or matches that are not sources (this tool's own outputs) is not a
    tournament file: a folder skips it."""
    cli_json(run_cli("ingest", str(ROUND_ROBIN_DIR / "tournament.json"), "--json"))
    outputs = {"standings.json": run_cli("standings", "Scorebook bot round robin", "--json").stdout,
               "list.json": run_cli("list", "--json").stdout,
               "tournament.json": (ROUND_ROBIN_DIR / "tournament.json").read_text()}
    assert [is_tournament(text, strict=True) for text in outputs.values()] == [False, False, True]
    folder = tmp_path / "outputs"
    folder.mkdir()
    for name in ("standings.json", "list.json"):
        (folder / name).write_text(outputs[name])
    doc = cli_json(run_cli("ingest", str(folder), "--json"))
    assert doc["tournaments"] == [] and doc["skipped"] == [str(folder / "list.json"), str(folder / "standings.json")]
    faulty = tmp_path / "faulty.json"  # named, a tournament is taken loosely: told what is wrong with it
    faulty.write_text(json.dumps({"event": "x", "matches": [{"players": ["A", "B"]}]}))
    err = cli_json(run_cli("ingest", str(faulty), "--json"))["records"][0]["errors"][0]
    assert err["code"] == "bad-tournament"


def test_a_tournament_file_read_as_records_says_what_it_is(run_cli):
    text = (ROUND_ROBIN_DIR / "tournament.json").read_text()
    result = run_cli("ingest", "-", "--json", input=text)  # on stdin its files cannot be found
    err = cli_json(result)["records"][0]["errors"][0]
    assert result.exit_code == 1 and (err["code"], err["line"], err["column"]) == ("tournament-file", 1, 1)
    assert "scorebook standings" in err["message"]


@pytest.mark.parametrize("spec, where", [
    ([], "expected a JSON object"),
    ({"event": 3, "records": ["a.pgn"]}, "event:"),
    ({"players": [{"name": "A", "seniority": True}], "records": ["a.pgn"]}, "players.0.seniority:"),
    ({"matches": [{"players": ["A", "B"]}]}, "matches.0: a match names its file or holds its pgn"),
    ({"matches": [{"file": "a.pgn", "players": ["A"]}]}, "matches.0.players:"),
    ({"event": "x"}, "it has no matches and no records"),
])
def test_a_malformed_tournament_file_says_where(tmp_path, spec, where):
    """The tournament file's schema (pydantic): the first fault, with its place in the file."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(spec))
    with pytest.raises(UsageError, match="not a tournament file") as caught:
        standings_from_file(str(path))
    assert where in str(caught.value)


def test_stored_matches_rank_from_what_their_replay_stored_without_a_second_walk(store, monkeypatch):
    """A stored triad's match comes from its stored row (its Match tag, players by seat, the
    totals its replay stored), the same as reading its text again gives, with its id; the
    standings of an event of stored matches walk no record."""
    from scorebook import registry
    from scorebook.analyze.standings import standings_from_store
    from scorebook.errors import STRICT
    from scorebook.records import replay
    from scorebook.records.ingest import ingest_text
    game = registry.get_game("game-of-islands")
    tournament = game.tournament
    for path in sorted((SAMPLES / "game-of-islands").rglob("*.pgn")):
        text = path.read_text()  # the triads under one event
        ingest_text(store, text.replace('[Event "', '[Event "Club night"]\n[Original "') if "Match" in text else text,
                    path.name)
    rows = store.event_rows("Club night", game.id)
    assert len(rows) >= 3
    for row in rows:
        read = game.notation.read_pgn(store.get(row["id"])["text"], STRICT)[0]
        assert tournament.stored_match(row) == tournament.match_of(read, "here", identify=True)
        assert tournament.stored_match(row).record == row["id"]
    walks = []
    original = replay.Replay.__init__
    monkeypatch.setattr(replay.Replay, "__init__", lambda self, *a, **k: walks.append(1) or original(self, *a, **k))
    ranked = standings_from_store(store, "Club night", links := {})
    assert walks == [] and len(ranked["matches"]) == len(rows) and set(links.values()) == {r["id"] for r in rows}


def test_standings_of_stored_matches_load_none_of_the_games_rules_or_bots(run_cli):
    """The standings of stored matches import no numba, no reader and no analysis: the
    command costs about what ``list`` does, on any archive."""
    import subprocess
    import sys
    triad = sorted(ROUND_ROBIN_DIR.glob("*.pgn"))[0]
    cli_json(run_cli("ingest", str(triad), "--json"))
    event = next(line.split('"')[1] for line in triad.read_text().splitlines() if line.startswith("[Event "))
    probe = ("import sys\nfrom scorebook.cli.main import main\n"
             "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m == 'numba' or m.startswith(('scorebook.engines.game_of_islands.',"
             " 'scorebook.records.game_of_islands', 'scorebook.analyze.game_of_islands')) ), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe, "--db", run_cli.db, "standings", event, "--json"],
                          capture_output=True, text=True, timeout=120)
    assert json.loads(done.stdout) == cli_json(run_cli("standings", event, "--json"))
    assert done.stderr.strip().splitlines()[-1] == "['scorebook.analyze.game_of_islands_tournament']"
