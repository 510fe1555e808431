"""Let bots play and keep their games as records (through the normal ingest path).

>>> from scorebook.records.store import Store
>>> games = play_tiny_islands(Store(":memory:"), "random", games=2, seed=5)
>>> [g["status"] for g in games]
['ingested', 'ingested']
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from scorebook.engines.tiny_islands.deck import offers_for, one_deck_consistent
from scorebook.engines.tiny_islands.metadata import DECK_MODELS
from scorebook.engines.tiny_islands.players import random_game

from . import tiny_islands
from .errors import UsageError
from .formats import read_text
from .ingest import ingest_text
from .store import Store

TINY_ISLANDS_BOTS = ("random", "heuristic", "mc", "halving")


def tiny_islands_player(spec: str, rules: str):
    """A function (offers, seed) -> (placements, traces or regions, lengths, as_regions)."""
    from scorebook.engines.tiny_islands import bots
    name, _, arg = spec.partition(":")
    if name not in TINY_ISLANDS_BOTS or (arg and not arg.isdigit()) or (arg and name not in ("mc", "halving")):
        raise UsageError(f"unknown Tiny Islands bot {spec!r}; choose random, heuristic, mc:ROLLOUTS or "
                         "halving:ROLLOUTS")
    wave_rule = 1 if rules == "tinybot" else 0
    if name == "random":
        return lambda offers, seed, deck_model=0: (*random_game(offers, seed), False)
    if name == "heuristic":
        return lambda offers, seed, deck_model=0: (*bots.play(offers, bots.HEURISTIC, 0, seed, wave_rule, deck_model), True)
    rollouts = int(arg) if arg else 8
    bot = bots.MC if name == "mc" else bots.HALVING
    return lambda offers, seed, deck_model=0: (*bots.play(offers, bot, rollouts, seed, wave_rule, deck_model), True)


def _store_game(store: Store, text: str, source: str, out_dir: str | None, filename: str) -> dict:
    """Write a bot's record to ``out_dir`` (when given) and ingest it like any other record."""
    if out_dir:
        path = Path(out_dir) / filename
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        source = str(path)
    return ingest_text(store, text, source, "pgn")[0]


def shuffles_from(text: str, source: str) -> list[np.ndarray]:
    """Deck orders (offers) of every readable Tiny Islands record in a file."""
    out = []
    for item in read_text(text, source):
        if item.record is None or item.game != tiny_islands.GAME:
            raise UsageError(f"{source}: record {item.index} gives no shuffle"
                             + (f" ({item.error.describe()})" if item.error else ""))
        rec = item.record
        if len(rec.offers) != tiny_islands.TURNS:
            raise UsageError(f"{source}: record {item.index} is unfinished and gives no full shuffle")
        out.append(np.array([[o.tile1, o.zone1, o.tile2, o.zone2] for o in rec.offers], np.int64))
    return out


def play_tiny_islands(store: Store, bot: str, *, games: int = 1, seed: int = 0, deck: str = "two-deck",
                      rules: str = "published", shuffles: list[np.ndarray] | None = None,
                      out_dir: str | None = None, progress=None) -> list[dict]:
    """Play ``games`` games (one per shuffle when ``shuffles`` is given); store each record."""
    player = tiny_islands_player(bot, rules)
    count = len(shuffles) if shuffles is not None else games
    results = []
    # load (or compile) the bot before timing; Monte Carlo with one play-out, which is quick
    warm_up = player if not bot.startswith("mc") else tiny_islands_player("mc:1", rules)
    warm_up(offers_for(deck, np.random.default_rng(0)), 0, DECK_MODELS.index(deck))
    for g in range(count):
        rng = np.random.default_rng([seed, g])
        offers = shuffles[g] if shuffles is not None else offers_for(deck, rng)
        start = time.perf_counter()
        # the bot gets the whole array but reads offers[t] only at turn t (see players.py); it
        # is told the deck model: the one asked for, or for given shuffles the one they fit
        model = deck if shuffles is None else ("one-deck" if one_deck_consistent(offers)[0] else "two-deck")
        placements, traces, lens, as_regions = player(offers, int(rng.integers(2**31)), DECK_MODELS.index(model))
        seconds = time.perf_counter() - start
        record = tiny_islands.from_arrays(offers, placements, traces, lens, rules=rules, regions=as_regions,
                                          deck=None if shuffles is not None else deck,
                                          tags={"Event": f"scorebook play seed {seed}", "Round": str(g + 1),
                                                "Player": bot})
        result = tiny_islands.replay(record)
        record.recorded = result.score if record.finished else None
        text = tiny_islands.write_pgn(record, result)
        outcome = _store_game(store, text, f"play:{bot}:seed={seed}:game={g + 1}", out_dir,
                              f"tiny-islands-{bot.replace(':', '')}-s{seed}-{g + 1:04d}.pgn")
        outcome["seconds"] = round(seconds, 4)
        results.append(outcome)
        if progress:
            progress(1)
    return results


def _goi_game_text(n: int, lines, tags: dict[str, str]) -> tuple[str, list[int]]:
    """PGN text of a bot game from its lines (each mover claims the islands its line makes)."""
    from scorebook.engines.game_of_islands import engine as G
    from . import game_of_islands as goi
    from . import pgn as container
    used, diag, owner = G.new_state(n)
    words = []
    player = 0
    last = None
    for k, (x1, y1, x2, y2) in enumerate(lines):
        before = owner.copy()
        G.apply_line(n, used, diag, int(x1), int(y1), int(x2), int(y2))
        G.claim_near(n, used, diag, owner, player, int(x1), int(y1), int(x2), int(y2))
        claims = [int(d) for d in np.flatnonzero(owner != before)]
        if k % 2 == 0:
            words.append(f"{k // 2 + 1}.")
        turn = goi.Turn("line", (int(x1), int(y1), int(x2), int(y2)), claims)
        words.append(goi._turn_text(n, turn))
        last = player
        player = 1 - player
    points = [int((owner == 0).sum()), int((owner == 1).sum())]
    if last is not None and not G.has_legal_line(n, used, diag):
        points[last] += G.BONUS_POINTS
    result = f"{points[0]}-{points[1]}"
    words.append(result)
    tags = dict(tags)
    tags["Result"] = result
    return container.write_tags(tags) + "\n\n" + "\n".join(goi._wrap(words)) + "\n", points


def play_game_of_islands(store: Store, bots: list[str], *, grid: int = 10, games: int = 1, seed: int = 0,
                         triad: bool = False, depth: int = 4, budget: int = 300_000,
                         out_dir: str | None = None, progress=None) -> list[dict]:
    """Bots play single grids (First alternating between games) or whole triads; every game
    is stored through the normal ingest path, so it is replayed and checked like any record."""
    from scorebook.engines.game_of_islands.bots import BOT_NAMES, play_game
    from . import game_of_islands as goi
    if len(bots) != 2 or any(b not in BOT_NAMES for b in bots):
        raise UsageError(f"game-of-islands needs two bots from {', '.join(BOT_NAMES)}, e.g. search,greedy")
    if not goi.MIN_GRID <= grid <= goi.MAX_GRID:
        raise UsageError(f"--grid must be from {goi.MIN_GRID} to {goi.MAX_GRID}")
    names = list(bots) if bots[0] != bots[1] else [f"{bots[0]}-1", f"{bots[1]}-2"]
    play_game(4, BOT_NAMES[bots[0]], BOT_NAMES[bots[1]], 0, 1, 100)  # load the compiled bots before timing
    results = []
    for g in range(games):
        rng = np.random.default_rng([seed, g])
        grids = list(goi.TRIAD_GRIDS) if triad else [grid]
        texts = []
        totals = [0, 0]  # from the side of game 1's First, as the triad's score is
        start = time.perf_counter()
        for k, n in enumerate(grids):
            first = (g + k) % 2  # alternate who moves first, game by game and grid by grid
            lines = play_game(n, BOT_NAMES[bots[first]], BOT_NAMES[bots[1 - first]], int(rng.integers(2**31)),
                              depth, budget)
            tags = {"Game": goi.GAME, "Event": f"scorebook play seed {seed}", "Round": str(g + 1)}
            if triad:
                tags["Match"] = f"{seed}.{g + 1}"
            tags.update({"Grid": str(n), "First": names[first], "Second": names[1 - first]})
            text, points = _goi_game_text(n, lines, tags)
            texts.append(text)
            same_side = first == g % 2  # this game's First is game 1's First
            totals[0] += points[0] if same_side else points[1]
            totals[1] += points[1] if same_side else points[0]
        seconds = time.perf_counter() - start
        text = "\n".join(texts)
        if triad:  # state the match result on the last game, as tournament records do
            result = goi.match_result(totals[0] - totals[1])
            text = text.replace(f'[Grid "{grids[-1]}"]', f'[Grid "{grids[-1]}"]\n[MatchResult "{result}"]')
        outcome = _store_game(store, text, f"play:{'-'.join(bots)}:seed={seed}:game={g + 1}", out_dir,
                              f"game-of-islands-{'-'.join(bots)}-{'triad' if triad else grid}-s{seed}-{g + 1:04d}.pgn")
        outcome["seconds"] = round(seconds, 4)
        score = outcome.get("score") or {}
        pair = score.get("totals") or score.get("points")  # from the side of game 1's First
        if pair is not None and g % 2 == 1:
            pair = pair[::-1]  # bot B moved first in game 1
        outcome["margin"] = pair[0] - pair[1] if pair is not None else None
        outcome["players"] = names
        results.append(outcome)
        if progress:
            progress(1)
    return results



def parse_agent(spec: str) -> tuple[str, int]:
    """'minimax:3' -> ('minimax', 3); 'sampler:32' -> ('sampler', 32); 'greedy' -> ('greedy', 0)."""
    from scorebook.engines.iwoki.agents import AGENT_NAMES
    name, _, arg = spec.strip().partition(":")
    if name not in AGENT_NAMES or (arg and not arg.isdigit()):
        raise UsageError(f"unknown Iwoki agent {spec!r}; use random, greedy, minimax:DEPTH, minimax-sim:DEPTH "
                         "or sampler:SAMPLES")
    default = {"minimax": 2, "minimax-sim": 2, "sampler": 16}.get(name, 0)
    return name, int(arg) if arg else default


def play_iwoki(store: Store, specs: list[str], *, games: int = 1, seed: int = 0, rules: str = "simulator-2021",
               time_limit: float | None = None, out_dir: str | None = None, progress=None) -> list[dict]:
    """Agents play Iwoki (seats alternate game by game); each game is stored as a record
    through the normal ingest path. Decisions are timed one by one."""
    from scorebook.engines.iwoki import agents as A
    from scorebook.engines.iwoki import engine as IE
    from scorebook.engines.iwoki.metadata import (HAND_HEX, HAND_SMALL, HEX_GAP_NAMES, N_HEX_TILES, N_SMALL_TILES,
                                        RULE_SETS, SMALL_GAP_NAMES, hex_name, small_name)
    from . import iwoki as IW
    if len(specs) != 2:
        raise UsageError("iwoki needs two agents, e.g. --players minimax:3,greedy")
    if rules not in RULE_SETS:
        raise UsageError(f"--rules for iwoki: {', '.join(RULE_SETS)}")
    agents = [parse_agent(s) for s in specs]
    names = [s.strip() for s in specs] if specs[0].strip() != specs[1].strip() else [f"{specs[0]}-1", f"{specs[1]}-2"]
    rule_code = RULE_SETS.index(rules)
    warm = A.deal(np.random.default_rng(0), rule_code)
    A.choose(warm, A.AGENT_NAMES["greedy"], 1, 10, 1, np.zeros(2, np.int64))  # load the compiled code
    results = []
    for g in range(games):
        rng = np.random.default_rng([seed, g])
        s = A.deal(rng, rule_code)
        header_state = s.copy()
        seat_of = [g % 2, 1 - g % 2]  # agent i sits in seat_of[i]
        by_seat = [None, None]
        for i in range(2):
            by_seat[seat_of[i]] = i
        A.seed_numba(int(rng.integers(2**31)))
        actions = []
        times = [[], []]
        nodes = [0, 0]
        while not IE.game_over(s) and len(actions) < 400:
            seat = int(s[IE.TO_MOVE])
            name, arg = agents[by_seat[seat]]
            code = A.AGENT_NAMES[name]
            stats = np.zeros(2, np.int64)
            start = time.perf_counter()
            if code in (A.MINIMAX, A.MINIMAX_SIM) and time_limit:
                opt = _minimax_timed(s, arg, time_limit, stats)
            else:
                opt = A.choose(s, code, arg, 1 << 40, arg if code == A.SAMPLER else 16, stats)
            times[by_seat[seat]].append(time.perf_counter() - start)
            nodes[by_seat[seat]] += int(stats[0])
            kind = int(opt[0])
            if kind == IE.SMALL:
                tile = small_name(int(s[HAND_SMALL + seat * N_SMALL_TILES + opt[1]]))
                actions.append(IW.Action("place-small", seat, tile, "+-"[opt[3] // 3], int(opt[3] % 3),
                                         SMALL_GAP_NAMES[int(opt[2])]))
            elif kind == IE.HEX:
                tile = hex_name(int(s[HAND_HEX + seat * N_HEX_TILES + opt[1]]))
                actions.append(IW.Action("place-hex", seat, tile, "AB"[opt[3] // 6], int(opt[3] % 6),
                                         HEX_GAP_NAMES[int(opt[2])]))
            elif kind == IE.DRAW:
                actions.append(IW.Action("draw", seat, small_name(int(s[IE.SMALL_PILE + s[IE.SMALL_PILE_TOP]]))))
            else:
                actions.append(IW.Action("pass", seat))
            IE.apply_option(s, opt)
        header = _iwoki_header(header_state, seed, g, names, agents, seat_of)
        record = IW.IwokiRecord(header, actions, None, rules, {"Event": f"scorebook play seed {seed}",
                                                                "Round": str(g + 1)}, [])
        IW.replay(record, IW._Where())
        text, _ = IW.write_pgn(record)
        outcome = _store_game(store, text, f"play:{'-'.join(names)}:seed={seed}:game={g + 1}", out_dir,
                              f"iwoki-{'-'.join(n.replace(':', '') for n in names)}-s{seed}-{g + 1:04d}.pgn")
        final = record.score["final"]
        outcome["difference"] = final[seat_of[0]] - final[seat_of[1]]
        outcome["decisions"] = [len(t) for t in times]
        outcome["decision_seconds"] = [sum(t) / len(t) if t else None for t in times]
        outcome["nodes"] = nodes
        outcome["players"] = names
        results.append(outcome)
        if progress:
            progress(1)
    return results


def _minimax_timed(s, depth: int, limit: float, stats) -> np.ndarray:
    """Iterative deepening within a time limit per decision (the deepest finished search)."""
    from scorebook.engines.iwoki import agents as A
    from scorebook.engines.iwoki import engine as IE
    opts = IE.options(s)
    best = opts[A.greedy_index(opts)]
    start = time.perf_counter()
    for d in range(1, depth + 1):
        i, _ = A.minimax(s, d, 1 << 40, stats)
        best = opts[i]
        if time.perf_counter() - start >= limit:
            break
    return best


def _iwoki_header(s, seed, g, names, agents, seat_of) -> dict:
    from scorebook.engines.iwoki.metadata import (HAND_HEX, HAND_SMALL, HEX_PILE, HEX_PILE_LEN, N_HAND_HEX, N_HAND_SMALL,
                                        N_HEX_TILES, N_SMALL_TILES, SMALL_PILE, SMALL_PILE_LEN, hex_name,
                                        small_name)
    players = [None, None]
    for i, (name, arg) in enumerate(agents):
        entry = {"seat": seat_of[i], "name": names[i], "type": name}
        if name.startswith("minimax"):
            entry.update({"depth": arg, "max_time_ms": None})
        if name == "sampler":
            entry["samples"] = arg
        players[seat_of[i]] = entry
    perfect = any(name.startswith("minimax") for name, _ in agents)
    deal = [{"small": [small_name(int(s[HAND_SMALL + p * N_SMALL_TILES + i])) for i in range(s[N_HAND_SMALL + p])],
             "hex": [hex_name(int(s[HAND_HEX + p * N_HEX_TILES + i])) for i in range(s[N_HAND_HEX + p])]}
            for p in range(2)]
    return {"kind": "header", "format": "iwoki-log/1", "game": "iwoki", "seed": seed * 100000 + g,
            "reference": {"simulator": "scorebook engines/iwoki", "recorder": "scorebook play"},
            "variant": {"perfect_information": perfect, "players": 2, "initial_small": len(deal[0]["small"]),
                        "initial_hex": len(deal[0]["hex"]), "draw_seed": None},
            "players": players, "initial_deal": deal,
            "small_pile": [small_name(int(s[SMALL_PILE + i])) for i in range(s[SMALL_PILE_LEN])],
            "hex_pile": [hex_name(int(s[HEX_PILE + i])) for i in range(s[HEX_PILE_LEN])]}
