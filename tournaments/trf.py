"""FIDE's Tournament Report File (TRF16, with javafo's XX codes) for two-seat events: what the
pairing engine reads (``write`` up to the round to pair), what ``tournament export`` writes and
``tournament import`` reads. Fixed columns (TRF16): a player line ``001`` holds the starting
number (5-8), the name (15-47), the rating (49-52), the points (81-84) and the rank (86-89),
then one block of ten columns a round from column 92: the opponent's number, the colour (w,
b, -), the result (1 = 0, + - forfeits, W D L unrated, U a pairing-allocated bye, F H Z a
full, half and zero-point bye). ``012`` names the event, ``XXR`` the rounds, ``XXC`` the first
player's colour in round 1 (white1/black1), ``XXS`` the points (PAB, a bye's), ``XXP`` a
forbidden pair.

What TRF cannot carry: a name beyond 33 characters (cut), a table's game points and record
(a result only), ratings outside 0-9999, the game and its options (``--game`` on import)."""
from __future__ import annotations

from scorebook.errors import UsageError

from .model import Entrant, Table, Tournament

NAME_WIDTH = 33
RESULTS_AT = 91  # the first round block's first column, counted from 0
BLOCK = 10


def numbering(t: Tournament) -> list[Entrant]:
    """The entrants in starting-number order: rating first (the highest 1), then as they joined;
    an imported file's as it numbered them (late entries after)."""
    if t.starting_order == "entry":
        return list(t.entrants)
    order = {e.name: k for k, e in enumerate(t.entrants)}
    return sorted(t.entrants, key=lambda e: (-(e.rating or 0), order[e.name]))


def _points_text(points: float) -> str:
    return f"{points:4.1f}"


def _round_block(t: Tournament, name: str, round_: int, number: dict[str, int], *, pairing: bool,
                 pending: str = "=") -> str:
    """One round's block for a player: ``pairing``: the round about to be paired (a player who
    will not be paired gets a zero-point bye, the engine's sign to leave them out)."""
    if pairing:
        return "0000 - Z"
    table = next((x for x in t.round_tables(round_) if name in x.seats), None)
    if table is None or table.kind == "absent":
        points = table.scores[0] if table is not None and table.scores else 0.0
        win, draw, _ = t.win_draw_loss  # a requested bye's points: a win's (F), a draw's (H), or none
        return "0000 - " + ("F" if points == win and points else "H" if points == draw and points else "Z")
    if table.kind == "bye":
        return "0000 - U"
    seat = table.seats.index(name)
    other = table.seats[1 - seat]
    colour = "w" if seat == 0 else "b"
    if table.places is None:  # paired, not reported: no result (the engine, told to go on, a draw)
        mark = pending
    else:
        mine, theirs = table.places[seat], table.places[1 - seat]
        if table.source == "forfeit":
            mark = "+" if mine < theirs else "-"
        else:
            mark = "1" if mine < theirs else "0" if mine > theirs else "="
    return f"{number[other]:4d} {colour} {mark}"


def block_points(t: Tournament, block: str, scoring: dict[str, float] | None = None) -> float:
    """A round block's points: FIDE's, or a file's own (its XXS codes: W D L, FW FL, PAB FPB HPB ZPB)."""
    scoring = scoring or {}
    win, draw, loss = scoring.get("W", 1.0), scoring.get("D", 0.5), scoring.get("L", 0.0)
    return {"1": win, "W": win, "+": scoring.get("FW", win), "F": scoring.get("FPB", win),
            "=": draw, "D": draw, "H": scoring.get("HPB", draw), "U": t.bye_points,
            "0": loss, "L": loss, "-": scoring.get("FL", loss), "Z": scoring.get("ZPB", loss)}.get(block[7:8], 0.0)


def write(t: Tournament, upto: int | None = None, pair_round: int | None = None) -> str:
    """The tournament as TRF16 text: the rounds up to ``upto`` (default: every paired round);
    ``pair_round``: with a block for that round for every entrant who will not be paired in it."""
    upto = t.paired_rounds if upto is None else upto
    entrants = numbering(t)
    number = {e.name: k for k, e in enumerate(entrants, 1)}
    lines = [f"012 {t.event}", f"XXR {t.rounds}", f"XXC {t.first_seat}"]
    scoring = dict(zip(("W", "D", "L"), t.win_draw_loss))  # the event's points, FIDE's unless a file said
    if {**scoring, "PAB": t.bye_points} != {"W": 1.0, "D": 0.5, "L": 0.0, "PAB": 1.0}:
        lines.append("XXS " + " ".join(f"{k}={v:.1f}" for k, v in {**scoring, "PAB": t.bye_points}.items()))
    rows = []
    for e in entrants:
        blocks = [_round_block(t, e.name, r, number, pairing=False, pending="=" if pair_round else " ")
                  for r in range(1, upto + 1)]
        if pair_round is not None and not e.plays_in(pair_round):
            blocks.append(_round_block(t, e.name, pair_round, number, pairing=True))
        points = sum(block_points(t, b, scoring) for b in blocks[:upto])
        rows.append((e, blocks, points))
    ranked = sorted(rows, key=lambda row: (-row[2], number[row[0].name]))
    rank = {row[0].name: k for k, row in enumerate(ranked, 1)}
    for e, blocks, points in rows:
        head = (f"001 {number[e.name]:4d}      {e.name[:NAME_WIDTH]:<{NAME_WIDTH}} "
                f"{min(max(e.rating or 0, 0), 9999):4d}" + " " * 28 + f"{_points_text(points)} {rank[e.name]:4d}")
        lines.append(head.ljust(RESULTS_AT - 2) + "".join("  " + b for b in blocks))
    for a, b in t.forbidden:
        if a in number and b in number:
            lines.append(f"XXP {number[a]} {number[b]}")
    return "\n".join(lines) + "\n"


def read(text: str, game: str, options: dict | None = None, where: str = "<trf>") -> Tournament:
    """A TRF16 file as a tournament of a two-seat ``game``: its players (names as written,
    ratings), every round played (a game, a bye, an absence), the planned rounds (XXR) and the
    first seat (XXC). An inconsistent file (a game one side does not list, points that do not
    add up) is a UsageError naming its line."""
    event, rounds, first_seat, bye_points = None, None, "white1", 1.0
    scoring: dict[str, float] = {}  # XXS: the points of each result code, where not FIDE's
    players: dict[int, tuple[int, str, int | None, float | None, list[str]]] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r\n")
        code = line[:3]
        if code == "012":
            event = line[4:].strip() or event
        elif code == "XXR":
            try:
                rounds = int(line[4:].split()[0])
            except (ValueError, IndexError):
                raise UsageError(f"{where}:{n}: XXR gives no number of rounds") from None
        elif code == "XXC":
            words = line[4:].split()
            first_seat = "black1" if "black1" in words else "white1"
        elif code == "XXS":
            for part in line[4:].split():
                key, _, value = part.partition("=")
                try:
                    scoring[key] = float(value)
                except ValueError:
                    raise UsageError(f"{where}:{n}: XXS {part}: not a number") from None
            bye_points = scoring.get("PAB", scoring.get("W", bye_points))
        elif code == "001":
            players[_number(line, n, where)] = _player(line, n, where)
    if not players:
        raise UsageError(f"{where}: no player lines (001): not a TRF16 file")
    if event is None:
        raise UsageError(f"{where}: no 012 line names the tournament")
    if sorted(players) != list(range(1, len(players) + 1)):
        raise UsageError(f"{where}: the starting numbers are not 1 to {len(players)}")
    names = [players[k][1] for k in sorted(players)]
    if len(set(names)) != len(names):
        raise UsageError(f"{where}: a name is written twice")
    # the rounds played: up to the last with a game, a pairing-allocated bye, or a block for
    # every player; a round after it holding some players' byes asked for and absences alone
    # (javafo's way of saying who sits out the round to pair) is not played: announced absences
    longest = max(len(p[4]) for p in players.values())
    played = max([r for r in range(1, longest + 1)
                  if all(len(p[4]) >= r for p in players.values())
                  or any(len(p[4]) >= r and (int(p[4][r - 1][:4]) > 0 or p[4][r - 1][7] == "U")
                         for p in players.values())], default=0)
    rounds = rounds if rounds is not None else max(played, max(len(p[4]) for p in players.values()))
    if max(len(p[4]) for p in players.values()) > rounds:
        raise UsageError(f"{where}: {max(len(p[4]) for p in players.values())} rounds played but XXR plans {rounds}")
    t = Tournament(event=event, game=game, options=dict(options or {}), format="swiss", rounds=rounds,
                   bye_points=bye_points, first_seat=first_seat, starting_order="entry",
                   win_draw_loss=(scoring.get("W", 1.0), scoring.get("D", 0.5), scoring.get("L", 0.0)))
    t.entrants = [Entrant(name=players[k][1], rating=players[k][2],
                          absent=[r for r in range(played + 1, len(players[k][4]) + 1)]) for k in sorted(players)]
    for r in range(1, played + 1):
        t.tables.extend(_round_tables(players, r, where, scoring))
    for k in sorted(players):
        line, name, _, stated, blocks = players[k]
        computed = sum(block_points(t, b, scoring) for b in blocks[:played])
        announced = computed + sum(block_points(t, b, scoring) for b in blocks[played:])  # as javafo adds them
        if stated is not None and abs(stated - computed) > 1e-9 and abs(stated - announced) > 1e-9:
            raise UsageError(f"{where}:{line}: {name}: the points say {stated:g}, the results add up to {computed:g}")
    return t


def _number(line: str, n: int, where: str) -> int:
    try:
        return int(line[4:8])
    except ValueError:
        raise UsageError(f"{where}:{n}: no starting number in columns 5-8") from None


def _player(line: str, n: int, where: str) -> tuple:
    name = line[14:47].strip()
    if not name:
        raise UsageError(f"{where}:{n}: a player line without a name (columns 15-47)")
    rating = line[48:52].strip()
    points = line[80:84].strip()
    try:
        rating_value = int(rating) if rating else None
        points_value = float(points) if points else None
    except ValueError:
        raise UsageError(f"{where}:{n}: the rating (49-52) or the points (81-84) is not a number") from None
    blocks = []
    rest = line[RESULTS_AT:]
    for k in range(0, len(rest.rstrip()), BLOCK):
        block = rest[k:k + 8].ljust(8)
        col = RESULTS_AT + k + 1
        opponent, colour, mark = block[:4].strip(), block[5], block[7].upper()
        if not (opponent.isdigit() or opponent == "") or colour not in "wb- " or mark not in "10=+-WDLUFHZ ":
            raise UsageError(f"{where}:{n}:{col}: {block.strip()!r} is no round result")
        pending = mark == " " and opponent not in ("", "0000") and int(opponent) > 0  # paired, no result yet
        blocks.append(f"{int(opponent or 0):4d} {colour if colour != ' ' else '-'} "
                      f"{'*' if pending else mark if mark != ' ' else 'Z'}")
    return n, name, rating_value, points_value, blocks


def _round_tables(players: dict, r: int, where: str, scoring: dict[str, float]) -> list[Table]:
    names = {k: p[1] for k, p in players.items()}
    games, others, done = [], [], set()
    for k in sorted(players):
        line, name, _, _, blocks = players[k]
        block = blocks[r - 1] if r <= len(blocks) else "0000 - Z"
        opponent, colour, mark = int(block[:4]), block[5], block[7]
        if opponent == 0 or mark in "UFHZ":
            if mark == "U":
                others.append(Table(round=r, table=0, seats=[name], kind="bye"))
            else:  # not paired: a requested bye (F, H), an absence (Z, -), or a point with no one met (+)
                win, draw = scoring.get("W", 1.0), scoring.get("D", 0.5)
                points = {"F": scoring.get("FPB", win), "H": scoring.get("HPB", draw), "+": scoring.get("FW", win),
                          "Z": scoring.get("ZPB", 0.0)}.get(mark, 0.0)
                others.append(Table(round=r, table=0, seats=[name], kind="absent", scores=[points] if points else None))
            continue
        if k in done:
            continue
        if opponent not in players:
            raise UsageError(f"{where}:{line}: round {r}: {name}'s opponent {opponent} has no player line")
        theirs = players[opponent][4][r - 1] if r <= len(players[opponent][4]) else None
        if theirs is None or int(theirs[:4]) != k:
            raise UsageError(f"{where}:{line}: round {r}: {name} met {opponent}, whose line does not say so")
        other_mark = theirs[7]
        expected = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D", "*": "*"}
        if expected.get(mark) != other_mark or colour == theirs[5] != "-":
            raise UsageError(f"{where}:{line}: round {r}: {name} ({colour} {mark}) and "
                             f"{names[opponent]} ({theirs[5]} {other_mark}) do not agree")
        done.update((k, opponent))
        first, second = (k, opponent) if colour != "b" else (opponent, k)
        first_mark = mark if first == k else other_mark
        if first_mark == "*":
            games.append(Table(round=r, table=0, seats=[names[first], names[second]]))
            continue
        places = {"1": [1, 2], "+": [1, 2], "W": [1, 2], "0": [2, 1], "-": [2, 1], "L": [2, 1]}.get(first_mark, [1, 1])
        games.append(Table(round=r, table=0, seats=[names[first], names[second]], places=places,
                           source="forfeit" if first_mark in "+-" else "director"))
    for number, table in enumerate(games + others, 1):
        table.table = number
    return games + others
