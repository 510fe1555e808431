"""The shared Game of Islands samples give exactly the results of expected-check.json, and
the small tournament ranks as expected-standings.json says."""
from __future__ import annotations

import json

import pytest

from ..conftest import SHARED, cli_json, shared_file

GOI = SHARED / "data" / "goi"


def expected():
    return json.loads(shared_file(GOI / "expected-check.json").read_text())


@pytest.mark.parametrize("name", ["article-fragment-invalid.pgn", "article-fragment.pgn", "greedy-10x10.pgn",
                                  "triad-clocks.pgn", "triad-timeout.pgn"])
def test_sample_matches_expected_check(run_cli, name):
    want = expected()[name]
    result = run_cli("ingest", str(GOI / name), "--json")
    doc = cli_json(result)
    records = {r["index"]: r for r in doc["records"]}
    in_triad = {i for t in want["triads"] for i in t["games"]}
    for game in want["games"]:
        if game["index"] in in_triad:
            continue
        got = records[game["index"]]
        if game["status"] == "invalid":
            assert got["status"] == "rejected"
            err = got["errors"][0]
            for key in ("code", "line", "column", "move", "ply", "token"):
                assert err[key] == game["error"][key], key
        else:
            assert got["status"] == "ingested"
            assert got["score"] == game["score"]
            assert got["finished"] == (game["status"] == "complete")
    for triad in want["triads"]:
        got = records[triad["games"][0]]
        assert got["status"] == "ingested"
        assert got["score"] == {"games": triad["scores"], "totals": triad["totals"], "margin": triad["margin"],
                                "result": triad["result"]}
    assert result.exit_code == (1 if name.endswith("invalid.pgn") else 0)


def test_the_article_fragment_is_rejected_at_b10_and_its_correction_ingests(run_cli):
    bad = cli_json(run_cli("ingest", str(shared_file(GOI / "article-fragment-invalid.pgn")), "--json"))
    err = bad["records"][0]["errors"][0]
    assert (err["code"], err["token"], err["move"]) == ("claim-used-dot", "B10", 6)
    good = cli_json(run_cli("ingest", str(GOI / "article-fragment.pgn"), "--json"))
    assert good["records"][0]["status"] == "ingested"


def test_small_tournament_standings(run_cli):
    path = shared_file(GOI / "tournament-small" / "tournament.json")
    want = json.loads((GOI / "tournament-small" / "expected-standings.json").read_text())
    assert cli_json(run_cli("standings", str(path), "--json")) == want
    csv = run_cli("standings", str(path), "--csv").output.splitlines()
    assert csv[0] == "rank,player,points,omb,p_zero,g_score,seniority,games,won,drawn,lost,matches"
    assert csv[1].startswith("1,Ann,2.5,39,0.0,95,2,3,2,1,0,")


def test_a_tournament_folder_ingests_with_its_tournament_and_ranks_by_event_and_by_folder(run_cli):
    folder = shared_file(GOI / "tournament-small")
    doc = cli_json(run_cli("ingest", str(folder), "--json"))
    # 4 triads of games.pgn, match 5's file, and the tournament's inline match 6
    assert doc["summary"] == {"ingested": 6, "duplicates": 0, "rejected": 0}
    tournaments = [(t["event"], t["matches"], t["players"]) for t in doc["tournaments"]]
    assert tournaments == [("Small sample round robin", 6, 4)]
    assert doc["skipped"] == [str(folder / "expected-standings.json")]  # JSON, but not a tournament file
    want = json.loads((folder / "expected-standings.json").read_text())
    assert cli_json(run_cli("standings", "Small sample round robin", "--json")) == want
    assert cli_json(run_cli("standings", str(folder), "--json")) == want
