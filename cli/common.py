"""What every command shares: the ``scorebook`` group and its error handling (one line on
stderr, a JSON error document under ``--json``, the exit codes of shared/specs/cli.md), the
database, the files a command writes, progress, and the options several commands take."""
from __future__ import annotations

import os
import sqlite3
import sys

import click

from scorebook import registry
from scorebook.errors import ScorebookError, UnknownGame, UsageError

from .output import emit_json


class GameType(click.ParamType):
    """A game id, checked against the registry when the command runs (so a game registered
    later, a test's toy game, is a valid argument too)."""
    name = "GAME"

    def convert(self, value, param, ctx):
        try:
            return registry.get_game(value).id
        except UnknownGame as err:
            raise click.UsageError(str(err), ctx) from None

    def get_metavar(self, param, ctx=None):
        return "[" + "|".join(registry.game_ids()) + "]"


GAME = GameType()


_REQUEST = {"json": False}  # set from the command line before anything can fail
_PROCESS = {"own": False}  # set by the console entry point (``cli.main.run``): one command, then the process ends


def owns_process() -> bool:
    """Is this command the process's one command (``scorebook ...`` from a shell, not the CLI
    invoked within another program): may it choose for the whole process, as how the
    engines run?"""
    return _PROCESS["own"]


def _wants_json() -> bool:
    return _REQUEST["json"]


def _fail(err: Exception, code: int | None = None) -> None:
    """One line on stderr (and, under --json, an error document on stdout) and the exit code:
    2 for a usage error, 1 for anything the data or the database did (an SQLite error too)."""
    message = str(err) if isinstance(err, (ScorebookError, click.ClickException)) else f"database error: {err}"
    code = code if code is not None else 2 if isinstance(err, UsageError) else 1
    click.echo(f"scorebook: {message}", err=True)
    if _wants_json():
        emit_json({"error": {"message": message, "exit": code, "usage": code == 2}})
    sys.exit(code)


class _Group(click.Group):
    def main(self, args=None, prog_name=None, **kwargs):
        """click's own usage errors answer under --json too, with a JSON document."""
        argv = list(sys.argv[1:] if args is None else args)
        _REQUEST["json"] = "--json" in argv
        kwargs.pop("standalone_mode", None)
        try:
            return super().main(argv, prog_name=prog_name, standalone_mode=False, **kwargs)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help())
            sys.exit(2)
        except click.UsageError as exc:  # one line, with where to read more
            command = exc.ctx.command_path.replace("main", "scorebook", 1) if exc.ctx is not None else "scorebook"
            _fail(click.UsageError(f"{exc.format_message()} (see {command} --help)"), 2)
        except click.ClickException as exc:
            _fail(exc, exc.exit_code)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo(interrupted_line(), err=True)
            sys.exit(130)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (ScorebookError, sqlite3.Error) as err:
            _fail(err)
        except BrokenPipeError:
            sys.exit(0)
        except KeyboardInterrupt:
            click.echo(interrupted_line(), err=True)
            sys.exit(130)


_INTERRUPT_NOTES: list = []  # what an interrupted command says of the work it leaves done (``on_interrupt``)


def on_interrupt(note) -> None:
    """``note()`` -> a phrase said after ``interrupted``: what the command had done by then."""
    _INTERRUPT_NOTES.append(note)


def interrupted_line() -> str:
    """``scorebook: interrupted``, with what the running command had done by then."""
    notes = []
    for note in _INTERRUPT_NOTES:
        try:
            notes.append(note())
        except Exception:  # noqa: BLE001 - an interrupt is answered whatever a note meets
            pass
    return "scorebook: interrupted" + "".join(f": {n}" for n in notes if n)


def _set_db(ctx, param, value):
    if value is not None:
        ctx.find_root().obj["db"] = value


def db_option(fn):
    """``--db`` after the command as well as before it."""
    return click.option("--db", expose_value=False, callback=_set_db, is_eager=True, metavar="PATH",
                        help="SQLite database (as before the command).")(fn)


def open_store(ctx, write: bool = True):
    """The database; a command that only reads never creates one."""
    from scorebook.records.store import Store
    store = Store(ctx.find_root().obj["db"], write=write, on_wait=lambda message: say(message))
    # closed when the command ends (its log copied back into the file), not left to the collector
    ctx.find_root().call_on_close(store.close)
    return store


def write_file(path: str, text: str) -> None:
    """Write a file the user named; a missing folder or a refusal is one line, exit 1."""
    from scorebook.errors import Unavailable
    try:
        with open(path, "w") as fh:
            fh.write(text)
    except OSError as exc:
        raise Unavailable(f"cannot write {path}: {exc.strerror or exc}") from None


def check_writable(path: str | None) -> None:
    """Before the work: can the file the user named be written? (A missing folder or a refusal
    is one line, exit 1, at once rather than after the work.)"""
    if not path:
        return
    from scorebook.errors import Unavailable
    existed = os.path.exists(path)
    try:
        with open(path, "a"):
            pass
    except OSError as exc:
        raise Unavailable(f"cannot write {path}: {exc.strerror or exc}") from None
    if not existed:
        os.remove(path)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", default=lambda: os.environ.get("SCOREBOOK_DB", "scorebook.db"), show_default="./scorebook.db",
              metavar="PATH", help="SQLite database (or $SCOREBOOK_DB).")
@click.version_option(package_name="scorebook")
@click.pass_context
def main(ctx, db):
    """Scorebook: game records, move-by-move validation, storage and analysis for Tiny Islands,
    The Game of Islands, Iwoki, Patchwork and Tsuro.

    Example: scorebook ingest samples/ && scorebook list"""
    ctx.obj = {"db": db}
    if ctx.invoked_subcommand != "warm-up":  # which says what it compiles itself
        from scorebook.analyze.warm import announce_compiling
        announce_compiling(say)  # once a process


def say(line: str) -> None:
    """A notice on stderr, on a line of its own: a progress bar drawn on that line is ended first."""
    if Progress.drawn is not None:
        click.echo("", err=True)
    click.echo(f"scorebook: {line}", err=True)


class Progress:
    """Progress on stderr: a bar on a terminal; elsewhere (a log, a pipe) a line at every tenth
    of the way, ``scorebook: analysing: 12 of 29 moves``; nothing under --json. A length of
    None: the first update says it (a batch knows its size once it starts)."""

    drawn: "Progress | None" = None  # the bar drawn on the terminal's last line, if any (``say`` ends that line)

    def __init__(self, length: int | None, label: str, shown: bool, unit: str = "", lines: bool = False):
        self.shown, self.wants_lines = shown, lines
        self.label, self.unit, self.done, self.said = label, unit, 0, 0
        self.bar = None
        self.length = None
        if length is not None:
            self._start(length)

    def _start(self, length: int) -> None:
        self.length = length
        if self.shown and length > 1:
            self.bar = click.progressbar(length=length, label=self.label, file=sys.stderr)
            self.bar.__enter__()
            Progress.drawn = self
        self.lines = self.wants_lines and self.bar is None and length > 1

    def __enter__(self):
        return self

    def update(self, n: int = 1, length: int | None = None) -> None:
        if self.length is None:
            self._start(length or 0)
        if self.bar is not None:
            self.bar.update(n)
        self.done += n
        if self.lines and self.done * 10 // self.length > self.said:
            self.said = self.done * 10 // self.length
            click.echo(f"scorebook: {self.label}: {min(self.done, self.length)} of {self.length} {self.unit}".rstrip(),
                       err=True)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
            if Progress.drawn is self:
                Progress.drawn = None
        return False


# ------------------------------------------------------------------ play

def play_options(fn):
    """One click option per play option any game declares (game.json), each checked per game
    by the library; the help says which game takes it."""
    by_name: dict = {}
    for game in registry.games():
        for o in game.info.play_options:
            by_name.setdefault(o.name, []).append((game.id, o))
    for name, uses in reversed(list(by_name.items())):
        kinds = {o.kind for _, o in uses}
        if len(kinds) > 1:
            raise RuntimeError(f"play option {name} has different kinds in different games")
        kind = kinds.pop()
        help_text = "; ".join(f"{gid}: {o.help}" + (f" ({'|'.join(o.choices)}, default {o.default})" if o.choices
                                                       else f" (default {o.default})" if o.default not in (None, False)
                                                       else "") for gid, o in uses)
        types = {"int": int, "float": float, "choice": str, "file": click.Path(exists=True, dir_okay=False)}
        if kind == "flag":
            fn = click.option(f"--{name}", is_flag=True, default=None, help=help_text)(fn)
        else:
            fn = click.option(f"--{name}", type=types[kind], default=None, help=help_text)(fn)
    return fn


def user_file_options(fn):
    """``--NAME PATH`` for every user file a game declares (``--net``: TinyBot's network),
    gathered into the command's ``files`` argument; the library reads and checks the file."""
    declared: dict = {}
    for game in registry.games():
        for f in game.info.user_files:
            declared.setdefault(f.name, []).append((game.id, f))
    for name, uses in reversed(list(declared.items())):
        help_text = "; ".join(f"{gid}: {f.help} (or ${f.env})" for gid, f in uses)
        fn = click.option(f"--{name}", f"file_{name}", metavar="PATH", default=None, help=help_text)(fn)
    return fn


def named_files(kwargs: dict) -> dict:
    """The user files named on the command line: {name: path}, taken out of ``kwargs``."""
    return {key[len("file_"):]: kwargs.pop(key) for key in [k for k in kwargs if k.startswith("file_")]}


def executor_options(default_jobs: str):
    """Where a batch's tasks (one a game) run: ``--jobs`` local processes, or the workers of
    a Dask cluster (``--executor dask --scheduler ADDRESS``)."""
    def decorate(fn):
        fn = click.option("--scheduler", metavar="ADDRESS", envvar="SCOREBOOK_SCHEDULER", show_envvar=True,
                          help="The Dask scheduler, tcp://HOST:PORT (with --executor dask).")(fn)
        fn = click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                          help="local: processes on this machine; dask: the workers of a Dask cluster "
                               "(pip install 'scorebook[dask]').")(fn)
        return click.option("--jobs", type=click.IntRange(1, 256), default=None,
                            help=f"Local worker processes (default: {default_jobs}).")(fn)
    return decorate
