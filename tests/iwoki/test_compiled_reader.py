"""Iwoki's compiled reader (``records/iwoki_compiled.py``) against the walk (``IwokiVisitor``
reading token by token): a record it reads is the walk's record (text, moves, scores, each
action with what it computed); anything else it leaves to the walk, so every rejection is the
walk's. Held on bot games, the samples, written variations and the fuzzers' mutations."""
from __future__ import annotations

import random
import re

import pytest

from scorebook import registry
from scorebook.errors import LENIENT, STRICT
from scorebook.records import iwoki as W
from scorebook.records.iwoki import write_pgn
from scorebook.records.play import Match, parse_bots, play_options, play_task

from ..compiled_readers import compiled_and_walked as both_ways
from ..conftest import SAMPLES
from ..fuzzing import mutate


def _described(r) -> tuple:
    return write_pgn(r), r.score, r.finished, r.end, r.warnings, list(r.actions), r.tags


def compiled_and_walked(text: str, policy=STRICT) -> list[bool]:
    """Read ``text`` both ways; assert they agree; which records the compiled reader read."""
    return both_ways(text, W.IwokiVisitor, _described, lambda r: r.actions, policy)


def bot_games(count: int, seed: int) -> list[str]:
    game = registry.get_game("iwoki")
    match = Match(game.id, tuple(parse_bots(game, ["random", "random"])), ("P1", "P2"), play_options(game, {}), seed)
    setups = game.notation.fixed_setups(match.options)
    return [play_task((match, g, setups[g % len(setups)] if setups else None))["text"] for g in range(count)]


@pytest.mark.parametrize("seed", range(3))
def test_bot_games_read_compiled_as_the_walk_reads_them(seed):
    for text in bot_games(3, seed):
        assert compiled_and_walked(text) == [True]


@pytest.mark.parametrize("path", sorted((SAMPLES / "iwoki").glob("*.pgn")), ids=lambda p: p.name)
def test_the_samples_read_alike(path):
    text = path.read_text()
    assert compiled_and_walked(text) == ["{" not in text.split("\n\n", 1)[1]]


def test_written_variations_read_alike():
    """Numbers "N..." and on a line of their own, no result, the Result tag left out: read
    compiled as the walk reads them; an action stuck to its number, a number out of turn, a
    draw of another tile, a result the replay contradicts: left to the walk."""
    text = bot_games(1, 5)[0]
    head, moves = text.split("\n\n", 1)
    body, result = moves.rstrip().rsplit(" ", 1)
    draw = re.search(r"draw=st(\d+)", body)
    untagged = re.sub(r'\n?\[Result "[^"]*"\]', "", head)
    variations = [(head, body.replace(" 3. ", " 3... "), True), (head, body.replace(" 2. ", "\n2.\n"), True),
                  (head, body, True), (untagged, body + " " + result, True), (head, body.replace(" 2. ", " 2."), False),
                  (head, body.replace(" 3. ", " 4. ", 1), False), (untagged, body + " 1-2", False)]
    if draw:
        variations.append((head, body.replace(draw.group(), f"draw=st{int(draw.group(1)) % 48 + 1}", 1), False))
    for top, movetext, compiled in variations:
        for policy in (STRICT, LENIENT):
            assert compiled_and_walked(top + "\n\n" + movetext + "\n", policy) == [compiled], movetext[:60]


def test_mutated_records_are_read_or_refused_as_the_walk_does():
    """400 mutations (the fuzzers' own) of bot games and the samples: the same outcome."""
    rng = random.Random(86)
    bases = bot_games(4, 21) + [p.read_text() for p in sorted((SAMPLES / "iwoki").glob("*.pgn"))]
    read = 0
    for k in range(400):
        read += sum(compiled_and_walked(mutate(bases[k % len(bases)], rng)))
    assert read > 0
