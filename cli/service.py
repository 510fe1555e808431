"""The service's commands: serve, and the queue, accounts and tokens it uses."""
from __future__ import annotations

import json
import sys

import click

from scorebook.errors import UsageError

from .common import db_option, main, open_store
from .output import output_options


# ------------------------------------------------------------------ serve

@main.command(short_help="Browse the archive in Datasette; with --writes, take submissions.")
@click.option("--port", type=click.IntRange(0, 65535), default=8001, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="Listen here (127.0.0.1: this machine only).")
@click.option("--public", is_flag=True, help="Needed to listen on an address other machines reach: everyone who "
                                             "reaches it reads the whole archive.")
@click.option("--sql", "allow_sql", is_flag=True, help="Let visitors run their own SQL queries (off by default).")
@click.option("--upgrade", is_flag=True, help="Bring an older database's schema up to date first (the one write "
                                              "serve may make).")
@click.option("--writes", is_flag=True, help="Take submissions and analysis requests (HTTP API, forms) from those "
                                             "permitted: tokens (scorebook token create) or --config's accounts.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, exists=True),
              help="A JSON file: who may submit, analyze and administer, the accounts file, the limits "
                   "(docs/commands.md, \"The service\"); other plugins' settings under \"plugins\".")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="Where requested analyses run: local: in the server's process, one at a time; dask: on the "
                   "workers of a Dask cluster (pip install 'scorebook[dask]').")
@click.option("--scheduler", metavar="ADDRESS", envvar="SCOREBOOK_SCHEDULER", show_envvar=True,
              help="The Dask scheduler, tcp://HOST:PORT (with --executor dask).")
@db_option
@click.pass_context
def serve(ctx, port, host, public, allow_sql, upgrade, writes, config_path, executor, scheduler):
    """Browse the archive in Datasette: views, search, every record's boards and analysis, the
    ratings (pip install 'scorebook[web]'); read-only unless --writes, when programs with a
    token and signed-in accounts --config permits submit records and ask for analyses, an
    analysis worker running in this process. Runs until stopped (Ctrl-C, SIGTERM).

    Example: scorebook serve --port 8001 --writes --config serve.json"""
    import importlib.util
    if importlib.util.find_spec("datasette") is None:
        raise UsageError("serve needs Datasette: pip install 'scorebook[web]'")
    from scorebook.service.server import plan, serve as run_server
    from scorebook.service.settings import read_config
    p = plan(lambda: open_store(ctx, write=upgrade), host, port, public=public, writes=writes, allow_sql=allow_sql,
             config=read_config(config_path), executor=executor, scheduler=scheduler)
    if public:
        click.echo(f"scorebook: warning: serving to the network on {host}:{port}: anyone who reaches it reads "
                   "the whole archive", err=True)
    run_server(p, executor=executor, scheduler=scheduler,
               on_start=lambda url: click.echo(f"scorebook: serving {p.path} {p.mode} at {url} (Ctrl-C stops)",
                                               err=True))


# ------------------------------------------------------------------ jobs

@main.group(short_help="The analyses asked for over HTTP: list them, cancel one.")
def jobs():
    """The queue of analyses that a served archive (scorebook serve --writes) takes over HTTP.

    Example: scorebook jobs list --status queued"""


@jobs.command("list", short_help="Jobs, newest first.")
@click.option("--status", type=click.Choice(["queued", "running", "done", "failed", "cancelled"]))
@click.option("--actor", help="Only this actor's.")
@click.option("--limit", type=click.IntRange(1, 100000), default=100, show_default=True)
@db_option
@output_options
@click.pass_context
def jobs_list(ctx, status, actor, limit, out):
    """The jobs, newest first: id, record, bot, seed, actor, status, progress or reason.

    Example: scorebook jobs list --status running"""
    from scorebook.service.jobs import job_doc
    docs = [job_doc(r) for r in open_store(ctx, write=False).jobs(status, actor, limit)]
    rows = [dict(d, progress=f"{d['progress']['moves']}/{d['progress']['of']}" if "progress" in d else
                 d.get("error") or "") for d in docs]
    out.rows([("job", "job"), ("record", "record"), ("bot", "bot"), ("seed", "seed"), ("actor", "actor"),
              ("status", "status"), ("progress", "progress or reason")], rows, {"jobs": docs})


@jobs.command("cancel", short_help="Cancel a queued or running job.")
@click.argument("job_id", type=click.IntRange(1, 10 ** 12))
@db_option
@click.pass_context
def jobs_cancel(ctx, job_id):
    """Cancel a job, queued or running (a running one stops after the move it is on).

    Example: scorebook jobs cancel 12"""
    from scorebook.service.jobs import cancel
    doc = cancel(open_store(ctx), job_id, None)
    click.echo(f"job {job_id}: {doc['status']}")


# ------------------------------------------------------------------ accounts

@main.group(short_help="Accounts that sign in to a served archive with a password.")
def account():
    """Accounts for people who submit from a browser: a file of names and password hashes,
    kept apart from serve's configuration (its "accounts" names the file).

    Example: scorebook account set alice --file /etc/scorebook/accounts"""


@account.command("set", short_help="Add an account, or change its password.")
@click.argument("name")
@click.option("--file", "path", required=True, type=click.Path(dir_okay=False), help="The accounts file.")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input (one line).")
def account_set(name, path, password_stdin):
    """Add NAME to the accounts file, or change its password (asked twice, never shown;
    only its PBKDF2 hash is written). The file is written with mode 600.

    Example: scorebook account set alice --file accounts"""
    from scorebook.service.accounts import set_account
    if password_stdin:
        password = sys.stdin.readline(2048).rstrip("\n")
    elif not sys.stdin.isatty():  # no terminal to ask on (a pipe, a script, a service): said, not echoed
        raise UsageError("no terminal to ask the password on: give it on standard input with --password-stdin")
    else:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    was = set_account(path, name, password)
    click.echo(f"account {name} {'changed' if was else 'added'} in {path}")


@account.command("remove", short_help="Remove an account.")
@click.argument("name")
@click.option("--file", "path", required=True, type=click.Path(dir_okay=False, exists=True), help="The accounts file.")
def account_remove(name, path):
    """Remove NAME from the accounts file: every session it signed in with ends (as a new
    password ends them).

    Example: scorebook account remove alice --file accounts"""
    from scorebook.errors import NotFound
    from scorebook.service.accounts import set_account
    if not set_account(path, name, None):
        raise NotFound(f"no account {name!r} in {path}")
    click.echo(f"account {name} removed from {path}")


# ------------------------------------------------------------------ tokens

@main.group(short_help="Tokens for programs that submit records or ask for analyses.")
def token():
    """Tokens for programs that write to a served archive (scorebook serve --writes) over HTTP:
    Authorization: Bearer TOKEN. The database keeps a hash of each, never the token.

    Example: scorebook token create club-bot --can submit --can analyze"""


@token.command("create", short_help="Print a new token for ACTOR (shown once).")
@click.argument("actor")
@click.option("--can", "permissions", multiple=True, type=click.Choice(["submit", "analyze", "tournament"]),
              required=True, help="What it may do (repeat for several): tournament runs events (a director).")
@db_option
@output_options
@click.pass_context
def token_create(ctx, actor, permissions, out):
    """Print a new token for ACTOR with these permissions; only its hash is kept, so it is
    shown this once.

    Example: scorebook token create club-bot --can submit"""
    from scorebook.records.tokens import create
    made = create(open_store(ctx), actor, list(permissions))
    if out.json:
        click.echo(json.dumps({"token": made, "id": made.split("_")[1], "actor": actor,
                               "permissions": sorted(set(permissions))}))
    else:
        click.echo(made)


@token.command("revoke", short_help="End a token, by its id.")
@click.argument("token_id")
@db_option
@click.pass_context
def token_revoke(ctx, token_id):
    """End a token at once: its id is the part after sbk_ (scorebook token list shows them).

    Example: scorebook token revoke 3f2a9c0d1e4b5a67"""
    from scorebook.records.tokens import revoke
    revoke(open_store(ctx), token_id.removeprefix("sbk_").split("_")[0])
    click.echo(f"token {token_id[:20]} revoked")


@token.command("list", short_help="The tokens: id, actor, permissions, created, revoked.")
@db_option
@output_options
@click.pass_context
def token_list(ctx, out):
    """Every token with its actor and permissions (never a secret).

    Example: scorebook token list"""
    from scorebook.records.tokens import listed
    rows = listed(open_store(ctx, write=False))
    out.rows([("id", "id"), ("actor", "actor"), ("permissions", "permissions"), ("created_at", "created"),
              ("revoked_at", "revoked")], [dict(r, permissions=",".join(r["permissions"])) for r in rows],
             {"tokens": rows})
