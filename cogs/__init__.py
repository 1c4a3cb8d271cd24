"""The Discord adapter: slash commands, buttons, selects, messages and DMs."""

from cogs.bann import BannCog

GAME_COGS = (BannCog,)

__all__ = ["GAME_COGS"]
