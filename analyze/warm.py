"""Compiling ahead: is a game's jitted code in numba's cache yet (``cold``), and
``warm_up``, which compiles it all by playing, storing and analysing a game with each of the
game's bots (``scorebook warm-up``). numba compiles each jitted function on its first call and
caches the machine code on disk; a cold start of a game costs tens of seconds, later ones one
or two.
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys
import time

from scorebook import registry


def _cache_dirs(game: registry.Game) -> set[str]:
    """The folders numba caches the game's jitted code in (read from its dispatchers)."""
    package = game.engine_module.rsplit(".", 1)[0]
    game.engine  # noqa: B018 - imports the rules and their jitted functions
    dirs = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith(package) or module is None:
            continue
        for value in vars(module).values():
            cache = getattr(value, "_cache", None)
            path = getattr(cache, "_cache_path", None)
            if isinstance(path, str):
                dirs.add(path)
    return dirs


def cold(game_id: str) -> bool:
    """Is none of the game's jitted code cached yet (its first use on this machine, or after
    an upgrade)? False where it cannot tell."""
    try:
        dirs = _cache_dirs(registry.get_game(game_id))
        return bool(dirs) and not any(
            name.endswith(".nbi") for d in dirs if os.path.isdir(d) for name in os.listdir(d))
    except Exception:  # noqa: BLE001 - a notice, never a failure
        return False


def game_of_module(module: str) -> str | None:
    """The name of the game whose engine package holds ``module``, or whose compiled reader
    it is (``records/<game>_compiled.py``), or None."""
    for game in registry.games():
        package = game.engine_module.rsplit(".", 1)[0]
        if module == package or module.startswith(package + ".") or module == game.records_module + "_compiled":
            return game.info.name
    return None


_ANNOUNCING = False


def announce_compiling(say) -> None:
    """From now on, whenever numba compiles (a cache miss: a first use, an upgrade, a new
    kind of argument), ``say`` a line, once for each game in this process, before the wait.
    Loading from numba's cache says nothing. numba is not imported for it: a command that
    never uses an engine starts as fast as before (the listener goes in once numba is). Once a
    process: a second call (the CLI invoked again in one process, as tests do) adds nothing."""
    global _ANNOUNCING
    if _ANNOUNCING:
        return
    _ANNOUNCING = True
    if "numba" in sys.modules:
        _listen(say)
        return

    class AfterNumba(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            if fullname != "numba":
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec("numba")
            if spec is None or spec.loader is None:
                return spec
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                _listen(say)
            spec.loader.exec_module = exec_module
            return spec
    sys.meta_path.insert(0, AfterNumba())


def _listen(say):
    """The listener, registered with numba's events (returned, so that it can be taken off)."""
    from numba.core import event

    said: set = set()

    class Announcer(event.Listener):
        def on_start(self, ev) -> None:
            dispatcher = (ev.data or {}).get("dispatcher")
            module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
            name = game_of_module(module) or ("Scorebook" if module.startswith("scorebook") else None)
            if name is None or name in said:
                return
            said.add(name)
            # under 100 columns with its "scorebook: ": a notice read at once, not a paragraph
            say(f"compiling the jitted code of {name} (once; scorebook warm-up does it ahead)")

        def on_end(self, ev) -> None:
            pass

    listener = Announcer()
    event.register("numba:compile", listener)
    return listener


def notice(game_ids) -> str | None:
    """One line for the games about to be compiled, or None."""
    names = [registry.get_game(g).info.name for g in game_ids if cold(g)]
    if not names:
        return None
    return (f"first use of {', '.join(names)} here: compiling the engine (up to a minute or two, once; later starts "
            "take a second or two; scorebook warm-up compiles ahead of time)")


def warm_up(game_id: str) -> dict:
    """Compile a game's code: a game of each bot (the smallest settings) under each variant of
    the game's options (``_variants``), stored, and one analysed, in a database in memory. A
    bot or an analysis that needs the user's file (a network) is compiled too where that file
    is configured (its environment variable, or ``fetch``), else at its first use. Returns the
    game, its bots, the analyses and the seconds it took."""
    from scorebook.records import user_files
    from scorebook.records.store import Store

    game = registry.get_game(game_id)
    start = time.perf_counter()
    store = Store(":memory:")
    # each number at its least (a grid's size, a search's depth and budget): the same code
    # compiled, the games played quickly (The Game of Islands' search at its defaults: 16 s)
    least = {o.name: int(o.min) for o in game.info.play_options if o.kind == "int" and o.min is not None}
    played, analysed = [], []
    for bot in game.info.bots:
        if bot.needs and user_files.configured(game, bot.needs, None) is None:
            continue
        spec = bot.name + (f":{bot.min}" if bot.argument else "")
        for options in _variants(game, least):
            done = _played(store, game, spec, options)
            if done is None:
                continue
            if spec not in played:
                played.append(spec)
            rid = done["games"][0].get("id")
            if rid and game.info.analysis and not analysed:
                analysed = _analyse_cheaply(store, game, rid)
    return {"game": game.id, "bots": played, "analyses": analysed,
            "seconds": round(time.perf_counter() - start, 1)}


def _variants(game: registry.Game, least: dict) -> list[dict]:
    """The options each bot plays under: the defaults, then each other choice of a choice (a
    rule set, a deck, Patchwork's variants) and a flag set (a triad), one at a time: each is
    code of its own that a record's first ingest would otherwise compile."""
    out = [dict(least)]
    for o in game.info.play_options:
        others = ([c for c in o.choices if c != o.default] if o.kind == "choice" else
                  [True] if o.kind == "flag" else [])
        out.extend({**least, o.name: value} for value in others)
    return out


def _played(store, game: registry.Game, spec: str, options: dict) -> dict | None:
    """A game of ``spec`` against itself under ``options``, at the fewest seats they allow
    (a variant of one player or of two); None where no count seats it."""
    from scorebook.records.play import play
    for seats in range(max(game.info.players.min, 1), game.info.players.max + 1):
        try:
            return play(store, game.id, [spec] * seats, games=1, seed=0, options=options)
        except Exception:  # noqa: BLE001 - a count or a bot these options do not seat
            continue
    return None


def _analyse_cheaply(store, game: registry.Game, rid: str) -> list[str]:
    """The record analysed at every option's least, by the game's own bot and, where the user's
    file the analysis can use is configured, with it (each its own compiled code): the
    analyses' names."""
    from .run import analysis_files, analyze_one
    analysis = game.info.analysis
    names = [analyze_one(store, rid, ",".join(f"{k}:1" for k in analysis.options), 0)["bot"]]
    try:
        files = analysis_files(None, [game.id])[0].get(game.id)
        if files:
            options = analysis.options_with_file or analysis.options
            names.append(analyze_one(store, rid, ",".join(f"{k}:1" for k in options), 0, force=True,
                                     files={game.id: files})["bot"])
    except Exception:  # noqa: BLE001 - a file this machine cannot use (no runtime): its first use says why
        pass
    return names
