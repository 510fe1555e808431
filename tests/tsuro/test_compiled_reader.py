"""Tsuro's compiled reader (``records/tsuro_compiled.py``) against the walk (``TsuroVisitor``
reading token by token): a record it reads is the walk's record, text, moves, score and turns
alike; anything else it leaves to the walk, so every rejection is the walk's. Held on random
games of 2 to 8 players under both refill rules, full and short forms, the samples, written
variations, and the fuzzers' mutations of all of them."""
from __future__ import annotations

import random
import re

import pytest

from scorebook.errors import LENIENT, STRICT
from scorebook.records import tsuro, tsuro_compiled
from scorebook.records.tsuro import write_record

from ..compiled_readers import compiled_and_walked as both_ways
from ..conftest import SAMPLES
from ..fuzzing import mutate
from .test_short_form import random_record, short_form


def _described(r) -> tuple:
    return write_record(r), r.score, r.recorded, r.warnings, list(r.turns), r.tags


def compiled_and_walked(text: str, policy=STRICT) -> list[bool]:
    """Read ``text`` both ways; assert they agree; which records the compiled reader read."""
    return both_ways(text, tsuro.TsuroVisitor, _described, lambda r: r.turns, policy)


GAMES = [(seed, 2 + seed % 7, seed % 2) for seed in range(24)]  # (seed, players, refill)


@pytest.mark.parametrize("seed,players,refill", GAMES)
def test_random_games_read_compiled_as_the_walk_reads_them(seed, players, refill):
    full = random_record(1000 + seed, players, refill)
    forms = [full, short_form(full), short_form(full, ("deck", "draw")),
             short_form(full, ("deck", "return", "dragon")), short_form(full, ("deck", "refill", "pass"))]
    for text in forms:
        assert compiled_and_walked(text) == [True]


@pytest.mark.parametrize("path", sorted((SAMPLES / "tsuro").glob("*.pgn")), ids=lambda p: p.name)
def test_the_samples_read_compiled_unless_they_hold_a_comment(path):
    text = path.read_text()
    assert compiled_and_walked(text) == ["{" not in text]


def test_written_variations_read_alike():
    """What the grammar allows besides the canonical spelling (squares left out, tabs and
    Windows line ends, leading zeros, commas doubled, several turns a line), and a shape the
    compiled reader leaves to the walk (a result token)."""
    full = random_record(77, 4, 0)
    head, moves = full.split("\n\n", 1)
    variations = {  # the text, and whether the compiled reader reads it
        "squares left out": (re.sub(r"(r\d)@[a-f]\d", r"\1", moves), True),
        "tabs and CRLF": (moves.replace(" | ", "\t|\t").replace("\n", "\r\n"), True),
        "leading zeros": (re.sub(r" (\d)r", r" 0\1r", moves), True),
        "commas doubled": (moves.replace(", ", ",, "), True),
        "two turns a line": (moves.replace("\n", " ", 3), True),
        "a keyword with a comma": (moves.replace(", deck ", ", deck, ", 1), True),
        "a result token": (moves + " *\n", False),
    }
    for name, (text, compiled) in variations.items():
        assert text != moves, name
        assert compiled_and_walked(head + "\n\n" + text) == [compiled], name


def test_a_stated_result_the_replay_contradicts_is_the_walks_warning():
    text = random_record(5, 3, 0)
    winners = text.split('[Result "')[1].split('"')[0]
    loser = next(n for n in ("P1", "P2", "P3") if n not in winners.split())
    wrong = text.replace(f'[Result "{winners}"]', f'[Result "{loser}"]')
    assert compiled_and_walked(wrong, STRICT) == [False]
    assert compiled_and_walked(wrong, LENIENT) == [False]


def test_mutated_records_are_read_or_refused_as_the_walk_does():
    """600 mutations (the fuzzers' own) of random games and of the samples: the same outcome
    each time, the compiled reader reading some and refusing none itself."""
    rng = random.Random(86)
    bases = [random_record(2000 + k, 2 + k % 7, k % 2) for k in range(8)]
    bases += [short_form(b) for b in bases[:4]] + [p.read_text() for p in sorted((SAMPLES / "tsuro").glob("*.pgn"))]
    read = 0
    for k in range(600):
        text = mutate(bases[k % len(bases)], rng)
        read += sum(compiled_and_walked(text))
    assert read > 0


def _altered_events(text: str, players: int):
    """``text`` with one event entry of one turn changed or dropped, each way in turn: a tile
    one higher, another player named, the entry left out, the entry written twice."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if line.count(" | ") != 2:
            continue
        head, events = line.rsplit(" | ", 1)
        parts = re.split(r", (?=(?:draw|dragon|return|deck|refill|pass) )", events)
        for i, part in enumerate(parts):
            if part.startswith("deck"):
                continue
            words = part.split()
            other = f"P{int(words[1][1:]) % players + 1}"
            changed = [re.sub(r"(\d+)(\]?)$", lambda m: f"{(int(m.group(1)) + 1) % 35}{m.group(2)}", part),
                       part.replace(words[1], other, 1), None, part + ", " + part]
            for new in changed:
                if new == part:
                    continue
                rest = parts[:i] + ([new] if new is not None else []) + parts[i + 1:]
                yield "\n".join(lines[:k] + [head + (" | " + ", ".join(rest) if rest else "")] + lines[k + 1:])


@pytest.mark.parametrize("seed,players,refill", [(3, 5, 0), (11, 7, 1), (8, 8, 0)])
def test_every_event_entry_written_is_checked(seed, players, refill):
    """Each event of a turn changed (a tile, a player), left out or doubled, in the full form
    and in the short form (where an entry may be left out): read or refused alike, each
    refusal the walk's (the moves section alone would not tell them apart)."""
    full = random_record(3000 + seed, players, refill)
    tried = 0
    for text in (full, short_form(full, ("deck", "draw", "dragon", "return", "refill", "pass"))):
        for altered in _altered_events(text, players):
            compiled_and_walked(altered)
            tried += 1
    assert tried > 20


def test_the_compile_notice_names_the_game_of_a_compiled_reader():
    from scorebook.analyze.warm import game_of_module
    assert game_of_module(tsuro_compiled.__name__) == "Tsuro"
    assert game_of_module("scorebook.records.compiled") is None  # shared by every game: "Scorebook"
