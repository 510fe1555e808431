"""The user files Scorebook can fetch (TinyBot's network): ``scorebook NAME fetch``, one group
for each file name a game declares with a ``fetch`` block (game.json)."""
from __future__ import annotations

import click

from scorebook import registry

from .common import main
from .output import emit_json, json_option, safe


def _fetch_command(game_id: str, name: str) -> click.Command:
    declared = registry.get_game(game_id).info.user_file(name)

    @click.command("fetch", short_help=f"Download {declared.fetch.url.rsplit('/', 1)[-1]} and check it.",
                   help=f"Download {declared.help.split(',')[0]} from its publisher, check its SHA-256 against the "
                        f"one Scorebook knows, store it where --{name} finds it by default, and show its licence."
                        f"\n\nExample: scorebook {name} fetch")
    @click.option("--from", "url", metavar="URL", help=f"Download from here instead (default: {declared.fetch.url}).")
    @click.option("--to", "dest", metavar="PATH", type=click.Path(dir_okay=False),
                  help="Store it here instead (then name it with --" + name + " PATH).")
    @json_option
    def fetch_command(url, dest, as_json):
        from scorebook.records.user_files import fetch
        game = registry.get_game(game_id)
        done = fetch(game, name, url=url, dest=dest,
                     started=None if as_json else lambda source: click.echo(f"scorebook: downloading {source}",
                                                                            err=True))
        if as_json:
            emit_json(done)
            return
        click.echo(f"{name}: {'stored' if done['downloaded'] else 'already stored'} {done['path']} "
                   f"({done['bytes']:,} bytes, SHA-256 {done['sha256']} as Scorebook knows it)")
        if not dest:
            click.echo(f"play and analyze find it there without --{name}")
        click.echo(f"\nIts licence, {done['licence']}: keep this notice with the file.")
        if done["licence_text"]:
            click.echo(safe(done["licence_text"].rstrip()))
        else:
            click.echo(f"(its text: {declared.fetch.licence_url})")
    return fetch_command


def _register() -> None:
    for game in registry.games():
        for f in game.info.user_files:
            if f.fetch is not None and f.name not in main.commands:
                group = click.Group(f.name, short_help=f"{f.help.split(',')[0]}: fetch it.",
                                    help=f"{f.help}.\n\nExample: scorebook {f.name} fetch")
                group.add_command(_fetch_command(game.id, f.name))
                main.add_command(group)


_register()
