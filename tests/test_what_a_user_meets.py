"""What a user meets, tried as a new user would: each defect once found, one test each
(interruptions, exports that say what they drop, bad paths and files, Iwoki's stated score,
the "best" class, silent work, rough edges), and sqlite-utils' output options."""
from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from scorebook.engines.tiny_islands import bots
from scorebook.engines.tiny_islands.deck import two_deck_offers

from .conftest import SAMPLES, cli_json

TI_SAMPLE = SAMPLES / "tiny-islands" / "tiny-islands-random-s7-0001.pgn"
GOI_SAMPLE = SAMPLES / "game-of-islands" / "game-of-islands-greedy-random-10-s12-0001.pgn"
IW_SAMPLE = SAMPLES / "iwoki" / "iwoki-minimax2-greedy-s5-0002.pgn"


def scorebook(db, *args, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "scorebook", "--db", str(db), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def interrupt_when(proc, ready: str | None, after: float, timeout: float = 400) -> tuple[int, str, float]:
    """Send SIGINT ``after`` seconds once a line with ``ready`` shows on stderr (or from the
    start); (exit code, stderr, seconds from the signal to the exit)."""
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stderr.readline, "")), daemon=True)
    reader.start()
    start = time.monotonic()
    while ready and not any(ready in line for line in lines) and time.monotonic() - start < timeout \
            and proc.poll() is None:
        time.sleep(0.1)
    time.sleep(after)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    took = time.monotonic() - sent
    reader.join(10)
    return proc.returncode, "".join(lines), took


@pytest.mark.slow
def test_1_an_interrupted_bot_game_or_analysis_is_one_line_and_exit_130(tmp_path):
    offers = two_deck_offers(np.random.default_rng(0))
    bots.play(offers, bots.HALVING, 1, 0, 0, bots.TWO_DECK)  # the compiled bot is cached for the child
    db = tmp_path / "i.db"
    code, err, took = interrupt_when(scorebook(db, "play", "tiny-islands", "--players", "halving:64", "--games", "3",
                                               "--seed", "1"), "playing", 3.0)
    assert code == 130 and took < 5, (code, err)
    assert err.strip().splitlines()[-1] == "scorebook: interrupted" and "Traceback" not in err
    with sqlite3.connect(db) as con:  # nothing half-written: whole games only
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = con.execute("SELECT count(*) FROM records").fetchone()[0]
    assert stored == err.count("game ")
    subprocess.run([sys.executable, "-m", "scorebook", "--db", str(db), "ingest", str(TI_SAMPLE)], check=True,
                   capture_output=True)
    code, err, took = interrupt_when(scorebook(db, "analyze", "624f64c9200fca50"), None, 6.0)
    assert code == 130 and took < 5 and err.strip().splitlines()[-1] == "scorebook: interrupted", err
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM analyses").fetchone()[0] == 0


def test_2_exports_say_what_they_drop_and_iwoki_logs_round_trip(run_cli, tmp_path):
    ti = cli_json(run_cli("ingest", str(TI_SAMPLE), "--json"))["records"][0]["id"]
    published = TI_SAMPLE.read_text().replace('[Rules "tinybot"]', '[Rules "published"]').replace(
        '[Breakdown "65 0 1 0 4 0 0 0 -60"]\n[Result "-60"]', '[Result "*"]').replace("\n-60\n", "\n*\n")
    rid = cli_json(run_cli("ingest", "-", "--json", input=published))["records"][0]["id"]
    result = run_cli("export", rid, "--format", "tinybot", "--json")
    assert "drops" in result.stderr and "tinybot" in result.stderr
    assert any("rules published" in d for d in json.loads(result.stdout)["dropped"])
    assert json.loads(run_cli("export", ti, "--format", "pgn", "--json").stdout)["dropped"] == []
    played = cli_json(run_cli("play", "iwoki", "--players", "greedy,random", "--rules", "official", "--json"))
    iw = played["games"][0]["id"]
    log = run_cli("export", iw, "--format", "iwoki-log").stdout
    assert '"rules":"official"' in log and '"tags":{"Event"' in log
    assert cli_json(run_cli("ingest", "-", "--json", input=log))["records"][0]["status"] == "duplicate"


def test_3_bad_files_and_paths_are_one_line(run_cli, tmp_path):
    for doc in ('{"event": "x"}', "[1, 2]", '{"name": "left-pad", "version": "1.3.0"}', "not json"):
        path = tmp_path / "t.json"
        path.write_text(doc)
        result = run_cli("standings", str(path))
        assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "tournament" in result.stderr, doc
    rid = cli_json(run_cli("ingest", str(GOI_SAMPLE), "--json"))["records"][0]["id"]
    for args in (["analyze", rid, "--bot", "depth:1", "--html", "/nonexistent/dir/r.html"],
                 ["export", rid, "--out", "/nonexistent/x.pgn"],
                 ["play", "game-of-islands", "--players", "greedy,random", "--grid", "5", "--out", str(GOI_SAMPLE)]):
        result = run_cli(*args)  # a failed check (cli.md), found before the work
        assert result.exit_code == 1 and "cannot write" in result.stderr and result.stderr.count("\n") == 1, args


def test_4_iwoki_stated_scores_keep_their_signs(run_cli):
    wrong = IW_SAMPLE.read_text().replace('[Result "53-40"]', '[Result "53-41"]').replace(" 53-40\n", " 53-41\n")
    out = cli_json(run_cli("ingest", "-", "--lenient", "--json", input=wrong))["records"][0]
    assert out["recorded"]["final"] == [53, 41] and "score-mismatch" in out["warnings"][0]
    out = cli_json(run_cli("ingest", str(IW_SAMPLE), "--json"))["records"][0]  # the same game: stored already
    assert out["status"] == "duplicate" and out["recorded"]["final"] == [53, 40]


def test_5_only_the_bots_own_move_is_best(run_cli):
    rid = cli_json(run_cli("ingest", str(IW_SAMPLE), "--json"))["records"][0]["id"]
    report = cli_json(run_cli("analyze", rid, "--bot", "samples:4", "--json"))
    for m in report["moves"]:  # best is the bot's own move, or one level with it that says it is a tie
        own = m["rank"] == 1 and m["loss"] == 0
        assert (m["class"] == "best") == (own or bool(m.get("tied"))), m
        assert not m.get("tied") or (not own and m["loss"] <= (m["stderr"] or 0) + 1e-9), m
    for name, s in report["summary"].items():
        assert s["classes"]["best"] == round(s["best_move_rate"] * s["moves"] / 100)


def test_6_work_is_not_silent(run_cli, tmp_path):
    result = run_cli("play", "tiny-islands", "--players", "random", "--games", "2")
    assert "game 1/2" in result.stderr and "game 2/2" in result.stderr
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "games.pgn").write_text(GOI_SAMPLE.read_text())
    (folder / "notes.csv").write_text("a,b\n")
    result = run_cli("ingest", str(folder), "--json")
    assert "skipped 1 file" in result.stderr and json.loads(result.stdout)["skipped"] == [str(folder / "notes.csv")]
    typo = tmp_path / "typo.db"
    result = run_cli("--db", str(typo), "list")
    assert result.exit_code == 2 and "no database" in result.stderr and not typo.exists()


def test_7_rough_edges(run_cli, tmp_path):
    rid = cli_json(run_cli("ingest", str(GOI_SAMPLE), "--json"))["records"][0]["id"]
    assert "None" not in run_cli("show", rid).stdout.splitlines()[0]
    deep = tmp_path / ("a-long-folder-name-" * 6) / "more"
    deep.mkdir(parents=True)
    (deep / "bad.pgn").write_text(GOI_SAMPLE.read_text().replace("A2-B1, A1", "A2-Z9, A1"))
    result = run_cli("ingest", str(deep))
    assert all(len(line) <= 100 for line in result.stdout.splitlines()), result.stdout
    assert "off-grid" in result.stdout  # a rejected row shows its code
    result = run_cli("play", "chess", "--players", "a,b", "--json")
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["usage"] is True
    assert run_cli("play", "tiny-islands", "--players", "mc:0").exit_code == 2
    iw = cli_json(run_cli("ingest", str(IW_SAMPLE), "--json"))["records"][0]["id"]
    assert cli_json(run_cli("analyze", iw, "--bot", "samples:2", "--json"))["bot"] == "greedy samples:2"


def test_output_options(run_cli):
    cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    records = cli_json(run_cli("list", "--json"))["records"]
    csv_rows = run_cli("list", "--csv").stdout.splitlines()
    tsv_rows = run_cli("list", "--tsv", "--no-headers").stdout.splitlines()
    nl_rows = [json.loads(line) for line in run_cli("list", "--nl").stdout.splitlines()]
    assert csv_rows[0] == "id,game,date,event,players,score,rules,deck,source" and len(csv_rows) == len(records) + 1
    assert len(tsv_rows) == len(records) and tsv_rows[0].split("\t")[0] == records[0]["id"]
    assert [r["id"] for r in nl_rows] == [r["id"] for r in records]
    table = run_cli("list").stdout.splitlines()
    assert table[0].split()[0] == "id" and all(len(line) <= 100 for line in table)
    assert run_cli("list", "--table", "--no-headers").stdout.splitlines()[0].split()[0] == records[0]["id"]
    # --player: any case, * wildcards; --db after the command; -h
    assert {r["id"] for r in cli_json(run_cli("list", "--player", "GREE*", "--json"))["records"]} == {
        r["id"] for r in records if any(p.lower().startswith("gree") for p in r["players"])}
    assert cli_json(run_cli("list", "--player", "%", "--json"))["records"] == []
    assert cli_json(run_cli("list", "--db", run_cli.db, "--json"))["records"] == records
    assert "Usage:" in run_cli("list", "-h").stdout
