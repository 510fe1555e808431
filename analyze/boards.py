"""The positions of a stored record for ``show``: after each move, the move as written, its
annotation, the board as text and the state as plain data, drawn by the game's analysis module."""
from __future__ import annotations

from scorebook import registry



def record_states(row: dict, trace) -> list[dict]:
    """One entry per move of a stored record walked (``trace``): ply, move text, annotation,
    board and state."""
    analysis = registry.get_game(row["game"]).analysis
    out = []
    for p in trace.positions:
        entry = analysis.show_extra(p)
        entry.update({"ply": p.ply, "move": p.move, "annotation": p.annotation,
                      "board": analysis.text_board(p.state), "state": analysis.state_json(p.state),
                      "heading": analysis.heading(p)})
        out.append(entry)
    return out


def show_lines(row: dict, states: list[dict], trace):
    """``show`` as lines of text: the record's id, game and tags (a triad: its players, then
    each game's tags before its moves), each move's heading and board, then the score."""
    notation = registry.get_game(row["game"]).notation
    headers = notation.game_headers(trace.record)
    players = trace.players
    yield "  ".join([row["id"], row["game"]] + [f"{k} {row[k]}" for k in ("rules", "deck") if row[k]])
    if headers:
        yield f"  players: {' / '.join(players)}"
    else:
        yield from (f"  {k}: {v}" for k, v in row["tags"].items())
    shown = None
    for s in states:
        if headers and s.get("game") != shown:
            shown = s.get("game")
            yield f"\ngame {shown}: " + ", ".join(f"{k} {v}" for k, v in headers.get(shown, {}).items())
        yield f"\n{s['heading']}ply {s['ply']}: {s['move']}"
        yield s["board"]
    yield ""
    for k, line in enumerate(notation.score_lines(row["score"], players)):
        yield f"{'score:' if k == 0 else '      '} {line}"
