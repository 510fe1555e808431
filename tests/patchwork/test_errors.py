"""One test per Patchwork error code (spec 4.3), each asserting the code, line, column, ply
and token; the order of the codes where two apply."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.engines.patchwork import pieces as P, rules as R
from scorebook.records.formats import read_text

CIRCLE = " ".join(str(i) for i in range(1, 33)) + " 0"


def solo(movetext: str, variant: str = "real", extra: str = "") -> str:
    return f'[Game "patchwork-solo"]\n[Variant "{variant}"]\n[PatchSet "patches.json v1"]\n{extra}\n{movetext}\n'


def duo(movetext: str, circle: str = CIRCLE, extra: str = "") -> str:
    return (f'[Game "patchwork"]\n[PatchSet "patches.json v1"]\n[Players "a / b"]\n[Circle "{circle}"]\n{extra}\n'
            f"{movetext}\n")


def error(text: str) -> dict:
    items = read_text(text, "t.pgn", "pgn")
    assert len(items) == 1 and items[0].error is not None, "expected a rejection"
    return items[0].error.as_dict()


@pytest.mark.parametrize("text, code, line, column, ply, token", [
    (solo("S3 X9"), "bad-token", 5, 4, 2, "X9"),
    (solo("S53 S1", "sim"), "move-after-end", 5, 5, 2, "S1"),
    (duo("2:A"), "wrong-mover", 6, 1, 1, "2:A"),
    (duo("1:A 1:A"), "wrong-mover", 6, 5, 2, "1:A"),
    (solo("L@e5"), "no-leather-due", 5, 1, 1, "L@e5"),
    (solo("L@e5", "sim"), "no-leather-due", 5, 1, 1, "L@e5"),
    (solo("S20 L-"), "leather-lost-not-full", 5, 5, 2, "L-"),
    (solo("B0@a1r0 S19 L@a1"), "overlap", 5, 13, 3, "L@a1"),
    (solo("S20 S1"), "leather-due", 5, 5, 2, "S1"),
    (solo("S53 S1"), "leather-due", 5, 5, 2, "S1"),  # five leather patches due: the game is not over
    (solo("S0"), "bad-skip", 5, 1, 1, "S0"),
    (solo("S54"), "skip-past-end", 5, 1, 1, "S54"),
    (duo("1:B9@a1r0"), "not-in-window", 6, 1, 1, "1:B9@a1r0"),
    (solo("B33@a1r0"), "unknown-patch", 5, 1, 1, "B33@a1r0"),
    (solo("B0@a1r0 B0@c1r0"), "already-bought", 5, 9, 2, "B0@c1r0"),
    (duo("1:B1@a1r0 2:B1@a3r0"), "already-bought", 6, 11, 2, "2:B1@a3r0"),
    (solo("B29@a1r0"), "unaffordable", 5, 1, 1, "B29@a1r0"),
    (solo("B0"), "placement-missing", 5, 1, 1, "B0"),
    (solo("B0@i1r0"), "off-board", 5, 1, 1, "B0@i1r0"),
    (solo("B0@a1r0 B2@a1r0"), "overlap", 5, 9, 2, "B2@a1r0"),
    (solo("B0@a1r0", "sim"), "placement-in-sim", 5, 1, 1, "B0@a1r0"),
    (solo("S3"), "game-incomplete", 5, 3, 2, None),
    (solo("S20"), "leather-due", 5, 4, 2, None),
    (solo("S53", "sim", '[Score "1"]\n'), "score-mismatch", 4, 1, None, "1"),  # at the tag it contradicts
    (solo("S53", "sim", '[Score "abc"]\n'), "bad-tag", 4, 1, None, "abc"),
    (solo("S53", "xx"), "bad-tag", 2, 1, None, "xx"),
    (duo("1:A", circle="1 2 3"), "bad-circle", 4, 1, None, "1 2 3"),
])
def test_error_codes(text, code, line, column, ply, token):
    err = error(text)
    assert (err["code"], err["line"], err["column"], err["ply"], err["token"]) == (code, line, column, ply, token), err


def test_a_stated_score_that_matches_is_accepted():
    items = read_text(solo("S53", "sim", '[Score "-94"]\n'), "t.pgn", "pgn")
    assert items[0].error is None and items[0].record.score["total"] == 5 + 53 - 2 * (81 - 5)


def test_no_room_in_the_simulated_variant():
    """Shape-less patches fill 79 squares; then a 3-square patch has no room."""
    movetext = "B23 B3 B20 B22 S1 B11 S1 B13 S1 B30 B31 S1 B21 B0 B1 B4 S1 B12 B25 S1 S1 B32 S1"
    s = R.new_state(P.SIM, np.zeros(0, np.int64))
    for token in movetext.split():
        assert R.apply(s, R.BUY, int(token[1:]), R.NO_PLACE) == R.OK if token[0] == "B" else \
            R.apply(s, R.SKIP, int(token[1:]), 0) == R.OK
    assert s[R.SQUARES] == 79 and P.SIZE[2] == 3 and P.COST[2] <= s[R.BUTTONS]
    err = error(solo(movetext + " B2", "sim"))
    assert (err["code"], err["ply"], err["token"], err["column"]) == ("no-room", 24, "B2", len(movetext) + 2)


def test_every_engine_code_is_a_record_code():
    """The rules' codes are the records' (the visitor names them as the engine does)."""
    assert set(R.CODE_NAMES.values()) <= {
        "move-after-end", "no-leather-due", "leather-lost-not-full", "overlap", "leather-due", "bad-skip",
        "skip-past-end", "not-in-window", "unknown-patch", "already-bought", "unaffordable", "placement-missing",
        "off-board", "placement-in-sim", "no-room", "bad-token"}
