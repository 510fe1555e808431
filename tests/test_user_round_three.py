"""What a user meets, round three (issue 71): each defect reproduced first, one test each."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from .conftest import SAMPLES, cli_json

IW_SAMPLE = SAMPLES / "iwoki" / "iwoki-minimax2-greedy-s5-0002.pgn"


@pytest.fixture
def immutable(run_cli):
    """The database made immutable (``chattr +i``): this process may open it but not write it,
    root or not."""
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed")
    cli_json(run_cli("ingest", str(IW_SAMPLE), "--json"))
    if subprocess.run(["chattr", "+i", run_cli.db], capture_output=True).returncode:
        pytest.skip("this file system does not take chattr +i")
    try:
        yield run_cli
    finally:
        subprocess.run(["chattr", "-i", run_cli.db], capture_output=True)


def test_analyze_on_a_database_it_cannot_write_fails_before_the_search(immutable):
    rid = cli_json(immutable("list", "--json"))["records"][0]["id"]
    done = immutable("analyze", rid, "--bot", "samples:2")
    assert done.exit_code == 1 and "cannot write to database" in done.stderr
    assert "analysing" not in done.stderr and "Traceback" not in done.output
    done = immutable("analyze", "--all", "--bot", "samples:2")
    assert done.exit_code == 1 and "cannot write to database" in done.stderr


def test_an_unknown_event_exits_as_an_unknown_record_does(run_cli):
    cli_json(run_cli("ingest", str(IW_SAMPLE), "--json"))
    unknown_record = run_cli("show", "ffffffff")
    unknown_event = run_cli("standings", "No such")
    assert unknown_record.exit_code == unknown_event.exit_code == 1
    assert "No such" in unknown_event.stderr and "scorebook events" in unknown_event.stderr


def test_a_compile_is_announced_whenever_numba_compiles():
    """Not only when nothing of a game is cached: any compile (a new function, a new kind of
    argument) says so, once a game, with warm-up suggested; loading from the cache says nothing."""
    import numba
    from numba.core import event

    from scorebook.analyze.warm import _listen
    said: list = []
    listener = _listen(said.append)
    try:
        def probe(x):
            return x + 1
        probe.__module__ = "scorebook.engines.tsuro.probe"  # a function of Tsuro's engine, never cached
        jitted = numba.njit(probe)
        jitted(1)
        jitted(2.5)  # compiled again for floats: the game was named already
        assert len(said) == 1 and "Tsuro" in said[0] and "warm-up" in said[0]
    finally:
        event.unregister("numba:compile", listener)


def test_a_command_announces_a_compile_though_numba_is_imported_after_it_starts(tmp_path):
    """A fresh process: the CLI starts without numba (its listener waits for numba's import),
    then a command's work compiles; the line comes on stderr."""
    import sys
    script = (
        "import sys\n"
        "from scorebook.cli.main import main\n"
        "from scorebook.records.store import Store\n"
        f"Store({str(tmp_path / 'a.db')!r}).close()\n"
        f"main(['--db', {str(tmp_path / 'a.db')!r}, 'events'], standalone_mode=False)\n"
        "assert 'numba' not in sys.modules\n"
        "import numba\n"
        "def probe(x):\n    return x * 2\n"
        "probe.__module__ = 'scorebook.engines.iwoki.probe'\n"
        "numba.njit(probe)(3)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "scorebook: compiling the jitted code of Iwoki" in done.stderr and "warm-up" in done.stderr


def test_play_with_jobs_compiles_once_and_says_so_once(tmp_path):
    """``play --jobs 2``: the bots are compiled in the command's process before its workers
    fork from it, so the notice comes once (it came from every worker, each compiling)."""
    import sys
    script = (
        "import numba\n"
        "from scorebook import registry\n"
        "from scorebook.cli.main import main\n"
        "def probe(x):\n    return x * 2\n"
        "probe.__module__ = 'scorebook.engines.tsuro.probe'  # the notice names the game by its module\n"
        "jitted = numba.njit(probe)  # no cache: a process that did not compile it compiles it\n"
        "game = registry.register_game('tests.toy_game', engine='tests.toy_game.game',\n"
        "                              records='tests.toy_game.records', analysis='tests.toy_game.analysis')\n"
        "play = type(game.engine).play\n"
        "type(game.engine).play = lambda self, *a: (jitted(1), play(self, *a))[1]\n"
        f"main(['--db', {str(tmp_path / 'a.db')!r}, 'play', game.id, '--players', 'perfect,random',\n"
        "      '--games', '4', '--jobs', '2'], standalone_mode=False)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          cwd=str(SAMPLES.parent))
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("compiling the jitted code of Tsuro") == 1, done.stderr


def test_show_writes_a_hand_as_tiles_and_no_minus_zero(run_cli):
    cli_json(run_cli("ingest", str(SAMPLES / "tsuro" / "tsuro-handwritten.pgn"), "--json"))
    rid = cli_json(run_cli("list", "--json"))["records"][0]["id"]
    shown = run_cli("show", rid).stdout
    hands = [line.split("hand ", 1)[1] for line in shown.splitlines() if "hand " in line]
    assert hands and all("[" not in h and "," not in h for h in hands)
    from scorebook import registry
    notation = registry.get_game("tiny-islands").notation
    score = {"penalties": 0, "forests": 3, "houses": 0, "sand": 0, "waves": 0, "mountains": 0, "churches": 0,
             "boats": 0, "total": 3}
    line = notation.score_lines(score, ["ann"])[0]
    assert "-0" not in line and "no penalties" in line


def test_the_served_home_page_names_the_views_and_the_ratings(run_cli):
    """Datasette's home page shows five tables and hides the rest behind "...": the games and
    player results views and the ratings page are linked from its description."""
    pytest.importorskip("datasette")
    import asyncio

    from datasette.app import Datasette

    from scorebook.service.server import metadata
    cli_json(run_cli("ingest", str(IW_SAMPLE), "--json"))
    ds = Datasette([run_cli.db], metadata=metadata(run_cli.db, False))
    page = asyncio.run(ds.client.get("/")).text
    name = "cli"
    for href in (f"/{name}/games", f"/{name}/player_results", "/-/scorebook/ratings"):
        assert f'href="{href}"' in page, href


def test_the_report_says_what_a_value_is_without_stammering_and_what_its_chart_shows():
    """"A value is the {value}": no game's value starts with "the" (Tsuro's said "the the"); the
    chart's caption is the chart's: one line per player for Tsuro, one side for two players."""
    from scorebook import registry
    from scorebook.analyze.html import _chart_side
    for game in registry.games():
        if game.info.analysis:
            assert not game.info.analysis.value.lower().startswith("the "), game.id
    assert "a line per player" in _chart_side(["a", "b", "c"], "share", [])
    assert "from a's side" in _chart_side(["a", "b"], "margin", [])


def test_the_thresholds_labels_are_drawn_over_the_loss_bars():
    """A label under the bars was hidden by them (Tsuro's report): drawn after them, and right of
    the plot area (on a halo across the bars it hid them in turn)."""
    from scorebook.analyze.html import chart
    moves = [{"player": i % 3, "ply": i + 1, "value_best": 50.0, "value_played": 40.0, "loss": 10.0 + i,
              "class": "blunder", "played": "x"} for i in range(12)]
    svg = chart(moves, [("inaccuracy", 5.0), ("mistake", 10.0), ("blunder", 20.0)], ["a", "b", "c"], "share")
    last_bar = svg.rfind('class="loss"')
    labels = [svg.find(f"{name} ≥") for name in ("inaccuracy", "mistake", "blunder")]
    assert last_bar > 0 and all(i > last_bar for i in labels)
    import re
    bars = [float(x) + float(w) for x, w in re.findall(r'<rect x="([\d.]+)"[^>]*width="([\d.]+)"[^>]*class="loss"', svg)]
    assert all(float(x) > max(bars) for x in re.findall(r'<text x="([\d.]+)"[^>]*class="threshold"', svg))


def test_the_analysis_table_names_the_players_as_the_report_does(run_cli):
    cli_json(run_cli("ingest", str(IW_SAMPLE), "--json"))
    rid = cli_json(run_cli("list", "--json"))["records"][0]["id"]
    doc = cli_json(run_cli("analyze", rid, "--bot", "samples:1", "--json"))
    assert {m["player"] for m in doc["moves"]} <= {0, 1}  # the document keeps the seats
    names = cli_json(run_cli("list", "--json"))["records"][0]["players"]
    rows = run_cli("analyze", rid, "--bot", "samples:1", "--csv").stdout.splitlines()
    column = rows[0].split(",").index("player")
    assert {line.split(",")[column] for line in rows[1:]} <= set(names) and len(rows) > 1


@pytest.mark.parametrize("effort", [1, 2])
def test_a_solo_patchwork_record_is_worth_at_least_what_it_goes_on_to_score(effort):
    """No chance in the game: the record's own continuation is a plan, so a weak beam (effort
    1) no longer charges the 85 game (the real quilt's maximum) a point it never lost."""
    from scorebook import registry
    from scorebook.errors import STRICT
    game = registry.get_game("patchwork")
    record = game.notation.read_pgn((SAMPLES / "patchwork" / "patchwork-best2-real-85.pgn").read_text(), STRICT)[0]
    rows, _ = game.analysis.evaluate(game.notation.trace(record), seed=0, options={"effort": effort, "playouts": 16})
    assert all(r.loss == 0 and r.value_played == 85 for r in rows)
    assert all(r.line for r in rows[:-1])  # a line to follow after every move but the last


def test_events_shows_a_page_of_events_and_says_how_to_see_all(run_cli):
    cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    every = cli_json(run_cli("events", "--json"))["events"]
    assert len(every) > 2
    table = run_cli("events", "--limit", "2", "--wide").stdout.splitlines()  # a row a line, whatever the terminal
    assert len(table) == 2 + 2 + 1 and table[-1].startswith(f"{len(every)} events; the first 2 shown")
    assert len(cli_json(run_cli("events", "--limit", "2", "--json"))["events"]) == 2
    assert len(run_cli("events", "--csv").stdout.splitlines()) == len(every) + 1


def test_a_one_seat_match_says_its_total_once(run_cli):
    """``play`` of a one-player game: the score is the total; no second column repeats it."""
    table = run_cli("play", "tiny-islands", "--players", "random", "--games", "1", "--seed", "3").stdout
    header = table.splitlines()[0].split()
    assert "score" in header and "total" not in header
    assert "mean" in table and "over 1 game" in table and "over 1 games" not in table
    two = run_cli("play", "tsuro", "--players", "random,random", "--games", "1", "--seed", "3").stdout
    assert "share" in two.splitlines()[0]  # two seats: the first seat's share of the win (Tsuro's one measure)


def test_with_jobs_each_progress_line_names_its_game_as_the_table_does(run_cli):
    """``play --jobs 2``: games end out of order; each line says the game's own number, so the
    line 'game 3/6' and the table's row 3 are one game (the count of games done named others)."""
    result = run_cli("play", "tsuro", "--players", "random,simple,random", "--games", "6", "--jobs", "2", "--json")
    games = json.loads(result.stdout)["games"]
    lines = [line for line in result.stderr.splitlines() if line.startswith("game ")]
    assert len(lines) == 6
    for line in lines:
        number = int(line.split("/")[0].split()[1])
        players = line.split(": ", 1)[1].split(", ")[0]
        assert players == " / ".join(games[number - 1]["players"]), (line, games[number - 1])
    assert sorted(int(line.split("/")[0].split()[1]) for line in lines) == list(range(1, 7))


def test_a_share_of_a_win_reads_to_three_places_and_its_heading_whole(run_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    table = run_cli("play", "tsuro", "--players", "mc:16,simple,random", "--games", "6").stdout
    assert "share (mc:16)" in table.splitlines()[0]
    assert " 0.333 " in table and "0.3333" not in table  # a win shared by three


def test_the_analysis_table_fits_100_columns_with_nothing_cut(run_cli, monkeypatch):
    """At a terminal's 100 columns the analysis of a record with long moves (Iwoki's) cuts no
    cell: the next candidates and the line come with --wide (the next best was cut to
    'st45+0@…', naming no move)."""
    cli_json(run_cli("ingest", str(IW_SAMPLE), "--json"))
    rid = cli_json(run_cli("list", "--json"))["records"][0]["id"]
    monkeypatch.setenv("COLUMNS", "100")
    table = run_cli("analyze", rid, "--bot", "samples:2").stdout.splitlines()
    rows = [line for line in table if line[:1].isdigit() or line.startswith(("ply", "---"))]
    assert rows and max(len(line) for line in rows) <= 100 and not any("…" in line for line in rows)
    assert "next best" not in rows[0] and "next best" in run_cli("analyze", rid, "--bot", "samples:2", "--wide").stdout


def test_analyze_alls_table_wraps_the_bot_and_the_players_summaries_uncut(run_cli, monkeypatch):
    """``analyze --all`` at 100 columns: each record's bot and its players' mean loss and
    accuracy wrap rather than being cut ('random 7.…', 'mc …')."""
    cli_json(run_cli("ingest", str(SAMPLES / "tsuro"), "--json"))
    monkeypatch.setenv("COLUMNS", "100")
    table = run_cli("analyze", "--all", "--bot", "samples:2").stdout.splitlines()
    rows = [line for line in table if not line.endswith("failed")]
    assert rows[0].split()[:3] == ["id", "game", "bot"]
    assert max(len(line) for line in rows) <= 100 and not any("…" in line for line in rows)
    assert sum("mc samples:2" in line for line in rows) == len(cli_json(run_cli("list", "--json"))["records"])
