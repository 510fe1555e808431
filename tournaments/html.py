"""A tournament run here as one page: the standings with the format's tie-breaks, then every
round's tables, each result a link to its record's page (where its analysis shows) when the page
knows the archive's address. Every text from the store is escaped."""
from __future__ import annotations

import html

from scorebook.analyze.html import CSS, page

TIEBREAK_NAMES = {"points": "points", "buchholz_cut1": "Buchholz cut-1", "buchholz": "Buchholz",
                  "sonneborn_berger": "Sonneborn-Berger", "direct": "direct encounter", "wins": "wins",
                  "omb": "OMB (sum of margins)", "p_zero": "P-Zero (points among the tied)",
                  "g_score": "G-score (game points)", "seniority": "starting number", "game_score": "game score",
                  "opponents_points": "opponents' points", "best_round": "best round"}


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else _e(value)


def render(doc: dict, record_url: str | None = None) -> str:
    """``doc``: ``director.page_doc``'s ({standings, tournament, analysed}); ``record_url``: the
    served archive's record route (a result links to ``record_url + id``), or None."""
    standings, t = doc["standings"], doc["tournament"]
    analysed = set(doc.get("analysed") or ())
    chain = standings["tiebreaks"]
    head = "".join(f"<th>{_e(TIEBREAK_NAMES.get(c, c))}</th>" for c in chain)
    rows = "".join(f"<tr><td>{r['rank']}</td><td class='player'>{_e(r['player'])}</td>"
                   + "".join(f"<td>{_number(r[c])}</td>" for c in chain) + f"<td>{r['games']}</td></tr>"
                   for r in standings["standings"])
    state = "finished" if t["finished"] else f"{t['paired']} of {t['rounds'] or '?'} rounds paired"
    intro = (f"<p>{_e(t['game'])}, {_e(t['format'])}, {len(t['entrants'])} players, {_e(state)}. "
             f"Ranked by {_e(', then '.join(TIEBREAK_NAMES.get(c, c) for c in chain))}; players still tied "
             f"share a rank.</p>")
    rounds = []
    for r in range(t["paired"], 0, -1):
        lines = []
        for x in (x for x in t["tables"] if x["round"] == r):
            seats = " – ".join(_e(s) for s in x["seats"])
            if x["points"] is None:
                result = "<span class='open'>playing</span>"
            else:
                result = " – ".join(_number(float(p)) for p in x["points"])
                if x["kind"] != "game":
                    result = f"{_e(x['kind'])} ({result})"
            record = ""
            if x.get("record"):
                label = "record and analysis" if x["record"] in analysed else "record"
                record = (f"<a href='{_e(record_url + x['record'])}'>{label}</a>" if record_url
                          else f"<code>{_e(x['record'])}</code>")
            elif x.get("source") in ("forfeit", "director"):
                record = _e("forfeit" if x["source"] == "forfeit" else "entered by the director")
            lines.append(f"<tr><td>{x['table']}</td><td>{seats}</td><td>{result}</td><td>{record}</td></tr>")
        rounds.append(f"<h3>Round {r}</h3><table class='round'><tr><th>table</th><th>players</th><th>result</th>"
                      f"<th>record</th></tr>{''.join(lines)}</table>")
    body = (intro + f"<table id='standings'><tr><th>rank</th><th>player</th>{head}<th>games</th></tr>{rows}</table>"
            + ("<h2>Rounds</h2>" + "".join(rounds) if rounds else "<p>No round is paired yet.</p>"))
    return page(f"Standings: {standings['event']}", body, CSS + "\n.open{color:#888}")
