"""What a user meets, round four (issue 85), the items mended so far: each defect reproduced
first, one test each."""
from __future__ import annotations

import re

from scorebook import registry

from .conftest import SAMPLES, cli_json
from .test_user_round_three import immutable  # noqa: F401 - the fixture: a database this process cannot write

TSURO = SAMPLES / "tsuro" / "tsuro-simple-random-s5-0001.pgn"


def test_a_password_asked_with_no_terminal_is_one_line_and_a_usage_error(run_cli, tmp_path):
    """``account set`` in a script, without --password-stdin: it said Python's GetPassWarning
    ("Password input may be echoed"), then ``interrupted`` with code 130 though nothing was."""
    done = run_cli("account", "set", "alice", "--file", str(tmp_path / "accounts"))
    assert done.exit_code == 2 and "--password-stdin" in done.stderr and "Warning" not in done.stderr
    assert "interrupted" not in done.stderr and not (tmp_path / "accounts").exists()


def test_play_refuses_a_database_it_cannot_write_before_it_plays(immutable):  # noqa: F811
    done = immutable("play", "tsuro", "--players", "random,random", "--games", "2")
    assert done.exit_code == 1 and "cannot write to database" in done.stderr
    assert "playing" not in done.stderr and "Traceback" not in done.output


def test_an_interrupted_ingest_says_how_many_records_it_stored(run_cli):
    from scorebook.cli import common
    common._INTERRUPT_NOTES.clear()
    cli_json(run_cli("ingest", str(SAMPLES / "iwoki"), "--json"))
    assert common.interrupted_line().startswith("scorebook: interrupted: 3 records stored before it")
    common._INTERRUPT_NOTES.clear()
    cli_json(run_cli("ingest", str(TSURO), "--json"))
    assert common.interrupted_line().startswith("scorebook: interrupted: 1 record stored before it")
    common._INTERRUPT_NOTES.clear()


def test_one_is_singular_and_seconds_have_one_precision(run_cli):
    cli_json(run_cli("ingest", str(TSURO), "--json"))
    assert run_cli("list").stdout.splitlines()[-1] == "1 record"
    table = run_cli("play", "tsuro", "--players", "random,random", "--games", "2", "--seed", "1").stdout
    seconds = [line.split()[-1] for line in table.splitlines() if re.match(r"\d+\s+[0-9a-f]{16}\s", line)]
    assert len(seconds) == 2 and all(re.fullmatch(r"\d+\.\d", s) for s in seconds), table


def test_analyze_all_says_nothing_of_a_file_no_stored_game_uses(run_cli):
    """An archive of Game of Islands records only: no notice about Tiny Islands' network."""
    cli_json(run_cli("ingest", str(SAMPLES / "game-of-islands" / "game-of-islands-greedy-random-10-s12-0001.pgn"),
                     "--json"))
    done = run_cli("analyze", "--all", "--bot", "depth:1")
    assert done.exit_code == 0 and "--net" not in done.stderr and "1 record analysed" in done.output
    cli_json(run_cli("ingest", str(SAMPLES / "tiny-islands" / "tiny-islands-random-s7-0001.pgn"), "--json"))
    done = run_cli("analyze", "--all", "--bot", "rollouts:1,candidates:1,max-rollouts:1")
    assert done.exit_code == 0 and done.stderr.count("no --net") == 1  # a Tiny Islands record: said once


def test_show_names_the_players_once_for_every_game_and_each_mover(run_cli):
    """One header for every game (``players: A / B``, not First:/Second:, Players: or none), and
    a move names its mover where several play (Tsuro's did not)."""
    for path in (SAMPLES / "iwoki" / "iwoki-minimax2-greedy-s5-0001.pgn", TSURO,
                 SAMPLES / "patchwork" / "patchwork-best2-vbrz-two-player-s6-0001.pgn",
                 SAMPLES / "tiny-islands" / "tiny-islands-mc4-s9-0001.pgn"):
        rid = cli_json(run_cli("ingest", str(path), "--json"))["records"][0]["id"]
        shown = run_cli("show", rid).stdout
        players = cli_json(run_cli("show", rid, "--json"))
        lines = shown.splitlines()
        assert lines[1].startswith("  players: "), path.name
        names = lines[1].removeprefix("  players: ").split(" / ")
        assert not any(line.startswith(("  First:", "  Second:", "  Players:", "  Player:")) for line in lines)
        first_move = next(line for line in lines if line.startswith("ply 1: "))
        assert len(names) == 1 or any(n in first_move.split() or f"({n})" in first_move for n in names), first_move
        assert "First's hand" not in shown and "hand:  /" not in shown and players["moves"]


def test_a_notice_ends_the_progress_bars_line_first_and_fits_100_columns(capsys):
    """The compile notice was glued to the bar (``ingesting [---] 0%scorebook: compiling ...``)
    and ran to 190 characters."""
    from scorebook.cli.common import Progress, say
    with Progress(10, "ingesting", True) as bar:
        bar.update(1)
        say("compiling the jitted code of Iwoki (once; scorebook warm-up does it ahead)")
        bar.update(1)
    err = capsys.readouterr().err
    assert "\nscorebook: compiling the jitted code of Iwoki" in err and "%scorebook" not in err
    assert Progress.drawn is None
    from scorebook.analyze import warm
    said = []
    listener = warm._listen(said.append)
    try:
        listener.on_start(type("E", (), {"data": {"dispatcher": type("D", (), {"py_func": warm.notice})()}})())
    finally:
        from numba.core import event
        event.unregister("numba:compile", listener)
    longest = max((g.info.name for g in registry.games()), key=len)
    assert said and len("scorebook: " + said[0].replace("Scorebook", longest)) < 100


def test_play_labels_each_game_with_one_measure_whatever_the_seats(run_cli):
    """Tsuro was ``margin (simple)`` at two seats and ``share (mc:8)`` at three: a share of the
    win at any number of seats; a margin where the game's values are margins."""
    for players in ("random,random", "random,simple,random"):
        table = run_cli("play", "tsuro", "--players", players, "--games", "2", "--seed", "4").stdout
        assert "share (random" in table.splitlines()[0] and "margin" not in table, table
    two = run_cli("play", "tsuro", "--players", "random,simple", "--games", "2", "--seed", "4").stdout
    assert "mean share" in two and "wins" not in two.split("mean share")[1]
    goi = run_cli("play", "game-of-islands", "--players", "random,greedy", "--games", "1", "--grid", "5").stdout
    assert "margin (random)" in goi.splitlines()[0] and "mean margin" in goi


def test_served_pages_link_standings_only_where_they_exist_and_refuse_in_the_sites_page(run_cli):
    """The events table linked every event to standings (an event of Tsuro games: a bare-text
    404 with a command-line hint); the ratings page had no site header and no caption for
    Patchwork's two tables."""
    import re
    import urllib.error
    import urllib.request
    from .test_service import Server
    cli_json(run_cli("ingest", str(SAMPLES / "game-of-islands" / "bot-round-robin"), str(TSURO),
                     str(SAMPLES / "patchwork"), "--json"))
    server = Server(run_cli.db)
    try:
        events = urllib.request.urlopen(server.base + f"/{server.db_name}/events", timeout=30).read().decode()
        assert "standings?event=Scorebook%20bot%20round%20robin" in events
        assert "standings?event=scorebook%20play%20seed%205" not in events  # Tsuro's: nothing to rank
        with urllib.request.urlopen(server.base + "/-/scorebook/ratings", timeout=30) as page:
            ratings = page.read().decode()
        assert 'class="hd"' in ratings or "<header" in ratings  # the site's own header and menu
        assert "<caption>games of two or more players" in ratings and "<caption>games of one player" in ratings
        try:
            urllib.request.urlopen(server.base + "/-/scorebook/standings?event=scorebook%20play%20seed%205", timeout=30)
            raise AssertionError("standings of an event without matches")
        except urllib.error.HTTPError as err:
            missing = err.read().decode()
            assert err.code == 404 and ("<header" in missing or 'class="hd"' in missing)
            assert re.search(r'id="error">[^<]*no tournament file', missing)
    finally:
        server.stop()


def test_an_analysis_table_at_100_columns_never_breaks_a_move_and_its_summary_fits(run_cli):
    """At 100 columns an Iwoki move broke inside itself (``st29-0@H1_H4_H`` / ``5``, reading as
    another gap) and the per-player summary ran to 134 characters."""
    from click.testing import CliRunner
    from scorebook.cli.main import main
    rid = cli_json(run_cli("ingest", str(SAMPLES / "iwoki" / "iwoki-minimax2-greedy-s5-0001.pgn"), "--json")
                   )["records"][0]["id"]
    doc = cli_json(run_cli("analyze", rid, "--bot", "samples:2", "--json"))
    shown = CliRunner().invoke(main, ["--db", run_cli.db, "analyze", rid, "--bot", "samples:2"],
                               env={"COLUMNS": "100"}).stdout
    words = set(shown.split())
    assert all(m["played"].split()[-1] in words and m["best"] in words for m in doc["moves"])
    assert max(len(line) for line in shown.splitlines()) <= 100, max(shown.splitlines(), key=len)


def test_a_tinybot_line_credits_no_one_unless_ingest_names_the_player(run_cli):
    """Every TinyBot line was credited to ``TinyBot`` (the bundled random games too: the ratings
    showed TinyBot at a mean of 26). A line names no player: stored so, and ``--player``
    names one."""
    lines = SAMPLES / "tiny-islands" / "random-games.tinybot.txt"
    anonymous = cli_json(run_cli("ingest", str(lines), "--json"))["records"]
    assert [r["status"] for r in anonymous] == ["ingested"] * 3
    listed = cli_json(run_cli("list", "--game", "tiny-islands", "--json"))["records"]
    assert [r["players"] for r in listed] == [[], [], []]
    assert "players: unknown" in run_cli("show", anonymous[0]["id"]).output
    assert "TinyBot" not in run_cli("ratings", "--game", "tiny-islands").output
    named = cli_json(run_cli("ingest", str(lines), "--player", "Slogo", "--json"))["records"]
    assert [r["status"] for r in named] == ["ingested"] * 3  # another player's games are other records
    assert {r["id"] for r in named}.isdisjoint({r["id"] for r in anonymous})
    assert "players: Slogo" in run_cli("show", named[0]["id"]).output
    again = cli_json(run_cli("ingest", str(lines), "--player", "Slogo", "--json"))["records"]
    assert [r["status"] for r in again] == ["duplicate"] * 3
    assert run_cli("ingest", str(lines), "--player", 'a"b').exit_code == 2


def test_events_count_a_tournaments_records_and_matches_as_its_standings_do(run_cli):
    """The bot round robin showed 0 records (its games are stored under their own events), the
    standings' matches came in the file's order (22.1, 23.1, 21.1), and an event whose stored
    triads standings rank said no tournament."""
    cli_json(run_cli("ingest", str(SAMPLES / "game-of-islands"), "--json"))
    events = {e["event"]: e for e in cli_json(run_cli("events", "--json"))["events"]}
    robin = events["Scorebook bot round robin"]
    ranked = cli_json(run_cli("standings", "Scorebook bot round robin", "--json"))
    assert robin["records"] == robin["matches"] == len(ranked["matches"]) == 3
    assert [m["match"] for m in ranked["matches"]] == ["21.1", "22.1", "23.1"]
    one = events["scorebook play seed 22"]
    assert one["tournament"] and one["matches"] == len(cli_json(run_cli("standings", "scorebook play seed 22",
                                                                         "--json"))["matches"]) == 1
    assert "1 match" in run_cli("events").output and "3 matches" in run_cli("events").output


def test_an_older_archive_counts_its_events_matches_once_migrated(run_cli):
    """The matches ``events`` counts are kept as records arrive; an archive from before keeps
    them from its stored records when it is migrated."""
    import sqlite3
    from scorebook.records.store import Store
    from .test_moves_column import undo_moves_column
    cli_json(run_cli("ingest", str(SAMPLES / "game-of-islands"), "--json"))
    before = cli_json(run_cli("events", "--json"))["events"]
    db = sqlite3.connect(run_cli.db)
    undo_moves_column(db)  # back to schema 18, then 17
    db.executescript("DROP TABLE event_matches; PRAGMA user_version = 17;")
    db.close()
    Store(run_cli.db).close()  # a writer migrates
    assert cli_json(run_cli("events", "--json"))["events"] == before
    assert sum(1 for e in before if e["matches"]) == 5  # the round robin and the four triads of their own
