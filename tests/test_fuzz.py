"""Fuzzing every reader (as python-chess keeps one): hypothesis-driven mutations of the
project's records of every format through ``ingest_text`` never let an exception escape,
every rejection has a code, a line and a column, and every accepted record reads back from
each of its exports as the same record. Then a fixed corpus: the inputs that once crashed
the readers (each written here from the project's own samples), each now one clean rejection.
``benchmarks/fuzz.py --minutes N`` runs the same check for longer."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.records.ingest import ingest_text
from scorebook.records.store import Store

from .conftest import SAMPLES
from .fuzzing import FAILURES, check, mutate, seeds

SEEDS = seeds()


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(SEEDS))
@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_mutated_records_never_crash_and_round_trip(fmt, data):
    text = data.draw(st.sampled_from(SEEDS[fmt]), label="seed record")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="mutation seed"))
    mutated = mutate(text, rng)
    kind, detail = check(mutated)
    assert kind not in FAILURES, (kind, detail, mutated[:2000])


# ---------------------------------------------------------------- the corpus

TINYBOT = (SAMPLES / "tiny-islands" / "random-games.tinybot.txt").read_text().splitlines()[0].split(" #")[0]
TI_PGN = (SAMPLES / "tiny-islands" / "tiny-islands-random-s7-0001.pgn").read_text()
GOI_PGN = (SAMPLES / "game-of-islands" / "game-of-islands-greedy-random-10-s12-0001.pgn").read_text()
IW_PGN = (SAMPLES / "iwoki" / "iwoki-minimax2-greedy-s5-0002.pgn").read_text()
IW_LOG = (SAMPLES / "iwoki" / "iwoki-sampler-vs-random-s6.jsonl").read_text()
HUGE = "9" * 5000


def log_edit(line: int, change) -> str:
    """The Iwoki log with one line's object changed by ``change`` (or replaced by its text)."""
    lines = IW_LOG.splitlines()
    obj = json.loads(lines[line])
    out = change(obj)
    lines[line] = out if isinstance(out, str) else json.dumps(obj, separators=(",", ":"))
    return "\n".join(lines) + "\n"


def words(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


CORPUS = {
    # numbers of thousands of digits, wherever a number is read
    "tinybot 10th integer": (TINYBOT + " " + HUGE, "bad-score-fields"),
    "tinybot breakdown integer": (" ".join(TINYBOT.split()[:-1] + [HUGE]), "bad-score-fields"),
    "tinybot negative random placements": (TINYBOT + " -5", "bad-score-fields"),
    "tiny islands move number": (words(TI_PGN, "\n3. ", f"\n{HUGE}. "), "bad-move-number"),
    "tiny islands breakdown": (words(TI_PGN, '[Breakdown "65 0 1 0 4 0 0 0 -60"]',
                                     f'[Breakdown "65 0 1 0 4 0 0 0 {HUGE}"]'), "bad-tag"),
    "tiny islands random placements": (words(TI_PGN, '[Result "-60"]', '[RandomPlacements "-5"]\n[Result "-60"]'),
                                       "bad-tag"),
    "tiny islands visits with a non-ASCII digit": (words(TI_PGN, "\n1. h7+fC fh3", "\n1. h7+fC fh3 {[%visits 1:٣]}"),
                                                   "bad-comment"),
    "game of islands grid": (words(GOI_PGN, '[Grid "10"]', f'[Grid "{HUGE}"]'), "bad-grid"),
    "game of islands move number": (words(GOI_PGN, " 2. ", f" {HUGE}. "), "bad-move-number"),
    "iwoki seed": (words(IW_PGN, '[Seed "500001"]', f'[Seed "{HUGE}"]'), "bad-tag"),
    "iwoki option count": (words(IW_PGN, " 2. ", " {[%opts " + HUGE + "]} 2. "), "bad-comment"),
    "iwoki infinite option count": (words(IW_PGN, " 2. ", " {[%opts inf]} 2. "), "bad-comment"),
    "iwoki tile number": (words(IW_PGN, "1. st", "1. ht65536x"), "bad-token"),
    "iwoki header extra not an object": (words(IW_PGN, '[Result', '[HeaderExtra "true"]\n[Result'), "bad-tag"),
    "iwoki log number": (log_edit(1, lambda o: json.dumps(o)[:-1] + ',"n_options":' + HUGE + "}"), "bad-json"),
    "iwoki log nesting": (log_edit(1, lambda o: "[" * 5000 + "]" * 5000), "bad-json"),
    "iwoki log infinity": (log_edit(1, lambda o: json.dumps(o)[:-1] + ',"n_options":Infinity}'), "bad-json"),
    # fields of the wrong type, or missing
    "iwoki log type not a string": (log_edit(1, lambda o: o.update(type={"a": 1})), "bad-action"),
    "iwoki log gap a list": (log_edit(1, lambda o: o.update(gap=["H1"])), "bad-action"),
    "iwoki log float seat": (log_edit(1, lambda o: o.update(seat=0.0)), "bad-action"),
    "iwoki log huge seat": (log_edit(1, lambda o: o.update(seat=10 ** 12)), "bad-json"),
    "iwoki log header without players": (log_edit(0, lambda o: o.pop("players")), "bad-header"),
    "iwoki log variant not an object": (log_edit(0, lambda o: o.update(variant=[1])), "bad-header"),
    "iwoki log reference not an object": (log_edit(0, lambda o: o.update(reference="x")), "bad-header"),
    "iwoki log option count a float": (log_edit(1, lambda o: o.update(n_options=1.5)), "bad-action"),
    "iwoki log without its end": ("\n".join(IW_LOG.splitlines()[:-1]) + "\n", "missing-end"),
    # sizes past the limits
    "a comment of 200,000 characters": (words(TI_PGN, "\n1. h7+fC fh3", "\n1. h7+fC fh3 {" + "x" * 200_000 + "}"),
                                        "too-large"),
    # what one Iwoki format accepts, the other must read back (found by a 20-minute fuzz run)
    "iwoki own tags past the log header's room": (words(IW_PGN, '[Result', '[Recorde1 "' + "1" * 40_000 + '"]\n[Result'),
                                                 "too-large"),
    "iwoki own tag with a control character": (words(IW_PGN, '[Result', '[Note "a\x01b"]\n[Result'), "bad-tag"),
    "iwoki log own tags past the header's room": (log_edit(0, lambda o: o.update(tags={"Note": "1" * 40_000})),
                                                  "too-large"),
    "a tag of 100,000 characters": (words(GOI_PGN, '[Grid "10"]', '[Grid "10"]\n[Event "' + "e" * 100_000 + '"]'),
                                    "too-large"),
}


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_the_crash_corpus_is_rejected_cleanly(name):
    text, code = CORPUS[name]
    out = ingest_text(Store(":memory:"), text, "corpus.txt")
    errors = [e for o in out for e in o.get("errors", [])]
    assert errors and errors[0]["code"] == code, (name, out)
    assert all(e["line"] is not None and e["column"] is not None for e in errors), errors
    assert check(text)[0] not in FAILURES


@pytest.mark.parametrize("comment", ["{[%opts 50}", "{x [%opts 50}", "{[%opts}"])
def test_an_annotation_left_open_in_an_iwoki_record_is_refused_where_it_stands(comment):
    """Once accepted as a note, which a log cannot hold, it made an export that did not read back."""
    lines = IW_PGN.split("\n")
    k = next(i for i, line in enumerate(lines) if line.startswith("1."))
    lines[k] += " " + comment
    assert check("\n".join(lines)) == ("rejected", "bad-comment")
