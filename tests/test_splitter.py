"""The PGN-style splitter takes the lines of words only between tags and comments at once
(``pgn.iter_games``): held to the splitter fed one line at a time, which is what it did
before, on every sample and on the fuzzers' mutations of them (tags, tokens with their line
and column, each game's first error)."""
from __future__ import annotations

import random

import pytest

from scorebook.records import pgn

from .conftest import SAMPLES
from .fuzzing import mutate

TEXTS = [p.read_text() for p in sorted(SAMPLES.rglob("*.pgn"))]


def games_line_by_line(text: str) -> list[pgn.PgnGame]:
    """Every line through ``_Splitter.line``, one at a time."""
    splitter = pgn._Splitter()
    for line_no, line in enumerate(text.split("\n"), 1):
        splitter.line(line_no, line)
    splitter.finish()
    return splitter.games


def seen(games: list[pgn.PgnGame]) -> list[tuple]:
    return [(g.index, g.line, g.tags, {k: (t.text, t.line, t.column) for k, t in g.tag_tokens.items()},
             [(t.text, t.line, t.column, t.kind) for t in g.tokens],
             g.error.as_dict() if g.error else None) for g in games]


@pytest.mark.parametrize("k", range(len(TEXTS)))
def test_a_sample_splits_as_line_by_line(k):
    assert seen(list(pgn.iter_games(TEXTS[k]))) == seen(games_line_by_line(TEXTS[k]))


def test_blank_lines_windows_line_ends_and_a_missing_last_newline():
    text = "\n\n  \n[Game \"tsuro\"]\r\n\r\n   1. a b\r\n\t2. c\n\n\n[X \"y\"]\n\n  z  "
    assert seen(list(pgn.iter_games(text))) == seen(games_line_by_line(text))
    games = list(pgn.iter_games(text))
    assert [(t.text, t.line, t.column) for t in games[0].tokens] == [("1.", 6, 4), ("a", 6, 7), ("b", 6, 9),
                                                                     ("2.", 7, 2), ("c", 7, 5)]
    assert games[1].line == 10 and [t.text for t in games[1].tokens] == ["z"]


def test_tag_lines_plain_or_not_split_as_line_by_line():
    """A tag line written plainly is taken at once (``_Splitter.plain_tag``), any other is read
    by ``tag``: the same tags, places and first errors (a value past its limit, a name given
    twice) either way."""
    from scorebook.records.limits import MAX_TAG_CHARS
    texts = [
        '[Game "tsuro"]\n[Event "A"]\n[Event "B"]\n\n1. a\n',  # a name given twice
        '[Game "tsuro"]\n[Site "a \\"quoted\\" one"]\n  [Round "1"]\n[ Date  "2024.01.01" ]\n1. a\n',
        '[Game "x"] ; a comment\n[Round "2"]\r\n[White ""]\n1. a\n[Game "y"]\n[Game "z"]\n2. b',
        '1. a\n[Game "after movetext"]\n[Round "3"]\n1. b\n[Round "4"]',  # the last line without its newline
        '[Long "' + "v" * (MAX_TAG_CHARS + 1) + '"]\n[Game "x"]\n1. a\n',
        '[Game "x"]\n{ a comment\n[Round "5"]\n} 1. a\n[Round "6"]\n',  # a tag line inside a comment
        '[Bad tag]\n[Game "x"]\n[Name-with-dash "v"]\n[%clk 1]\n1. a\n',
    ]
    for text in texts:
        assert seen(list(pgn.iter_games(text))) == seen(games_line_by_line(text)), text[:60]
    games = list(pgn.iter_games(texts[0]))
    assert games[0].tags == {"Game": "tsuro", "Event": "A"} and games[0].error.code == "bad-tag"
    assert (games[0].tag_tokens["Event"].line, games[0].tag_tokens["Event"].column) == (2, 1)


def test_mutated_files_split_as_line_by_line():
    rng = random.Random(5)
    for k in range(400):
        text = mutate(TEXTS[k % len(TEXTS)], rng)
        assert seen(list(pgn.iter_games(text))) == seen(games_line_by_line(text)), k
