"""The answer to a move picked in a private menu: what was played, once it is saved.

A confirmation must never get ahead of the save: a save that fails (a lost race, a lost
database connection) would leave the player told of a move that did not happen. So the
menu is answered when the move is stored, in one request (the answer replaces the menu).
Discord waits three seconds for an answer, and a save can wait longer (a busy database,
many moves at once): if it takes more than ``PATIENCE`` the menu first says the move is
being played, and the confirmation replaces that.

Two picks on one menu (a double click) share it: only the first says "being played",
each edit of the menu follows that one, and a pick refused after another one was played
there answers in a message of its own, so the menu keeps what was played.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, ClassVar

from cogs.host import Interaction
from cogs.language import private_language
from texts.i18n import N_, t

PATIENCE = 0.8
"""Seconds a pick waits for its save before the menu says the move is being played:
well inside Discord's three seconds, with room for a loaded event loop."""
BEING_PLAYED = N_("⏳ Playing your move…")


@dataclass
class _Menu:
    """What the picks in flight on one menu message share."""

    picks: int = 0
    saying: asyncio.Task[object] | None = None
    """The edit making the menu say "being played", once a pick sent it."""
    played: bool = False


class MenuAnswer:
    """Answers one pick: ``played`` once its move is saved, ``refused`` if it is not, and
    ``close`` when its work is over."""

    _menus: ClassVar[dict[int, _Menu]] = {}

    def __init__(self, interaction: Interaction, patience: float) -> None:
        self._interaction = interaction
        message = interaction.message
        self._key = message.id if message is not None else interaction.id
        self._menu = self._menus.setdefault(self._key, _Menu())
        self._menu.picks += 1
        self._acknowledged: asyncio.Task[object] | None = None
        self._timer = asyncio.get_running_loop().call_later(patience, self._acknowledge)

    def _acknowledge(self) -> None:
        menu = self._menu
        if menu.saying is None and not menu.played:
            text = t(private_language(self._interaction), BEING_PLAYED)
            menu.saying = self._acknowledged = self._start(self._replace_menu(text))
        else:
            # The menu says so already, for another pick, or shows what was played.
            self._acknowledged = self._start(self._interaction.response.defer())

    def _start(self, answer: Coroutine[Any, Any, object]) -> asyncio.Task[object]:
        return asyncio.get_running_loop().create_task(
            answer, name=f"table: holding pick {self._interaction.id}"
        )

    async def _replace_menu(self, content: str) -> None:
        await self._interaction.response.edit_message(
            content=content, view=None, embed=None, attachments=[]
        )

    async def _held(self) -> bool:
        """Stop waiting; whether this pick was acknowledged meanwhile. Any edit of the
        menu after this follows its "being played"."""
        self._timer.cancel()
        if self._acknowledged is not None:
            await self._acknowledged
        if self._menu.saying is not None:
            await self._menu.saying
        return self._acknowledged is not None

    async def played(self, confirmation: str) -> None:
        """The move is saved: the menu gives way to ``confirmation``."""
        self._menu.played = True
        if await self._held():
            await self._interaction.edit_original_response(
                content=confirmation, view=None, embed=None, attachments=[]
            )
        else:
            await self._replace_menu(confirmation)

    async def refused(self, reason: str) -> None:
        """The move was not played, for ``reason`` (a sentence already translated): told
        in the menu if this pick made it say "being played" and nothing was played there
        since, else in a message of its own (the menu stays for another pick)."""
        held = await self._held()
        says_ours = self._menu.saying is not None and self._menu.saying is self._acknowledged
        if says_ours and not self._menu.played:
            await self._interaction.edit_original_response(content=reason)
        elif held:
            await self._interaction.followup.send(reason, ephemeral=True)
        else:
            await self._interaction.response.send_message(reason, ephemeral=True)

    async def close(self) -> None:
        """The pick's work is over (an error is told by whoever catches it)."""
        self._menu.picks -= 1
        if self._menu.picks == 0:
            del self._menus[self._key]
        await self._held()
