"""Iwoki analysis: the evaluator, and the text, JSON and SVG boards.

A value is the expected final-tally difference for the mover: the unseen tiles redealt
consistently with what the mover knows, each option followed by Greedy play to the end.
"""
from __future__ import annotations

import html

import numpy as np

from scorebook.engines.iwoki import agents as A, engine as IE
from scorebook.engines.iwoki.metadata import (HAND_HEX, HAND_SMALL, HEX_GAP_INDEX, HEX_GAP_NAMES, N_HAND_HEX,
                                              N_HAND_SMALL, N_HEX_TILES, N_SMALL_TILES, SMALL_GAP_INDEX,
                                              SMALL_GAP_NAMES, parse_tile)
from scorebook.records import iwoki as IW

from .loss import MoveRow, paired, rank
from .protocol import Analysis


def option_index(s, opts, a: IW.Action) -> int:
    """The index of a record's action among the engine's options of state ``s``."""
    p = int(s[IE.TO_MOVE])
    for j, o in enumerate(opts):
        if a.type == "draw" and o[0] == IE.DRAW or a.type == "pass" and o[0] == IE.PASS:
            return j
        if a.type.startswith("place") and o[0] in (IE.SMALL, IE.HEX):
            kind, tile = parse_tile(a.tile)
            if (kind == "small") != (o[0] == IE.SMALL):
                continue
            hand = HAND_SMALL + p * N_SMALL_TILES if kind == "small" else HAND_HEX + p * N_HEX_TILES
            orient = ("+-".index(a.face) * 3 if kind == "small" else "AB".index(a.face) * 6) + a.rotation
            gap = (SMALL_GAP_INDEX if kind == "small" else HEX_GAP_INDEX)[a.gap]
            if s[hand + o[1]] == tile and o[2] == gap and o[3] == orient:
                return j
    raise ValueError(f"action {a.text()} is not among the options")


def option_text(s, o) -> str:
    """An engine option of state ``s`` as Scorebook notation writes the action."""
    p = int(s[IE.TO_MOVE])
    if o[0] == IE.SMALL:
        return f"st{s[HAND_SMALL + p * N_SMALL_TILES + o[1]] + 1}{'+-'[o[3] // 3]}{o[3] % 3}@{SMALL_GAP_NAMES[o[2]]}"
    if o[0] == IE.HEX:
        return f"ht{s[HAND_HEX + p * N_HEX_TILES + o[1]] + 1}{'AB'[o[3] // 6]}{o[3] % 6}@{HEX_GAP_NAMES[o[2]]}"
    return "draw" if o[0] == IE.DRAW else "pass"


def gap_names(s) -> tuple[list[str], list[str]]:
    """The open small and hex gaps of a state, in opening order."""
    small = [SMALL_GAP_NAMES[int(s[IE.OPEN_SMALL + i])] for i in range(s[IE.N_OPEN_SMALL])]
    hexes = [HEX_GAP_NAMES[int(s[IE.OPEN_HEX + i])] for i in range(s[IE.N_OPEN_HEX])]
    return small, hexes


class IwokiAnalysis(Analysis):
    game_id = IW.GAME

    def bot_name(self, options: dict[str, int]) -> str:
        return f"greedy rollouts:{options['samples']}"

    def evaluate(self, record: IW.IwokiRecord, players, *, seed: int, options: dict[str, int], progress=None):
        samples = options["samples"]
        s = IW.initial_state(record)
        rows = []
        for ply, a in enumerate(record.actions, 1):
            opts, values = A.option_values(s, samples, seed + ply)
            p = int(s[IE.TO_MOVE])
            played = option_index(s, opts, a)
            means = values.mean(axis=1)
            b = int(np.argmax(means))
            vb, vp, se = paired(values, b, played)
            rows.append(MoveRow(ply, p, a.text(), option_text(s, opts[b]), vb, vp, max(0.0, vb - vp), se,
                                rank(means, played), len(opts)))
            IE.apply_option(s, opts[played])
            if progress:
                progress()
        return rows, {"samples": samples}

    # ---- boards: a state is the engine's state vector

    def text_board(self, s) -> str:
        small, hexes = gap_names(s)
        lines = [f"scores {s[IE.SCORE]}-{s[IE.SCORE + 1]}, white tokens {s[IE.WHITE]}-{s[IE.WHITE + 1]}"]
        for p in range(2):
            hs = " ".join(f"st{s[HAND_SMALL + p * N_SMALL_TILES + i] + 1}" for i in range(s[N_HAND_SMALL + p]))
            hh = " ".join(f"ht{s[HAND_HEX + p * N_HEX_TILES + i] + 1}" for i in range(s[N_HAND_HEX + p]))
            lines.append(f"seat {p}: {hs} / {hh}")
        lines.append("open small gaps: " + (" ".join(small) or "-"))
        lines.append("open hex gaps: " + (" ".join(hexes) or "-"))
        return "\n".join(lines)

    def state_json(self, s) -> dict:
        small, hexes = gap_names(s)
        return {"open_small": small, "open_hex": hexes, "scores": [int(s[IE.SCORE]), int(s[IE.SCORE + 1])]}

    def svg_board(self, s, played: str | None = None, best: str | None = None) -> str:
        lines = self.text_board(s).split("\n")
        if played is not None:
            lines += [f"played {played}", f"best {best}"]
        h = 14 * len(lines) + 6
        body = "".join(f'<text x="4" y="{14 * (i + 1)}" font-size="11">{html.escape(line)}</text>'
                       for i, line in enumerate(lines))
        return f'<svg class="board" xmlns="http://www.w3.org/2000/svg" width="240" height="{h}">{body}</svg>'


ANALYSIS = IwokiAnalysis()
