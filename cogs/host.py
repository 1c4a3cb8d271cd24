"""The bot as the cogs see it: a ``commands.Bot`` with the server settings and a switchboard
for the components that survive a restart. It names no cog: each part is handed the
partners it needs when ``bot.py`` builds it, and registers here only which clicks it
answers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias, TypeVar

import discord
from discord.ext import commands

from data.settings import SettingsStore

Item = TypeVar("Item", bound=discord.ui.DynamicItem[Any])
ClickHandler: TypeAlias = Callable[["discord.Interaction[Host]", Item], Awaitable[None]]


class Host(commands.Bot):
    """Base of the bot class: ``bot.py`` sets ``settings`` before any cog runs."""

    settings: SettingsStore
    rules_url: str | None = None
    """The web address of the rule books' folder (``docs/rules``), when the bot knows it:
    the rules in short then link each game's whole rule book."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._click_handlers: dict[type[Any], ClickHandler[Any]] = {}

    def answer_clicks(self, item: type[Item], handler: ClickHandler[Item]) -> None:
        """Let ``handler`` answer every click on a component of class ``item`` (a
        ``DynamicItem``, which discord.py rebuilds from its custom_id after a restart)."""
        self._click_handlers[item] = handler
        self.add_dynamic_items(item)

    def click_items(self) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
        """Every component class some part answers."""
        return tuple(self._click_handlers)

    async def clicked(self, interaction: discord.Interaction[Host], item: Item) -> None:
        """Hand a click on ``item`` to the part that answers its class."""
        await self._click_handlers[type(item)](interaction, item)


Interaction: TypeAlias = discord.Interaction[Host]
"""An interaction with our bot: ``interaction.client`` is the ``Host``."""


def host_of(interaction: discord.Interaction[Any]) -> Host:
    """The bot an interaction came to (components and commands only reach ours); the one
    place a component callback, typed by discord.py for any client, learns it is ours."""
    client = interaction.client
    assert isinstance(client, Host), "only the table bot routes our components"
    return client


async def route_click(
    interaction: discord.Interaction[Any], item: discord.ui.DynamicItem[Any]
) -> None:
    """A dynamic item's callback: hand the click to whichever part answers it."""
    host = host_of(interaction)
    await host.clicked(interaction, item)
