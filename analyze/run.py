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
from scorebook.records.errors import STRICT, RecordRejected, UsageError

from .loss import ENGINE_VERSION, analyze_record


def resolve(game: str, spec: str | None) -> tuple[str, dict]:
    """A bot spec such as ``rollouts:32`` or ``depth:3,budget:500000`` -> (the bot's stored
    name, the options given); the options and their defaults are the game's (game.json)."""
    g = registry.get_game(game)
    if g.info.analysis is None:
        raise UsageError(f"analysis of {game} records is not available")
    defaults = g.info.analysis.options
    options: dict = {}
    for part in (spec or "").replace(",", " ").split():
        key, _, value = part.partition(":") if ":" in part else part.partition("=")
        if key not in defaults or not value.isdigit() or len(value) > 9 or int(value) < 1:
            first = next(iter(defaults))
            raise UsageError(f"--bot for {game}: options {', '.join(sorted(defaults))} with whole numbers, "
                             f"e.g. {first}:{defaults[first]}")
        options[key] = int(value)
    return g.analysis.bot_name(dict(defaults, **options)), options


def record_of(row: dict):
    """The record of a stored row, read back from its canonical text (and so replayed)."""
    try:
        return registry.get_game(row["game"]).notation.read_pgn(row["text"], STRICT)[0]
    except RecordRejected as err:
        raise UsageError(f"stored record {row['id']} no longer reads: {err.describe()}") from None


def compute(row: dict, spec: str | None, seed: int, progress=None) -> dict:
    game = row["game"]
    name, options = resolve(game, spec)
    record = record_of(row)
    players = registry.get_game(game).notation.players(record) or ["player"]
    report = analyze_record(game, record, players, seed=seed, options=options, progress=progress)
    report["bot"] = name
    report["id"] = row["id"]
    report["game"] = game
    return report


def analyze_one(store, record_id: str, spec: str | None, seed: int, *, force: bool = False, progress=None) -> dict:
    row = store.get(record_id)
    name, _ = resolve(row["game"], spec)
    found = None if force else store.find_analysis(row["id"], name, seed, ENGINE_VERSION)
    if found is not None:
        found.update({"id": row["id"], "game": row["game"]})
        return found
    report = compute(row, spec, seed, progress)
    store.save_analysis(row["id"], report)
    return report


def analysis_task(task: tuple) -> dict:
    """One record, wherever the executor runs it: ``(row, spec, seed)`` -> its report, or
    ``{"id", "game", "error"}`` when its analysis failed (the batch goes on without it)."""
    row, spec, seed = task
    try:
        return compute(row, spec, seed)
    except Exception as exc:  # noqa: BLE001 - reported per record, never a traceback
        return {"id": row["id"], "game": row["game"], "error": f"{type(exc).__name__}: {exc}"}


def analyze_all(store, spec: str | None, seed: int, *, jobs: int | None = None, executor: str = "local",
                scheduler: str | None = None, progress=None, force: bool = False) -> list[dict]:
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
            bots[game.id] = resolve(game.id, spec)[0]
        except UsageError as exc:
            refusals.append(str(exc))
    if not bots:
        raise UsageError(f"--bot {spec!r} fits no game: " + "; ".join(r.removeprefix("--bot for ") for r in refusals))
    todo = store.unanalysed(bots, seed, ENGINE_VERSION, again=force)
    order = {rid: i for i, rid in enumerate(todo)}
    tasks = ((store.get(rid), spec, seed) for rid in todo)  # read as the window moves on
    reports = []
    if progress:
        progress(0, len(todo))
    with batch.executor(executor, jobs=min(jobs or os.cpu_count() or 1, max(1, len(todo))),
                        scheduler=scheduler) as pool:
        for (row, _, _), report in batch.run_tasks(pool, analysis_task, tasks):
            if isinstance(report, BaseException):  # the task itself was lost (its cluster gone)
                report = {"id": row["id"], "game": row["game"], "error": f"{type(report).__name__}: {report}"}
            elif "error" not in report:
                store.save_analysis(report["id"], report)  # committed one by one: a restart skips these
            reports.append(report)
            if progress:
                progress(1, len(todo))
    reports.sort(key=lambda r: order[r["id"]])
    return reports
