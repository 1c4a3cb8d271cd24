"""A player's private messages about a game: one confirmation at a time, the newest menu.

A phone player scrolls past every private message to reach the board, so each new
confirmation deletes the one before it, and opening a menu again outdates the earlier
copy. Both are kept in this process only: after a restart nothing older is known, an
older confirmation simply stays and an older menu is still checked against the table's
version like every control.
"""

from __future__ import annotations

import logging

import discord

from cogs.host import Interaction

log = logging.getLogger("tablebot.table")

Key = tuple[int, int]


def is_private(interaction: Interaction) -> bool:
    """Whether the click came from a private message (ephemeral or a DM), not a board."""
    message = interaction.message
    if message is None:
        return False
    return message.flags.ephemeral or interaction.guild_id is None


def answers_privately(interaction: Interaction) -> bool:
    """Whether the interaction's own answer is an ephemeral message of this player: a
    click in an ephemeral menu or a typed command (answered privately after thinking)."""
    message = interaction.message
    if message is None:
        return interaction.type is discord.InteractionType.application_command
    return message.flags.ephemeral


class PrivateMessages:
    """The newest confirmation and menus of each (game, player)."""

    def __init__(self) -> None:
        self._confirmations: dict[Key, tuple[Interaction, int | None]] = {}
        self._menus: dict[tuple[int, int, str], str] = {}

    def open_menu(self, game_id: int, interaction: Interaction, kind: str) -> str:
        """Note a new ``kind`` menu for this player; its mark, for its controls' argument."""
        mark = str(interaction.id)
        self._menus[(game_id, interaction.user.id, kind)] = mark
        return mark

    def menu_outdated(
        self, game_id: int, interaction: Interaction, kind: str, mark: str
    ) -> bool:
        """Whether a newer ``kind`` menu was opened since the one marked ``mark``."""
        newest = self._menus.get((game_id, interaction.user.id, kind))
        return newest is not None and newest != mark

    async def confirmed(
        self, game_id: int, interaction: Interaction, *, keep: bool = True
    ) -> None:
        """``interaction``'s answer is now the player's confirmation: delete the previous one.

        ``keep=False`` (the game has ended, or the move lost a race to its end) deletes
        without keeping the new one: an ended game is forgotten, and whatever is kept for
        it would stay for good.
        """
        if not answers_privately(interaction):
            return
        key = (game_id, interaction.user.id)
        message_id = interaction.message.id if interaction.message is not None else None
        previous = self._confirmations.pop(key, None)
        if keep:
            self._confirmations[key] = (interaction, message_id)
        if previous is None:
            return
        old_interaction, old_message_id = previous
        if old_message_id is not None and old_message_id == message_id:
            return
        try:
            await old_interaction.delete_original_response()
        except discord.HTTPException as failure:
            # Discord keeps an answer editable for 15 minutes only: an older one stays.
            log.info("game %d: could not delete an old confirmation: %s", game_id, failure)

    def games_kept(self) -> set[int]:
        """The games this process keeps confirmations or menu marks for."""
        return {key[0] for key in self._confirmations} | {menu[0] for menu in self._menus}

    def forget(self, game_id: int) -> None:
        for key in [key for key in self._confirmations if key[0] == game_id]:
            del self._confirmations[key]
        for menu in [menu for menu in self._menus if menu[0] == game_id]:
            del self._menus[menu]
