"""The answer to a move picked in a private menu: what was played, once it is saved.

A confirmation must never get ahead of the save: a save that fails (a lost race, a lost
database connection) would leave the player told of a move that did not happen. So the
menu is answered when the move is stored, in one request (the answer replaces the menu).
Discord waits three seconds for an answer, and a save can wait longer (a busy database,
many moves at once): if it takes more than ``PATIENCE`` the menu first says the move is
being played, and the confirmation replaces that.
"""

from __future__ import annotations

import asyncio

from cogs.host import Interaction
from cogs.language import private_language
from texts.i18n import N_, t

PATIENCE = 0.8
"""Seconds a pick waits for its save before the menu says the move is being played:
well inside Discord's three seconds, with room for a loaded event loop."""
BEING_PLAYED = N_("⏳ Playing your move…")


class MenuAnswer:
    """Answers one pick: ``played`` once its move is saved, ``refused`` if it is not."""

    def __init__(self, interaction: Interaction, patience: float = PATIENCE) -> None:
        self._interaction = interaction
        self._holding: asyncio.Task[None] | None = None
        self._timer = asyncio.get_running_loop().call_later(patience, self._hold)

    def _hold(self) -> None:
        text = t(private_language(self._interaction), BEING_PLAYED)
        self._holding = asyncio.get_running_loop().create_task(
            self._replace_menu(text), name=f"table: holding pick {self._interaction.id}"
        )

    async def _replace_menu(self, content: str) -> None:
        await self._interaction.response.edit_message(
            content=content, view=None, embed=None, attachments=[]
        )

    async def _held(self) -> bool:
        """Stop waiting; whether the menu was answered with "being played" meanwhile."""
        self._timer.cancel()
        if self._holding is None:
            return False
        await self._holding
        return True

    async def played(self, confirmation: str) -> None:
        """The move is saved: the menu gives way to ``confirmation``."""
        if await self._held():
            await self._interaction.edit_original_response(
                content=confirmation, view=None, embed=None, attachments=[]
            )
        else:
            await self._replace_menu(confirmation)

    async def refused(self, reason: str) -> None:
        """The move was not played, for ``reason`` (a sentence already translated): the
        menu stays for another pick, unless it says "being played" already."""
        if await self._held():
            await self._interaction.edit_original_response(content=reason)
        else:
            await self._interaction.response.send_message(reason, ephemeral=True)

    async def close(self) -> None:
        """Leave the pick as it is answered by now (an error told by whoever catches it)."""
        await self._held()
