"""The CLI contract (shared/specs/cli.md): JSON documents, exit codes, one-line errors."""
from __future__ import annotations

import json

from scorebook.records import tinybot

from .conftest import SAMPLES, cli_json
from .tiny_islands.conftest import random_record, random_tinybot_line


def test_ingest_file_dir_and_stdin(run_cli, tmp_path):
    (tmp_path / "d" / "sub").mkdir(parents=True)
    (tmp_path / "d" / "sub" / "a.txt").write_text(random_tinybot_line(1) + "\n")
    (tmp_path / "d" / "b.pgn").write_text(
        __import__("records.tiny_islands", fromlist=["x"]).write_pgn(random_record(2)))
    (tmp_path / "d" / "notes.md").write_text("not a record")  # skipped: not a record suffix
    doc = cli_json(run_cli("ingest", str(tmp_path / "d"), "--json"))
    assert doc["summary"] == {"ingested": 2, "duplicates": 0, "rejected": 0}
    assert {r["source"].rsplit("/", 1)[-1] for r in doc["records"]} == {"a.txt", "b.pgn"}
    result = run_cli("ingest", "-", "--json", input=random_tinybot_line(3) + "\n")
    doc = cli_json(result)
    assert result.exit_code == 0 and doc["records"][0]["source"] == "<stdin>"
    assert doc["records"][0]["status"] == "ingested"


def test_rejections_exit_1_with_position_and_no_traceback(run_cli, tmp_path):
    bad = tmp_path / "bad.txt"
    parts = random_tinybot_line(4).split(" ")
    parts[5] = "Zq9"
    bad.write_text(random_tinybot_line(5) + "\n" + " ".join(parts) + "\n")
    result = run_cli("ingest", str(bad), "--json")
    assert result.exit_code == 1
    doc = cli_json(result)
    assert doc["summary"] == {"ingested": 1, "duplicates": 0, "rejected": 1}
    rec = doc["records"][1]
    assert rec["index"] == 2 and rec["status"] == "rejected" and rec["game"] == "tiny-islands"
    err = rec["errors"][0]
    assert set(err) >= {"line", "column", "ply", "token", "code", "message"}
    assert (err["line"], err["ply"], err["token"], err["code"]) == (2, 3, "Zq9", "bad-token")
    plain = run_cli("ingest", str(bad))
    assert plain.exit_code == 1 and "Traceback" not in plain.output
    assert f"{bad}:2:" in plain.stderr and "bad-token" in plain.stderr


def test_usage_errors_exit_2(run_cli):
    result = run_cli("ingest", "/no/such/file")
    assert result.exit_code == 2 and "no such file" in result.stderr and "Traceback" not in result.output
    assert run_cli("ingest").exit_code == 2
    assert run_cli("play", "tiny-islands", "--players", "nobody").exit_code == 2


def test_a_record_not_there_is_a_failed_check_exit_1(run_cli):
    """cli.md: 1 for a check that failed, 2 for usage; an id that names no record is the first."""
    cli_json(run_cli("ingest", "-", "--json", input=random_tinybot_line(3) + "\n"))
    for command in (("show", "ffffffff"), ("export", "ffffffff"), ("analyze", "ffffffff")):
        result = run_cli(*command)
        assert result.exit_code == 1 and result.stderr.strip() == "scorebook: no record with id ffffffff"
    long = run_cli("show", "9" * 5000)
    assert long.exit_code == 1 and len(long.stderr) < 200  # the token cut to a bound


def test_list_show_export(run_cli, tmp_path):
    line = random_tinybot_line(6)
    path = tmp_path / "one.txt"
    path.write_text(line + "\n")
    rid = cli_json(run_cli("ingest", str(path), "--json"))["records"][0]["id"]
    listed = cli_json(run_cli("list", "--json", "--game", "tiny-islands"))["records"]
    assert [r["id"] for r in listed] == [rid] and listed[0]["players"] == []  # a TinyBot line names no one
    shown = cli_json(run_cli("show", rid[:8], "--json"))
    assert len(shown["moves"]) == 29 and shown["moves"][-1]["ply"] == 29
    last = shown["moves"][-1]["state"]
    assert len(last["tiles"]) == 9 and all(len(r) == 9 for r in last["land"])
    assert sum(r.count("#") for r in last["land"]) > 0
    text = run_cli("show", rid).output
    assert "ply 29" in text and "score:" in text
    assert run_cli("export", rid, "--format", "tinybot").output == line + "\n"
    pgn = run_cli("export", rid).output
    again = cli_json(run_cli("ingest", "-", "--json", input=pgn))
    assert again["records"][0]["status"] == "duplicate" and again["records"][0]["id"] == rid
    exported = cli_json(run_cli("export", rid, "--json"))
    assert exported["format"] == "pgn" and exported["text"] == pgn


def test_an_export_in_scorebook_notation_loads_none_of_the_games_code(run_cli):
    """Scorebook notation is the stored canonical text: exporting it imports no game's reader,
    rules or numba (0.7 s of what the command cost); another format reads the record."""
    import subprocess
    import sys
    line = random_tinybot_line(6)
    rid = cli_json(run_cli("ingest", "-", "--json", input=line + "\n"))["records"][0]["id"]
    probe = ("import sys\nfrom scorebook.cli.main import main\n"
             "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "print(sorted({m.split('.')[0] if m.startswith('numba') else m for m in sys.modules\n"
             "              if m.startswith(('numba', 'scorebook.engines.tiny_islands.engine',\n"
             "                               'scorebook.records.tiny_islands'))}),"
             " file=sys.stderr)")

    def loaded(*args):
        done = subprocess.run([sys.executable, "-c", probe, "--db", run_cli.db, *args], capture_output=True,
                              text=True, timeout=120)
        return done.stdout, done.stderr.strip().splitlines()[-1]
    text, modules = loaded("export", rid)
    assert text == run_cli("export", rid).output and modules == "[]"
    text, modules = loaded("export", rid, "--format", "tinybot")
    assert text == line + "\n"
    assert all(m in modules for m in ("numba", "engines.tiny_islands.engine", "records.tiny_islands"))


def test_play_random_stores_games(run_cli, tmp_path):
    result = run_cli("play", "tiny-islands", "--players", "random", "--games", "3", "--seed", "9",
                     "--json", "--out", str(tmp_path / "out"))
    doc = cli_json(result)
    assert len(doc["games"]) == 3 and all(g["status"] == "ingested" for g in doc["games"])
    assert doc["mean"] == sum(g["score"]["total"] for g in doc["games"]) / 3
    assert len(list((tmp_path / "out").glob("*.pgn"))) == 3
    # the same seed gives the same games: all duplicates
    again = cli_json(run_cli("play", "tiny-islands", "--players", "random", "--games", "3", "--seed", "9", "--json"))
    assert [g["status"] for g in again["games"]] == ["duplicate"] * 3


def test_play_on_given_shuffles(run_cli, tmp_path):
    shuffles = tmp_path / "shuffles.txt"
    lines = [random_tinybot_line(s) for s in (11, 12)]
    shuffles.write_text("\n".join(lines) + "\n")
    doc = cli_json(run_cli("play", "tiny-islands", "--players", "random", "--shuffles", str(shuffles), "--json"))
    assert len(doc["games"]) == 2
    for game, line in zip(doc["games"], lines):
        shown = cli_json(run_cli("show", game["id"], "--json"))
        offers = [m["move"].split()[1] for m in shown["moves"] if not m["move"].startswith("(")]
        original = tinybot.parse_line(line)
        assert offers == [o.text() for o in original.offers]


def test_db_from_environment(tmp_path, monkeypatch):
    from click.testing import CliRunner
    from scorebook.cli.main import main
    monkeypatch.setenv("SCOREBOOK_DB", str(tmp_path / "env.db"))
    # a command that only reads never creates a database (a typo in --db is not an empty archive)
    result = CliRunner().invoke(main, ["list", "--json"])
    assert result.exit_code == 2 and "no database at" in result.stderr and not (tmp_path / "env.db").exists()
    CliRunner().invoke(main, ["ingest", "-"], input=random_tinybot_line(3) + "\n")
    assert len(json.loads(CliRunner().invoke(main, ["list", "--json"]).stdout)["records"]) == 1


def test_tables_fit_the_terminal_and_never_cut_the_answer(run_cli, monkeypatch):
    """The default table is as wide as the terminal ($COLUMNS), 100 without one; the columns
    that carry the answer wrap instead of being cut; --wide never cuts."""
    cli_json(run_cli("play", "tsuro", "--players", "random,random,random,random,random,random,random,random",
                     "--seed", "2", "--json"))
    monkeypatch.setenv("COLUMNS", "80")
    narrow = run_cli("list")
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 80
    assert "…" not in "".join(line.split("  ")[2] if len(line.split("  ")) > 2 else "" for line in
                              narrow.stdout.splitlines()[2:])
    players = "".join(narrow.stdout.split())
    for n in range(1, 9):
        assert f"random-{n}" in players  # every player shown, wrapped, none cut
    monkeypatch.setenv("COLUMNS", "200")
    assert max(len(line) for line in run_cli("list").stdout.splitlines()) > 100
    monkeypatch.setenv("COLUMNS", "40")
    wide = run_cli("list", "--wide")
    assert "…" not in wide.stdout and max(len(line) for line in wide.stdout.splitlines()) > 40


def test_the_record_list_fits_100_columns_uncut_and_wide_adds_the_rest(run_cli, monkeypatch):
    """At a terminal's default 100 columns the list of every sample shows the id, game, date,
    event, players and score, none cut; --wide and the other formats add the rule set, the
    deck and the source."""
    cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    monkeypatch.setenv("COLUMNS", "100")
    table = run_cli("list", "--limit", "0").stdout.splitlines()
    assert table[0].split() == ["id", "game", "date", "event", "players", "score"]
    assert max(len(line) for line in table) <= 100 and "…" not in "\n".join(table)
    assert run_cli("list", "--wide").stdout.split("\n")[0].split()[-3:] == ["rules", "deck", "source"]
    assert run_cli("list", "--csv").stdout.split("\n")[0].endswith(",rules,deck,source")


def test_ingests_table_keeps_the_end_of_each_source_path(run_cli, monkeypatch):
    """At 100 columns, each record's source keeps its end, the file's name (up to 24
    characters), and the score wraps first: '…001.pgn' named no file."""
    monkeypatch.setenv("COLUMNS", "100")
    table = run_cli("ingest", str(SAMPLES / "tsuro")).stdout.splitlines()
    assert max(len(line) for line in table) <= 100
    paths = [str(p) for p in (SAMPLES / "tsuro").glob("*.pgn")]
    sources = [line.split()[0] for line in table[2:] if line[:1] in "…/"]
    assert len(sources) == len(paths)
    assert all(len(s) == 24 and any(p.endswith(s[1:]) for p in paths) for s in sources)


def test_list_takes_row_controls_and_events_are_listed(run_cli):
    cli_json(run_cli("ingest", str(SAMPLES / "tsuro"), str(SAMPLES / "iwoki"), "--json"))
    every = cli_json(run_cli("list", "--json"))["records"]
    tsuro = [r["id"] for r in every if r["game"] == "tsuro"]
    assert [r["id"] for r in cli_json(run_cli("list", "--where", "game = 'tsuro'", "--json"))["records"]] == tsuro
    desc = [r["id"] for r in cli_json(run_cli("list", "--order", "id desc", "--json"))["records"]]
    assert desc == sorted(desc, reverse=True)
    assert [r["id"] for r in cli_json(run_cli("list", "--limit", "2", "--offset", "1", "--json"))["records"]] == \
        [r["id"] for r in every[1:3]]
    assert run_cli("list", "--where", "nonsense(").exit_code == 2
    events = cli_json(run_cli("events", "--json"))["events"]
    assert sum(e["records"] for e in events) == len(every) and [e["event"] for e in events].count(None) <= 1


def test_a_tournament_of_bot_games_is_an_event_with_its_game_players_and_matches(run_cli):
    """The bot round robin's records keep their own Event tags: its event says its game, its
    players, the records and matches it ranks (it said game '-', 0 players, then 0 records); each
    bot game's own event ranks its one triad; a table says 'yes' and 'no', never Python's True
    and False."""
    cli_json(run_cli("ingest", str(SAMPLES / "game-of-islands" / "bot-round-robin"), "--json"))
    events = cli_json(run_cli("events", "--json"))["events"]
    kept = [e for e in events if e["tournament"]]
    assert kept[0] == {"event": "Scorebook bot round robin", "game": "game-of-islands", "records": 3, "first": None,
                       "last": None, "players": 3, "tournament": True, "matches": 3}
    assert [(e["event"], e["matches"]) for e in kept[1:]] == [(f"scorebook play seed {s}", 1) for s in (21, 22, 23)]
    assert all(e["matches"] is None for e in events if not e["tournament"])
    table = run_cli("events", "--wide").stdout
    assert "3 matches" in table and "True" not in table and "False" not in table
    assert run_cli("events", "--csv").stdout.splitlines()[0].endswith(",tournament,matches")


def test_standings_show_won_drawn_lost_and_the_matches_in_every_format(run_cli):
    from .conftest import SHARED, shared_file
    path = str(shared_file(SHARED / "data" / "goi" / "tournament-small" / "tournament.json"))
    table = run_cli("standings", path).stdout
    assert " W " in table.splitlines()[1] and "matches:" in table
    rows = run_cli("standings", path, "--csv").stdout.splitlines()
    assert rows[0].endswith("games,won,drawn,lost,matches") and "vs " in rows[1]
    rows = [json.loads(line) for line in run_cli("standings", path, "--nl").stdout.splitlines()]
    assert all(r["games"] == r["won"] + r["drawn"] + r["lost"] > 0 for r in rows)


def test_a_first_use_is_announced_and_warm_up_compiles_ahead(run_cli, tmp_path):
    """With numba's cache empty (a new machine), a command says once that it compiles; with
    it filled, nothing. scorebook warm-up plays, stores and analyses a game of each bot."""
    import os
    import subprocess
    import sys
    probe = "from scorebook.analyze.warm import notice; print(notice(['tsuro', 'patchwork']))"
    empty = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "empty-cache")))
    assert "first use of Tsuro, Patchwork here: compiling" in empty.stdout
    doc = cli_json(run_cli("warm-up", "tsuro", "--json"))
    assert doc["games"][0]["game"] == "tsuro" and "simple" in doc["games"][0]["bots"]
    warm = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert warm.stdout.strip() == "None"


def test_show_reads_like_a_score_sheet(run_cli):
    """show: score lines with the players' names and no Python values, each game of a triad
    under its own header, Iwoki's seats named and its board as text."""
    cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    records = cli_json(run_cli("list", "--json"))["records"]
    for r in records:
        out = run_cli("show", r["id"]).stdout
        tail = out[out.rindex("\nscore: "):]
        assert not any(s in tail for s in ("[", "{", "True", "None", "'")), (r["game"], tail)
        assert all(p in tail for p in r["players"] if r["game"] != "tiny-islands" or p != "TinyBot"), tail
    triad = next(r for r in records if r["game"] == "game-of-islands" and "totals" in r["score"])
    out = run_cli("show", triad["id"]).stdout
    assert [line.split(":")[0] for line in out.splitlines() if line.startswith("game ") and "ply" not in line] == \
        ["game 1", "game 2", "game 3"]
    assert "wins the match" in out or "drawn match" in out
    iwoki = next(r for r in records if r["game"] == "iwoki")
    out = run_cli("show", iwoki["id"]).stdout
    assert "seat 0" not in out.split("\nply 1: ")[1].splitlines()[0] and "\nboard: " in out
