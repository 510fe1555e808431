"""``show FILE``: a record read from a file and walked, nothing stored; a record the rules refuse
is shown up to its first error, the error carried by the trace as a value (lichess's Replay)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook import registry
from scorebook.analyze.boards import show_document, show_lines
from scorebook.analyze.run import trace_of
from scorebook.errors import UsageError
from scorebook.records.ingest import ingest_bytes
from scorebook.records.preview import file_record
from scorebook.records.replay import Replay
from scorebook.records.store import Store

from .conftest import ROOT, cli_json
from .fuzzing import mutate, seeds

SAMPLES = ROOT / "samples"

# (sample, its text, the same with one move the rules refuse, the refusal's code and ply)
BROKEN = [
    ("tsuro/tsuro-handwritten.pgn", "3. simple 9r3", "3. simple 18r3", "tile-not-in-hand", 3),
    ("patchwork/patchwork-best2-vbrz-two-player-s6-0001.pgn", "1:B32@c7r0", "1:B7@c7r0", "already-bought", 7),
    ("iwoki/iwoki-minimax2-greedy-s5-0001.pgn", "4. st10+0@H4_H14_H5", "4. st18+0@H4_H14_H5", "tile-not-in-hand", 4),
    ("tiny-islands/tiny-islands-random-s7-0001.pgn", "2. hE+w3 hg9", "2. hE+w3 hh3", "placement-outside-zone", 2),
    # a TinyBot line: its shorelines traced, walked as traced, before the placement refused
    ("tiny-islands/random-games.tinybot.txt", " MAw3 Ma5 ", " MAw3 Mf1 ", "placement-outside-zone", 22),
    ("game-of-islands/game-of-islands-greedy-random-10-s12-0001.pgn", "2. E1-E2, F1", "2. A2-B1, F1", "dot-used", 3),
]


def _broken(tmp_path: Path, sample: str, good: str, bad: str) -> Path:
    text = (SAMPLES / sample).read_text()
    assert text.count(good) == 1
    path = tmp_path / Path(sample).name
    path.write_text(text.replace(good, bad))
    return path


@pytest.mark.parametrize("sample,good,bad,code,ply", BROKEN, ids=[Path(b[0]).stem for b in BROKEN])
def test_a_refused_record_is_shown_up_to_its_error_with_the_boards_of_the_record(run_cli, tmp_path, sample, good, bad,
                                                                                 code, ply):
    """The positions before the refused move are the record's own: each state is the state of
    the same ply of the record as it was written before the change."""
    whole = cli_json(run_cli("show", str(SAMPLES / sample), "--json"))
    result = run_cli("show", str(_broken(tmp_path, sample, good, bad)), "--json")
    assert result.exit_code == 1
    doc = cli_json(result)
    assert doc["id"] is None and doc["score"] is None  # refused before its end: no score
    assert (doc["error"]["code"], doc["error"]["ply"]) == (code, ply)
    assert doc["error"]["token"] and doc["error"]["token"] in bad and doc["error"]["token"] not in good
    shown = [m for m in doc["moves"]]
    before = [m for m in whole["moves"] if (m.get("game", 1), m["ply"]) < (1, ply)]
    assert [m["ply"] for m in shown] == [m["ply"] for m in before]
    assert [m["state"] for m in shown] == [m["state"] for m in before]
    text = run_cli("show", str(tmp_path / Path(sample).name))
    assert text.exit_code == 1
    assert text.output.rstrip().splitlines()[-1].startswith("refused: line ") and code in text.output
    assert f"ply {ply - 1}:" in text.output and f"ply {ply}:" not in text.output


def test_an_iwoki_log_refused_midway_is_shown_up_to_its_error(run_cli, tmp_path):
    """A foreign format whose reader walks (an Iwoki log) keeps its walk for ``show`` too."""
    sample = SAMPLES / "iwoki" / "iwoki-sampler-vs-random-s6.jsonl"
    lines = sample.read_text().split("\n")
    fifth = json.loads(lines[5])
    first = json.loads(lines[1])
    assert fifth["n"] == 5 and first["gap"] != fifth["gap"]
    lines[5] = json.dumps(dict(fifth, gap=first["gap"]), separators=(",", ":"))  # a gap taken on move 1
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines))
    result = run_cli("show", str(broken), "--json")
    assert result.exit_code == 1
    doc = cli_json(result)
    assert (doc["error"]["code"], doc["error"]["ply"], doc["error"]["line"]) == ("gap-not-open", 5, 6)
    whole = cli_json(run_cli("show", str(sample), "--json"))
    assert [m["state"] for m in doc["moves"]] == [m["state"] for m in whole["moves"][:4]]
    assert [m["move"] for m in doc["moves"]] == [m["move"].split()[-1] for m in whole["moves"][:4]]


def test_a_files_record_shows_as_the_stored_one_does(run_cli):
    """A record of a file is walked as ingest would: the id ingest gives it, and the same moves,
    boards and score as ``show ID`` of the stored record."""
    path = SAMPLES / "tiny-islands" / "random-games.tinybot.txt"
    ingested = cli_json(run_cli("ingest", str(path), "--json"))
    second = ingested["records"][1]["id"]
    from_file = run_cli("show", f"{path}#2", "--json")
    assert from_file.exit_code == 0
    stored = cli_json(run_cli("show", second, "--json"))

    def unplaced(doc):  # a move's line and column are in its own text: the file's, the stored one's
        return dict(doc, moves=[{k: v for k, v in m.items() if k not in ("line", "column")} for m in doc["moves"]])
    assert unplaced(cli_json(from_file)) == unplaced(stored)
    assert [m["line"] for m in cli_json(from_file)["moves"]] == [2] * len(stored["moves"])  # the file's second line
    assert f"records; {path}#N shows the N-th" in run_cli("show", str(path)).stderr


@pytest.mark.parametrize("ref,says,code", [
    ("missing.pgn", "no record with id 'missing.pgn'", 1), ("x/" * 3000 + "y.pgn", "no record with id 'x/x/", 1),
    ("folder", "cannot read folder: a folder", 2), ("one.pgn#2", "one.pgn holds 1 record(s)", 2),
    ("one.pgn#0", "one.pgn holds 1 record(s)", 2)], ids=["missing", "long", "folder", "past-the-end", "zero"])
def test_what_is_neither_a_stored_id_nor_a_record_of_a_file_is_one_line(run_cli, tmp_path, monkeypatch, ref, says,
                                                                        code):
    """Not found (exit 1) where no such file is there; a usage error (2) where the file is there
    and holds no such record, or cannot be read as a file."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "one.pgn").write_text((SAMPLES / "tsuro" / "tsuro-handwritten.pgn").read_text())
    monkeypatch.chdir(tmp_path)
    assert run_cli("ingest", "one.pgn").exit_code == 0
    result = run_cli("show", ref)
    assert result.exit_code == code
    assert says in result.output and len(result.output.strip().splitlines()) == 1 and len(result.output) < 400


def test_a_stored_record_that_no_longer_reads_is_refused_by_analyses_and_shown_up_to_its_error():
    text = (SAMPLES / "tsuro" / "tsuro-handwritten.pgn").read_text().replace("3. simple 9r3", "3. simple 18r3")
    row = {"id": "0123", "game": "tsuro", "text": text}
    with pytest.raises(UsageError, match="no longer reads: .*tile-not-in-hand"):
        trace_of(row)
    trace = trace_of(row, partial=True)
    assert trace.record is None and trace.error.code == "tile-not-in-hand"
    assert [p.move for p in trace.positions] == ["32r1", "18r1"]


def test_a_walk_that_keeps_its_states_plays_a_whole_record_one_action_at_a_time():
    """``play_all`` of a walk that keeps its states keeps each one: the same end as the engine's
    jitted replay of the whole record, and a state and a step for every action."""
    from scorebook.records import tiny_islands as ti
    item = ti.NOTATION.read_pgn((SAMPLES / "tiny-islands" / "tiny-islands-random-s7-0001.pgn").read_text(), None)[0]
    setup, steps = ti.NOTATION.games(item)[0]
    engine = registry.get_game("tiny-islands").engine
    at_once, kept = Replay(engine, setup), []
    at_once.play_all([s.action for s in steps])
    one_by_one = Replay(engine, setup, kept)
    one_by_one.play_all([s.action for s in steps])
    assert len(one_by_one.kept) == len(steps) + 1 == len(one_by_one.steps) + 1
    assert [s.seat for s in one_by_one.steps] == [0] * len(steps)
    assert np.array_equal(one_by_one.state.tiles, at_once.state.tiles)
    assert engine.score(one_by_one.state) == engine.score(at_once.state)


def test_each_move_shown_points_at_its_words_in_the_text_and_the_score_is_the_replays(run_cli):
    """``show --json`` gives each move's line and column: in a stored record's text (its
    export) the word there is a word of the move as shown, and the places follow the text. Its
    score is the trace's, the one ingest computed."""
    ingested = cli_json(run_cli("ingest", str(SAMPLES), "--json"))
    firsts = {}
    for o in ingested["records"]:
        firsts.setdefault(o["game"], o["id"])
    assert set(firsts) == set(registry.game_ids())
    scores = {o["id"]: o["score"] for o in ingested["records"] if o["status"] == "ingested"}
    for record_id in scores:  # the trace's score is the replay's, as ingest computed it
        assert cli_json(run_cli("show", record_id, "--json"))["score"] == scores[record_id]
    for record_id in firsts.values():
        lines = run_cli("export", record_id).stdout.split("\n")
        moves = cli_json(run_cli("show", record_id, "--json"))["moves"]
        places = [(m["line"], m["column"]) for m in moves]
        assert places == sorted(places) and len(set(places)) == len(places)
        for m in moves:
            word = lines[m["line"] - 1][m["column"] - 1:].split()[0]
            assert word in m["move"].split(), (record_id, m)


def test_a_record_whose_stated_score_differs_shows_the_replays_score_and_the_mismatch(run_cli, tmp_path):
    line = (SAMPLES / "tiny-islands" / "random-games.tinybot.txt").read_text().split("\n")[0]
    stated, comment = line.rsplit(" #", 1)
    words = stated.split()
    penalties, total = len(words) - 9, len(words) - 1  # the breakdown: penalties, seven categories, total
    words[penalties], words[total] = str(int(words[penalties]) + 1), str(int(words[total]) - 1)
    wrong = " ".join(words) + " #" + comment  # a penalty more stated, and the total one less
    path = tmp_path / "wrong-total.txt"
    path.write_text(wrong + "\n")
    replayed = cli_json(run_cli("show", str(SAMPLES / "tiny-islands" / "random-games.tinybot.txt"), "--json"))
    result = run_cli("show", str(path), "--json")
    assert result.exit_code == 1
    doc = cli_json(result)
    assert doc["error"]["code"] == "score-mismatch" and doc["score"] == replayed["score"]
    assert len(doc["moves"]) == len(replayed["moves"])


FUZZ_SEEDS = seeds()


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(FUZZ_SEEDS))
@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_show_of_a_mutated_file_never_crashes_and_says_what_ingest_says(fmt, data, tmp_path_factory):
    """A file's first record, mutated as the fuzzers do: ``show`` walks it without an exception
    escaping, and finds what ingest finds: the same first error's code, or the same id."""
    text = data.draw(st.sampled_from(FUZZ_SEEDS[fmt]), label="seed record")
    mutated = mutate(text, random.Random(data.draw(st.integers(0, 2**32 - 1), label="mutation seed")))
    path = tmp_path_factory.mktemp("show") / "mutated.txt"
    path.write_bytes(mutated.encode("utf-8", "surrogatepass"))
    outcome = ingest_bytes(Store(":memory:"), path.read_bytes(), str(path))[0]
    try:
        found = file_record(str(path))
    except UsageError as err:  # the file as a whole cannot be read: so ingest says too
        assert outcome["status"] == "rejected" and outcome["index"] == 1, (err, outcome)
        return
    list(show_lines(found.row, found.trace))
    document = show_document(found.row, found.trace)
    if outcome["status"] == "rejected":
        assert document["error"]["code"] == outcome["errors"][0]["code"], (document["error"], outcome)
    else:
        assert document["error"] is None and document["id"] == outcome["id"]


def test_a_triad_whose_second_game_has_a_bad_tag_is_refused_for_it_as_ingest_refuses_it(run_cli, tmp_path):
    """``show`` says what ingest says of a triad whose second game's tags do not read: that
    tag's error, not a later move's (the fuzzers found a move's)."""
    text = (SAMPLES / "game-of-islands" / "game-of-islands-search-greedy-triad-s11-0001.pgn").read_text()
    head, tail = text.split('[Grid "12"]')
    path = tmp_path / "triad.pgn"
    path.write_text(head + '[Grid "12"]\n[Bad tag here]' + tail)
    ingested = cli_json(run_cli("ingest", str(path), "--json"))["records"][0]["errors"][0]
    shown = cli_json(run_cli("show", str(path), "--json"))["error"]
    assert shown == ingested and shown["code"] == "bad-tag"
