"""Tsuro records as every faithful implementation writes them (spec 4): the short form of a
score sheet (the moves and every event but ``deck`` left out, filled in from the replay),
several dragon events of one turn, several returns written the placer's first, then by seat,
and read as a set."""
from __future__ import annotations

import random
import re

import numpy as np
import pytest

from scorebook.engines.tsuro import bots as B, rules as R
from scorebook.records.formats import read_text
from scorebook.records.ingest import ingest_text
from scorebook.records.tsuro import KEYWORDS, TsuroRecord, Turn, replay_events, write_record

from ..conftest import SAMPLES
from .test_errors import error, line_no

SAMPLE_FILES = sorted((SAMPLES / "tsuro").glob("*.pgn"))


def random_record(seed: int, players: int, refill: int) -> str:
    """A random legal game's canonical text (random placements, the engine's shuffles)."""
    rng = random.Random(seed)
    edge = [sq * 8 + p for sq in range(R.SQUARES) for p in range(8) if R.is_edge_point(sq, p)]
    starts = rng.sample(edge, players)
    deck = rng.sample(range(R.N_TILES), R.N_TILES)
    s = R.new_state(players, np.array(starts), np.array(deck), refill, seed)
    events = np.zeros((256, 3), np.int64)
    turns = []
    while not s[R.OVER]:
        seat, square = int(s[R.TO_MOVE]), int(s[R.POS + s[R.TO_MOVE]]) // 8
        legal = B.options_of(s)
        tile, rot = (int(v) for v in legal[rng.randrange(len(legal))])
        assert R.turn(s, tile, rot, R.NO_ORDER, events) == R.OK
        moves, by_kind = replay_events(events, int(s[R.N_EVENTS]))
        turns.append(Turn(seat, tile, rot, square, by_kind["deck"], moves,
                          {k: v for k, v in by_kind.items() if k != "deck"}))
    names = [f"P{i + 1}" for i in range(players)]
    return write_record(TsuroRecord(names, starts, deck, refill, {}, turns, R.score(s, names), None))[0]


def short_form(text: str, keep=("deck",)) -> str:
    """Each turn line cut to its placement and the events of the kinds kept."""
    out = []
    for line in text.split("\n"):
        m = re.match(r"(\d+\. \S+ \S+)(?: \| [^|]*)?(?: \| (.*))?$", line)
        if not m or not line[0].isdigit():
            out.append(line)
            continue
        events = re.split(r", (?=(?:draw|dragon|return|deck|refill|pass) )", m.group(2) or "")
        kept = [e for e in events if e.split(" ", 1)[0] in keep]
        out.append(m.group(1) + (" | " + ", ".join(kept) if kept else ""))
    return "\n".join(out)


def record_id(store, text: str) -> tuple[str, str]:
    outcome = ingest_text(store, text, "t.pgn", "pgn")[0]
    assert outcome["status"] in ("ingested", "duplicate"), outcome
    return outcome["status"], outcome["id"]


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.name)
def test_a_sample_in_the_short_form_is_the_same_record(store, path):
    full = path.read_text()
    status, rid = record_id(store, full)
    assert status == "ingested"
    assert record_id(store, short_form(full)) == ("duplicate", rid)  # the same canonical text, so the same id


@pytest.mark.parametrize("refill", [0, 1])
def test_random_games_in_the_short_form_read_back_whole(store, refill):
    """40 random games of 2 to 8 players: the short form, with no events but the new deck
    orders, or with some kinds kept as checks, is the same record as the full form."""
    for g in range(40):
        full = random_record(100 * refill + g, 2 + g % 7, refill)
        items = read_text(short_form(full), "t.pgn", "pgn")
        assert items[0].error is None, items[0].error
        assert write_record(items[0].record)[0] == full
        for keep in (("deck", "draw"), ("deck", "return", "dragon"), ("deck", "refill", "pass")):
            items = read_text(short_form(full, keep), "t.pgn", "pgn")
            assert items[0].error is None and write_record(items[0].record)[0] == full


def test_a_wrong_entry_in_the_short_form_is_an_event_mismatch():
    full = random_record(7, 3, 0)
    short = short_form(full, ("deck", "draw"))
    line = next(x for x in short.split("\n") if " | draw " in x)
    turn = int(line.split(".")[0])
    who, drawn = line.split(" | draw ")[1].split(",")[0].split()
    bad = short.replace(line, line.replace(f"draw {who} {drawn}", f"draw {who} {(int(drawn) + 1) % 35}"))
    assert bad != short
    err = error(bad)
    assert (err["code"], err["ply"], err["line"], err["token"]) == ("event-mismatch", turn, line_no(bad, f"{turn}. "),
                                                                    "draw")


def test_the_short_form_still_needs_the_new_deck_order():
    full = random_record(3, 4, 0)
    short = short_form(full, ())
    turn = next(int(x.split(".")[0]) for x in full.split("\n") if " deck " in x)
    err = error(short)
    assert (err["code"], err["ply"]) == ("missing-deck", turn)


@pytest.mark.parametrize("name", KEYWORDS)
def test_a_player_may_not_be_named_like_an_event(name):
    text = (SAMPLES / "tsuro" / "tsuro-simple-random-s5-0002.pgn").read_text().replace("simple", name)
    assert error(text)["code"] == "bad-tag"


def _turns_with(pattern: str, seeds, players, refill):
    for seed in seeds:
        text = random_record(seed, players, refill)
        for line in text.split("\n"):
            if re.search(pattern, line):
                yield text, line


def test_a_holder_who_takes_the_dragon_again_is_written_twice(store):
    """holder_first: a player handed the dragon who takes it again when its refill empties
    the deck: two dragon events, read back as the same record."""
    text, line = next(_turns_with(r"dragon (P\d), dragon \1\b", [33, 39], 7, 1))
    assert record_id(store, text)[0] == "ingested"
    assert record_id(store, short_form(text, ("deck", "dragon")))[0] == "duplicate"


def test_returns_are_written_the_placers_first_and_read_as_a_set():
    text, line = next(_turns_with(r"return (P\d) \[[^]]*\], return P", [10], 5, 0))
    placer = line.split()[1]
    returns = re.findall(r"return (P\d) \[", line)
    assert returns[0] == placer and returns[1:] == sorted(returns[1:])  # the placer's first, then by seat
    swapped = re.sub(r"(return P\d \[[^]]*\]), (return P\d \[[^]]*\])", r"\2, \1", line, count=1)
    again = read_text(text.replace(line, swapped), "t.pgn", "pgn")[0]
    assert again.error is None and write_record(again.record)[0] == text
