"""The README's table of commands lists every slash command the bot syncs to Discord, with
every option of each (the issue found `/settings` without its `language`)."""

from __future__ import annotations

import re
from pathlib import Path

from games import GAMES

README = Path(__file__).resolve().parents[2] / "README.md"
SUBCOMMAND, GROUP = 1, 2


def synced_commands(listing: list[dict]) -> dict[str, list[str]]:
    """Each command as typed ("/league season start") with the names of its options."""
    found: dict[str, list[str]] = {}

    def walk(path: str, options: list[dict]) -> None:
        nested = [option for option in options if option["type"] in (SUBCOMMAND, GROUP)]
        if not nested:
            found[path] = [option["name"] for option in options]
        for option in nested:
            walk(f"{path} {option['name']}", option.get("options", []))

    for command in listing:
        walk(f"/{command['name']}", command.get("options", []))
    return found


def readme_rows() -> list[str]:
    """The first cell of every row of the README's command table."""
    lines = README.read_text(encoding="utf-8").splitlines()
    return [line.split("|")[1].strip() for line in lines if line.startswith("| `/")]


def rows_of(command: str, rows: list[str]) -> list[str]:
    """The rows that document ``command``: by its words, a `/<game> …` row for any game's,
    and "`/league season start <name>` / `list`" for the group's other subcommand."""
    words = command.split()
    wanted = [words]
    if words[0][1:] in GAMES:
        wanted.append(["/<game>", *words[1:]])
    documented = []
    for row in rows:
        named = re.findall(r"`(/[^`]*)`", row)
        typed = [re.split(r" [\[<]|\s[a-z_]+:<", name)[0].split() for name in named]
        siblings = [[*typed[0][:-1], alone] for alone in re.findall(r"/ `(\w+)`", row)]
        if any(form in wanted for form in [*typed[:1], *siblings]):
            documented.append(row)
    return documented


async def test_the_readme_lists_every_command_with_every_option(fake_discord, start_bot):
    await start_bot()
    commands = synced_commands(fake_discord.commands.listing(None))
    assert "/settings" in commands and "/league season start" in commands
    rows = readme_rows()
    undocumented: dict[str, object] = {}
    for command, options in commands.items():
        documenting = rows_of(command, rows)
        missing = [
            option
            for option in options
            if not any(re.search(rf"\b{option}\b", row) for row in documenting)
        ]
        if not documenting or missing:
            undocumented[command] = missing or "no row"
    assert undocumented == {}
