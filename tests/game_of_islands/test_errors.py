"""One test per Game of Islands error code, each asserting the code and its position."""
from __future__ import annotations

import pytest

from scorebook.engines.game_of_islands.bots import GREEDY, RANDOM, play_game
from scorebook.records.formats import read_text
from scorebook.records.game_of_islands import bot_grid_text


def game(movetext: str, grid: int = 10, result: str = "*", extra: str = "") -> str:
    return (f'[Event "t"]\n[Grid "{grid}"]\n[First "Ann"]\n[Second "Bob"]\n{extra}[Result "{result}"]\n\n'
            f"{movetext} {result}\n")


MOVETEXT_LINE = 7  # the first movetext line of game()


def error(text: str) -> dict:
    items = read_text(text, "t.pgn", "pgn")
    assert len(items) == 1 and items[0].error is not None, "expected a rejection"
    return items[0].error.as_dict()


def at(err, code, column, move, ply, token, line=MOVETEXT_LINE):
    assert (err["code"], err["line"], err["column"], err.get("move"), err["ply"], err["token"]) == (
        code, line, column, move, ply, token)


@pytest.mark.parametrize("movetext, code, column, move, ply, token", [
    ("1. K1-K3", "off-grid", 4, 1, 1, "K1-K3"),
    ("1. A1-A11", "off-grid", 4, 1, 1, "A1-A11"),
    ("1. A1-A1", "same-dot", 4, 1, 1, "A1-A1"),
    ("1. A1-B3", "not-straight", 4, 1, 1, "A1-B3"),
    ("1. A1-A3 A2-B2", "dot-used", 10, 1, 2, "A2-B2"),
    ("1. A1-B2 B1-A2", "crossing", 10, 1, 2, "B1-A2"),
    ("1. I1-J2, K1", "off-grid", 11, 1, 1, "K1"),
    ("1. I1-J2, J2", "claim-used-dot", 11, 1, 1, "J2"),
    ("1. I1-J2, J1, J1", "claim-repeated", 15, 1, 1, "J1"),
    ("1. I1-J2, J1 A1-A2, J1", "claim-already-claimed", 21, 1, 2, "J1"),
    ("1. I1-J2, A1", "claim-not-island", 11, 1, 1, "A1"),
    ("1. -- ", "pass-not-allowed", 4, 1, 1, "--"),
    ("1. time A1-A2 2. A3-A4", "move-after-timeout", 18, 2, 3, "A3-A4"),
    ("1. hello", "bad-token", 4, 1, 1, "hello"),
    ("2. A1-A2", "bad-move-number", 1, 1, 1, "2."),
])
def test_movetext_errors(movetext, code, column, move, ply, token):
    at(error(game(movetext)), code, column, move, ply, token)


def test_dots_are_read_in_any_case():
    items = read_text(game("1. i1-j2, j1"), "t.pgn", "pgn")
    assert items[0].error is None and items[0].record.score["islands"] == [1, 0]


def test_bad_comment():
    err = error(game("1. A1-A2 {[%clk 9:99]}"))
    assert err["code"] == "bad-comment" and err["line"] == MOVETEXT_LINE and err["column"] == 10
    assert error(game("1. A1-A2 {never closed"))["code"] == "bad-comment"


@pytest.mark.parametrize("tag, code, token", [
    ('[Grid "3"]', "bad-grid", "3"),
    ('[Grid "ten"]', "bad-grid", "ten"),
])
def test_tag_errors(tag, code, token):
    text = game("1. A1-A2").replace('[Grid "10"]', tag)
    err = error(text)
    assert (err["code"], err["line"], err["column"], err["ply"], err["token"]) == (code, 2, 1, None, token)


def test_bad_tag_and_bad_result():
    assert error(game("1. A1-A2").replace('[Grid "10"]', "[Grid 10]"))["code"] == "bad-tag"
    err = error(game("1. A1-A2", result="x").replace(" x\n", " *\n"))
    assert (err["code"], err["line"], err["column"], err["token"]) == ("bad-result", 5, 1, "x")
    err = error(game("1. A1-A2", extra='[MatchResult "2-0"]\n'))
    assert (err["code"], err["line"], err["token"]) == ("bad-result", 5, "2-0")


def finished_game(n=4, seed=1, bots=(GREEDY, RANDOM)):
    lines = play_game(n, bots[0], bots[1], seed, 2, 1000)
    text, points = bot_grid_text(n, lines, {"Event": "t", "Grid": str(n), "First": "Ann", "Second": "Bob"})
    return text, points, len(lines)


def test_a_finished_game_ingests():
    text, points, _ = finished_game()
    items = read_text(text, "t.pgn", "pgn")
    assert items[0].error is None and items[0].record.score["points"] == points


def test_move_after_end():
    text, _, k = finished_game()
    body, result = text.rstrip().rsplit(" ", 1)
    # the player who drew the last line moves again: the grid is over
    extra = ("--" if k % 2 == 1 else f"{k // 2 + 1}. --")
    bad = body + f" {extra} --" + f" {result}\n"
    err = error(bad)
    assert err["code"] == "move-after-end" and err["token"] == "--" and err["ply"] == k + 2


def test_the_final_claim_only_turn_is_allowed_once():
    text, points, k = finished_game()
    body, result = text.rstrip().rsplit(" ", 1)
    items = read_text(body + (" --" if k % 2 == 1 else f" {k // 2 + 1}. --") + f" {result}\n", "t.pgn", "pgn")
    assert items[0].error is None and items[0].record.score["points"] == points


def test_missing_final_move():
    err = error(game("1. I1-J2, J1 A1-A2", result="1-0"))
    assert (err["code"], err["line"], err["column"], err["token"]) == ("missing-final-move", 5, 1, "1-0")


def test_a_timeout_ends_the_game_without_the_final_move():
    items = read_text(game("1. I1-J2, J1 time 2. A1-A2 time", result="6-0",
                           extra='[Termination "time forfeit"]\n'), "t.pgn", "pgn")
    assert items[0].error is None
    assert items[0].record.score == {"grid": 10, "points": [6, 0], "islands": [1, 0], "bonus": [5, 0]}


def test_both_out_of_time_stops_the_grid_without_bonus():
    items = read_text(game("1. I1-J2, J1 time 2. time", result="1-0"), "t.pgn", "pgn")
    assert items[0].record.score["bonus"] == [0, 0]
    err = error(game("1. I1-J2, J1 time 2. time A1-A2", result="1-0"))
    assert err["code"] == "move-after-end" and err["token"] == "A1-A2"


def test_score_mismatch_points_at_the_result_tag():
    text, points, _ = finished_game()
    wrong = f"{points[0] + 1}-{points[1]}"
    bad = text.replace(f'[Result "{points[0]}-{points[1]}"]', f'[Result "{wrong}"]')
    err = error(bad)
    assert (err["code"], err["line"], err["column"], err["ply"], err["token"]) == ("score-mismatch", 5, 1, None, wrong)
    # the movetext result is checked after the tag
    bad = text.rstrip()[: -len(f"{points[0]}-{points[1]}")] + wrong + "\n"
    err = error(bad)
    assert err["code"] == "score-mismatch" and err["line"] > 5 and err["token"] == wrong


def triad_text(seed=1, grids=(10, 12, 14), players=("Ann", "Bob")) -> str:
    texts = []
    for k, n in enumerate(grids):
        first = k % 2
        lines = play_game(n, GREEDY, RANDOM, seed + k, 2, 1000)
        tags = {"Event": "t", "Match": "1.1", "Grid": str(n), "First": players[first], "Second": players[1 - first]}
        texts.append(bot_grid_text(n, lines, tags)[0])
    return "\n".join(texts)


def test_triad_grid_order():
    text = triad_text(grids=(10, 14, 12))
    err = error(text)
    second_grid_line = text.split("\n").index('[Grid "14"]') + 1
    assert (err["code"], err["line"], err["column"], err["token"]) == ("triad-grid-order", second_grid_line, 1, "14")


def test_triad_players():
    text = triad_text()
    games = text.split("\n\n[Event")
    games[1] = games[1].replace('[First "Bob"]', '[First "Cy"]')
    bad = "\n\n[Event".join(games)
    err = error(bad)
    assert (err["code"], err["token"]) == ("triad-players", "Cy")
    assert err["line"] == bad.split("\n").index('[First "Cy"]') + 1


def test_match_result_mismatch():
    text = triad_text()
    items = read_text(text, "t.pgn", "pgn")
    good = items[0].record.score["result"]
    wrong = next(r for r in ("1-0", "0-1", "1/2-1/2") if r != good)
    bad = text.replace('[Grid "14"]', f'[Grid "14"]\n[MatchResult "{wrong}"]')
    err = error(bad)
    assert (err["code"], err["token"], err["ply"]) == ("match-result-mismatch", wrong, None)
    assert err["line"] == bad.split("\n").index(f'[MatchResult "{wrong}"]') + 1
    fine = text.replace('[Grid "14"]', f'[Grid "14"]\n[MatchResult "{good}"]')
    assert read_text(fine, "t.pgn", "pgn")[0].error is None


def test_a_player_out_of_time_stays_out_for_the_rest_of_the_triad():
    text = triad_text()
    games = text.split("\n\n[Event")
    # Bob (Second in game 1) runs out at once in game 1 ... and then moves in game 2
    tags = games[0].split("\n\n", 1)[0]
    tags = tags[: tags.index("[Result")] + '[Result "6-0"]'
    first_game = tags + "\n\n1. I1-J2, J1 time 2. A1-A2 time 6-0\n"
    bad = first_game + "\n[Event" + games[1] + "\n\n[Event" + games[2]
    err = error(bad)
    assert err["code"] == "move-after-timeout" and err["ply"] == 1  # Bob is First of game 2


def test_a_bad_tag_rejects_its_own_game_only():
    good = game("1. I1-J2, J1")
    bad = game("1. A1-A2").replace('[Grid "10"]', "[Grid 10]")
    items = read_text(good + "\n" + bad + "\n" + good.replace('"t"', '"u"'), "t.pgn", "pgn")
    assert [i.error is None for i in items] == [True, False, True]
    err = items[1].error.as_dict()
    assert (err["code"], err["line"], err["column"]) == ("bad-tag", 10, 1)
