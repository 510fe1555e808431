"""Tiny Islands behind the engines' protocol (``engines.protocol.Engine``).

The rules are the jitted kernels of ``engine.py``, called here in the order the batch replay
(``engine.replay``) calls them. A state is a :class:`TinyIslandsState`; an action is
``("place", tile, cell)``, or a shoreline: ``("draw", cells)``, the cells it encloses, or
``("trace", cells)``, TinyBot's trace of it (which may start by surrounding islands). The chance
outcome fixed up front is the shuffle (``offers``); a player reads an offer only when it is drawn.

>>> import numpy as np
>>> s = ENGINE.initial_state(ENGINE.new_game(np.random.default_rng(1), {}))
>>> action = ENGINE.legal_actions(s)[0]
>>> ENGINE.apply(s, action), s.turn
(0, 1)
"""
from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from scorebook.engines.protocol import Engine, Played

from . import engine as E
from .deck import offers_for, one_deck_consistent
from .metadata import (CATEGORIES, CELLS, DECK_MODELS, DRAWING_AFTER_TURN, GAME_ID, MAX_SHORELINE, RULE_SETS, SIZE,
                       TURNS, ZONE_LETTERS)


class TinyIslandsState:
    """A board in play: tiles and land, the turn, the drawings made, the deck's counts."""

    def __init__(self, offers: np.ndarray, rules: str):
        self.offers = offers
        self.wave_rule = RULE_SETS.index(rules)
        self.tiles = np.zeros(CELLS, np.int64)
        self.land = np.zeros(CELLS, np.bool_)
        self.turn = 0  # placements made
        self.drawings = 0
        self.tile_drawn = np.zeros(8, np.int64)
        self.zone_drawn = np.zeros(len(ZONE_LETTERS), np.int64)
        self.scored = None  # the score the batch replay computed with the board, until a move changes it
        self.offer_checked = False  # the current offer was taken from the deck's counts
        self.regions = np.zeros((3, CELLS), np.bool_)  # each shoreline's region, as drawn
        self.indirect = np.zeros(3, np.bool_)  # a trace that began by surrounding islands

    @property
    def drawing_due(self) -> bool:
        """A shoreline is due: the turns made call for more drawings than were drawn."""
        return self.drawings < sum(1 for d in DRAWING_AFTER_TURN if d <= self.turn)


def _rectangles() -> list[tuple[int, ...]]:
    """Every axis-aligned rectangle of cells whose shoreline fits the ink (cells, in order)."""
    out = []
    for h in range(1, SIZE + 1):
        for w in range(1, SIZE + 1):
            if 2 * (h + w) > MAX_SHORELINE:
                continue
            for r0 in range(SIZE - h + 1):
                for c0 in range(SIZE - w + 1):
                    out.append(tuple((r0 + r) * SIZE + c0 + c for r in range(h) for c in range(w)))
    return out


RECTANGLES = _rectangles()
_SHORELINE_AT = [turn + d for d, turn in enumerate(DRAWING_AFTER_TURN)]  # a record's index of each shoreline


class RecordActions(Sequence):
    """A record's actions packed as the jitted replay takes them: the placements (tile, cell)
    and each shoreline's cells (``traces[d, :lens[d]]``, a region where ``as_region[d]``,
    else TinyBot's trace), each shoreline right after the turn that calls for it; action i
    is built as a tuple only when asked for (a refusal's)."""

    def __init__(self, placements: np.ndarray, traces: np.ndarray, lens: np.ndarray, as_region: np.ndarray,
                 drawings: int | None = None):
        self.placements, self.traces, self.lens, self.as_region = placements, traces, lens, as_region
        self.drawings = drawings if drawings is not None else \
            sum(1 for d, at in enumerate(_SHORELINE_AT) if lens[d] > 0 and at <= len(placements) + d)

    def __len__(self) -> int:
        return len(self.placements) + self.drawings

    def where(self, index: int) -> tuple[str, int]:
        """Which action ``index`` is: ("shoreline", d) or ("turn", t), both counted from 0."""
        if index < 0 or index >= len(self):
            raise IndexError(index)
        if index in _SHORELINE_AT[:self.drawings]:
            return "shoreline", _SHORELINE_AT.index(index)
        return "turn", index - sum(1 for at in _SHORELINE_AT[:self.drawings] if at < index)

    def __getitem__(self, index: int):
        kind, k = self.where(index)
        if kind == "shoreline":
            return ("draw" if self.as_region[k] else "trace", tuple(int(z) for z in self.traces[k, :self.lens[k]]))
        tile, cell = self.placements[k]
        return "place", int(tile), int(cell)


class TinyIslandsEngine(Engine):
    game_id = GAME_ID

    def new_game(self, rng: np.random.Generator, options: dict) -> dict:
        deck = options.get("deck") or DECK_MODELS[0]
        return {"offers": offers_for(deck, rng), "deck": deck, "rules": options.get("rules") or RULE_SETS[0]}

    def setup_of_offers(self, offers: np.ndarray, rules: str) -> dict:
        """A given shuffle (``play --shuffles``): its deck model is the one its offers fit."""
        deck = "one-deck" if one_deck_consistent(offers)[0] else "two-deck"
        return {"offers": offers, "deck": deck, "rules": rules, "given": True}

    def initial_state(self, setup: dict) -> TinyIslandsState:
        return TinyIslandsState(setup["offers"], setup["rules"])

    @staticmethod
    def _counts(s: TinyIslandsState) -> None:
        """The deck's counts of a state the batch replay left (it does not keep them)."""
        if s.tile_drawn is None:
            s.tile_drawn, s.zone_drawn = E.offer_counts(s.offers, s.turn)

    def _take_offer(self, s: TinyIslandsState) -> int:
        if s.turn >= len(s.offers):  # past an unfinished record's offers: nothing was offered
            return E.TILE_NOT_OFFERED
        self._counts(s)
        if not s.offer_checked:
            code = E.offer_code(s.offers[s.turn], s.tile_drawn, s.zone_drawn)
            if code != E.OK:
                return code
            s.offer_checked = True
        return E.OK

    def legal_actions(self, s: TinyIslandsState) -> list:
        """Placements: every one the offer allows. Shorelines: the legal rectangles (a
        representative set; any legal region may be applied)."""
        if self.is_terminal(s):
            return []
        if s.drawing_due:
            region = np.zeros(CELLS, np.bool_)
            out = []
            for cells in RECTANGLES:
                region[:] = False
                region[list(cells)] = True
                if E.check_region(s.land, region) == E.OK:
                    out.append(("draw", cells))
            return out
        if s.turn >= len(s.offers):  # an unfinished record's setup: no offer, no placement
            return []
        seen = set()
        out = []
        for tile, cell in E.legal_placements(s.tiles, s.offers[s.turn]):
            if (tile, cell) not in seen:
                seen.add((tile, cell))
                out.append(("place", int(tile), int(cell)))
        return out

    def apply(self, s: TinyIslandsState, action) -> int:
        if action[0] in ("draw", "trace"):
            if not s.drawing_due:
                return E.DRAWING_OUT_OF_PLACE
            cells = np.array(action[1], np.int64)
            indirect = False
            if action[0] == "draw":
                code, region = E.listed_region(s.land, cells, len(cells))
            else:
                code, region, indirect = E.drawing_region(s.land, cells, len(cells))
            if code == E.OK:
                s.land ^= region
                s.scored = None
                s.regions[s.drawings], s.indirect[s.drawings] = region, indirect
                s.drawings += 1
            return code
        if s.drawing_due:
            return E.MISSING_DRAWING
        if s.turn >= TURNS:
            return E.MOVE_AFTER_END
        self._counts(s)
        counts = (s.tile_drawn.copy(), s.zone_drawn.copy(), s.offer_checked)  # a refusal changes nothing
        code = self._take_offer(s)
        offer = s.offers[s.turn] if code == E.OK else None
        if code == E.OK and E.legal_placements(s.tiles, offer).shape[0] == 0:
            code = E.NO_LEGAL_PLACEMENT
        if code == E.OK:
            _, tile, cell = action
            code = E.placement_code(s.tiles, offer, tile, cell)
        if code == E.OK:
            s.tiles[cell] = tile
            s.scored = None
            s.turn += 1
            s.offer_checked = False
        else:
            s.tile_drawn[:], s.zone_drawn[:], s.offer_checked = counts
        return code

    def play_all(self, s: TinyIslandsState, actions) -> tuple[int, int]:
        """A record packed as :class:`RecordActions`, from the first move, is replayed at once
        by the jitted ``engine.replay``; any other sequence one action at a time."""
        if not isinstance(actions, RecordActions) or s.turn or s.drawings or s.offer_checked \
                or len(actions.placements) > min(TURNS, len(s.offers)) \
                or not E.values_in_range(s.offers[:len(actions.placements)], actions.placements, actions.traces,
                                         len(ZONE_LETTERS)):
            return super().play_all(s, actions)
        code, index, _, s.tiles, s.land, s.regions, s.indirect, scored = E.replay(
            s.offers, actions.placements, actions.traces, actions.lens, actions.as_region,
            len(actions.placements), s.wave_rule)
        index = len(actions) if code == E.OK else int(index)
        s.drawings = actions.drawings if code == E.OK else sum(1 for i in _SHORELINE_AT[:actions.drawings] if i < index)
        s.turn = index - s.drawings
        s.tile_drawn = s.zone_drawn = None  # the deck's counts, taken when a move is applied next (_counts)
        s.offer_checked = False
        s.scored = scored if code == E.OK else None
        return int(code), index

    def refused_part(self, s: TinyIslandsState, action, code: int) -> int:
        """A turn is written as its offer (part 0) and its placement (part 1): the deck's counts
        and a placement left to no cell refuse the offer."""
        if action[0] != "place" or code in (E.TILE_EXHAUSTED, E.ZONE_EXHAUSTED, E.NO_LEGAL_PLACEMENT):
            return 0
        return 1

    def code_name(self, code: int) -> str:
        return E.CODE_NAMES[code]

    def explain(self, s: TinyIslandsState, action, code: int) -> str:
        return E.CODE_MESSAGES.get(code, "illegal move")

    def is_terminal(self, s: TinyIslandsState) -> bool:
        if s.turn >= TURNS and not s.drawing_due:
            return True
        return (not s.drawing_due and self._take_offer(s) == E.OK
                and E.legal_placements(s.tiles, s.offers[s.turn]).shape[0] == 0)

    def to_move(self, s: TinyIslandsState) -> int:
        return 0

    def score(self, s: TinyIslandsState) -> dict:
        if s.scored is not None:
            return {k: int(v) for k, v in zip(CATEGORIES, s.scored)}
        return {k: int(v) for k, v in zip(CATEGORIES, E.score_board(s.tiles, s.land, s.wave_rule))}

    # ---- bots

    def load_user_file(self, name: str, data: bytes):
        """``net``: TinyBot's network (``net.load_net``), run on as many threads as numba's
        play-outs (one in a worker of a process pool), at most 4."""
        if name != "net":
            return super().load_user_file(name, data)
        import numba

        from .net import NetUnavailable, load_net
        try:
            return load_net(data, threads=max(1, min(numba.get_num_threads(), 4)))
        except NetUnavailable as exc:
            raise ImportError(str(exc)) from None

    def _bot_call(self, bot, setup: dict, seed: int, options: dict):
        from . import bots as B
        from .players import random_game
        wave_rule = RULE_SETS.index(setup["rules"])
        deck_model = DECK_MODELS.index(setup["deck"])
        if bot.name == "random":
            return (*random_game(setup["offers"], seed), False)
        if bot.name in ("net", "netsearch"):
            from . import net_bots
            game = net_bots.play(setup["offers"], options["net"], wave_rule, deck_model,
                                 bot.number if bot.name == "netsearch" else 0, seed)
            return (*net_bots.record_of(game), True)
        kind = {"heuristic": B.HEURISTIC, "mc": B.MC, "halving": B.HALVING}[bot.name]
        return (*B.play(setup["offers"], kind, bot.number or 0, seed, wave_rule, deck_model), True)

    def warm_up(self, bots, options: dict) -> None:
        """Load (or compile) the bot by playing one game; Monte Carlo with one play-out, which is quick."""
        from scorebook.engines.protocol import BotSpec
        bot = bots[0]
        warm = BotSpec("mc", 1) if bot.name == "mc" else BotSpec("netsearch", 1) if bot.name == "netsearch" else bot
        deck = options.get("deck") or DECK_MODELS[0]
        self._bot_call(warm, {"offers": offers_for(deck, np.random.default_rng(0)), "deck": deck,
                              "rules": options.get("rules") or RULE_SETS[0]}, 0, options)

    def play(self, setup: dict, bots, seed: int, options: dict) -> Played:
        """One game by ``bots[0]``: it gets the whole shuffle but reads offers[t] only at turn t
        (see players.py and bots.py), and is told the deck model. Its bots are jitted whole
        games that return their moves alone, packed as :class:`RecordActions` (the placements
        it made; its shorelines as regions, or the random player's traces): no states kept."""
        start = time.perf_counter()
        placements, traces, lens, as_regions = self._bot_call(bots[0], setup, seed, options)
        seconds = time.perf_counter() - start
        made = placements[:int((np.asarray(placements)[:, 0] >= 0).sum())]
        return Played(RecordActions(made, traces, lens, np.full(len(lens), as_regions, np.bool_)), seconds, states=None)


ENGINE = TinyIslandsEngine()
