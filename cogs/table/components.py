"""Buttons and select menus that survive a restart.

Every component's custom_id carries the game id, the table version it was drawn for,
a verb and an argument: ``tb:<game>:<version>:<verb>:<arg>`` for buttons and
``ts:…`` for selects. A click reaches the part the bot registered for these classes
(``Host.answer_clicks``: the table router); a version that no longer matches the table
marks an outdated board.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from cogs.host import Interaction, route_click
from cogs.language import private_language
from cogs.replies import tell
from cogs.table.command_options import OptionRefusal, option_refusal
from data import ConnectionLost, StaleVersion
from texts.i18n import COMMAND_NAME, N_, tp

log = logging.getLogger("tablebot.components")

# Said when the database refused a change because another click (perhaps handled by
# another bot process) changed the game first.
RACED = N_("The game changed at the same moment: use the newest board and try again.")
UNUSABLE_OPTION = N_("One of this command's options cannot be used here; check them and try again.")
DATABASE_LOST = N_(
    "I lost my connection to the database while doing that, so it may not have happened. "
    "Check the board (`/game board`) and try again if needed."
)

# The templates take every custom_id with our prefix, so that a forged or garbled one
# still reaches a callback and gets a refusal instead of no answer at all.
_ANY_REST = r":(?P<rest>.*)"
_TARGET = re.compile(
    r"(?P<game>[0-9]{1,18}):(?P<version>[0-9]{1,9}):(?P<verb>[a-z_]{1,20}):(?P<arg>[^:]{0,60})",
    re.ASCII,
)
MAX_VALUES = 25
MAX_VALUE_LENGTH = 100


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
    def parse(cls, text: str) -> Target:
        """The target a custom_id's text after the prefix names; FORGED if malformed.

        Ids stay below SQLite's 64-bit limit and digits are ASCII only, so nothing a
        client sends can make the lookup itself fail.
        """
        match = _TARGET.fullmatch(text)
        if match is None:
            return FORGED
        return cls(int(match["game"]), int(match["version"]), match["verb"], match["arg"])


FORGED = Target(0, 0, "forged")
"""Stands for a custom_id that names no valid target; every click on it is refused."""

LESSON_TABLE = 0
"""The game id of a lesson's controls (no stored game has it): the clicking member's
lesson, found by the version the control carries (``cogs/table/lessons.py``)."""


def valid_values(values: list[str]) -> bool:
    """Select values shaped like the ones our menus offer (Discord allows 25 of 100 chars)."""
    return len(values) <= MAX_VALUES and all(
        isinstance(value, str) and len(value) <= MAX_VALUE_LENGTH for value in values
    )


async def answering_database_failures(
    interaction: Interaction, answer: Callable[[], Awaitable[None]]
) -> None:
    """Run ``answer``; a change the database refused as stale, or a lost connection, is
    told to the member privately and changes nothing."""
    try:
        await answer()
    except (StaleVersion, ConnectionLost) as failure:
        await tell_database_failure(interaction, failure, "a click")


async def tell_database_failure(
    interaction: Interaction, failure: StaleVersion | ConnectionLost, during: str
) -> None:
    """A lost race (RACED) or a lost connection (DATABASE_LOST), told to the member."""
    if isinstance(failure, StaleVersion):
        await tell(interaction, RACED)
        return
    log.warning("lost the database connection during %s: %s", during, failure)
    await tell(interaction, DATABASE_LOST)


class TableCommandTree(discord.app_commands.CommandTree[Any]):
    """The bot's command tree: a command whose save the database refused as stale lost a
    race, and one that lost the database connection may not have happened; both are
    told to the member, not logged as bugs. An option value the command does not offer
    (a modified client's) is refused before the command runs."""

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        command = interaction.command
        if interaction.type is not discord.InteractionType.application_command or not (
            isinstance(command, discord.app_commands.Command)
        ):
            return True
        refused = option_refusal(command, interaction.data or {})
        if refused is None:
            return True
        await refuse_option(interaction, refused)
        return False

    async def on_error(
        self, interaction: Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", None)
        if isinstance(error, discord.app_commands.CommandInvokeError) and isinstance(
            original, StaleVersion | ConnectionLost
        ):
            await tell_database_failure(interaction, original, "a command")
            return
        if isinstance(error, discord.app_commands.TransformerError):
            # A user or channel of a kind the option does not take (a user who is no
            # member of the server, say): discord.py's own check, answered the same way.
            await tell(interaction, UNUSABLE_OPTION)
            return
        await super().on_error(interaction, error)


async def refuse_option(interaction: Interaction, refused: OptionRefusal) -> None:
    """The refusal, naming the option as the member's Discord shows it."""
    shown = tp(private_language(interaction), COMMAND_NAME, refused.option)
    await tell(interaction, refused.message, option=shown, **refused.params)


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template="tb" + _ANY_REST):
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
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        # A forged payload may put our id on another kind of component: read it loosely.
        label = getattr(item, "label", None) or ""
        button = cls(Target.parse(match["rest"]), label=label)
        button.item.custom_id = match.string
        return button

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await route_click(interaction, self)

    @property
    def values(self) -> list[str]:
        return []


class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template="ts" + _ANY_REST):
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
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableSelect:
        select = cls(
            Target.parse(match["rest"]),
            options=list(getattr(item, "options", [])),
            placeholder=getattr(item, "placeholder", None) or "",
        )
        select.item.custom_id = match.string
        return select

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await route_click(interaction, self)

    @property
    def values(self) -> list[str]:
        return list(self.item.values)


def view_of(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    """A view holding ``items`` (empty views remove all components), already stopped.

    Clicks reach our dynamic items through their custom_id templates, never through the
    view object, so discord.py need not keep it. A live view sent privately is kept for
    15 minutes (discord.py's default timeout for ephemeral views): under load that was
    tens of thousands of views, the bot's memory growth. A stopped view is not stored.
    """
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


UNRECOGNISED = N_("This control is not one of mine, or no longer exists. Use the newest board.")


def is_routed(
    interaction: Interaction,
    factories: Iterable[type[discord.ui.DynamicItem[Any]]],
) -> bool:
    """Whether discord.py will hand this component click to one of ``factories``.

    It does only for a custom_id that matches a template and sits on the clicked
    message as a component of the clicked type (a button's id sent as a select's is
    dropped); every other click would go unanswered unless the bot refuses it itself.
    """
    data: Mapping[str, Any] = interaction.data or {}
    custom_id = data.get("custom_id")
    kind = data.get("component_type")
    if not isinstance(custom_id, str) or interaction.message is None:
        return False
    if not any(f.__discord_ui_compiled_template__.fullmatch(custom_id) for f in factories):
        return False
    return any(
        getattr(child, "custom_id", None) == custom_id
        and getattr(getattr(child, "type", None), "value", None) == kind
        for row in interaction.message.components
        for child in getattr(row, "children", [row])
    )
