"""Patchwork's compiled reader (``records/patchwork_compiled.py``) against the walk
(``PatchworkVisitor`` reading token by token): a record it reads is the walk's record (text,
moves and their notes, scores); anything else it leaves to the walk, so every rejection is
the walk's. Held on bot games of the three variants, the samples, written variations and the
fuzzers' mutations."""
from __future__ import annotations

import random
import re

import pytest

from scorebook import registry
from scorebook.errors import LENIENT, STRICT
from scorebook.records import patchwork as W
from scorebook.records.patchwork import write_record
from scorebook.records.play import Match, parse_bots, play_options, play_task

from ..compiled_readers import compiled_and_walked as both_ways
from ..conftest import SAMPLES
from ..fuzzing import mutate


def _described(r) -> tuple:
    return write_record(r), r.score, r.recorded, r.warnings, list(r.moves), r.tags


def compiled_and_walked(text: str, policy=STRICT) -> list[bool]:
    """Read ``text`` both ways; assert they agree; which records the compiled reader read."""
    return both_ways(text, W.PatchworkVisitor, _described, lambda r: r.moves, policy)


def bot_games(variant: str, count: int, seed: int) -> list[str]:
    game = registry.get_game("patchwork")
    seats = 2 if variant == "two-player" else 1
    match = Match(game.id, tuple(parse_bots(game, ["random"] * seats)), tuple(f"P{i + 1}" for i in range(seats)),
                  play_options(game, {"variant": variant}), seed)
    setups = game.notation.fixed_setups(match.options)
    return [play_task((match, g, setups[g % len(setups)] if setups else None))["text"] for g in range(count)]


@pytest.mark.parametrize("variant", ["two-player", "real", "sim"])
def test_bot_games_read_compiled_as_the_walk_reads_them(variant):
    for text in bot_games(variant, 4, 7):
        assert compiled_and_walked(text) == [True]


@pytest.mark.parametrize("path", sorted((SAMPLES / "patchwork").glob("*.pgn")), ids=lambda p: p.name)
def test_the_samples_read_alike(path):
    text = path.read_text()
    assert compiled_and_walked(text) == ["{" not in text.split("\n\n", 1)[1]]


def test_the_special_tile_is_noted_whoever_wrote_it():
    """A record that says nothing of the 7x7 tile is read compiled, and written with its note."""
    text = (SAMPLES / "patchwork" / "patchwork-best2-vbrz-two-player-s6-0001.pgn").read_text()
    bare = text.replace(" {7x7}", "").replace("{7x7}", "")
    assert bare != text and compiled_and_walked(bare) == [True]
    assert "{7x7}" in write_record(next(iter(_records(bare))))[0]


def _records(text: str):
    from scorebook.records.formats import read_pgn
    return [item.record for item in read_pgn(text)]


def test_written_variations_read_alike():
    """Move numbers (ignored), a result, leading zeros: read compiled as the walk reads them;
    a move stuck to its number and a result the replay contradicts: left to the walk."""
    text = bot_games("two-player", 1, 3)[0]
    head, moves = text.split("\n\n", 1)
    winner = _records(text)[0].score["winner"]
    words = moves.split()
    numbered = " ".join(f"{k // 2 + 1}. {w}" if k % 2 == 0 else w for k, w in enumerate(words))
    unscored = re.sub(r'\n?\[Score "[^"]*"\]', "", head)  # then the result is what is checked
    assert unscored != head
    right, wrong = (" 1-0", " 0-1") if winner == 0 else (" 0-1", " 1-0")
    for top, body, compiled in [(head, numbered, True), (head, moves.rstrip() + right, True),
                                (head, re.sub(r":B(\d)\b", r":B0\1", moves), True), (head, moves.rstrip() + " *", True),
                                (unscored, moves.rstrip() + right, True), (head, "1." + moves.lstrip(), False),
                                (unscored, moves.rstrip() + wrong, False)]:
        for policy in (STRICT, LENIENT):
            assert compiled_and_walked(top + "\n\n" + body + "\n", policy) == [compiled], body[:40]


def test_mutated_records_are_read_or_refused_as_the_walk_does():
    """500 mutations (the fuzzers' own) of bot games and the samples: the same outcome."""
    rng = random.Random(86)
    bases = bot_games("two-player", 3, 11) + bot_games("real", 2, 12) + bot_games("sim", 1, 13)
    bases += [p.read_text() for p in sorted((SAMPLES / "patchwork").glob("*.pgn"))]
    read = 0
    for k in range(500):
        read += sum(compiled_and_walked(mutate(bases[k % len(bases)], rng)))
    assert read > 0
