"""Replay rejects illegal records with a stable code and the position of the token."""
from __future__ import annotations

import pytest

from scorebook.engines.tiny_islands.metadata import TILE_LETTERS, ZONE_MASK, cell_name
from scorebook.records import tinybot, tiny_islands
from scorebook.errors import IllegalMove, RecordRejected
from scorebook.records.ingest import ingest_text

from .conftest import random_record, random_tinybot_line


def tokens(line):
    """(text, 1-based column) of every whitespace-separated token."""
    out, col = [], 1
    for part in line.split(" "):
        out.append((part, col))
        col += len(part) + 1
    return out


def replace_token(line, index, new):
    parts = line.split(" ")
    parts[index] = new
    return " ".join(parts)


def placement_index(turn):
    """TinyBot token position of the placement of 0-based ``turn``."""
    return tinybot.LAYOUT.index(("placement", turn))


def reject(line):
    record = tinybot.parse_line(line, 7)
    with pytest.raises(RecordRejected) as info:
        result = tiny_islands.replay(record)
        mismatch = tiny_islands.score_mismatch(record, result)
        if mismatch:
            raise mismatch
    return info.value


def test_tile_not_offered():
    line = random_tinybot_line(1)
    record = tinybot.parse_line(line)
    turn = 4
    offer = record.offers[turn]
    other = next(t for t in range(1, 8) if t not in (offer.tile1, offer.tile2))
    cell = record.placements[turn].cell
    pos = placement_index(turn)
    new = TILE_LETTERS[other] + cell_name(cell)
    err = reject(replace_token(line, pos, new))
    assert (err.code, err.line, err.column, err.ply, err.token) == (
        "tile-not-offered", 7, tokens(line)[pos][1], 5, new)


def test_placement_outside_zone():
    line = random_tinybot_line(2)
    record = tinybot.parse_line(line)
    turn = 12
    offer = record.offers[turn]
    tile = record.placements[turn].tile
    zones = [offer.zone1 if offer.tile1 == tile else None, offer.zone2 if offer.tile2 == tile else None]
    occupied = {p.cell for p in record.placements[:turn]}
    cell = next(z for z in range(81) if z not in occupied and not any(
        zn is not None and ZONE_MASK[zn, z] for zn in zones))
    pos = placement_index(turn)
    new = TILE_LETTERS[tile] + cell_name(cell)
    err = reject(replace_token(line, pos, new))
    assert (err.code, err.column, err.ply, err.token) == ("placement-outside-zone", tokens(line)[pos][1], 14, new)


def test_cell_occupied():
    # find a turn whose offered zone holds a cell filled earlier, and place there
    for seed in range(50):
        line = random_tinybot_line(seed)
        record = tinybot.parse_line(line)
        for turn in range(1, 26):
            o = record.offers[turn]
            earlier = [p.cell for p in record.placements[:turn] if ZONE_MASK[o.zone1, p.cell]]
            if earlier:
                pos = placement_index(turn)
                new = TILE_LETTERS[o.tile1] + cell_name(earlier[0])
                err = reject(replace_token(line, pos, new))
                assert (err.code, err.column, err.ply, err.token) == (
                    "cell-occupied", tokens(line)[pos][1], tiny_islands.ply_of_turn(turn), new)
                return
    pytest.fail("no occupied-cell case found")


DRAWING_1 = tinybot.LAYOUT.index(("drawing", 0))
DRAWING_2 = tinybot.LAYOUT.index(("drawing", 1))


@pytest.mark.parametrize("token, code", [
    ("a5b5c5d5e5f5g5h5i5i4i3i2", "drawing-too-long"),
    ("d4e4f4d5f5d6e6f6", "drawing-hole"),
    ("e5e6f6g6g5g4f4", "drawing-pinched"),
    ("a1c1", "drawing-disconnected"),
    ("e5e5", "drawing-repeated-cell"),
])
def test_bad_first_drawing(token, code):
    line = random_tinybot_line(3)
    err = reject(replace_token(line, DRAWING_1, token))
    assert (err.code, err.column, err.ply, err.token) == (code, tokens(line)[DRAWING_1][1], 10, token)


def test_drawing_that_touches_an_earlier_shoreline():
    line = replace_token(random_tinybot_line(4), DRAWING_1, "e5")
    bad = replace_token(line, DRAWING_2, "h6g6f6")
    err = reject(bad)
    assert (err.code, err.column, err.ply, err.token) == (
        "drawing-touches-shoreline", tokens(bad)[DRAWING_2][1], 20, "h6g6f6")


def test_stated_score_that_differs():
    line = random_tinybot_line(5)
    parts = line.split(" ")
    parts[-1] = str(int(parts[-1]) + 1)   # total
    parts[-8] = str(int(parts[-8]) + 1)   # forests (fields: P F H S W M C B total)
    err = reject(" ".join(parts))
    assert err.code == "score-mismatch"
    assert err.column == tokens(line)[-9][1] and err.ply is None
    assert "forests" in err.message and "total" in err.message


def test_lenient_stores_a_score_mismatch_with_a_warning(store):
    line = random_tinybot_line(5)
    parts = line.split(" ")
    parts[-2] = str(int(parts[-2]) + 3)  # three more Boat points, and a total that says so
    parts[-1] = str(int(parts[-1]) + 3)
    bad = " ".join(parts)
    assert ingest_text(store, bad, "x.txt")[0]["status"] == "rejected"
    out = ingest_text(store, bad, "x.txt", lenient=True)[0]
    assert out["status"] == "ingested" and "score-mismatch" in out["warnings"][0]
    assert out["recorded"]["total"] == out["score"]["total"] + 3


def test_a_breakdown_that_does_not_add_up_is_refused_by_both_readers(store):
    """A total that is not the categories less the penalties: the TinyBot line is refused as
    its PGN export would be (bad-score-fields / bad-tag), not kept by --lenient."""
    parts = random_tinybot_line(5).split(" ")
    parts[-1] = str(int(parts[-1]) + 3)
    out = ingest_text(store, " ".join(parts), "x.txt", lenient=True)[0]
    assert out["status"] == "rejected" and out["errors"][0]["code"] == "bad-score-fields"


def test_errors_in_scorebook_notation_point_at_the_token():
    record = random_record(6)
    text = tiny_islands.write_pgn(record)
    lines = text.split("\n")
    # the first drawing line: make it a hole
    n = next(i for i, l in enumerate(lines) if l.startswith("("))
    lines[n] = "(d4 e4 f4 d5 f5 d6 e6 f6)"
    with pytest.raises(IllegalMove) as info:
        tiny_islands.replay(tiny_islands.parse_pgn("\n".join(lines))[0])
    err = info.value
    assert (err.code, err.line, err.column, err.ply) == ("drawing-hole", n + 1, 1, 10)


def test_one_deck_tag_is_checked_against_the_offers():
    record = random_record(8)  # a naive two-deck shuffle
    text = tiny_islands.write_pgn(record).replace("[Rules", '[Deck "one-deck"]\n[Rules')
    with pytest.raises(IllegalMove) as info:
        tiny_islands.replay(tiny_islands.parse_pgn(text)[0])
    assert info.value.code == "deck-mismatch" and info.value.line is not None


@pytest.mark.parametrize("changed", ["movetext", "Result tag", "both"])
def test_a_stated_total_that_differs_from_the_replay_is_a_score_mismatch_wherever_it_is_stated(store, changed):
    """A record states its total in the Breakdown, the Result tag and its movetext's result:
    one of them changed is a stated score that differs from the replay (score-mismatch, at
    the statement, kept with a warning under --lenient), as in every game and format, not a
    record that contradicts itself; only finished against unfinished (``*``) is bad-result."""
    text = tiny_islands.write_pgn(random_record(5))
    lines = text.rstrip("\n").split("\n")
    total = lines[-1]
    tag = next(i for i, line in enumerate(lines) if line.startswith("[Result "))
    if changed in ("movetext", "both"):
        lines[-1] = str(int(total) + 3)
    if changed in ("Result tag", "both"):
        lines[tag] = f'[Result "{int(total) + 3}"]'
    bad = "\n".join(lines) + "\n"
    err = ingest_text(store, bad, "x.pgn")[0]["errors"][0]
    at = (tag + 1, 1) if changed == "Result tag" else (len(lines), 1)
    assert (err["code"], err["line"], err["column"]) == ("score-mismatch", *at), err
    kept = ingest_text(store, bad, "x.pgn", lenient=True)[0]
    assert kept["status"] == "ingested" and "score-mismatch" in kept["warnings"][0]
    unfinished = text.replace(f'[Result "{total}"]', '[Result "*"]')
    assert ingest_text(store, unfinished, "y.pgn", lenient=True)[0]["errors"][0]["code"] == "bad-result"
