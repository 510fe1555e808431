"""Iwoki logs: the shared samples replay exactly and round-trip; invalid logs are rejected
with their position."""
from __future__ import annotations

import json

import pytest

from scorebook.records import iwoki, iwoki_log, pgn
from scorebook.errors import LENIENT, RecordRejected
from scorebook.records.formats import read_text

from ..conftest import SAMPLES as PROJECT_SAMPLES, SHARED, cli_json, shared_file

SAMPLES = SHARED / "data" / "iwoki" / "samples"
SAMPLE_LOG = PROJECT_SAMPLES / "iwoki" / "iwoki-sampler-vs-random-s6.jsonl"
NAMES = ["iwoki_gr_60069.jsonl", "iwoki_m1g_9002.jsonl", "iwoki_m2r_9003.jsonl"]


def sample(name: str) -> str:
    return shared_file(SAMPLES / name).read_text()


@pytest.mark.parametrize("name", NAMES)
def test_samples_replay_exactly(name):
    text = sample(name)
    record = iwoki_log.parse_log(text)  # checks every action's points, scores, tokens and hex draws
    end = json.loads(text.strip().split("\n")[-1])
    assert record.score == {"before_tally": end["scores_before_tally"], "penalties": end["penalties"],
                            "final": end["final_scores"], "winner": end["winner"]}
    assert record.warnings == []  # the engine's option counts equal the log's n_options
    assert iwoki_log.write_log(record) == text
    canonical, _ = iwoki.write_pgn(record)
    again = iwoki.read_pgn_game(pgn.split_games(canonical)[0])
    assert iwoki.write_pgn(again)[0] == canonical
    assert iwoki_log.write_log(again) == text


def test_cli_ingest_and_export(run_cli):
    doc = cli_json(run_cli("ingest", str(shared_file(SAMPLES)), "--json"))
    assert doc["summary"] == {"ingested": 3, "duplicates": 0, "rejected": 0}
    for rec in doc["records"]:
        assert rec["game"] == "iwoki" and rec["score"] == rec["recorded"]
    rid = doc["records"][0]["id"]
    exported = run_cli("export", rid, "--format", "iwoki-log").output
    assert exported == sample(doc["records"][0]["source"].rsplit("/", 1)[-1])


def edit(text: str, n: int, **changes) -> str:
    """Change fields of action n (or of the end line with n=0)."""
    lines = text.strip().split("\n")
    k = n if n else len(lines) - 1
    obj = json.loads(lines[k])
    for key, value in changes.items():
        if value is None:
            obj.pop(key, None)
        else:
            obj[key] = value
    lines[k] = json.dumps(obj, separators=(",", ":"))
    return "\n".join(lines) + "\n"


def rejection(text: str) -> RecordRejected:
    items = read_text(text, "x.jsonl", "iwoki-log")
    assert items[0].error is not None, "expected a rejection"
    return items[0].error


def test_placement_whose_numbers_do_not_match():
    text = sample(NAMES[0])
    err = rejection(edit(text, 1, corners=[3, 3, 2]))
    assert (err.code, err.line, err.ply, err.token) == ("numbers-mismatch", 2, 1, "st23")


def test_a_placement_that_does_not_fit_the_board():
    text = sample(NAMES[0])
    second = json.loads(text.split("\n")[2])
    assert second["type"] == "place-hex"
    other = (second["rotation"] + 1) % 6
    err = rejection(edit(text, 2, rotation=other, vertices=None))
    assert err.code in ("illegal-placement", "score-mismatch") and err.line == 3 and err.ply == 2


def test_wrong_score():
    text = sample(NAMES[0])
    err = rejection(edit(text, 1, points=7))
    assert (err.code, err.line, err.ply) == ("score-mismatch", 2, 1)
    err = rejection(edit(text, 3, scores=[99, 5]))
    assert (err.code, err.line, err.ply) == ("score-mismatch", 4, 3)
    err = rejection(edit(text, 0, final_scores=[1, 2]))
    assert err.code == "score-mismatch" and err.token == "end"


def test_lenient_keeps_a_wrong_score_as_a_warning():
    text = edit(sample(NAMES[0]), 1, points=7)
    items = read_text(text, "x.jsonl", "iwoki-log", policy=LENIENT)
    assert items[0].error is None and "score-mismatch" in items[0].record.warnings[0]


def draw_line(text: str) -> int:
    return next(i for i, l in enumerate(text.split("\n")) if '"type":"draw"' in l)


def test_second_draw_in_a_turn():
    text = sample(NAMES[0])
    k = draw_line(text)
    lines = text.strip().split("\n")
    first = json.loads(lines[k])
    pile = json.loads(lines[0])["small_pile"]
    extra = dict(first, n=first["n"] + 1, tile=pile[pile.index(first["tile"]) + 1])
    later = [json.loads(l) for l in lines[k + 1:-1]]
    for obj in later:
        obj["n"] += 1
    lines[k + 1:-1] = [json.dumps(o, separators=(",", ":")) for o in [extra] + later]
    err = rejection("\n".join(lines) + "\n")
    assert (err.code, err.line, err.ply) == ("second-draw", k + 2, first["n"] + 1)


def test_draw_from_an_empty_pile():
    header = json.loads(sample(NAMES[0]).split("\n")[0])
    smalls = [f"st{i}" for i in range(1, 49)]
    header["variant"]["initial_small"] = 24
    header["initial_deal"][0]["small"] = smalls[:24]
    header["initial_deal"][1]["small"] = smalls[24:]
    header["small_pile"] = []
    first = {"kind": "action", "n": 1, "seat": 0, "type": "place-small", "tile": "st1", "face": "+", "rotation": 0,
             "gap": "H1_H4_H5", "points": 5, "scores": [5, 0], "white_tokens": [0, 0], "first_move": True}
    draw = {"kind": "action", "n": 2, "seat": 1, "type": "draw", "tile": "st2", "scores": [5, 0],
            "white_tokens": [0, 1]}
    text = "\n".join(json.dumps(o, separators=(",", ":")) for o in (header, first, draw)) + "\n"
    err = rejection(text)
    assert (err.code, err.line, err.ply) == ("draw-empty-pile", 3, 2)


def test_action_after_the_end():
    text = sample(NAMES[1])
    lines = text.strip().split("\n")
    last = json.loads(lines[-2])
    extra = dict(last, n=last["n"] + 1, seat=1 - last["seat"])
    lines.insert(len(lines) - 1, json.dumps(extra, separators=(",", ":")))
    err = rejection("\n".join(lines) + "\n")
    assert (err.code, err.line, err.ply) == ("action-after-end", len(lines) - 1, last["n"] + 1)
    after = text + json.dumps(last, separators=(",", ":")) + "\n"
    assert rejection(after).code == "action-after-end"


def test_missing_end_and_bad_json():
    text = sample(NAMES[2])
    lines = text.strip().split("\n")
    assert rejection("\n".join(lines[:-1]) + "\n").code == "missing-end"
    assert rejection(text.replace('"kind":"action"', '"kind":"action', 1)).code == "bad-json"
    assert rejection(edit(text, 2, seat=0)).code == "wrong-seat"


def test_an_infinite_number_in_a_log_is_refused():
    from scorebook.records.iwoki import load_json
    for text in ('{"a": 1e999}', '{"a": -1e999}', '{"a": NaN}', '{"a": Infinity}'):
        with pytest.raises(ValueError):
            load_json(text)
    assert load_json('{"a": 0.25}') == {"a": 0.25}


def test_the_log_header_schema_names_the_first_fault_in_field_order():
    """``LogHeader`` (pydantic) checks the fields in the spec's order; the first fault is the one said."""
    from scorebook.errors import ParseError
    from scorebook.records.iwoki import check_header
    good = json.loads(next(line for line in SAMPLE_LOG.read_text().splitlines() if line.strip()))  # the project's own log
    check_header(good, 1)
    cases = [({"seed": 1.5}, "seed must be"), ({"reference": {"other": "x"}}, "reference must be"),
             ({"variant": {"two words": 1}}, "variant must be"), ({"players": [good["players"][0]]}, "two seats"),
             ({"players": [dict(p, seat=0) for p in good["players"]]}, "seats 0 and 1"),
             ({"players": [dict(good["players"][0], type=None), good["players"][1]]}, "a player has"),
             ({"players": [dict(good["players"][0], type="two words")], "small_pile": 3}, "two seats"),
             ({"initial_deal": [{"small": []}] * 2}, "initial_deal must"), ({"hex_pile": [1]}, "hex_pile must"),
             ({"game": None, "hex_pile": [1]}, "game must be")]
    for change, said in cases:
        with pytest.raises(ParseError, match=said) as caught:
            check_header({**good, **change}, 7)
        assert caught.value.code == "bad-header" and caught.value.line == 7
