"""A compiled reader's moves are written as the store's moves column by one jitted call
(``records.compiled.moves_json``, through ``MovesRows.json``): the very text ``json.dumps``
writes of the rows, for any text, seat and note, and for every game's records as the walk
reads them."""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from scorebook import registry
from scorebook.errors import STRICT
from scorebook.records.compiled import NO_COLUMN, CompiledTurns, MovesRows
from scorebook.records.formats import read_pgn
from scorebook.records.store.records import columns_json

from .compiled_readers import walk_only
from .conftest import SAMPLES

SEAT, START, END, NOTED = range(4)


class Spans(CompiledTurns):
    """Turns whose rows are (seat, start, end, noted): what the games' compiled turns hold."""
    text_at = (START, END)

    def make(self) -> list:
        return [text for _, text in self.texts()]


def spans(moves: list[str], seats: list[int], noted: list[bool]) -> Spans:
    rows, at = [], 0
    for text, seat, note in zip(moves, seats, noted):
        rows.append((seat, at, at + len(text), int(note)))
        at += len(text)
    return Spans(np.array(rows, np.int64).reshape(-1, 4), "".join(moves))


def compact(rows) -> str:
    return json.dumps(list(rows), separators=(",", ":"))


PRINTABLE = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=12)
ANY_TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x2FF), max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_rows_are_written_as_json_dumps_writes_them(data):
    n = data.draw(st.integers(0, 12))
    wild = data.draw(st.booleans())  # a byte outside printable ASCII: json.dumps writes those
    moves = data.draw(st.lists(ANY_TEXT if wild else PRINTABLE, min_size=n, max_size=n))
    seats = data.draw(st.lists(st.integers(0, 7), min_size=n, max_size=n))
    noted = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    turns = spans(moves, seats, noted)
    turns.seat_at, turns.seats = data.draw(st.sampled_from([(SEAT, 1), (NO_COLUMN, 1), (NO_COLUMN, 2), (NO_COLUMN, 3)]))
    turns.note_at, turns.note = data.draw(st.sampled_from([(NO_COLUMN, ""), (NOTED, "7x7"), (NOTED, 'a "b" \\c')]))
    game = data.draw(st.integers(1, 3))
    rows = turns.move_rows(game)
    assert [r[3] for r in rows] == moves
    assert [r[2] for r in rows] == (seats if turns.seat_at == SEAT else [i % turns.seats for i in range(n)])
    assert [r[4] for r in rows] == [turns.note if turns.note_at == NOTED and k else None for k in noted]
    written = turns.moves_json(game)
    printable = all(32 <= ord(c) < 127 for c in "".join(moves))
    assert written == (compact(rows)[1:-1] if printable else None) or not rows
    assert MovesRows([(game, turns)]).json() == compact(rows)


def test_a_record_of_several_games_joins_them_whatever_read_each():
    """A triad's grids: compiled, walked (rows made the common way), none at all."""
    first = spans(["A1-B1, C2", 'x"y'], [0, 1], [False, False])
    first.seat_at, first.seats = NO_COLUMN, 2
    walked = [(2, 1, 0, "B2-C2", "a note"), (2, 2, 1, "É", None)]
    moves = MovesRows([(1, first)])
    moves.add(walked)
    moves.add([])
    moves.add((3, spans([], [], [])))
    moves.add((4, spans(["--"], [0], [True])))
    expected = [(1, 1, 0, "A1-B1, C2", None), (1, 2, 1, 'x"y', None), *walked, (4, 1, 0, "--", None)]
    assert moves == expected and len(moves) == 5 and moves[2] == walked[0]
    assert moves.json() == compact(expected)
    assert columns_json({}, {}, None, moves)[3] == columns_json({}, {}, None, expected)[3]


def _sample_records() -> list:
    return sorted(SAMPLES.rglob("*.pgn"))


def _canonical(path) -> list:
    out = []
    for item in read_pgn(path.read_text(), STRICT):
        assert item.error is None, (path, item.error)
        out.append(registry.get_game(item.game).notation.canonical(item.record, STRICT).moves)
    return out


@pytest.mark.parametrize("path", _sample_records(), ids=lambda p: p.name)
def test_every_games_moves_are_stored_as_the_walk_stores_them(path):
    """Each sample record read by its game's compiled reader, and by the walk alone: the same
    rows, and the same text in the moves column."""
    compiled = _canonical(path)
    game = registry.get_game(read_pgn(path.read_text(), STRICT)[0].game)
    with walk_only(type(game.notation.visitor(STRICT))):
        walked = _canonical(path)
    assert compiled == walked
    assert [columns_json({}, {}, None, m)[3] for m in compiled] == [compact(m) for m in walked]


def test_a_note_the_compiled_reader_finds_is_written_as_the_walk_writes_it():
    """Patchwork's ``7x7`` on the move that wins the special tile: a record that leaves it out
    is read by the compiled reader (a comment is the walk's), which finds the note itself."""
    path = SAMPLES / "patchwork" / "patchwork-best2-vbrz-two-player-s6-0001.pgn"
    text = path.read_text().replace(" {7x7}", "")
    [item] = read_pgn(text, STRICT)
    notation = registry.get_game("patchwork").notation
    compiled = notation.canonical(item.record, STRICT).moves
    assert isinstance(compiled.parts[0], tuple) and [r[4] for r in compiled if r[4]] == ["7x7"]
    with walk_only(type(notation.visitor(STRICT))):
        [item] = read_pgn(text, STRICT)
        walked = notation.canonical(item.record, STRICT).moves
    assert compiled == walked and compiled.json() == compact(walked)


def test_the_samples_hold_every_games_compiled_moves():
    """The comparison above covers every game whose compiled reader writes its moves."""
    games = set()
    for path in _sample_records():
        for moves in _canonical(path):
            if isinstance(moves, MovesRows) and any(isinstance(p, tuple) for p in moves.parts):
                games.add(read_pgn(path.read_text(), STRICT)[0].game)
    assert games == set(registry.game_ids())
