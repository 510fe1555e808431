"""Running analyses against the store: one record, or every record not analysed yet, one
task a record on an executor (the local cores, or a Dask cluster); each finished record is
committed at once, so an interrupted ``analyze --all`` resumes where it stopped. The same
seed gives the same numbers, wherever they are computed.

>>> resolve("game-of-islands", "depth:3")
('search depth:3', {'depth': 3})
"""
from __future__ import annotations

import os

from scorebook import batch, registry
from scorebook.records import user_files
from scorebook.errors import UsageError

from .loss import ENGINE_VERSION, analyze_record, mark_ties


def analysis_files(given: dict | None, game_ids=None) -> tuple[dict, list[str]]:
    """The user files the analyses of these games (default: all) use where one is configured
    (named in ``given``, else the game's environment variable), read and checked:
    ({game: {name: UserFileRef}}, notes for the games that fall back to their own bot)."""
    files, notes = {}, []
    for game in registry.games():
        a = game.info.analysis
        if a is None or a.uses is None or (game_ids is not None and game.id not in game_ids):
            continue
        path = user_files.configured(game, a.uses, (given or {}).get(a.uses))
        if path is None:
            declared = game.info.user_file(a.uses)
            notes.append(f"{game.id}: no --{a.uses} (or ${declared.env}): moves are judged by Scorebook's own "
                         f"{a.bot} bot; {declared.help}")
        else:
            files[game.id] = {a.uses: user_files.open_file(game, a.uses, path)}
    return files, notes


def resolve(game: str, spec: str | None, files: dict | None = None, *, served: bool = False) -> tuple[str, dict]:
    """A bot spec such as ``rollouts:32`` or ``depth:3,budget:500000`` -> (the bot's stored
    name, the options given); the options and their defaults are the game's (game.json), or,
    with the user file its analysis uses (``files``: {name: UserFileRef}), those it declares
    for judging with that file, the file among the options. ``served``: a request to the
    service, whose options are capped (game.json's ``served``; 4x the default where unnamed)."""
    g = registry.get_game(game)
    if g.info.analysis is None:
        raise UsageError(f"analysis of {game} records is not available")
    ref = (files or {}).get(g.info.analysis.uses) if g.info.analysis.uses else None
    defaults = g.info.analysis.options_with_file if ref else g.info.analysis.options
    options: dict = {g.info.analysis.uses: ref} if ref else {}
    for part in (spec or "").replace(",", " ").split():
        key, _, value = part.partition(":") if ":" in part else part.partition("=")
        if key not in defaults or not value.isascii() or not value.isdigit() or len(value) > 9 or int(value) < 1:
            first = next(iter(defaults))
            raise UsageError(f"--bot for {game}: options {', '.join(sorted(defaults))} with whole numbers, "
                             f"e.g. {first}:{defaults[first]}")
        options[key] = int(value)
        cap = served_cap(g.info.analysis, key)
        if served and options[key] > cap:
            raise UsageError(f"bot for {game}: {key} is at most {cap} on this server")
    return g.analysis.bot_name(dict(defaults, **options)), options


def served_cap(analysis, key: str) -> int:
    """The most a request to the service may ask of one analysis option."""
    default = analysis.options.get(key, analysis.options_with_file.get(key, 1))
    return analysis.served.get(key, 4 * default)


def trace_of(row: dict, *, partial: bool = False):
    """A stored row's record, read back from its canonical text and walked once: the
    ``records.replay.Trace`` that ``show``, the analysis and the report take in turn. A record
    that no longer reads (the rules were mended since) is a UsageError, or with ``partial`` a
    trace up to its first error (``show`` draws it)."""
    trace = registry.get_game(row["game"]).notation.read_trace(row["text"])
    if trace.error is not None and not partial:
        raise UsageError(f"stored record {row['id']} no longer reads: {trace.error.describe()}")
    return trace


def compute(row: dict, spec: str | None, seed: int, progress=None, files: dict | None = None,
            resolved: tuple[str, dict] | None = None, trace=None, kept: list | None = None) -> dict:
    """The report of a stored row (``trace``: its walk, when the caller has it; ``kept``: the
    list its moves' rows go into as each is judged)."""
    game = row["game"]
    name, options = resolved or resolve(game, spec, (files or {}).get(game))
    report = analyze_record(game, trace or trace_of(row), seed=seed, options=user_files.resolved(options),
                            progress=progress, kept=kept)
    report["bot"] = name
    report["id"] = row["id"]
    report["game"] = game
    return report


def analyze_one(store, record_id: str, spec: str | None, seed: int, *, force: bool = False, progress=None,
                files: dict | None = None, row: dict | None = None, trace=None) -> dict:
    """``files``: {game: {name: UserFileRef}} (``analysis_files``); ``row`` and ``trace``: the
    stored row and its walk, when the caller has them."""
    row = row or store.get(record_id)
    resolved = resolve(row["game"], spec, (files or {}).get(row["game"]))
    name = resolved[0]
    found = None if force else store.find_analysis(row["id"], name, seed, ENGINE_VERSION)
    if found is not None:
        found.update({"id": row["id"], "game": row["game"]})
        return mark_ties(found)
    store.check_writable()  # before the search, not after it
    report = compute(row, spec, seed, progress, files, resolved, trace)
    store.save_analysis(row["id"], report)
    return report


def analysis_task(task: tuple) -> dict:
    """One record, wherever the executor runs it: ``(row, spec, seed)`` -> its report, or
    ``{"id", "game", "error"}`` when its analysis failed (the batch goes on without it)."""
    row, spec, seed, files = task
    try:
        return compute(row, spec, seed, files=files)
    except Exception as exc:  # noqa: BLE001 - reported per record, never a traceback
        return {"id": row["id"], "game": row["game"], "error": f"{type(exc).__name__}: {exc}"}


def analyze_all(store, spec: str | None, seed: int, *, jobs: int | None = None, executor: str = "local",
                scheduler: str | None = None, progress=None, force: bool = False, files: dict | None = None
                ) -> list[dict]:
    """Every record without an analysis by this bot and seed (``force``: every record), of
    the games whose options ``spec`` names (none: every game), one task a record on the
    executor (``scorebook.batch``: local processes, or a Dask cluster); each report is
    stored here as it comes back, so an interrupted batch resumes where it stopped. Returns
    the new reports, oldest record first (and ``{"id", "error"}`` for a record whose analysis
    failed: it stays unanalysed). A spec that no game takes is a usage error."""
    bots = {}
    refusals = []
    for game in registry.games():
        if game.info.analysis is None:
            continue
        try:
            bots[game.id] = resolve(game.id, spec, (files or {}).get(game.id))[0]
        except UsageError as exc:
            refusals.append(str(exc))
    if not bots:
        raise UsageError(f"--bot {spec!r} fits no game: " + "; ".join(r.removeprefix("--bot for ") for r in refusals))
    todo = store.unanalysed(bots, seed, ENGINE_VERSION, again=force)
    if todo:
        store.check_writable()  # before the first search, not after it
    order = {rid: i for i, rid in enumerate(todo)}
    tasks = ((store.get(rid), spec, seed, files) for rid in todo)  # read as the window moves on
    reports = []
    if progress:
        progress(0, len(todo))
    with batch.executor(executor, jobs=min(jobs or os.cpu_count() or 1, max(1, len(todo))),
                        scheduler=scheduler) as pool:
        for (row, *_), report in batch.run_tasks(pool, analysis_task, tasks):
            if isinstance(report, BaseException):  # the task itself was lost (its cluster gone)
                report = {"id": row["id"], "game": row["game"], "error": f"{type(report).__name__}: {report}"}
            elif "error" not in report:
                store.save_analysis(report["id"], report)  # committed one by one: a restart skips these
            reports.append(report)
            if progress:
                progress(1, len(todo))
    reports.sort(key=lambda r: order[r["id"]])
    return reports
