"""Buttons and select menus that survive a restart.

Every component's custom_id carries the game id, the table version it was drawn for,
a verb and an argument: ``tb:<game>:<version>:<verb>:<arg>`` for buttons and
``ts:…`` for selects. The Tables cog routes each click to the shared lobby logic or to
the game's cog; a version that no longer matches the table marks an outdated board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from data import StaleVersion

if TYPE_CHECKING:
    from cogs.table import Tables

# Said when the database refused a change because another click (perhaps handled by
# another bot process) changed the game first.
RACED = "The game changed at the same moment: use the newest board and try again."

_ID_PATTERN = r":(?P<game>\d+):(?P<version>\d+):(?P<verb>[a-z_]+):(?P<arg>[^:]*)"


@dataclass(frozen=True)
class Target:
    """What a component points at: a game at a version, a verb and its argument."""

    game_id: int
    version: int
    verb: str
    arg: str = ""

    def but(self, verb: str, arg: str = "") -> Target:
        """The same game and version with another verb."""
        return Target(self.game_id, self.version, verb, arg)

    def custom_id(self, prefix: str) -> str:
        return f"{prefix}:{self.game_id}:{self.version}:{self.verb}:{self.arg}"

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Target:
        return cls(int(match["game"]), int(match["version"]), match["verb"], match["arg"])


def _tables(interaction: discord.Interaction[Any]) -> Tables:
    cog = interaction.client.get_cog("Tables")  # type: ignore[attr-defined]
    assert cog is not None, "the Tables cog is always loaded"
    return cog


async def route_click(
    interaction: discord.Interaction[Any], target: Target, values: list[str]
) -> None:
    """Hand a click to the Tables cog; a change the database refused as stale is told to
    the player privately and changes nothing."""
    try:
        await _tables(interaction).on_component(interaction, target, values)
    except StaleVersion:
        await tell_raced(interaction)


async def on_app_command_error(
    interaction: discord.Interaction[Any], error: discord.app_commands.AppCommandError
) -> None:
    """The command tree's error handler: a stale save is a race, not a bug."""
    if isinstance(error, discord.app_commands.CommandInvokeError) and isinstance(
        error.original, StaleVersion
    ):
        await tell_raced(interaction)
        return
    await discord.app_commands.CommandTree.on_error(
        interaction.client.tree, interaction, error  # type: ignore[attr-defined]
    )


async def tell_raced(interaction: discord.Interaction[Any]) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(RACED, ephemeral=True)
    else:
        await interaction.response.send_message(RACED, ephemeral=True)


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template="tb" + _ID_PATTERN):
    def __init__(
        self,
        target: Target,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                emoji=emoji,
                row=row,
                custom_id=target.custom_id("tb"),
            )
        )
        self.target = target

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        return cls(Target.from_match(match), label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await route_click(interaction, self.target, [])


class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template="ts" + _ID_PATTERN):
    def __init__(
        self,
        target: Target,
        *,
        options: list[discord.SelectOption],
        placeholder: str,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                options=options,
                placeholder=placeholder,
                row=row,
                custom_id=target.custom_id("ts"),
            )
        )
        self.target = target

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Select[Any],
        match: re.Match[str],
        /,
    ) -> TableSelect:
        return cls(
            Target.from_match(match),
            options=list(item.options),
            placeholder=item.placeholder or "",
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await route_click(interaction, self.target, list(self.item.values))


def view_of(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    """A persistent view holding ``items`` (empty views remove all components)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
