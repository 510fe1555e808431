"""The HTTP API (JSON): submissions, analyses asked for, jobs read and cancelled. Every body
was bounded and read by the guard before it gets here; every request body is checked by a
pydantic model (``settings``); every write goes through the server's one writer.

| request | answers |
|---|---|
| POST /-/scorebook/api/records | 201 / 200 / 422 and ``ingest --json``'s document |
| POST /-/scorebook/api/records/ID/analyses | 202 queued, 200 asked before or stored |
| GET /-/scorebook/api/records/ID/analysis | the latest analysis, ``analyze --json``'s |
| GET /-/scorebook/api/jobs/N | the job |
| POST /-/scorebook/api/jobs/N/cancel | 200 and the job, cancelled |
"""
from __future__ import annotations

from datasette import Response

from scorebook.errors import NotFound, ScorebookError, UsageError

from . import jobs
from .settings import analysis_ask
from .state import posted, read, refusal, service_of, submission_status, submit


def _json(doc: dict, status: int = 200) -> Response:
    return Response.json(doc, status=status)


def _error(status: int, why: str) -> Response:
    return _json({"error": why}, status)


async def submit_view(request, datasette):
    """The body is a record text in any format ``ingest`` reads: read and replayed first,
    then stored in one short write."""
    refused = await posted(request, datasette, "submit")
    if refused is not None:
        return _error(*refused)
    try:
        doc = await submit(service_of(datasette), await request.post_body(), f"http:{request.actor['id']}")
    except ScorebookError as err:
        return _error(503, str(err))
    return _json(doc, submission_status(doc["summary"]))


async def analyses_view(request, datasette):
    """Optional JSON ``{"bot", "seed"}``: 202 and the job, queued (200 when it was asked
    before or is stored already)."""
    refused = await posted(request, datasette, "analyze")
    if refused is not None:
        return _error(*refused)
    service = service_of(datasette)
    try:
        asked = analysis_ask(await request.post_body())
        job, new = await service.writer.run(lambda st: jobs.ask(
            st, request.url_vars["id"], asked.bot, asked.seed, request.actor["id"],
            max_queued=service.limits.max_queued))
    except jobs.TooManyJobs as err:
        return _error(429, str(err))
    except NotFound as err:
        return _error(404, str(err))
    except (UsageError, ScorebookError) as err:
        return _error(400, str(err))
    return _json(job, 202 if new and job["status"] == "queued" else 200)


async def job_view(request, datasette):
    try:
        return _json(await read(datasette, lambda st: jobs.job(st, int(request.url_vars["job"]))))
    except NotFound as err:
        return _error(404, str(err))


async def cancel_job(request, datasette, job_id: int) -> tuple[int, dict]:
    """(status, the job or an error): a job is cancelled by an actor who may analyze and
    asked for it, or by an administrator (``"admin"`` in the configuration; never a token)."""
    refused = await refusal(request, datasette, "analyze")
    admin = await refusal(request, datasette, "admin") is None
    if refused is not None and not admin:
        return refused[0], {"error": refused[1]}
    service = service_of(datasette)
    try:
        doc = await service.writer.run(lambda st: jobs.cancel(st, job_id, None if admin else request.actor["id"]))
    except NotFound as err:
        return 404, {"error": str(err)}
    except jobs.NotYours as err:
        return 403, {"error": str(err)}
    return 200, doc


async def cancel_view(request, datasette):
    if request.method != "POST":
        return _error(405, "POST to cancel a job")
    status, doc = await cancel_job(request, datasette, int(request.url_vars["job"]))
    return _json(doc, status)


async def analysis_view(request, datasette):
    """The latest stored analysis, the document ``analyze --json`` prints; 404 before there
    is one."""
    try:
        doc = await read(datasette, lambda st: jobs.latest_report(st, request.url_vars["id"]))
    except NotFound as err:
        return _error(404, str(err))
    if doc is None:
        return _error(404, f"record {request.url_vars['id']} has no analysis yet")
    return _json(doc)
