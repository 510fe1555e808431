"""Tiny Islands' compiled reader (``records/tiny_islands_compiled.py``) against the walk
(``TinyIslandsVisitor`` reading token by token): a record it reads is the walk's record (its
offers, placements, drawings, tags, canonical text, moves rows, score and deck); anything else
it leaves to the walk, so every rejection is the walk's. Held on random and bot games under
both rule sets, the samples, written variations and the fuzzers' mutations."""
from __future__ import annotations

import random
import re

import pytest

from scorebook import registry
from scorebook.errors import LENIENT, STRICT, RecordRejected
from scorebook.records import tiny_islands as T

from ..compiled_readers import compiled_and_walked as both_ways
from ..conftest import SAMPLES
from ..fuzzing import mutate
from .conftest import bot_record, random_record

NOTATION = registry.get_game("tiny-islands").notation


def _described(r) -> tuple:
    try:
        c = NOTATION.canonical(r, LENIENT)  # a stated score the replay contradicts: a warning to compare
    except RecordRejected as err:  # read, and refused by the replay
        return (err.as_dict(),)
    return (c.text, c.moves, c.score, c.deck, c.warnings, r.tags, r.rules, r.recorded, r.finished, r.label,
            list(r.offers), list(r.placements), r.drawings)


def compiled_and_walked(text: str, policy=STRICT) -> list[bool]:
    """Read ``text`` both ways; assert they agree; which records the compiled reader read."""
    return both_ways(text, T.TinyIslandsVisitor, _described, lambda r: r.placements, policy)


def _text(seed: int, rules: str = "published") -> str:
    record = random_record(seed, rules)
    for drawing, region in zip(record.drawings, T.replay(record).regions):  # written as regions
        drawing.region, drawing.trace = [int(z) for z in region.nonzero()[0]], None
    return T.write_pgn(record)


@pytest.mark.parametrize("seed", range(6))
def test_random_games_read_compiled_as_the_walk_reads_them(seed):
    rules = "tinybot" if seed % 2 else "published"
    assert compiled_and_walked(_text(300 + seed, rules)) == [True]
    traced = T.write_pgn(random_record(300 + seed, rules))  # TinyBot's traces: a %trace comment, or none
    assert compiled_and_walked(traced) == ["%trace" not in traced]


def test_a_bot_game_reads_compiled():
    _, record = bot_record(5)
    record.recorded = T.replay(record).score
    assert compiled_and_walked(T.write_pgn(record)) == [True]


@pytest.mark.parametrize("path", sorted((SAMPLES / "tiny-islands").glob("*.pgn")), ids=lambda p: p.name)
def test_the_samples_read_alike(path):
    text = path.read_text()
    assert compiled_and_walked(text) == ["{" not in text.split("\n\n", 1)[1]]


def later(lines: list[str], drawing: int, turn: int) -> list[str]:
    """``lines`` with drawing ``drawing``'s line moved after turn ``turn``'s (its the last
    line's place where ``turn`` is past the end)."""
    drawn = [k for k, line in enumerate(lines) if line.startswith("(")][drawing]
    rest = lines[:drawn] + lines[drawn + 1:]
    at = next((k + 1 for k, line in enumerate(rest) if line.startswith(f"{turn}. ")), len(rest))
    return rest[:at] + [lines[drawn]] + rest[at:]


def _variations(text: str) -> list[tuple[str, bool]]:
    """(a text written otherwise, read compiled?)"""
    head, moves = text.split("\n\n", 1)
    total = re.search(r'\[Result "(-?\d+)"\]', head).group(1)
    lines = moves.split("\n")
    turns = [line for line in lines if re.match(r"\d+\. ", line)]
    plain = "\n".join(re.sub(r"^\d+\. ", "", line) for line in lines)
    no_breakdown = re.sub(r'\n\[Breakdown "[^"]*"\]', "", head)
    wrong = str(int(total) + 1)
    unfinished = no_breakdown.replace(f'[Result "{total}"]', '[Result "*"]')
    return [
        (head + "\n\n" + plain, True),  # no move numbers
        (head + "\n\n" + " ".join(lines), True),  # one line, drawings glued between the turns
        (head + "\n\n" + moves.replace("(", "( ").replace(")", " )"), True),  # spaced parentheses
        (head + "\n\n" + re.sub(r"^(\d+)\. ", r"\1... ", moves, flags=re.M), True),
        (head + "\n\n" + moves.replace("\n1. ", "\n1.", 1).replace("1. ", "1.", 1), False),  # stuck to its number
        (no_breakdown + "\n\n" + moves, True),
        (no_breakdown.replace(f'[Result "{total}"]', f'[Result "{wrong}"]') + "\n\n" + moves, False),
        (no_breakdown + "\n\n" + moves.replace(f"\n{total}\n", f"\n{wrong}\n"), False),  # the total contradicted
        (head.replace("[Rules", '[Deck "two-deck"]\n[Rules') + "\n\n" + moves, True),
        (head.replace("[Rules", '[Deck "one-deck"]\n[Rules') + "\n\n" + moves, False),  # two-deck offers
        (head.replace(f'[Result "{total}"]', '[Result "*"]') + "\n\n" + moves, False),
        (head + "\n\n" + "\n".join(turns[:5]) + "\n*\n", False),  # the Breakdown of a game unfinished
        (no_breakdown.replace(f'[Result "{total}"]', '[Result "*"]') + "\n\n" + "\n".join(turns[:5]) + "\n*\n", True),
        (no_breakdown.replace(f'[Result "{total}"]', '[Result "*"]') + "\n\n" + "\n".join(turns[:9]) + "\n*\n", False),
        (head + "\n\n" + moves.replace("\n(", "\n10. (", 1), True),  # the next turn's number, then the drawing
        (head + "\n\n" + moves.replace("\n(", "\n9. (", 1), False),
        (head + "\n\n" + moves.replace(")", "", 1), False),
        (head + "\n\n" + "\n".join(later(lines, 0, 18)), False),  # the first drawing after turn 18
        (head + "\n\n" + "\n".join(later(lines, 0, 5)), False),  # ... after turn 5
        (head + "\n\n" + "\n".join(later(lines, 0, 5) + later(lines, 0, 9)[-1:]), False),  # and after 9
        (head + "\n\n" + moves.replace("\n(", "\n()\n(", 1), False),
        (head + "\n\n" + re.sub(r"\n\([^)]*\)", "\n()", moves, count=1), False),
        (unfinished + "\n\n" + "\n".join(turns[:9] + ["()"] + turns[9:12]) + "\n*\n", False),
        (unfinished + "\n\n" + "\n".join(lines[:13]) + "\n*\n", True),
        (head + "\n\n" + moves.replace("(", "(a0 ", 1), False),
        (head + "\n\n" + moves.replace(f"\n{total}\n", f"\n{total} {total}\n"), False),
    ]


@pytest.mark.parametrize("seed", [310, 311])
def test_written_variations_read_alike(seed):
    """Move numbers left out or dotted thrice, the drawings spaced or glued, the Deck left to
    the offers: read compiled as the walk reads them. A move stuck to its number, a total, Deck
    or result the record contradicts, a drawing missing or malformed: left to the walk."""
    text = _text(seed, "tinybot" if seed % 2 else "published")
    assert "[Deck" not in text
    for variant, compiled in _variations(text):
        for policy in (STRICT, LENIENT):
            assert compiled_and_walked(variant, policy) == [compiled], variant[-300:]


def test_a_one_deck_game_reads_its_deck_as_the_walk():
    """The real deck's offers, stated or not: one-deck, as ``resolve_deck`` says."""
    from scorebook.engines.tiny_islands.deck import one_deck_offers
    import numpy as np
    from scorebook.engines.tiny_islands.players import random_game
    offers = one_deck_offers(np.random.default_rng(3))
    record = T.from_arrays(offers, *random_game(offers, 3), regions=True)
    record.recorded = T.replay(record).score
    text = T.write_pgn(record)
    assert '[Deck' not in text and compiled_and_walked(text) == [True]
    assert T.parse_pgn(text)[0].compiled.deck == "one-deck"
    stated = text.replace('[Rules', '[Deck "one-deck"]\n[Rules', 1)
    assert compiled_and_walked(stated) == [True]


def test_mutated_records_are_read_or_refused_as_the_walk_does():
    """500 mutations (the fuzzers' own) of random games and the samples: the same outcome."""
    rng = random.Random(86)
    bases = [_text(320 + k, "tinybot" if k % 2 else "published") for k in range(4)]
    bases += [p.read_text() for p in sorted((SAMPLES / "tiny-islands").glob("*.pgn"))]
    read = 0
    for k in range(500):
        read += sum(compiled_and_walked(mutate(bases[k % len(bases)], rng)))
    assert read > 0
