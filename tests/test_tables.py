"""Tables at a terminal's width: nothing cut, a short answer (an event's name) kept on one line
while a long one (eight players) wraps, a list of players broken after its slashes."""
from __future__ import annotations

from .conftest import ROOT

EIGHT = ROOT / "samples" / "tsuro" / ("tsuro-random-1-random-2-random-3-random-4-random-5-random-6-random-7-"
                                      "random-8-holder_first-s2-0001.pgn")


def test_list_at_100_columns_keeps_the_event_whole_and_wraps_the_players_after_their_slashes(run_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert run_cli("ingest", str(EIGHT.parent)).exit_code == 0  # beside records dated, of fewer players
    lines = run_cli("list").stdout.splitlines()
    assert max(len(line) for line in lines) <= 100 and not any("…" in line for line in lines)
    head = lines[0]
    first = next(k for k, line in enumerate(lines) if line.startswith(_id_of(run_cli)))
    after = lines[first + 1:]
    rows = [lines[first]] + after[:next((k for k, line in enumerate(after) if not line.startswith(" ")), len(after))]
    start, end = head.index("event"), head.index("players")
    events = [line[start:end].strip() for line in rows]
    assert events[0].startswith("scorebook play seed") and not any(events[1:])  # on the row's first line alone
    players = [line[end:head.index("score")].strip() for line in rows]
    assert all(p.endswith(" /") for p in players[:-1]) and not players[-1].endswith("/")
    assert " ".join(players) == " / ".join(f"random-{k}" for k in range(1, 9))


def _id_of(run_cli) -> str:
    import json
    rows = json.loads(run_cli("list", "--json").stdout)["records"]
    return next(r["id"] for r in rows if len(r["players"]) == 8)
