"""A tournament run here as one page: the standings with the format's tie-breaks, then every
round's tables, each result a link to its record's page (where its analysis shows) when the page
knows the archive's address. Every text from the store is escaped."""
from __future__ import annotations

import html
import urllib.parse

from scorebook.analyze.html import CSS, TIEBREAK_NAMES as MATCH_TIEBREAK_NAMES, page

# the standings page's names (OMB, P-Zero, G-score), the formats' own beside them; here points are
# a format's, not a triad's match points, and seniority is the starting number
TIEBREAK_NAMES = {**MATCH_TIEBREAK_NAMES, "points": "points", "seniority": "starting number",
                  "buchholz_cut1": "Buchholz cut-1", "buchholz": "Buchholz", "sonneborn_berger": "Sonneborn-Berger",
                  "direct": "direct encounter", "wins": "wins", "game_score": "game score",
                  "opponents_points": "opponents' points", "best_round": "best round"}


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else _e(value)


def render(doc: dict, record_url: str | None = None) -> str:
    """``doc``: ``director.page_doc``'s ({standings, tournament, analysed, accuracy}); ``record_url``:
    the served archive's record route (a result links to ``record_url + id``), or None."""
    return page(f"Standings: {doc['standings']['event']}", body(doc, record_url), CSS + "\n" + EXTRA_CSS)


# a table wider than a phone scrolls inside its own box, the page stays the window's width
EXTRA_CSS = (".open{color:#888}table.round td:first-child{text-align:right}.scroll{overflow-x:auto;max-width:100%}"
             "form.director{margin:0.4em 0}form.director input{max-width:100%}")


def _scroll(table: str) -> str:
    return f"<div class='scroll'>{table}</div>"


def body(doc: dict, record_url: str | None = None, player_url: str | None = None, player: str | None = None) -> str:
    """The page's body: the state, the standings (each name a link to ``player_url + name``
    where given), the players' accuracy over the event where games are analysed, and every
    round's tables, newest first (``player``: theirs alone)."""
    standings, t = doc["standings"], doc["tournament"]
    analysed = set(doc.get("analysed") or ())
    chain = standings["tiebreaks"]

    def name(n: str) -> str:
        if player_url is None:
            return _e(n)
        return f"<a href='{_e(player_url + urllib.parse.quote(n, safe=''))}'>{_e(n)}</a>"
    head = "".join(f"<th>{_e(TIEBREAK_NAMES.get(c, c))}</th>" for c in chain)
    rows = "".join(f"<tr><td>{r['rank']}</td><td class='player'>{name(r['player'])}</td>"
                   + "".join(f"<td>{_number(r[c])}</td>" for c in chain)
                   + f"<td>{standings['games'][r['player']]['games']}</td></tr>"
                   for r in standings["standings"] if player is None or r["player"] == player)
    state = "finished" if t["finished"] else f"{t['paired']} of {t['rounds'] or '?'} rounds paired"
    intro = (f"<p id='state'>{_e(t['game'])}, {_e(t['format'])}, {len(t['entrants'])} players, {_e(state)}. "
             f"Ranked by {_e(', then '.join(TIEBREAK_NAMES.get(c, c) for c in chain))}; players still tied "
             f"share a rank.</p>")
    out = [intro, _scroll(f"<table id='standings'><tr><th>rank</th><th>player</th>{head}<th>games</th></tr>{rows}</table>")]
    accuracy = [a for a in doc.get("accuracy") or [] if player is None or a["player"] == player]
    if accuracy:
        lines = "".join(f"<tr><td class='player'>{name(a['player'])}</td><td>{a['games']}</td><td>{a['moves']}</td>"
                        f"<td>{a['accuracy']:.1f}</td><td>{a['mean_loss']:.2f}</td></tr>" for a in accuracy)
        out.append("<h2>Accuracy over the event</h2><p>From each analysed game's latest analysis: the share of "
                   "moves the bot judged best or good, and the mean expected loss a move.</p>" + _scroll(
                       "<table id='accuracy'><tr><th>player</th><th>games analysed</th><th>moves</th>"
                       f"<th>accuracy %</th><th>mean loss</th></tr>{lines}</table>"))
    rounds = []
    for r in range(t["paired"], 0, -1):
        lines = []
        for x in (x for x in t["tables"] if x["round"] == r and (player is None or player in x["seats"])):
            seats = " – ".join(name(s) for s in x["seats"])
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
        if lines:
            rounds.append(f"<h2>Round {r}</h2>" + _scroll(
                "<table class='round'><tr><th>table</th><th>players</th><th>result</th>"
                f"<th>record</th></tr>{''.join(lines)}</table>"))
    out.append("".join(rounds) if rounds else "<p>No round is paired yet.</p>")
    return "".join(out)
