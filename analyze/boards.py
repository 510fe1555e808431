"""The positions of a record for ``show`` (stored, or read from a file): after each move, the
move as written, its annotation, the board as text and the state as plain data, drawn by the
game's analysis module; a record refused midway, up to its first error, then the error."""
from __future__ import annotations

from scorebook import registry



def record_states(row: dict, trace) -> list[dict]:
    """One entry per move of a record walked (``trace``): ply, move text, annotation, board and
    state."""
    analysis = registry.get_game(row["game"]).analysis
    out = []
    for p in trace.positions:
        entry = analysis.show_extra(p)
        line, column = _where(p.place)
        entry.update({"ply": p.ply, "player": p.player, "move": p.move, "annotation": p.annotation, "line": line,
                      "column": column,
                      "board": analysis.text_board(p.state, tuple(trace.players or ())), "state": analysis.state_json(p.state),
                      "heading": analysis.heading(p)})
        out.append(entry)
    return out


def _where(place) -> tuple[int | None, int | None]:
    """The line and column a move is written at (its first part's), or None, None."""
    first = place if place is None or hasattr(place, "line") else (place[0] if len(place) else None)
    return (None, None) if first is None else (first.line, first.column)


def show_document(row: dict, trace) -> dict:
    """``show --json``: the record's id (None for a record refused), game, tags, score and
    moves with their states, and the first error (None for a record that replays)."""
    return {"id": row["id"], "game": row["game"], "tags": row["tags"], "rules": row["rules"],
            "deck": row["deck"], "score": trace.score, "recorded": row["recorded"],
            "moves": [{k: s[k] for k in ("game", "ply", "move", "line", "column", "annotation", "state") if k in s}
                      for s in (record_states(row, trace) if row["game"] else [])],
            "error": None if trace.error is None else trace.error.as_dict()}


def show_lines(row: dict, trace):
    """``show`` as lines of text: the record's id, game and tags (a triad: its players, then
    each game's tags before its moves), each move's heading and board, then the score, or the
    error that refused the record."""
    if row["game"] is None:  # not a record of any game
        yield f"refused: {trace.error.describe()}"
        return
    notation = registry.get_game(row["game"]).notation
    headers = notation.game_headers(trace.record) if trace.record is not None else {}
    players = trace.players
    yield "  ".join([row["id"] or "(not stored)", row["game"]] + [f"{k} {row[k]}" for k in ("rules", "deck") if row[k]])
    # one header for every game: the players by name, in seat order (a record naming no one, a
    # TinyBot line read without --player, says so)
    yield f"  players: {' / '.join(players)}" if players else "  players: unknown"
    if not headers:
        yield from (f"  {k}: {v}" for k, v in row["tags"].items() if k not in PLAYER_TAGS)
    if row.get("attached"):
        yield f"  result of: {row['attached']}"
    yield from _move_lines(record_states(row, trace), headers, players)
    yield ""
    for k, line in enumerate(notation.score_lines(trace.score, players) if trace.score else []):
        yield f"{'score:' if k == 0 else '      '} {line}"
    if trace.error is not None:
        yield f"refused: {trace.error.describe()}"


PLAYER_TAGS = frozenset({"Players", "Player", "First", "Second"})  # said once, in the players line


def _move_lines(states: list[dict], headers: dict[int, dict[str, str]], players: list[str]):
    """Each move's heading (its mover named where several play) and board; a triad's game's
    tags before its first move."""
    shown = None
    for s in states:
        if headers and s.get("game") != shown:
            shown = s.get("game")
            yield f"\ngame {shown}: " + ", ".join(f"{k} {v}" for k, v in headers.get(shown, {}).items())
        mover = s.get("player")
        named = len(players) > 1 and mover is not None and 0 <= mover < len(players)
        by = f" ({players[mover]})" if named and players[mover] not in s["move"].split() else ""  # not twice
        yield f"\n{s['heading']}ply {s['ply']}: {s['move']}{by}"
        yield s["board"]
