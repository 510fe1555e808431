"""Running a tournament from the CLI: create, join, pair, results from records as they arrive
(and the records that do not attach, saying why), the director's results, standings checked
against values computed by hand, TRF16 import and export, and bad input refused in one line
with nothing written."""
from __future__ import annotations

import json
import threading

import pytest

from scorebook.errors import UsageError
from scorebook.records.store import Store
from scorebook.tournaments import director

from .conftest import cli_json


def tables_of(run_cli, event):
    return cli_json(run_cli("tournament", "show", event, "--json"))["tables"]


def test_a_bot_swiss_runs_end_to_end_and_every_record_attaches(run_cli):
    assert run_cli("tournament", "create", "Bot Swiss", "--game", "iwoki", "--rounds", "3").exit_code == 0
    assert run_cli("tournament", "join", "Bot Swiss", "random", "greedy", "random-2", "greedy-2", "random-3").exit_code == 0
    for r in range(1, 4):
        doc = cli_json(run_cli("tournament", "pair", "Bot Swiss", "--json"))
        assert set(doc) == {"round", "tables", "byes"} and doc["round"] == r
        assert len(doc["tables"]) == 2 and len(doc["byes"]) == 1
        played = run_cli("tournament", "play", "Bot Swiss")
        assert played.output.count(f"attached to Bot Swiss round {r} table") == 2, played.output
    tables = tables_of(run_cli, "Bot Swiss")
    assert all(x["record"] for x in tables if x["kind"] == "game")
    first = next(x for x in tables if x["kind"] == "game")
    assert f"  result of: round 1, table {first['table']} of Bot Swiss" in run_cli("show", first["record"]).output
    assert len({x["seats"][0] for x in tables if x["kind"] == "bye"}) == 3  # one bye each, at most
    standing = cli_json(run_cli("standings", "Bot Swiss", "--json"))
    assert cli_json(run_cli("tournament", "standings", "Bot Swiss", "--json")) == standing  # one command, two names
    assert standing["tiebreaks"][:3] == ["points", "buchholz_cut1", "buchholz"]
    assert sum(r["points"] for r in standing["standings"]) == 3 * 2 + 3  # a point a game, a point a bye
    finished = run_cli("tournament", "pair", "Bot Swiss")
    assert finished.exit_code == 2 and "finished: all 3 rounds are paired" in finished.output


def director_event(run_cli, results):
    """Four players, three rounds of Swiss, every result entered by the director."""
    run_cli("tournament", "create", "Hand", "--game", "iwoki", "--rounds", "3")
    for name, rating in (("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700)):
        run_cli("tournament", "join", "Hand", name, "--rating", str(rating))
    rounds = []
    for r in range(1, 4):
        doc = cli_json(run_cli("tournament", "pair", "Hand", "--json"))
        rounds.append([x["players"] for x in doc["tables"]])
        for x in doc["tables"]:
            first, second = x["players"]
            outcome = results(first, second)
            assert run_cli("tournament", "result", "Hand", str(r), str(x["table"]), outcome).exit_code == 0
    return rounds


def test_standings_equal_the_tiebreaks_computed_by_hand(run_cli):
    strength = {"A": 4, "B": 3, "C": 2, "D": 1}

    def results(first, second):  # the stronger wins, but C and D draw
        if {first, second} == {"C", "D"}:
            return "1/2-1/2"
        return "1-0" if strength[first] > strength[second] else "0-1"
    rounds = director_event(run_cli, results)
    met = {p: [] for p in "ABCD"}
    for tables in rounds:
        for a, b in tables:
            met[a].append(b)
            met[b].append(a)
    assert all(sorted(v) == sorted(set("ABCD") - {p}) for p, v in met.items())  # 4 players, 3 rounds: all met
    # by hand: A 3, B 2, C 0.5, D 0.5; Buchholz = the others' points; SB = points times each beaten opponent's
    doc = cli_json(run_cli("standings", "Hand", "--json"))
    assert all(set(r) == {"rank", "player", *doc["tiebreaks"]} for r in doc["standings"])  # the contract's rows
    assert doc["games"]["A"] == {"games": 3, "won": 3, "drawn": 0, "lost": 0}
    rows = {r["player"]: r for r in doc["standings"]}
    assert [r["player"] for r in doc["standings"][:2]] == ["A", "B"]
    assert [rows[p]["points"] for p in "ABCD"] == [3.0, 2.0, 0.5, 0.5]
    assert [rows[p]["buchholz"] for p in "ABCD"] == [3.0, 4.0, 5.5, 5.5]
    assert [rows[p]["buchholz_cut1"] for p in "ABCD"] == [2.5, 3.5, 5.0, 5.0]
    assert [rows[p]["sonneborn_berger"] for p in "ABCD"] == [3.0, 1.0, 0.25, 0.25]
    assert rows["C"]["rank"] == rows["D"]["rank"] == 3  # tied on everything, the direct encounter a draw
    assert [rows[p]["wins"] for p in "ABCD"] == [3, 2, 0, 0]


def test_pair_refuses_while_a_table_has_no_result_naming_it(run_cli):
    run_cli("tournament", "create", "Open", "--game", "iwoki", "--rounds", "2")
    run_cli("tournament", "join", "Open", "A", "B", "C", "D")
    run_cli("tournament", "pair", "Open")
    run_cli("tournament", "result", "Open", "1", "1", "1-0")
    refused = run_cli("tournament", "pair", "Open")
    assert refused.exit_code == 2
    assert refused.output.strip() == ("scorebook: Open: round 1 has no result yet at table(s) 2 "
                                      "(pair --force to pair anyway)")
    assert cli_json(run_cli("tournament", "pair", "Open", "--force", "--json"))["round"] == 2


def test_records_for_no_table_other_players_or_a_second_time_are_stored_not_attached(run_cli, tmp_path):
    run_cli("tournament", "create", "Cup", "--game", "iwoki", "--rounds", "1")
    run_cli("tournament", "join", "Cup", "random", "greedy")
    table = cli_json(run_cli("tournament", "pair", "Cup", "--json"))["tables"][0]
    store = Store(run_cli.db)
    from scorebook.records.play import play_seated
    seats = [(name, name) for name in table["players"]]
    first = play_seated(store, "iwoki", seats, {}, seed=1, tags={"Event": "Cup", "Round": "1"})
    assert first["tournament"] == "attached to Cup round 1 table 1"
    again = play_seated(store, "iwoki", seats, {}, seed=2, tags={"Event": "Cup", "Round": "1"})
    assert again["status"] == "ingested"
    assert again["tournament"] == f"not attached to Cup: round 1 table 1 already has record {first['id']}"
    other = play_seated(store, "iwoki", [("random-2", "random"), ("greedy", "greedy")], {}, seed=3,
                        tags={"Event": "Cup", "Round": "1", "Table": "1"})
    assert other["tournament"] == ("not attached to Cup: round 1 table 1 (seats " + ", ".join(table["players"])
                                   + ") is not random-2 / greedy's")
    later = play_seated(store, "iwoki", seats, {}, seed=4, tags={"Event": "Cup", "Round": "2"})
    assert later["tournament"] == "not attached to Cup: round 2 is not paired"
    assert [x["record"] for x in tables_of(run_cli, "Cup")] == [first["id"]]


def test_a_table_short_of_its_size_is_paired_and_one_player_is_too_few(run_cli):
    run_cli("tournament", "create", "Few", "--game", "tsuro", "--format", "tables", "--table-size", "4",
            "--rounds", "1")
    run_cli("tournament", "join", "Few", "A", "B", "C")
    assert [x["players"] for x in cli_json(run_cli("tournament", "pair", "Few", "--json"))["tables"]] == [["A", "B", "C"]]
    run_cli("tournament", "create", "One", "--game", "iwoki", "--rounds", "1")
    run_cli("tournament", "join", "One", "A")
    refused = run_cli("tournament", "pair", "One")
    assert refused.exit_code == 2 and "1 player(s) to pair in round 1: too few" in refused.output


def test_tables_and_a_duplicate_event_rank_by_their_points(run_cli):
    run_cli("tournament", "create", "Night", "--game", "tsuro", "--format", "tables", "--table-size", "3",
            "--rounds", "1", "--placement", "3,1,0")
    run_cli("tournament", "join", "Night", "A", "B", "C", "D", "E", "F")
    doc = cli_json(run_cli("tournament", "pair", "Night", "--json"))
    assert [len(x["players"]) for x in doc["tables"]] == [3, 3]
    run_cli("tournament", "result", "Night", "1", "1", "1,2,3")
    assert "places in seat order" in run_cli("tournament", "result", "Night", "1", "2", "2,1,1").output
    run_cli("tournament", "result", "Night", "1", "2", "3,1,1")  # two share first: (3+1)/2 each
    rows = {r["player"]: r for r in cli_json(run_cli("standings", "Night", "--json"))["standings"]}
    t1, t2 = doc["tables"][0]["players"], doc["tables"][1]["players"]
    assert [rows[p]["points"] for p in t1] == [3.0, 1.0, 0.0]
    assert [rows[p]["points"] for p in t2] == [0.0, 2.0, 2.0]
    assert rows[t1[0]]["opponents_points"] == 1.0

    run_cli("tournament", "create", "Solo", "--game", "tiny-islands", "--rounds", "2")
    run_cli("tournament", "join", "Solo", "random", "heuristic")
    for r in (1, 2):
        run_cli("tournament", "pair", "Solo")
        assert run_cli("tournament", "play", "Solo").output.count("attached") == 2
    tables = tables_of(run_cli, "Solo")
    for r in (1, 2):  # every table of a round plays the same deal
        assert len({x["deal"] for x in tables if x["round"] == r}) == 1
    ranked = cli_json(run_cli("standings", "Solo", "--json"))["standings"]
    totals = {p: sum(x["scores"][0] for x in tables if x["seats"] == [p]) for p in ("random", "heuristic")}
    assert {r["player"]: r["points"] for r in ranked} == totals


def player_line(number, name, rating, points, rank, *blocks):
    """A TRF16 player line: number in columns 5-8, name 15-47, rating 49-52, points 81-84,
    rank 86-89, the rounds from column 92, ten columns each."""
    head = f"001 {number:4d}      {name:<33} {rating:4d}" + " " * 28 + f"{points:4.1f} {rank:4d}"
    return head + "".join("  " + b for b in blocks)


def trf_file(folder, name: str, *lines: str):
    """A TRF16 file of these lines in ``folder``: its path."""
    path = folder / name
    path.write_text("\n".join(lines) + "\n")
    return path


TRF = "\n".join(["012 Autumn Open", "XXR 3", "XXC white1",
                 player_line(1, "Ann", 1900, 1.5, 1, "   2 w 1", "0000 - Z"),
                 player_line(2, "Bob", 1800, 0.0, 3, "   1 b 0", "   3 w 0"),
                 player_line(3, "Cyd", 1700, 2.0, 1, "0000 - U", "   2 b 1")]) + "\n"


def test_trf_import_reads_players_rounds_and_absences_and_export_round_trips(run_cli, tmp_path):
    path = tmp_path / "open.trf"
    path.write_text(TRF.replace("1.5", "1.0"))
    done = run_cli("tournament", "import", str(path), "--game", "patchwork")
    assert done.exit_code == 0, done.output
    assert "imported Autumn Open: 3 players, 2 of 3 rounds played" in done.output
    again = run_cli("tournament", "import", str(path), "--game", "patchwork")
    assert again.exit_code == 0 and "already imported, unchanged: Autumn Open" in again.output
    path.with_name("other.trf").write_text(TRF.replace("1.5", "1.0").replace("Cyd", "Cy "))
    other = run_cli("tournament", "import", str(path.with_name("other.trf")), "--game", "patchwork")
    assert other.exit_code == 2 and "exists already, not as this file has it" in other.output
    show = cli_json(run_cli("tournament", "show", "Autumn Open", "--json"))
    assert show["options"]["variant"] == "two-player" and show["rounds"] == 3
    assert [(x["round"], x["seats"], x["kind"]) for x in show["tables"]] == [
        (1, ["Ann", "Bob"], "game"), (1, ["Cyd"], "bye"), (2, ["Bob", "Cyd"], "game"), (2, ["Ann"], "absent")]
    rows = {r["player"]: r["points"] for r in cli_json(run_cli("standings", "Autumn Open", "--json"))["standings"]}
    assert rows == {"Ann": 1.0, "Bob": 0.0, "Cyd": 2.0}
    exported = run_cli("tournament", "export", "Autumn Open")
    again = director.trf.read(exported.stdout, "patchwork")
    assert [(x.round, x.seats, x.kind, x.places) for x in again.tables] == \
        [(x["round"], x["seats"], x["kind"], x["places"]) for x in show["tables"]]
    assert "trf drops the game and its options" in exported.stderr
    assert cli_json(run_cli("tournament", "pair", "Autumn Open", "--json"))["round"] == 3
    pending = director.trf.read(run_cli("tournament", "export", "Autumn Open").stdout, "patchwork")
    assert [x.places for x in pending.round_tables(3) if x.kind == "game"] == [None]  # no result yet, not a draw
    now = {r["player"]: r["points"] for r in cli_json(run_cli("standings", "Autumn Open", "--json"))["standings"]}
    assert director.standings.totals(pending) == now  # the bye of round 3 counted, its game not


@pytest.mark.parametrize("text,message", [
    (TRF, "Ann: the points say 1.5, the results add up to 1"),
    (TRF.replace("3 w 0", "3 w 1").replace("1.5", "1.0"), "round 2: Bob (w 1) and Cyd (b 1) do not agree"),
    (TRF.replace("XXR 3", "XXR 1").replace("1.5", "1.0"), "2 rounds played but XXR plans 1"),
    ("012 x\n", "no player lines (001): not a TRF16 file"),
])
def test_an_inconsistent_trf_is_one_line_and_nothing_written(run_cli, tmp_path, text, message):
    path = tmp_path / "bad.trf"
    path.write_text(text)
    refused = run_cli("tournament", "import", str(path), "--game", "iwoki")
    assert refused.exit_code == 2
    assert refused.output.count("\n") == 1 and message in refused.output
    assert run_cli("tournament", "show", "Autumn Open").exit_code == 1


@pytest.mark.parametrize("args,message", [
    (("tournament", "create", "X", "--game", "chess", "--rounds", "3"), "chess"),
    (("tournament", "create", "X", "--game", "tiny-islands", "--format", "swiss", "--rounds", "3"),
     "tiny-islands seats 1 to 1 players: no swiss tournament"),
    (("tournament", "create", "X", "--game", "iwoki"), "needs its rounds"),
    (("tournament", "join", "Club", "A"), "Club: A joined already"),
    (("tournament", "withdraw", "Club", "A", "--round", "9"), "round 9 is not a round still to pair"),
    (("tournament", "result", "Club", "1", "1", "2-0"), "a result of two seats is one of"),
    (("tournament", "pair", "Nowhere"), "no tournament named 'Nowhere'"),
])
def test_bad_input_is_one_line_with_its_exit_code_and_nothing_written(run_cli, args, message):
    run_cli("tournament", "create", "Club", "--game", "iwoki", "--rounds", "2")
    run_cli("tournament", "join", "Club", "A", "B")
    run_cli("tournament", "pair", "Club")
    before = run_cli("tournament", "show", "Club", "--json").stdout
    refused = run_cli(*args)
    assert refused.exit_code in (1, 2) and "Traceback" not in refused.output
    assert refused.output.strip().count("\n") == 0 and message in refused.output, refused.output
    assert run_cli("tournament", "show", "Club", "--json").stdout == before


def test_two_directors_pairing_at_once_make_one_round(run_cli):
    run_cli("tournament", "create", "Race", "--game", "iwoki", "--rounds", "3")
    run_cli("tournament", "join", "Race", "A", "B", "C", "D")
    answers, barrier = [], threading.Barrier(2)

    def pair():
        store = Store(run_cli.db)
        barrier.wait()
        try:
            answers.append(director.pair(store, "Race")["round"])
        except UsageError as err:  # the second waited for the first, then found round 1 open
            answers.append(str(err))
    threads = [threading.Thread(target=pair) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(answers, key=str) == [1, "Race: round 1 has no result yet at table(s) 1, 2 (pair --force to pair anyway)"]
    assert {x["round"] for x in tables_of(run_cli, "Race")} == {1}
    assert json.loads(run_cli("tournament", "show", "Race", "--json").stdout)["paired"] == 1


@pytest.mark.parametrize("game,bots,extra", [
    ("game-of-islands", ["random", "greedy", "random-2", "greedy-2"], []),
    ("patchwork", ["random", "vbrz", "random-patch", "vbrz-2"], []),
    ("tsuro", ["random", "simple", "random-2", "simple-2"], []),
    ("tsuro", ["random", "simple", "random-2", "simple-2", "random-3", "simple-3", "random-4"],
     ["--format", "tables", "--table-size", "4"]),
])
def test_a_bot_tournament_of_every_game_runs_end_to_end(run_cli, game, bots, extra):
    run_cli("tournament", "create", "E", "--game", game, "--rounds", "2", *extra)
    run_cli("tournament", "join", "E", *bots)
    for r in (1, 2):
        doc = cli_json(run_cli("tournament", "pair", "E", "--json"))
        played = run_cli("tournament", "play", "E")
        assert played.output.count(f"attached to E round {r}") == len(doc["tables"]), played.output
    rows = cli_json(run_cli("standings", "E", "--json"))["standings"]
    tables = tables_of(run_cli, "E")
    by_hand = {b: 0.0 for b in bots}
    for x in tables:
        for name, points in zip(x["seats"], x["points"]):
            by_hand[name] += points
    assert {r["player"]: r["points"] for r in rows} == by_hand
    assert [r["points"] for r in rows] == sorted(by_hand.values(), reverse=True)


def test_the_standings_page_links_each_result_to_its_record_and_escapes_every_name(run_cli, tmp_path):
    run_cli("tournament", "create", "<b>Cup</b>", "--game", "iwoki", "--rounds", "1")
    run_cli("tournament", "join", "<b>Cup</b>", "random", "greedy", "--rating", "2000")
    run_cli("tournament", "join", "<b>Cup</b>", "<script>alert(1)</script>", "--rating", "1000")
    assert cli_json(run_cli("tournament", "pair", "<b>Cup</b>", "--json"))["byes"] == ["<script>alert(1)</script>"]
    run_cli("tournament", "play", "<b>Cup</b>")
    record = next(x["record"] for x in tables_of(run_cli, "<b>Cup</b>") if x["record"])
    page = tmp_path / "cup.html"
    assert run_cli("standings", "<b>Cup</b>", "--html", str(page), "--archive", "https://club.example/").exit_code == 0
    text = page.read_text()
    assert "<script>alert" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<b>Cup" not in text
    assert f"<a href='https://club.example/-/scorebook/record/{record}'>record</a>" in text


def test_trf_with_its_own_points_and_a_game_not_yet_played(run_cli, tmp_path):
    path = trf_file(tmp_path, "f.trf", "012 Football Rules", "XXR 3", "XXS W=3 D=1 L=0",
                    player_line(1, "Ann", 1900, 3.0, 1, "   2 w 1", "   3 b  "),
                    player_line(2, "Bob", 1800, 3.0, 2, "   1 b 0", "0000 - U"),  # the bye: a win's 3
                    player_line(3, "Cyd", 1700, 0.0, 2, "0000 - Z", "   1 w  "))
    assert run_cli("tournament", "import", str(path), "--game", "iwoki").exit_code == 0
    tables = tables_of(run_cli, "Football Rules")
    assert [(x["round"], x["seats"], x["kind"], x["places"]) for x in tables] == [
        (1, ["Ann", "Bob"], "game", [1, 2]), (1, ["Cyd"], "absent", None),
        (2, ["Cyd", "Ann"], "game", None), (2, ["Bob"], "bye", None)]
    refused = run_cli("tournament", "pair", "Football Rules")
    assert "round 2 has no result yet at table(s) 1" in refused.output
    rows = {r["player"]: r["points"] for r in cli_json(run_cli("standings", "Football Rules", "--json"))["standings"]}
    assert rows == {"Ann": 3.0, "Bob": 3.0, "Cyd": 0.0}  # the file's points: a win 3
    exported = run_cli("tournament", "export", "Football Rules").stdout
    assert "XXS W=3.0 D=1.0 L=0.0 PAB=3.0" in exported


def test_trf_keeps_its_own_starting_numbers_and_its_unpaired_points(run_cli, tmp_path):
    """Starting numbers as the file gives them (not re-sorted by rating): player 1 takes the first
    seat in round 1 (XXC white1); a requested half-point bye (H) and a point with no one met
    ("0000 - +") count."""
    path = trf_file(tmp_path, "n.trf", "012 Numbers", "XXR 2", "XXC white1",
                    player_line(1, "Low", 1000, 0.5, 2, "0000 - H"),
                    player_line(2, "High", 2400, 1.0, 1, "0000 - +"),
                    player_line(3, "Mid", 1800, 0.0, 3, "0000 - Z"),
                    player_line(4, "Top", 2500, 0.0, 4, "0000 - Z"))
    assert run_cli("tournament", "import", str(path), "--game", "iwoki").exit_code == 0
    rows = {r["player"]: r["points"] for r in cli_json(run_cli("standings", "Numbers", "--json"))["standings"]}
    assert rows == {"Low": 0.5, "High": 1.0, "Mid": 0.0, "Top": 0.0}
    exported = run_cli("tournament", "export", "Numbers").stdout
    assert [line[14:47].strip() for line in exported.splitlines() if line.startswith("001")] == ["Low", "High", "Mid", "Top"]


def test_standings_of_a_tournament_need_no_web_extra(run_cli, tmp_path):
    """``standings EVENT --html`` imported the service (Datasette) for a route's name: without
    the web extra it was a traceback."""
    import subprocess
    import sys
    run_cli("tournament", "create", "Plain", "--game", "iwoki", "--rounds", "1")
    run_cli("tournament", "join", "Plain", "A", "B")
    script = ("import sys; sys.modules['datasette'] = None\n"
              "from scorebook.cli.main import main\n"
              f"main(['--db', {run_cli.db!r}, 'standings', 'Plain', '--html', {str(tmp_path / 'p.html')!r}, "
              "'--archive', 'http://club'])")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "Plain" in done.stdout and (tmp_path / "p.html").exists()


def test_a_trf_block_past_the_rounds_played_is_an_absence_for_the_round_to_pair(run_cli, tmp_path):
    """javafo's way to say who sits out the next round: a ``0000 - Z`` (or H) block in its column
    for those players alone. That round is not played: it is paired without them."""
    path = trf_file(tmp_path, "s.trf", "012 Sit Out", "XXR 3", "XXC white1",
                    player_line(1, "Ann", 1900, 1.0, 1, "   2 w 1", "0000 - Z"),
                    player_line(2, "Bob", 1800, 0.0, 4, "   1 b 0"),
                    player_line(3, "Cyd", 1700, 1.0, 2, "   4 w 1"),
                    player_line(4, "Dan", 1600, 0.0, 3, "   3 b 0"),
                    player_line(5, "Eve", 1500, 1.0, 5, "0000 - U"))
    done = run_cli("tournament", "import", str(path), "--game", "iwoki")
    assert done.exit_code == 0 and "1 of 3 rounds played" in done.output, done.output
    paired = cli_json(run_cli("tournament", "pair", "Sit Out", "--json"))
    assert paired["round"] == 2 and paired["byes"] == []
    assert sorted(p for x in paired["tables"] for p in x["players"]) == ["Bob", "Cyd", "Dan", "Eve"]


def test_a_round_robin_gives_the_opponent_of_a_withdrawn_player_a_bye(run_cli):
    run_cli("tournament", "create", "RR", "--game", "iwoki", "--format", "round-robin")
    run_cli("tournament", "join", "RR", "A", "B", "C", "D")
    first = cli_json(run_cli("tournament", "pair", "RR", "--json"))
    assert len(first["tables"]) == 2 and first["byes"] == []
    for x in first["tables"]:
        run_cli("tournament", "result", "RR", "1", str(x["table"]), "1-0")
    run_cli("tournament", "withdraw", "RR", "D")
    second = cli_json(run_cli("tournament", "pair", "RR", "--json"))
    assert len(second["tables"]) == 1 and len(second["byes"]) == 1
    shown = cli_json(run_cli("tournament", "show", "RR", "--json"))
    assert shown["rounds"] == 3
    seated = sorted(s for x in shown["tables"] if x["round"] == 2 for s in x["seats"])
    assert seated == ["A", "B", "C"]  # D, withdrawn, has no table; its opponent a bye worth 0 here
    assert [x["points"] for x in shown["tables"] if x["round"] == 2 and x["kind"] == "bye"] == [[0.0]]
