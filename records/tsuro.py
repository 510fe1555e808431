"""Tsuro records (shared/specs/tsuro.md section 4): the one owner of its turns' text.

::

    [Game "tsuro"]
    [Players "P1 P2 P3"]
    [Start "P1 a1.0, P2 a5.6, P3 e6.5"]
    [Deck "13 5 17 3 ..."]
    [Deal "seat-round-robin"]
    [Result "P2 P3"]

    1. P1 13r0@a1 | P1 a1.0>b1.6 | draw P1 33
    18. P3 10r0@f2 | P3 f2.5>e2.3 P1 f2.0>x | draw P3 8, return P1 [22 28 20], deck 8 22 ...

A turn is one placement: the player, the tile and its rotation (``@square`` optional and
checked), the tokens it moved (``>x`` off the edge, ``>*`` a collision), then the events.
The ``deck`` events are the only ones a replay needs: the short form of a score sheet
(``18. P3 10r0@f2 | deck 8 22 ...``) leaves out the moves and the other events, and the
replay fills them in; every entry written is checked. ``ply`` is the turn number.

>>> from scorebook.records.pgn import split_games, read_record
>>> text = ('[Game "tsuro"]\\n[Players "A B"]\\n[Start "A a1.0, B f6.4"]\\n[Deck "' +
...         ' '.join(map(str, range(35))) + '"]\\n\\n1. A 4r0@b1 | A a1.0>a2.0\\n')
>>> read_record(split_games(text), TsuroVisitor())
Traceback (most recent call last):
...
scorebook.errors.IllegalMove: line 6, column 6, ply 1, token 4r0@b1: wrong-square: A's token faces a1
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from scorebook.engines.tsuro import rules as R
from scorebook.engines.tsuro.game import ENGINE

from . import pgn, tsuro_compiled
from scorebook.errors import STRICT, ErrorPolicy, IllegalMove, ParseError, ScoreMismatch
from .compiled import CompiledTurns, MovesRows, one_game_bytes, words_array
from .limits import small_int
from .notation import Canonical, Notation
from .replay import Place, Step

GAME = R.GAME_ID
KEYWORDS = ("draw", "dragon", "return", "deck", "refill", "pass")
_NAME_RE = re.compile(r"[A-Za-z0-9_.:\-]{1,40}")
_POINT_RE = re.compile(r"([a-f])([1-6])\.([0-7])")
_PLACE_RE = re.compile(r"([0-9]{1,2})r([0-3])(?:@([a-f])([1-6]))?")
_DECK_RE = re.compile(r"(?:[0-9]{1,2} )*[0-9]{1,2}")
_MOVE_RE = re.compile(r"([a-f][1-6]\.[0-7])>([a-f][1-6]\.[0-7]|x|\*)")


@dataclass
class Turn:
    """One turn of a record: the mover's seat, the tile and rotation, the deck order given
    after a reshuffle (or None), and what the replay says happened (the turn's text)."""
    seat: int
    tile: int
    rotation: int
    square: int
    order: list[int] | None
    moves: list[tuple[int, int, int]] = field(default_factory=list)  # seat, from point, end (or -1 / -2)
    events: dict = field(default_factory=dict)


@dataclass
class TsuroRecord:
    players: list[str]
    starts: list[int]
    deck: list[int]
    refill: int
    tags: dict[str, str]
    turns: Sequence[Turn]
    score: dict
    recorded: dict | None
    warnings: list[str] = field(default_factory=list)
    lines: str | None = None  # the canonical turn lines, where the compiled reader wrote them


class TsuroTurns(CompiledTurns):
    """Tsuro's turns as ``tsuro_compiled.read_turns`` returned them (the engine's events of
    each turn in ``arrays[0]``); a turn's text is its placement."""
    text_at = (tsuro_compiled.PLACEMENT, tsuro_compiled.PLACEMENT_END)

    def make(self) -> list[Turn]:
        events, made = self.arrays[0], []
        for seat, tile, rotation, square, lo, hi, *_ in self.rows.tolist():
            moves, by_kind = replay_events(events[lo:], hi - lo)
            made.append(Turn(seat, tile, rotation, square, by_kind["deck"], moves,
                             {k: v for k, v in by_kind.items() if k != "deck"}))
        return made


def parse_point(text: str) -> int | None:
    m = _POINT_RE.fullmatch(text)
    if not m:
        return None
    square = (int(m.group(2)) - 1) * R.COLS + "abcdef".index(m.group(1))
    return square * 8 + int(m.group(3))


def end_text(end: int) -> str:
    return "x" if end == R.OFF else "*" if end == R.MET else R.point_name(end)


def replay_events(events: np.ndarray, n: int) -> tuple[list, dict]:
    """A turn's engine events as (moves, events by kind; ``deck`` the new order or None)."""
    moves, by_kind = [], {k: [] for k in KEYWORDS}
    by_kind["deck"] = None
    for kind, seat, value in events[:n].tolist():  # Python ints at once
        if kind == R.MOVE:
            start, end = divmod(value, 1000)
            moves.append((seat, start, R.OFF if end == 901 else R.MET if end == 902 else end))
        elif kind == R.DRAW:
            by_kind["draw"].append((seat, value))
        elif kind == R.DRAGON_TAKEN:
            by_kind["dragon"].append(seat)
        elif kind == R.RETURN:
            by_kind["return"].append((seat, value))
        elif kind == R.SHUFFLE:
            by_kind["deck"] = (by_kind["deck"] or []) + [value]
        elif kind == R.REFILL_DRAW:
            by_kind["refill"].append((seat, value))
        elif kind == R.PASS:
            by_kind["pass"].append(seat)
    return moves, by_kind


def events_text(by_kind: dict, names: list[str], new_deck: list[int] | None, placer: int) -> str:
    """The events of a turn in the order of kinds (spec 4); several dragon events in the order
    they happened, several returns the placer's first, then by seat."""
    parts = [f"draw {names[s]} {t}" for s, t in by_kind["draw"]]
    parts += [f"dragon {names[s]}" for s in by_kind["dragon"]]
    returned: dict[int, list[int]] = {}
    for s, t in by_kind["return"]:
        returned.setdefault(s, []).append(t)
    parts += [f"return {names[s]} [{' '.join(map(str, returned[s]))}]"
              for s in sorted(returned, key=lambda seat: (seat != placer, seat))]
    if new_deck is not None:
        parts.append("deck " + " ".join(map(str, new_deck)))
    if by_kind["refill"]:
        parts.append("refill " + ", ".join(f"{names[s]} {t}" for s, t in by_kind["refill"]))
    parts += [f"pass {names[s]}" for s in by_kind["pass"]]
    return ", ".join(parts)


def placement_text(tile: int, rotation: int, square: int) -> str:
    """A placement as a turn writes it: ``12r3@c4``, the tile, its rotation, the square."""
    return f"{tile}r{rotation}@{R.square_name(square)}"


def turn_text(number: int, names: list[str], turn: Turn) -> str:
    moves = " ".join(f"{names[s]} {R.point_name(a)}>{end_text(b)}" for s, a, b in turn.moves)
    line = f"{number}. {names[turn.seat]} {placement_text(turn.tile, turn.rotation, turn.square)} | {moves}"
    events = events_text(turn.events, names, turn.order, turn.seat)
    return line + (f" | {events}" if events else "")


class _SaidTurn(NamedTuple):
    """What a turn's words say, with the tokens to point at."""
    who: pgn.Token
    placement: pgn.Token
    match: re.Match
    moves: list | None
    move_tokens: list | None
    events: dict
    event_tokens: list
    deck_token: pgn.Token | None
    last: pgn.Token


class TsuroVisitor(pgn.Visitor):
    """Reads a record turn by turn (a turn is its number's tokens) and replays it."""
    engine = ENGINE

    def begin_game(self, game: pgn.PgnGame) -> None:
        self.game = game
        t = dict(game.tags)
        t.pop("Game", None)
        names = (t.pop("Players", None) or "").split()
        if not 2 <= len(names) <= R.MAX_PLAYERS or len(set(names)) != len(names) or \
                not all(_NAME_RE.fullmatch(n) and n not in KEYWORDS for n in names):
            self._tag_error("bad-tag", "Players", f"[Players] names {2} to {R.MAX_PLAYERS} players in seat order, "
                                                  "each once, without spaces, none an event keyword ("
                                                  + ", ".join(KEYWORDS) + ")")
        self.names = names
        self.starts = self._read_start(t.pop("Start", None))
        self.deck = self._read_deck(t.pop("Deck", None))
        deal = t.pop("Deal", None)
        if deal not in (None, "seat-round-robin"):
            self._tag_error("bad-tag", "Deal", '[Deal "seat-round-robin"] is the one deal')
        refill = t.pop("DragonRefill", None)
        if refill not in (None, *R.REFILLS):
            self._tag_error("bad-tag", "DragonRefill", '[DragonRefill] is "round_robin" or "holder_first"')
        self.refill = R.REFILLS.index(refill or R.REFILLS[0])
        self.result_text = t.pop("Result", None)
        self.tags = t
        self.events = np.zeros((R.EVENTS, 3), np.int64)
        self.turns: list[Turn] = []
        self.pending: list[pgn.Token] | None = None
        self.number: int | None = None
        self.last: pgn.Token | None = None

    def setup(self) -> tuple:
        return self.starts, self.deck, self.refill, 0, len(self.names)

    def _tag_error(self, code: str, name: str, message: str):
        tok = self.game.tag_tokens.get(name)
        raise ParseError(code, message, line=tok.line if tok else self.game.line, column=1,
                         token=tok.text[:40] if tok else None)

    def _read_start(self, text: str | None) -> list[int]:
        points = []
        parts = [p.strip() for p in (text or "").split(",")]
        for i, part in enumerate(parts):
            words = part.split()
            point = parse_point(words[1]) if len(words) == 2 else None
            if (point is None or i >= len(self.names) or words[0] != self.names[i]
                    or not R.is_edge_point(point // 8, point % 8) or point in points):
                self._tag_error("bad-start", "Start", "[Start] gives every player's edge start in seat order, "
                                                      "distinct: \"P1 a1.0, P2 a5.6\"")
            points.append(point)
        if len(points) != len(self.names):
            self._tag_error("bad-start", "Start", "[Start] gives a start to every player")
        return points

    def _read_deck(self, text: str | None) -> list[int]:
        if text is not None and _DECK_RE.fullmatch(text):  # the common spelling, read at once
            ids = list(map(int, text.split(" ")))
        else:
            ids = [small_int(w) for w in (text or "").split()]
        if sorted(i if i is not None else -1 for i in ids) != list(range(R.N_TILES)):
            self._tag_error("bad-deck", "Deck", f"[Deck] is the {R.N_TILES} tile ids 0 to {R.N_TILES - 1}, "
                                                "each once, top first")
        return ids

    def read_compiled(self, games: list[pgn.PgnGame]) -> TsuroRecord | None:
        """The record read by ``tsuro_compiled.read_turns`` in one call, or None (a comment, a
        fault, a stated result the replay contradicts: the walk reads it and says why). The
        tags are read, and the game settled, by the walk's own ``begin_game`` and ``end_game``."""
        data = one_game_bytes(self, games)
        if data is None:
            return None
        names, offsets = words_array(self.names)
        status, text, turns, events = tsuro_compiled.read_turns(data, names, offsets, self.walk.state)
        if status != tsuro_compiled.OK:
            return None
        lines = text.tobytes().decode("ascii")
        self.turns = TsuroTurns(turns, lines, events)
        if not self.settled(lambda: self.end_game(games[0], None))[0]:  # the walk's end: over, the Result tag
            return None
        record = self.result()
        record.lines = lines
        return record

    @property
    def state(self) -> np.ndarray:
        """The position as the walk has played it so far."""
        return self.walk.state

    def ply(self) -> int:
        return len(self.turns) + 1

    def seat_names(self) -> list[str]:
        return list(self.names)

    def visit_move_number(self, number: int, token: pgn.Token) -> None:
        self._flush()
        self.pending, self.number, self.number_token = [], number, token
        self.last = token

    def visit_move(self, token: pgn.Token) -> None:
        if self.pending is None:
            if self.state[R.OVER]:
                raise self.token_error(token, "move-after-end", "the game is over")
            raise self.token_error(token, "bad-token", "a turn starts with its number: \"12. P1 13r0@a1 | ...\"")
        self.pending.append(token)
        self.last = token

    def visit_result(self, token: pgn.Token) -> None:
        self.last = token

    def _flush(self) -> None:
        if self.pending is None:
            return
        tokens, self.pending = self.pending, None
        self._turn(self.number_token, self.number, tokens)

    def _err(self, token: pgn.Token, code: str, message: str) -> IllegalMove:
        return IllegalMove(code, message, line=token.line, column=token.column, ply=self.ply(), token=token.text)

    def _sections(self, number_token: pgn.Token, tokens: list[pgn.Token]):
        """(placement tokens, move tokens or None, event tokens) of a turn. A section whose
        first word is an event keyword is the events: the moves may be left out (the short
        form of a score sheet), and the replay supplies them."""
        parts: list[list[pgn.Token]] = [[]]
        for tok in tokens:
            if tok.text == "|":
                parts.append([])
            else:
                parts[-1].append(tok)
        moves_left_out = len(parts) == 1 or (len(parts) == 2 and parts[1] and parts[1][0].text.rstrip(",") in KEYWORDS)
        if moves_left_out:
            return parts[0], None, parts[1] if len(parts) == 2 else [], len(parts[0]) != 2
        bad = len(parts) not in (2, 3) or len(parts[0]) != 2 or not parts[1] or (len(parts) == 3 and not parts[2])
        return parts[0], parts[1], parts[2] if len(parts) == 3 else [], bad

    def _turn(self, number_token: pgn.Token, number: int, tokens: list[pgn.Token]) -> None:
        """One turn: read its words, check the placement against the position, replay it, and
        check what the record says happened against what the replay says (in that order, so
        that the first fault is the one reported)."""
        said = self._read_turn(number_token, tokens)
        if number != len(self.turns) + 1:
            raise self._err(number_token, "bad-turn-number", f"this is turn {len(self.turns) + 1}")
        seat, tile, rot, square = self._placement(said)
        order = said.events.get("deck")
        moves, by_kind = self._play(said, tile, rot, order)
        turn = Turn(seat, tile, rot, square, list(order) if order is not None else None, moves,
                    {k: v for k, v in by_kind.items() if k != "deck"})
        written = {k: v for k, v in said.events.items() if k != "deck"}
        if self.state[R.OVER] and said.event_tokens:
            raise self._err(said.event_tokens[0], "event-mismatch", "the turn that ends the game has no events")
        if not _events_agree(turn.events, written, every=said.moves is not None):
            raise self._err(said.event_tokens[0] if said.event_tokens else said.last, "event-mismatch",
                            "the replay's events: " + (events_text(turn.events, self.names, None, seat) or "none"))
        self.turns.append(turn)

    def _read_turn(self, number_token: pgn.Token, tokens: list[pgn.Token]) -> "_SaidTurn":
        """A turn's words: who places what where, and the moves and events it says happened."""
        if self.state[R.OVER]:
            raise self._err(tokens[0] if tokens else number_token, "move-after-end", "the game is over")
        head, move_tokens, event_tokens, bad = self._sections(number_token, tokens)
        if bad:
            raise self._err(tokens[0] if tokens else number_token, "bad-token",
                            "a turn reads \"12. P1 13r0@a1 | P1 a1.0>b1.6 | draw P1 33\" (or, leaving out what "
                            "the replay supplies, \"12. P1 13r0@a1\")")
        who, placement = head
        m = _PLACE_RE.fullmatch(placement.text)
        if who.text not in self.names or not m or int(m.group(1)) >= R.N_TILES:
            raise self._err(who if who.text not in self.names else placement, "bad-token",
                            "a placement is a player's name, then tile r rotation [@square]: \"P1 13r0@a1\"")
        said_moves = self._read_moves(move_tokens) if move_tokens is not None else None
        said_events, deck_token = self._read_events(event_tokens)
        return _SaidTurn(who, placement, m, said_moves, move_tokens, said_events, event_tokens, deck_token,
                         (event_tokens or move_tokens or head)[-1])

    def _placement(self, said: "_SaidTurn") -> tuple[int, int, int, int]:
        """(seat, tile, rotation, square) of a placement the position allows, or its fault."""
        s, who, placement, m = self.state, said.who, said.placement, said.match
        seat = self.names.index(who.text)
        if not R.live(s, seat):
            raise self._err(who, "player-eliminated", f"{who.text} was eliminated on turn {int(s[R.ELIM_TURN + seat])}")
        if seat != s[R.TO_MOVE]:
            raise self._err(who, "wrong-player", f"{self.names[int(s[R.TO_MOVE])]} places now")
        tile, rot = int(m.group(1)), int(m.group(2))
        square = int(s[R.POS + seat]) // 8
        if tile not in R.hand(s, seat):
            raise self._err(placement, "tile-not-in-hand", f"{who.text} holds {R.hand(s, seat)}")
        if m.group(3) and (int(m.group(4)) - 1) * R.COLS + "abcdef".index(m.group(3)) != square:
            raise self._err(placement, "wrong-square", f"{who.text}'s token faces {R.square_name(square)}")
        return seat, tile, rot, square

    def _play(self, said: "_SaidTurn", tile: int, rot: int, order) -> tuple[list, dict]:
        """Play the placement through the walk: its moves and events. The moves written must be
        the replay's, then the deck order must fit (the order of checks), so a turn the rules
        refuse for its deck order has its moves, which the engine wrote first, checked before."""
        self.events[:] = -1
        try:
            self.walk.play((tile, rot, order, self.events), Place(said.placement.line, said.placement.column,
                                                                    said.placement.text))
        except IllegalMove as refusal:
            if refusal.code not in (R.CODE_NAMES[R.MISSING_DECK], R.CODE_NAMES[R.DECK_MISMATCH]):
                raise
            self._check_moves(said, replay_events(self.events, self._moves_written(self.events))[0])
            where = said.deck_token or (said.event_tokens[0] if said.event_tokens else said.last)
            raise self._err(where, refusal.code, refusal.message) from None
        moves, by_kind = replay_events(self.events, int(self.state[R.N_EVENTS]))
        self._check_moves(said, moves)
        return moves, by_kind

    @staticmethod
    def _moves_written(events: np.ndarray) -> int:
        """How many of a refused turn's first event rows are its moves (the rows were cleared
        before the turn, and the moves come first)."""
        n = 0
        while n < len(events) and events[n, 0] == R.MOVE:
            n += 1
        return n

    def _check_moves(self, said: "_SaidTurn", moves: list) -> None:
        if said.moves is not None and sorted(said.moves) != sorted(moves):
            raise self._err(said.move_tokens[0], "move-mismatch", "the replay moves: " + " ".join(
                f"{self.names[q]} {R.point_name(a)}>{end_text(b)}" for q, a, b in moves))

    def _read_moves(self, tokens: list[pgn.Token]) -> list[tuple[int, int, int]]:
        if len(tokens) % 2:
            raise self._err(tokens[-1], "bad-token", "a move is a player and \"a1.0>b1.6\" (\">x\" off, \">*\" collision)")
        out = []
        for who, move in zip(tokens[::2], tokens[1::2]):
            m = _MOVE_RE.fullmatch(move.text)
            if who.text not in self.names or not m:
                raise self._err(who if who.text not in self.names else move, "bad-token",
                                "a move is a player and \"a1.0>b1.6\" (\">x\" off, \">*\" collision)")
            end = R.OFF if m.group(2) == "x" else R.MET if m.group(2) == "*" else parse_point(m.group(2))
            out.append((self.names.index(who.text), parse_point(m.group(1)), end))
        return out

    def _read_events(self, tokens: list[pgn.Token]) -> tuple[dict, pgn.Token | None]:
        """The events by kind as the replay gives them; the ``deck`` event's token."""
        events: dict = {k: [] for k in KEYWORDS}
        events["deck"] = None
        deck_token = None
        groups: list[tuple[pgn.Token, list[str]]] = []
        for tok in tokens:
            word = tok.text.rstrip(",")
            if word in KEYWORDS:
                groups.append((tok, []))
            elif not groups or not word:
                raise self._err(tok, "bad-token", "events start with " + ", ".join(KEYWORDS))
            else:
                groups[-1][1].extend(w for w in word.replace("[", " [ ").replace("]", " ] ").split())
        for tok, words in groups:
            kind = tok.text.rstrip(",")
            try:
                if kind == "deck":
                    assert events["deck"] is None
                    events["deck"], deck_token = [self._tile(w) for w in words], tok
                else:
                    events[kind] += self._event_entries(kind, words)
            except (AssertionError, IndexError, ValueError):
                raise self._err(tok, "bad-token", f"a {kind} event reads like \"{EVENT_EXAMPLES[kind]}\"") from None
        return events, deck_token

    def _event_entries(self, kind: str, words: list[str]) -> list:
        """The entries of one event other than the deck; AssertionError, IndexError or
        ValueError when its words do not read."""
        if kind == "draw":
            assert len(words) == 2
            return [(self._seat(words[0]), self._tile(words[1]))]
        if kind in ("dragon", "pass"):
            assert len(words) == 1
            return [self._seat(words[0])]
        if kind == "return":
            assert words[1] == "[" and words[-1] == "]"
            seat = self._seat(words[0])
            return [(seat, self._tile(w)) for w in words[2:-1]]
        assert words and len(words) % 2 == 0  # refill
        return [(self._seat(a), self._tile(b)) for a, b in zip(words[::2], words[1::2])]

    def _seat(self, word: str) -> int:
        return self.names.index(word)  # ValueError: not a player

    def _tile(self, word: str) -> int:
        t = small_int(word)
        if t is None or t >= R.N_TILES:
            raise ValueError(word)
        return t

    def end_game(self, game: pgn.PgnGame, result: pgn.Token | None) -> None:
        self._flush()
        s = self.state
        if not s[R.OVER]:
            last = self.last
            raise IllegalMove("game-incomplete", "the game ends when at most one token is left or every tile "
                              "is on the board", line=last.line if last else self.game.line,
                              column=last.column + len(last.text) if last else 1, ply=self.ply())
        self.score = R.score(s, self.names)
        self.recorded = None
        if self.result_text is not None:
            named = self.result_text.split()
            seats = sorted(self.names.index(n) for n in named if n in self.names)
            self.recorded = {"winners": seats}
            if len(seats) != len(named) or seats != self.score["winners"]:
                tok = self.game.tag_tokens.get("Result")
                self.handle_error(ScoreMismatch(
                    "result-mismatch", "the replay's winners: " + " ".join(self.names[p] for p in self.score["winners"]),
                    line=tok.line if tok else self.game.line, column=1, token=self.result_text[:40]))

    def result(self) -> TsuroRecord:
        return TsuroRecord(self.names, self.starts, self.deck, self.refill, self.tags, self.turns, self.score,
                           self.recorded, self.warnings)


EVENT_EXAMPLES = {"draw": "draw P1 22", "dragon": "dragon P1", "pass": "pass P1", "return": "return P1 [5 9]",
                  "deck": "deck 9 22 5 ...", "refill": "refill P2 9, P1 5"}


def _events_agree(replayed: dict, written: dict, every: bool) -> bool:
    """Do the events written agree with the replay's, kind by kind (returns as a set, the
    others in the order they happened)? ``every``: the full form, where the events written
    are all of them; else the short form, where each entry written is checked and the rest
    is filled in from the replay."""
    for kind in KEYWORDS:
        if kind == "deck":
            continue
        mine, said = list(replayed.get(kind, [])), list(written.get(kind, []))
        if kind == "return":
            mine, said = sorted(mine), sorted(said)
        if every:
            if mine != said:
                return False
        else:
            for entry in said:
                if entry not in mine:
                    return False
                mine.remove(entry)
    return True


# ---------------------------------------------------------------- writing


def write_record(record: TsuroRecord) -> tuple[str, Sequence[tuple]]:
    """Canonical text: Game, Players, Start, Deck, Deal, DragonRefill (holder_first only),
    the other tags, Result (the replay's winners); one line a turn."""
    names = record.players
    tags = {"Game": GAME, "Players": " ".join(names),
            "Start": ", ".join(f"{n} {R.point_name(p)}" for n, p in zip(names, record.starts)),
            "Deck": " ".join(map(str, record.deck)), "Deal": "seat-round-robin"}
    if record.refill:
        tags["DragonRefill"] = R.REFILLS[record.refill]
    tags.update(record.tags)
    tags["Result"] = " ".join(names[p] for p in record.score["winners"])
    if record.lines is not None:  # written by the compiled reader
        return pgn.write_tags(tags) + "\n\n" + record.lines, MovesRows([(1, record.turns)])
    lines, rows = [], []
    for i, turn in enumerate(record.turns, 1):
        line = turn_text(i, names, turn)
        lines.append(line)
        rows.append((1, i, turn.seat, line.split(" | ")[0].split(" ", 2)[2], None))
    return pgn.write_tags(tags) + "\n\n" + "\n".join(lines) + "\n", rows


def score_rows(score: dict) -> list[tuple[int, str, int]]:
    rows = []
    for p in range(len(score["players"])):
        rows.append((p, "win", int(p in score["winners"])))
        if score["eliminated_turn"][p] is not None:
            rows.append((p, "eliminated_turn", score["eliminated_turn"][p]))
    return rows


class TsuroNotation(Notation):
    game_id = GAME

    def visitor(self, policy: ErrorPolicy = STRICT) -> TsuroVisitor:
        return TsuroVisitor(policy)

    def canonical(self, record: TsuroRecord, policy: ErrorPolicy) -> Canonical:
        text, rows = write_record(record)
        return Canonical(text=text, moves=rows, score=record.score, recorded=record.recorded,
                         score_rows=score_rows(record.score), players=record.players, tags=record.tags,
                         finished=True, rules=R.REFILLS[record.refill], warnings=record.warnings)

    def games(self, record: TsuroRecord):
        setup = (record.starts, record.deck, record.refill, 0, len(record.players))
        return [(setup, [Step((t.tile, t.rotation, t.order), t.seat, placement_text(t.tile, t.rotation, t.square))
                         for t in record.turns])]

    def view(self, record: TsuroRecord, state, before, step):
        """The engine's state with the players' names (the boards name the tokens)."""
        return state.copy(), record.players

    def action_text(self, state, action) -> str:
        """The placement at the square the mover's token faces."""
        return placement_text(int(action[0]), int(action[1]), int(state[R.POS + state[R.TO_MOVE]]) // 8)

    def write_game(self, setup, actions, players, tags) -> str:
        """Walked with as many players as are named, each turn given a buffer of its own for
        the events the engine reports (``write_walked`` writes them)."""
        starts, deck, refill, seed = setup[:4]
        return super().write_game((starts, deck, refill, seed, len(players)),
                                  [(tile, rot, R.NO_ORDER, np.zeros((R.EVENTS, 3), np.int64)) for tile, rot, *_ in actions],
                                  players, tags)

    def write_walked(self, setup, actions, states, players, tags) -> str:
        """The turns with every event the engine reported into each action's buffer (the full
        form); the deck refilled by the game's seed (a bot game's own shuffles)."""
        starts, deck, refill = setup[:3]
        turns = []
        for (tile, rot, _, events), before, after in zip(actions, states, states[1:]):
            seat = int(before[R.TO_MOVE])
            moves, by_kind = replay_events(events, int(after[R.N_EVENTS]))
            turns.append(Turn(seat, int(tile), int(rot), int(before[R.POS + seat]) // 8, by_kind["deck"], moves,
                              {k: v for k, v in by_kind.items() if k != "deck"}))
        record = TsuroRecord(list(players), list(starts[:len(players)]), list(deck), refill, dict(tags), turns,
                             R.score(states[-1], list(players)), None)
        return write_record(record)[0]

    def seat_points(self, score: dict) -> list[float]:
        k = len(score["winners"])
        return [1.0 / k if p in score["winners"] else 0.0 for p in range(len(score["players"]))]

    def score_lines(self, score: dict, players: list[str]) -> list[str]:
        names = score["players"]
        won = " and ".join(names[p] for p in score["winners"]) or "nobody"
        out = [f"won: {won} ({score['turns']} turns, {score['tiles_placed']} tiles placed)"]
        for p, turn in enumerate(score["eliminated_turn"]):
            if turn is not None:
                out.append(f"{names[p]} eliminated on turn {turn} ({score['cause'][p]})")
        return out

    def seat_ranks(self, score: dict) -> list[int]:
        """The winners first (sharing the place), then the others by the turn they were
        eliminated, the later the better; eliminated on one turn, they share a place."""
        winners, turns = set(score["winners"]), score["eliminated_turn"]
        key = [(1, 0) if p in winners else (0, turns[p] or 0) for p in range(len(turns))]
        return [1 + sum(other > mine for other in key) for mine in key]

    def file_label(self, options: dict) -> str:
        return "" if (options.get("refill") or R.REFILLS[0]) == R.REFILLS[0] else options["refill"]


NOTATION = TsuroNotation()
