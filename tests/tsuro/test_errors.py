"""One test per Tsuro error code (spec 4.1), each asserting the code, line, column, turn and
token, made from the project's samples by changing one thing."""
from __future__ import annotations

import re

import numpy as np
import pytest

from scorebook.engines.tsuro import bots as B, rules as R
from scorebook.records.formats import read_text

from ..conftest import SAMPLES

TWO = (SAMPLES / "tsuro" / "tsuro-simple-random-s5-0002.pgn").read_text()
FIVE = (SAMPLES / "tsuro" / "tsuro-random-1-simple-2-random-3-simple-4-random-5-s2-0001.pgn").read_text()
EIGHT = (SAMPLES / "tsuro" /
         "tsuro-random-1-random-2-random-3-random-4-random-5-random-6-random-7-random-8-holder_first-s2-0001.pgn"
         ).read_text()


def error(text: str) -> dict:
    items = read_text(text, "t.pgn", "pgn")
    assert len(items) == 1 and items[0].error is not None, "expected a rejection"
    return items[0].error.as_dict()


def line_no(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if line.startswith(start))


def turn_line(text: str, n: int) -> str:
    return next(line for line in text.split("\n") if line.startswith(f"{n}. "))


def replace_line(text: str, n: int, new: str) -> str:
    return text.replace(turn_line(text, n) + "\n", new + "\n")


def at(err, code, line, column, ply, token):
    assert (err["code"], err["line"], err["column"], err["ply"], err["token"]) == (code, line, column, ply, token), err


@pytest.mark.parametrize("tag, value, code", [
    ("Players", "solo", "bad-tag"), ("Players", "a a", "bad-tag"), ("Start", "random c3.0, simple f4.2", "bad-start"),
    ("Start", "random f4.2, simple f4.2", "bad-start"), ("Start", "simple f4.2, random a6.7", "bad-start"),
    ("Deck", " ".join(map(str, range(34))), "bad-deck"), ("Deck", " ".join(map(str, [0] + list(range(1, 34)) + [0])),
                                                          "bad-deck"),
    ("Deal", "dealer-first", "bad-tag"), ("DragonRefill", "sometimes", "bad-tag")])
def test_tag_errors(tag, value, code):
    text = re.sub(rf'\[{tag} "[^"]*"\]', f'[{tag} "{value}"]', TWO) if f"[{tag} " in TWO else \
        TWO.replace('[Game "tsuro"]\n', f'[Game "tsuro"]\n[{tag} "{value}"]\n')
    at(error(text), code, line_no(text, f"[{tag} "), 1, None, value[:40])


def test_move_after_end():
    last = int(turn_line(TWO, 35).split(".")[0])
    text = TWO.rstrip("\n") + f"\n{last + 1}. random 0r0 | random a1.0>a1.1\n"
    at(error(text), "move-after-end", line_no(text, f"{last + 1}. "), len(f"{last + 1}. ") + 1, last + 1, "random")


def test_bad_token_and_bad_turn_number():
    line = turn_line(TWO, 2)
    text = replace_line(TWO, 2, line.replace("r", "q", 1))
    err = error(text)
    assert (err["code"], err["line"], err["ply"]) == ("bad-token", line_no(TWO, "2. "), 2)
    text = replace_line(TWO, 2, "3." + line[2:])
    at(error(text), "bad-turn-number", line_no(TWO, "2. "), 1, 2, "3.")
    text = replace_line(TWO, 2, line.split(" | ")[0] + " |")  # an empty section
    assert error(text)["code"] == "bad-token"


def test_player_eliminated_and_wrong_player():
    out = {}
    for line in FIVE.split("\n"):
        if ">x" in line or ">*" in line:
            for name, end in re.findall(r"(\S+) [a-f][1-6]\.[0-7]>([x*])", line):
                out.setdefault(name, int(line.split(".")[0]))
    name, turn = min(out.items(), key=lambda kv: kv[1])
    later = turn_line(FIVE, turn + 1)
    mover = later.split()[1]
    text = replace_line(FIVE, turn + 1, later.replace(f" {mover} ", f" {name} ", 1))
    at(error(text), "player-eliminated", line_no(FIVE, f"{turn + 1}. "), len(f"{turn + 1}. ") + 1, turn + 1, name)
    first = turn_line(FIVE, 1)
    text = replace_line(FIVE, 1, first.replace("1. random-1 ", "1. simple-2 ", 1))
    at(error(text), "wrong-player", line_no(FIVE, "1. "), 4, 1, "simple-2")


def test_tile_not_in_hand_and_wrong_square():
    line = turn_line(TWO, 1)
    placement = line.split()[2]
    tile, rest = placement.split("r", 1)
    absent = next(t for t in range(35) if f"{t}" not in TWO.split("[Deck \"")[1].split()[:6])
    text = replace_line(TWO, 1, line.replace(placement, f"{absent}r{rest}", 1))
    at(error(text), "tile-not-in-hand", line_no(TWO, "1. "), 11, 1, f"{absent}r{rest}")
    square = rest.split("@")[1]
    other = "c3" if square != "c3" else "c4"
    text = replace_line(TWO, 1, line.replace(placement, placement.replace(square, other), 1))
    at(error(text), "wrong-square", line_no(TWO, "1. "), 11, 1, placement.replace(square, other))


def test_self_elimination():
    deck = [int(t) for t in TWO.split('[Deck "')[1].split('"')[0].split()]
    starts = re.search(r'\[Start "random (\S+), simple (\S+)"\]', TWO)
    from scorebook.records.tsuro import parse_point
    s = R.new_state(2, np.array([parse_point(starts.group(1)), parse_point(starts.group(2))]), np.array(deck), 0, 0)
    bad = next((t, r) for t in R.hand(s, 0) for r in range(4) if R.eliminates_mover(s, t, r))
    assert R.has_safe(s)
    token = f"{bad[0]}r{bad[1]}"
    text = replace_line(TWO, 1, f"1. random {token} | random {starts.group(1)}>x")
    at(error(text), "self-elimination", line_no(TWO, "1. "), 11, 1, token)
    assert bad not in [tuple(o) for o in B.options_of(s)]


def test_move_mismatch():
    line = turn_line(TWO, 3)
    moves = line.split(" | ")[1]
    wrong = moves.rsplit(">", 1)[0] + ">x"
    text = replace_line(TWO, 3, line.replace(moves, wrong, 1))
    err = error(text)
    assert (err["code"], err["ply"], err["line"], err["token"]) == ("move-mismatch", 3, line_no(TWO, "3. "),
                                                                    moves.split()[0])


def test_missing_and_mismatched_deck():
    line = next(l for l in EIGHT.split("\n") if " deck " in l)
    n = int(line.split(".")[0])
    order = re.search(r"deck ([0-9 ]+)", line).group(1).strip()
    text = replace_line(EIGHT, n, re.sub(r", deck [0-9 ]+", "", line))
    err = error(text)
    assert (err["code"], err["ply"], err["line"]) == ("missing-deck", n, line_no(EIGHT, f"{n}. "))
    tiles = order.split()
    wrong = " ".join(tiles[:-1] + [str(next(t for t in range(35) if str(t) not in tiles))])
    text = replace_line(EIGHT, n, line.replace(f"deck {order}", f"deck {wrong}"))
    err = error(text)
    assert (err["code"], err["ply"], err["token"]) == ("deck-mismatch", n, "deck")
    first = turn_line(EIGHT, 1)
    text = replace_line(EIGHT, 1, first + ", deck " + order)
    assert error(text)["code"] == "deck-mismatch"


def test_event_mismatch():
    line = turn_line(TWO, 1)
    drawn = line.rsplit(" ", 1)[1]
    other = str((int(drawn) + 1) % 35)
    text = replace_line(TWO, 1, line.rsplit(" ", 1)[0] + " " + other)
    err = error(text)
    assert (err["code"], err["ply"], err["token"]) == ("event-mismatch", 1, "draw")
    text = replace_line(TWO, 1, line + ", pass random")
    assert error(text)["code"] == "event-mismatch"


def test_events_in_any_order_of_kinds_are_accepted():
    line = next(l for l in FIVE.split("\n") if " | " in l and l.count(", ") >= 2 and "refill" in l)
    n = int(line.split(".")[0])
    head, events = line.rsplit(" | ", 1)
    parts = re.split(r", (?=(?:draw|dragon|return|deck|refill|pass) )", events)
    text = replace_line(FIVE, n, head + " | " + ", ".join(reversed(parts)))
    assert read_text(text, "t.pgn", "pgn")[0].error is None


def test_game_incomplete_and_result_mismatch():
    lines = TWO.rstrip("\n").split("\n")
    text = "\n".join(lines[:-1]) + "\n"
    err = error(text)
    assert (err["code"], err["ply"], err["line"], err["token"]) == ("game-incomplete", 35, len(lines) - 1, None)
    assert err["column"] == len(lines[-2]) + 1
    text = TWO.replace('[Result "random"]', '[Result "simple"]')
    at(error(text), "result-mismatch", line_no(TWO, "[Result "), 1, None, "simple")


def test_a_returned_hand_reads_in_any_order():
    line = next(l for l in FIVE.split("\n") if re.search(r"return \S+ \[\d+ \d+", l))
    n = int(line.split(".")[0])
    hand = re.search(r"return \S+ \[([0-9 ]+)\]", line).group(1)
    text = replace_line(FIVE, n, line.replace(f"[{hand}]", "[" + " ".join(reversed(hand.split())) + "]"))
    assert read_text(text, "t.pgn", "pgn")[0].error is None
