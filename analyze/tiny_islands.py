"""Tiny Islands analysis: the evaluator, and the text, JSON and SVG boards.

Values are expected final scores under halving:N's play-out policy (the heuristic with the
learned window value after the first drawing, ``bots.search_weights``), over futures drawn
from the cards not seen yet under the record's deck model. A placement is compared with the
heuristic's best candidates; a drawing with the shoreline the bot's planner draws. The best
and the played move get more futures while the standard error of the loss is above
``loss.TARGET_STDERR`` (``loss.topped_up``), up to ``max-rollouts``. The last drawing is
exact: nothing is left to chance.
"""
from __future__ import annotations

import numpy as np

from scorebook.engines.tiny_islands import bots, heuristic
from scorebook.engines.tiny_islands.engine import legal_placements
from scorebook.engines.tiny_islands.metadata import (CELLS, COLUMN_NAMES, DECK_MODELS, DRAWING_AFTER_TURN,
                                                     ROW_NAMES, SIZE, TILE_LETTERS, TILE_NAMES, TURNS, ZONE_MASK,
                                                     parse_cell)
from scorebook.records import tiny_islands as ti

from . import svg
from .loss import LINE_MOVES, TARGET_STDERR, MoveRow, base_stderr, rank, sampled_top, top_moves, topped_up, verdict, wants_line
from .protocol import Analysis

LAND, WATER = "#cfe8a9", "#a9d3f0"
# each tile a colour (none the marks' orange or purple), its letter on it in TILE_INK
TILE_COLOURS = {"f": "#2b8a3e", "h": "#c92a2a", "s": "#f2c94c", "w": "#1864ab", "M": "#5c5f66", "C": "#f8f9fa",
                "B": "#8d6e63"}
TILE_INK = {"s": "#333", "C": "#333"}
ZONE = "#0b7285"  # the offered zones, dashed


class _Context:
    """What every move of a record's analysis shares: the deck model, the offers (an
    unfinished game padded), the wave rule and the play-out weights."""

    def __init__(self, record: ti.TinyIslandsRecord, setups: tuple):
        self.wave_rule, self.deck_model = _rules_and_deck(record)
        self.offers, self.known = _offers(setups)
        self.play_out = bots.search_weights()  # halving:N's play-outs; candidates ranked with WEIGHTS, as its root


def _judge_placement(c: _Context, tiles, land, t: int, d: int, played: tuple, seed: int, options: dict) -> MoveRow:
    rollouts, candidates, max_rollouts = options["rollouts"], options["candidates"], options["max-rollouts"]
    cands = []
    for tile, z in legal_placements(tiles, c.offers[t]):
        if (tile, z) not in cands:
            cands.append((int(tile), int(z)))
    heur = [heuristic.weighted_value(tiles, land, tile, z, 3 - d, c.wave_rule, bots.WEIGHTS) for tile, z in cands]
    chosen = [cands[i] for i in list(np.argsort(-np.array(heur), kind="stable")[:candidates])]
    played = tuple(int(v) for v in played)
    if played not in chosen:
        chosen.append(played)
    arr = np.array(chosen, np.int64)
    values = bots.eval_placements(tiles, land, c.offers, t, d, c.wave_rule, arr, rollouts, seed + t, c.deck_model,
                                  c.play_out)
    i = chosen.index(played)

    def more(pair, n, k):  # fresh futures per round
        return bots.eval_placements(tiles, land, c.offers, t, d, c.wave_rule, arr[pair], n, seed + 1000 * k + t,
                                    c.deck_model, c.play_out)
    b, vb, vp, se, means, used = topped_up(values, i, more, max_rollouts)
    top = top_moves([_placement_name(m) for m in chosen], means, base_stderr(values), b)
    line = []
    if wants_line(vb - vp, ti.GAME, se):  # never the bot's own move: its loss would be 0
        after = tiles.copy()
        after[chosen[b][1]] = chosen[b][0]
        line = _line_after(c, after, land.copy(), t + 1, d)
    return MoveRow(ti.ply_of_turn(t), 0, _placement_name(played), _placement_name(chosen[b]), vb, vp,
                   max(0.0, vb - vp), se, rank(means, i), len(chosen), futures=used, top=top, line=line)


def _placement_name(move) -> str:
    return ti.NOTATION.action_text(None, ("place", int(move[0]), int(move[1])))


def _line_after(c: _Context, tiles, land, placed: int, drawn: int) -> list[str]:
    """The bot's line after its best move (``tiles``, ``land``: the board after it, changed
    here; ``placed``, ``drawn``: the placements and shorelines made): each next placement
    as the bot ranks its candidates (the heuristic its search starts from) on the record's
    own offers, each shoreline as it plans it, up to ``LINE_MOVES`` moves, the game's end or
    the last offer the record shows."""
    out = []
    while len(out) < LINE_MOVES:
        if drawn < len(DRAWING_AFTER_TURN) and placed == DRAWING_AFTER_TURN[drawn]:
            region = bots.planned_region(tiles, land, c.offers, placed - 1, c.wave_rule, bots.WEIGHTS)
            land ^= region
            drawn += 1
            out.append(_region_text(region))
            continue
        if placed >= min(TURNS, c.known):
            break
        cands = legal_placements(tiles, c.offers[placed])
        if len(cands) == 0:
            break
        heur = [heuristic.weighted_value(tiles, land, int(tile), int(z), 3 - drawn, c.wave_rule, bots.WEIGHTS)
                for tile, z in cands]
        tile, z = (int(v) for v in cands[int(np.argmax(heur))])
        tiles[z] = tile
        placed += 1
        out.append(_placement_name((tile, z)))
    return out


def _region(cells) -> np.ndarray:
    region = np.zeros(CELLS, np.bool_)
    region[list(cells)] = True
    return region


def _judge_drawing(c: _Context, tiles, land, t: int, d: int, played_region: np.ndarray, seed: int,
                   options: dict) -> MoveRow:
    """Shoreline ``d``, drawn after placement ``t``: the bot's planned region against the one drawn."""
    rollouts, max_rollouts = options["rollouts"], options["max-rollouts"]
    bot_region = bots.planned_region(tiles, land, c.offers, t, c.wave_rule, bots.WEIGHTS)
    regions = np.array([bot_region, played_region])
    text = _region_text
    if t + 1 >= TURNS:  # the last drawing: the final score, exact
        values = bots.eval_regions(tiles, land, c.offers, t, d, c.wave_rule, regions, 1, seed + 100 + t,
                                   c.deck_model, c.play_out)
        means = values[:, 0]
        b = int(np.argmax(means))
        vb, vp, se, used, spread = float(means[b]), float(means[1]), None, 1, None
    else:
        values = bots.eval_regions(tiles, land, c.offers, t, d, c.wave_rule, regions, rollouts, seed + 100 + t,
                                   c.deck_model, c.play_out)

        def more(pair, n, k):
            return bots.eval_regions(tiles, land, c.offers, t, d, c.wave_rule, regions[pair], n,
                                     seed + 1000 * k + 100 + t, c.deck_model, c.play_out)
        b, vb, vp, se, means, used = topped_up(values, 1, more, max_rollouts)
        spread = base_stderr(values)
    top = top_moves([text(r) for r in regions], means, spread, b)
    line = _line_after(c, tiles.copy(), land ^ regions[b], t + 1, d + 1) if wants_line(vb - vp, ti.GAME, se) else []
    return MoveRow(ti.ply_of_drawing(d), 0, text(played_region), text(regions[b]), vb, vp, max(0.0, vb - vp), se,
                   rank(means, 1), 2, futures=used, top=top, line=line)


class TinyIslandsAnalysis(Analysis):
    game_id = ti.GAME

    def bot_name(self, options: dict) -> str:
        if "net" in options:
            return (f"net futures:{options['futures']} max-futures:{options['max-futures']} "
                    f"net-sha256:{_sha(options['net'])[:16]}")
        return (f"heuristic rollouts:{options['rollouts']} candidates:{options['candidates']} "
                f"max-rollouts:{options['max-rollouts']}")

    def batched(self, options: dict) -> bool:
        """With the net, every move's play-outs run together after the walk (``_NetJudge``)."""
        return "net" in options

    def finish(self, record: ti.TinyIslandsRecord, *, seed: int, options: dict, memo: dict, progress=None) -> list:
        return memo["net"].rows(seed, progress) if "net" in memo else []

    def settings(self, record: ti.TinyIslandsRecord, options: dict, memo: dict) -> dict:
        if "net" in options:
            return memo.setdefault("net", _NetJudge(record, memo["setups"], options)).settings()
        deck = DECK_MODELS[memo.setdefault("context", _Context(record, memo["setups"])).deck_model]
        return {"rollouts": options["rollouts"], "candidates": options["candidates"],
                "max_rollouts": options["max-rollouts"], "target_stderr": TARGET_STDERR, "deck": deck}

    def judge(self, record: ti.TinyIslandsRecord, position, *, seed: int, options: dict, memo: dict) -> MoveRow:
        """A placement: the heuristic's best ``candidates`` and the move played, each played out
        over sampled futures of the record's deck model, topped up while the loss is unsure. A
        shoreline: the bot's planned region against the one drawn. With the net, the move's
        candidates are gathered and valued after the walk (``_NetJudge``)."""
        if "net" in options:
            memo.setdefault("net", _NetJudge(record, memo["setups"], options)).see(position)
            return None
        if "context" not in memo:  # what every move of the record shares
            memo["context"] = _Context(record, memo["setups"])
        c = memo["context"]
        tiles, land = position.before[0].copy(), position.before[1]
        t = int(np.count_nonzero(tiles))  # placements made before this move
        if position.action[0] == "place":
            d = sum(1 for after in DRAWING_AFTER_TURN if after <= t)
            return _judge_placement(c, tiles, land, t, d, position.action[1:], seed, options)
        d = sum(1 for after in DRAWING_AFTER_TURN if after < t)
        return _judge_drawing(c, tiles, land, t - 1, d, _region(position.action[1]), seed, options)

    # ---- boards: a state is (tiles, land)

    def text_board(self, state, players: tuple[str, ...] = ()) -> str:
        """Cells are three characters: the tile letter (``.`` when empty) in brackets on land,
        between spaces on water."""
        tiles, land = state[0], state[1]
        lines = ["    " + "  ".join(COLUMN_NAMES)]
        for r in range(SIZE):
            cells = []
            for c in range(SIZE):
                z = r * SIZE + c
                letter = TILE_LETTERS[tiles[z]] if tiles[z] else "."
                cells.append(f"[{letter}]" if land[z] else f" {letter} ")
            lines.append(f"{ROW_NAMES[r]}  " + "".join(cells).rstrip())
        return "\n".join(lines)

    def state_json(self, state) -> dict:
        """Rows from the top (row 9): tile letters with '.' for empty, and '#' land / '.' water."""
        tiles, land = state[0], state[1]
        return {"tiles": ["".join(TILE_LETTERS[tiles[r * SIZE + c]] if tiles[r * SIZE + c] else "."
                                  for c in range(SIZE)) for r in range(SIZE)],
                "land": ["".join("#" if land[r * SIZE + c] else "." for c in range(SIZE)) for r in range(SIZE)]}

    def legend(self, players: tuple[str, ...] = ()) -> str:
        tiles = [(name, {"fill": TILE_COLOURS[letter], "rx": 6, "stroke": svg.INK, "stroke_width": 0.5})
                 for letter, name in zip(TILE_LETTERS[1:], TILE_NAMES[1:])]
        return svg.legend([("land", {"fill": LAND}), ("water", {"fill": WATER}), *tiles,
                           ("offered zone", {"fill": "none", "stroke": ZONE, "stroke_width": 2,
                                             "stroke_dasharray": "4,3"})])

    def move_mark(self, position) -> str:
        """A drawing's region as written, ``(a1 b1 ...)``; a placement's last word (``hi3``:
        the tile and its cell, after the offer)."""
        return position.move if position.move.startswith("(") else position.move.split()[-1]

    def svg_board(self, state, played: str | None = None, best: str | None = None,
                  players: tuple[str, ...] = ()) -> str:
        """The board before a move: land and water, the tiles as coloured discs with their
        letters, coordinates; before a placement, the two offered zones (dashed) and the tile
        played and the bot's best drawn in their cells; before a drawing, the region played and
        the bot's tinted; each outlined (the move played solid orange, the bot's best dashed
        purple). ``state``: (tiles, land), and the turn's offer where the record gives it."""
        tiles, land = state[0], state[1]
        offer = state[2] if len(state) > 2 else None
        size, margin = 26, 18
        s = svg.Svg(margin + SIZE * size + 2, margin + SIZE * size + 2)
        self._grid(s, tiles, land, size, margin)
        for kind, move in (("best", best if best != played else None), ("played", played)):  # one tile where the same
            self._move(s, kind, move, size, margin)
        if offer is not None:
            for zone in (offer[1], offer[3]):
                cells = set(int(z) for z in np.flatnonzero(ZONE_MASK[zone]))
                for x1, y1, x2, y2 in self._cells_outline(cells, size, margin):
                    s.line(x1, y1, x2, y2, stroke=ZONE, stroke_width=2, stroke_dasharray="4,3",
                           **{"class": "zone"})
        for kind, move in (("best", best), ("played", played)):
            for x1, y1, x2, y2 in self._outline(move, size, margin):
                s.mark(kind, "line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2})
        return s.to_string()

    def _grid(self, s, tiles, land, size: int, margin: int) -> None:
        """Coordinates, land and water, the tiles."""
        for i in range(SIZE):
            s.text(margin + i * size + size / 2, 13, COLUMN_NAMES[i], font_size=11, text_anchor="middle")
            s.text(9, margin + i * size + size * 0.65, ROW_NAMES[i], font_size=11, text_anchor="middle")
        for z in range(SIZE * SIZE):
            r, c = divmod(z, SIZE)
            x, y = margin + c * size, margin + r * size
            s.rect(x, y, size, size, fill=LAND if land[z] else WATER, stroke="#fff")
            if tiles[z]:
                self._tile(s, TILE_LETTERS[tiles[z]], x, y, size)

    def _move(self, s, kind: str, move: str | None, size: int, margin: int) -> None:
        """A drawing's region tinted, or a placement's tile in its cell, half seen."""
        if move and move.startswith("("):
            for z in {parse_cell(w) for w in move.strip("()").split()}:
                r, c = divmod(z, SIZE)
                s.rect(margin + c * size, margin + r * size, size, size, fill=svg.PLAYED if kind == "played"
                       else svg.BEST, fill_opacity=0.22, **{"class": f"region {kind}"})
        elif move and len(move) == 3 and move[0] in TILE_COLOURS:
            r, c = divmod(parse_cell(move[1:3]), SIZE)
            self._tile(s, move[0], margin + c * size, margin + r * size, size, opacity=0.6)

    @staticmethod
    def _tile(s, letter: str, x: float, y: float, size: float, opacity: float = 1.0) -> None:
        """A tile: a disc in its colour, its letter on it."""
        s.circle(x + size / 2, y + size / 2, size * 0.4, fill=TILE_COLOURS[letter], stroke=svg.INK,
                 stroke_width=0.5, opacity=None if opacity == 1.0 else opacity, **{"class": "tile"})
        s.text(x + size / 2, y + size * 0.68, letter, font_size=size * 0.5, text_anchor="middle",
               fill=TILE_INK.get(letter, "#fff"), opacity=None if opacity == 1.0 else opacity)

    @classmethod
    def _outline(cls, move: str | None, size: int, margin: int) -> list[tuple]:
        """The segments that outline a move: a placement's cell, or a drawing's shoreline."""
        if not move:
            return []
        cells = {parse_cell(w) for w in move.strip("()").split()} if move.startswith("(") else \
            {parse_cell(move[1:3])} if len(move) == 3 else set()
        return cls._cells_outline(cells, size, margin)

    @staticmethod
    def _cells_outline(cells: set, size: int, margin: int) -> list[tuple]:
        """The segments around a set of cells (each side with no cell of the set beyond it)."""
        segments = []
        for z in cells:
            r, c = divmod(z, SIZE)
            x, y = margin + c * size, margin + r * size
            for (dr, dc), seg in (((-1, 0), (x, y, x + size, y)), ((1, 0), (x, y + size, x + size, y + size)),
                                  ((0, -1), (x, y, x, y + size)), ((0, 1), (x + size, y, x + size, y + size))):
                rr, cc = r + dr, c + dc
                if not (0 <= rr < SIZE and 0 <= cc < SIZE) or rr * SIZE + cc not in cells:
                    segments.append(seg)
        return segments


def _sha(net) -> str:
    """The network's SHA-256: of a loaded net, or of the checked file a command names."""
    return net.sha256


def _rules_and_deck(record: ti.TinyIslandsRecord) -> tuple[int, int]:
    """The record's wave rule (1: TinyBot's) and the deck model its futures are drawn under."""
    deck = ti.resolve_deck(record)
    return 1 if record.rules == "tinybot" else 0, DECK_MODELS.index(deck) if deck in DECK_MODELS else 0


def _offers(setups: tuple) -> tuple[np.ndarray, int]:
    """The offers of a walked record (its setup's: tile, zone, tile, zone a turn), padded with
    zeros to the game's turns where it is unfinished (never read before their turn), and how
    many the record shows (a line reads no further)."""
    shown = setups[0]["offers"]
    offers = np.zeros((TURNS, 4), np.int64)
    offers[:len(shown)] = shown
    return offers, len(shown)


def _region_text(region: np.ndarray) -> str:
    return ti.region_text(np.flatnonzero(region))


class _NetJudge:
    """Values with TinyBot's network: the expected final score when the net plays on from the
    position after the move (its greedy moves, the last shoreline by the planner), over futures
    drawn from the cards not seen yet under the record's deck model, the same futures for the
    net's best move and the move played; the last shoreline is exact. The net's best move is
    the legal move it rates highest (a shoreline: the one it draws).

    The walk hands it every move (``see``): it keeps the net's own board in step and gathers
    each move's candidates. ``rows`` then plays them out: ``futures`` play-outs behind each
    value; where the move played is not the net's and the standard error of the loss is above
    ``TARGET_STDERR``, both get more, up to ``max-futures``. The play-outs of every move run
    together, in two rounds (the net runs large batches fast)."""

    def __init__(self, record: ti.TinyIslandsRecord, setups: tuple, options: dict):
        from scorebook.engines.tiny_islands import net_bots, net_play as NP
        self.NP, self.net_bots = NP, net_bots
        self.net, self.futures, self.cap = options["net"], options["futures"], options["max-futures"]
        self.wave_rule, self.deck_model = _rules_and_deck(record)
        # the record's own last shoreline is applied, not the planner's
        self.root = NP.Games(1, self.wave_rule, third_by_net=True)
        self.root.offers[0], self.known = _offers(setups)
        self.state = self.root.arrays()
        self.judged = []  # per move: ply, labels of the candidates (best first, played last), their rows, offers seen
        self.exact = []  # the last shoreline's row, valued at once
        self.turns = self.drawings = 0

    def _after(self, moves: list):
        """One row per candidate: the root with that candidate played (a move, or a region)."""
        NP = self.NP
        out = NP.Games(len(moves), self.wave_rule)
        out.copy_row(self.root, 0, np.arange(len(moves)))
        for r, move in enumerate(moves):
            if isinstance(move, np.ndarray):
                cells = np.flatnonzero(move)
                NP.apply_region(r, cells, len(cells), *out.arrays(), self.wave_rule, False)
            else:
                NP.apply_move(r, move, *out.arrays(), self.wave_rule, False)
        return out

    def see(self, position) -> None:
        NP, root, t = self.NP, self.root, self.turns
        if position.action[0] == "place":
            NP.look(0, *self.state, root.local, root.glob)
            logits = self.net.policy(root.local[:1], root.glob[:1])[0]
            best = int(self.net_bots._ranked_moves(root, 0, logits)[0])
            played = int(position.action[1] * CELLS + position.action[2])
            moves = [best] if best == played else [best, played]
            name = lambda move: _placement_name((move // CELLS, move % CELLS))  # noqa: E731
            self.judged.append((position.ply, [name(m) for m in moves], self._after(moves), t))
            NP.apply_move(0, played, *self.state, self.wave_rule, True)
            self.turns += 1
            return
        played_region, d = _region(position.action[1]), self.drawings
        if t >= TURNS:  # the last shoreline: the final score, exact
            land = (root.land_id[0] > 0)
            cells, n = bots.last_drawing(root.tiles[0], land, self.wave_rule, bots.WEIGHTS)
            planner = np.zeros(CELLS, np.bool_)
            planner[cells[:n]] = True
            regions = [planner, played_region] if (planner != played_region).any() else [played_region]
            cands = self._after(regions)
            totals = NP.totals(cands.tiles, cands.land_id, cands.gmeta, self.wave_rule)
            b = int(np.argmax(totals))
            self.exact.append(MoveRow(
                position.ply, 0, _region_text(played_region), _region_text(regions[b]), float(totals[b]),
                float(totals[-1]), float(totals[b] - totals[-1]), None, rank(totals, len(regions) - 1),
                len(regions), exact=True, futures=1, top=top_moves([_region_text(r) for r in regions], totals,
                                                                   None, b)))
        else:
            greedy = self.net_bots.drawing_candidates(root, self.net, 0).drawn[0, d]
            regions = [played_region] if (greedy == played_region).all() else [greedy, played_region]
            self.judged.append((position.ply, [_region_text(r) for r in regions], self._after(regions), t - 1))
        cells = np.flatnonzero(played_region)
        NP.apply_region(0, cells, len(cells), *self.state, self.wave_rule, True)
        self.drawings += 1

    def _round(self, wanted: list, seed: int) -> list:
        """[candidates, n] values for each (move, n, round) wanted, every play-out in one batch."""
        jobs, shapes = [], []
        for m, n, k in wanted:
            ply, _, cands, seen = self.judged[m]
            shuffles = self.net_bots.sample_futures(self.root.offers[0], seen, n, self.deck_model, seed + 1000 * ply + k)
            jobs += [(cands, c, shuffles[f]) for c in range(cands.n) for f in range(n)]
            shapes.append((cands.n, n))
        totals = self.net_bots.play_outs_of(jobs, self.net, self.wave_rule) if jobs else np.zeros(0)
        out, at = [], 0
        for k, n in shapes:
            out.append(totals[at:at + k * n].reshape(k, n))
            at += k * n
        return out

    def rows(self, seed: int, progress=None) -> list[MoveRow]:
        futures, cap = self.futures, self.cap
        values = self._round([(m, futures, 0) for m in range(len(self.judged))], seed)
        for _ in range(len(self.judged) + len(self.exact)):
            if progress:
                progress()
        more = []
        for m, v in enumerate(values):
            if v.shape[0] == 2 and futures < cap:
                diff = v[0] - v[1]
                if diff.std(ddof=1) / np.sqrt(len(diff)) > TARGET_STDERR:
                    more.append(m)
        for m, extra in zip(more, self._round([(m, cap - futures, 1) for m in more], seed)):
            values[m] = np.hstack([values[m], extra])
        rows = []
        for (ply, labels, cands, _), v in zip(self.judged, values):
            played = v.shape[0] - 1
            b, vb, vp, loss, se, r = verdict(v, played)
            line = self._line(cands, b) if wants_line(loss, ti.GAME, se) else []
            rows.append(MoveRow(ply, 0, labels[played], labels[b], vb, vp, loss, se, r, v.shape[0], futures=v.shape[1],
                                top=sampled_top(labels, v, b), line=line))
        return sorted(rows + self.exact, key=lambda row: row.ply)

    def _line(self, cands, r: int) -> list[str]:
        """The net's line after candidate ``r`` (its best move): its greedy choices on the
        record's own offers (a placement it rates highest, a shoreline it draws; the last
        shoreline the planner's, as in its play-outs), up to ``LINE_MOVES`` moves, the game's
        end or the last offer the record shows."""
        NP = self.NP
        probe = NP.Games(1, self.wave_rule)
        probe.copy_row(cands, r, [0])
        meta, out = probe.gmeta[0], []
        while len(out) < LINE_MOVES:
            d = int(meta[NP.DRAWINGS])
            if meta[NP.PHASE] == NP.DRAW:
                region = self.net_bots.drawing_candidates(probe, self.net, 0).drawn[0, d]
                cells = np.flatnonzero(region)
                NP.apply_region(0, cells, len(cells), *probe.arrays(), self.wave_rule, False)
                out.append(_region_text(region))
            elif meta[NP.PHASE] == NP.PLACE and meta[NP.TURN] < self.known:
                NP.look(0, *probe.arrays(), probe.local, probe.glob)
                logits = self.net.policy(probe.local[:1], probe.glob[:1])[0]
                move = int(self.net_bots._ranked_moves(probe, 0, logits)[0])
                NP.apply_move(0, move, *probe.arrays(), self.wave_rule, False)
                out.append(_placement_name((move // CELLS, move % CELLS)))
                if meta[NP.DRAWINGS] > d and len(out) < LINE_MOVES:  # the last shoreline, drawn with it
                    out.append(_region_text(probe.drawn[0, d]))
            else:
                break
        return out

    def settings(self) -> dict:
        return {"futures": self.futures, "max_futures": self.cap, "target_stderr": TARGET_STDERR,
                "deck": DECK_MODELS[self.deck_model], "net_sha256": _sha(self.net), "level": "net"}


ANALYSIS = TinyIslandsAnalysis()
