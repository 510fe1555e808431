"""Pairing a round: each format's engine, from the tournament as data to the round's tables.

- Swiss (two seats): the FIDE Dutch system as bbpPairings computes it, through py4swiss (its
  matching is bbpPairings'), fed the tournament as a TRF16 file. Not rules written here.
- Round robin: FIDE's Berger tables (single, or double with the colours reversed).
- Tables of 3-8: Swiss seating. The entrants by standings fill tables of the size asked (as
  many full as can be, the rest one seat fewer); swaps between neighbouring tables are kept
  while they lower an explicit cost (``seating_cost``).
- Duplicate (solo games): a table of one for every entrant, the round's deal fixed by the
  tournament's seed.
"""
from __future__ import annotations

import itertools
import os
import tempfile
from collections import Counter
from pathlib import Path

from scorebook.errors import UsageError

from . import trf
from .model import Table, Tournament

# the cost of a seating (tables): a point of standings' spread at a table, a repeat meeting
# (squared, per pair), a seat taken first again
SPREAD_WEIGHT = 1.0
REPEAT_WEIGHT = 4.0
FIRST_SEAT_WEIGHT = 0.5


def pair_round(t: Tournament, round_: int, standings_points: dict[str, float]) -> list[Table]:
    """The tables of round ``round_`` (games first, then byes and absences)."""
    playing = [e.name for e in t.entrants if e.plays_in(round_)]
    absent = [Table(round=round_, table=0, seats=[e.name], kind="absent")
              for e in t.entrants if not e.plays_in(round_) and (e.withdrawn is None or round_ < e.withdrawn)
              and e.joined <= round_]
    if t.format == "swiss":
        games = swiss(t, round_)
    elif t.format in ("round-robin", "double-round-robin"):
        games = round_robin(t, round_)
        playing_set = set(playing)
        kept = []
        # a Berger table with a player who is out: the other has a bye (the one out, an absence)
        for g in games:
            if g.kind != "game" or all(s in playing_set for s in g.seats):
                kept.append(g)
            else:
                kept += [Table(round=round_, table=0, seats=[s], kind="bye") for s in g.seats if s in playing_set]
        games = kept
    elif t.format == "tables":
        games = seat_tables(t, round_, playing, standings_points)
    else:
        games = [Table(round=round_, table=0, seats=[name]) for name in playing]
    tables = games + absent
    for number, table in enumerate(tables, 1):
        table.table = number
    return tables


# ----------------------------------------------------------------- Swiss: FIDE Dutch

# above this many players a round is paired by the fold (``fast_swiss``): the Dutch system's
# weighted matching grows with the cube of the field (500 players: 5-10 s a round on 2 cores)
FAST_ABOVE = 300


def swiss(t: Tournament, round_: int) -> list[Table]:
    """The Dutch system's pairing of ``round_`` (py4swiss, bbpPairings' matching); above
    ``FAST_ABOVE`` players to pair, the fold."""
    if sum(e.plays_in(round_) for e in t.entrants) > FAST_ABOVE:
        return fast_swiss(t, round_)
    from py4swiss.engines import DutchEngine
    from py4swiss.trf import TrfParser
    from py4swiss.trf.exceptions import ConsistencyError, ParsingError

    text = trf.write(t, upto=round_ - 1, pair_round=round_)
    entrants = trf.numbering(t)
    fd, path = tempfile.mkstemp(suffix=".trf")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            parsed = TrfParser.parse(Path(path), strict=True)
            pairings = DutchEngine.generate_pairings(parsed)
        except (ParsingError, ConsistencyError) as exc:
            raise UsageError(f"{t.event}: the pairing engine cannot read the tournament: {exc}") from None
        except Exception as exc:  # the engine's own "no pairing satisfies the rules"
            raise UsageError(f"{t.event}: round {round_} cannot be paired by the Dutch system's rules "
                             f"({type(exc).__name__}: {exc})") from None
    finally:
        os.unlink(path)
    tables, byes = [], []
    for p in pairings:
        if p.black == 0 or p.white == 0:
            byes.append(Table(round=round_, table=0, seats=[entrants[max(p.white, p.black) - 1].name], kind="bye"))
        else:
            tables.append(Table(round=round_, table=0,
                                seats=[entrants[p.white - 1].name, entrants[p.black - 1].name]))
    return tables + byes


def fast_swiss(t: Tournament, round_: int) -> list[Table]:
    """A Swiss round for a large field, as lichess pairs its big arenas: the players by points
    (then starting number); the lowest without a bye takes it when the count is odd; then each
    unpaired player from the top meets the one half a score group below (the Dutch fold),
    or the nearest after it not met before and not forbidden (a rematch only when no one else
    is left). Colours: the one who had the first seat less often takes it, then the one who
    had the second seat last."""
    from .standings import totals
    points = totals(t)
    start = {e.name: k for k, e in enumerate(trf.numbering(t))}
    players = sorted((e.name for e in t.entrants if e.plays_in(round_)), key=lambda n: (-points[n], start[n]))
    met, firsts = history(t, round_)
    forbidden = {tuple(sorted(p)) for p in t.forbidden}
    had_bye = {x.seats[0] for x in t.tables if x.kind == "bye"}
    byes = []
    if len(players) % 2:
        bye = next((n for n in reversed(players) if n not in had_bye), players[-1])
        players.remove(bye)
        byes.append(Table(round=round_, table=0, seats=[bye], kind="bye"))
    seconds, last_seat = Counter(), {}
    for x in sorted(t.tables, key=lambda x: x.round):
        if x.kind == "game" and len(x.seats) == 2:
            seconds[x.seats[1]] += 1
            last_seat[x.seats[0]], last_seat[x.seats[1]] = 0, 1

    def owed(name: str) -> tuple[int, int]:  # the lower takes the first seat
        return firsts[name] - seconds[name], 1 if last_seat.get(name) == 0 else 0
    free = list(players)
    tables = []
    while free:
        a = free.pop(0)
        group = [n for n in free if points[n] == points[a]]
        fold = len(group) // 2
        order = free[fold:] + free[:fold][::-1] if group else free
        ok = [n for n in order if met[tuple(sorted((a, n)))] == 0 and tuple(sorted((a, n))) not in forbidden]
        b = (ok or order)[0]
        free.remove(b)
        # as owed; owed alike, the higher-placed first on every other table
        first, second = (a, b) if owed(a) < owed(b) or (owed(a) == owed(b) and len(tables) % 2 == 0) else (b, a)
        tables.append(Table(round=round_, table=0, seats=[first, second]))
    return tables + byes


# ----------------------------------------------------------------- round robin: Berger


def berger(n: int, round_: int) -> list[tuple[int, int]]:
    """FIDE's Berger table: the pairs (first seat, second) of ``round_`` for ``n`` numbers (n
    even; an odd field adds a number n+1 for the bye). The last number meets (round+1)/2 in odd
    rounds, with the second seat, and n/2 + round/2 in even rounds, with the first; the others
    pair from the two ends of the rotated row 1..n-1."""
    m = n - 1
    row = [((k + (round_ - 1) * (n // 2)) % m) + 1 for k in range(m)]
    pairs = [(n, row[0]) if round_ % 2 == 0 else (row[0], n)]
    pairs += [(row[k], row[m - k]) for k in range(1, n // 2)]
    return pairs


def round_robin(t: Tournament, round_: int) -> list[Table]:
    """Round ``round_`` of a single or double round robin over the entrants in starting order."""
    names = [e.name for e in trf.numbering(t)]
    n = len(names) + len(names) % 2
    per_cycle = n - 1
    cycle, r = divmod(round_ - 1, per_cycle)
    out = []
    for a, b in berger(n, r + 1):
        if cycle % 2 == 1:
            a, b = b, a
        if a > len(names) or b > len(names):  # the bye of an odd field
            out.append(Table(round=round_, table=0, seats=[names[min(a, b) - 1]], kind="bye"))
        else:
            out.append(Table(round=round_, table=0, seats=[names[a - 1], names[b - 1]]))
    return sorted(out, key=lambda x: x.kind != "game")


def planned_rounds(format_: str, entrants: int) -> int | None:
    """The rounds a round robin has (None: the director's)."""
    n = entrants + entrants % 2
    return {"round-robin": n - 1, "double-round-robin": 2 * (n - 1)}.get(format_)


# ----------------------------------------------------------------- tables: Swiss seating


def table_sizes(players: int, size: int) -> list[int]:
    """ceil(n/size) tables, as many full as can be and the rest one seat fewer; where that
    cannot seat everyone (9 at tables of 7), the sizes as even as can be (5 and 4)."""
    if players == 0:
        return []
    count = -(-players // size)
    base, extra = divmod(players, count)
    if base < 2:
        raise UsageError(f"{players} players cannot sit at tables of {size}")
    return [base + 1] * extra + [base] * (count - extra)


def history(t: Tournament, before: int) -> tuple[Counter, Counter]:
    """(times each pair met, times each player sat first) over the rounds before ``before``."""
    met, first = Counter(), Counter()
    for table in t.tables:
        if table.round < before and table.kind == "game":
            for a, b in itertools.combinations(sorted(table.seats), 2):
                met[a, b] += 1
            first[table.seats[0]] += 1
    return met, first


def seat_order(group: list[str], first: Counter) -> list[str]:
    """A table's seats: who sat first least often goes first (then as they came)."""
    return sorted(group, key=lambda name: first[name])


def seating_cost(groups: list[list[str]], points: dict[str, float], met: Counter, first: Counter) -> float:
    """The cost of a seating: each table's spread of standings points, each pair that met
    before (times met, squared), and each first seat taken by a player who had it before."""
    cost = 0.0
    for group in groups:
        scores = [points.get(p, 0.0) for p in group]
        cost += SPREAD_WEIGHT * (max(scores) - min(scores))
        cost += REPEAT_WEIGHT * sum(met[tuple(sorted(pair))] ** 2 for pair in itertools.combinations(group, 2))
        cost += FIRST_SEAT_WEIGHT * first[seat_order(group, first)[0]]
    return cost


def block_fill(players: list[str], points: dict[str, float], order: dict[str, int], size: int) -> list[list[str]]:
    """The plain fill: the players by standings (then starting order) into tables in turn."""
    ranked = sorted(players, key=lambda p: (-points.get(p, 0.0), order[p]))
    groups, at = [], 0
    for s in table_sizes(len(ranked), size):
        groups.append(ranked[at:at + s])
        at += s
    return groups


def seat_tables(t: Tournament, round_: int, playing: list[str], points: dict[str, float]) -> list[Table]:
    """Swiss seating: the block fill, then every swap of two players between neighbouring
    tables that lowers the cost, until none does."""
    order = {e.name: k for k, e in enumerate(trf.numbering(t))}
    met, first = history(t, round_)
    groups = block_fill(playing, points, order, t.table_size)

    def local(k: int) -> float:  # the cost of tables k and k+1
        return seating_cost(groups[k:k + 2], points, met, first)

    improved = True
    while improved:
        improved = False
        for k in range(len(groups) - 1):
            for i, j in itertools.product(range(len(groups[k])), range(len(groups[k + 1]))):
                before = local(k)
                groups[k][i], groups[k + 1][j] = groups[k + 1][j], groups[k][i]
                if local(k) < before - 1e-9:
                    improved = True
                else:
                    groups[k][i], groups[k + 1][j] = groups[k + 1][j], groups[k][i]
    return [Table(round=round_, table=0, seats=seat_order(g, first)) for g in groups]
