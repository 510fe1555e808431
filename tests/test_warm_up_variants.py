"""``scorebook warm-up`` plays each bot under every choice of the game's options (a rule set,
a deck, Patchwork's variants) and with each flag set (a triad), at the fewest seats each
allows: each is code of its own, and a warm-up that played only the defaults left the first
ingest of a two-player Patchwork record compiling."""
from __future__ import annotations

import scorebook.records.play as play_module
from scorebook import registry
from scorebook.analyze import warm
from scorebook.errors import UsageError


def _played(monkeypatch, game_id: str, seats_of=lambda options: None) -> set[tuple]:
    """(bot, seats, options) of each game the warm-up had played; ``seats_of(options)``: the
    only count those options seat (None: any)."""
    played: set[tuple] = set()

    def play(store, game, specs, *, options, **kwargs):
        wanted = seats_of(options)
        if wanted is not None and len(specs) != wanted:
            raise UsageError(f"a game of {wanted} players")
        played.add((specs[0], len(specs), tuple(sorted(options.items()))))
        return {"games": [{}]}  # no record: nothing analysed
    monkeypatch.setattr(play_module, "play", play)
    warm.warm_up(game_id)
    return played


def test_every_variant_of_patchwork_at_the_seats_it_needs(monkeypatch):
    two = lambda options: 2 if options.get("variant") == "two-player" else 1  # noqa: E731
    played = _played(monkeypatch, "patchwork", two)
    bots = {b.name + (f":{b.min}" if b.argument else "") for b in registry.get_game("patchwork").info.bots}
    assert {(bot, seats, variant) for bot, seats, options in played for variant in [dict(options).get("variant")]} \
        == {(bot, seats, variant) for bot in bots for seats, variant in [(1, None), (1, "sim"), (2, "two-player")]}


def test_each_choice_and_flag_once_beside_the_defaults(monkeypatch):
    tiny = {options for _, _, options in _played(monkeypatch, "tiny-islands")}
    assert tiny == {(), (("deck", "one-deck"),), (("rules", "tinybot"),)}
    islands = {dict(options).get("triad") for _, seats, options in _played(monkeypatch, "game-of-islands")}
    assert islands == {None, True}
    assert {seats for _, seats, _ in _played(monkeypatch, "tsuro")} == {2}  # the fewest it seats
