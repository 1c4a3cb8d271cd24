"""The Discord adapter: slash commands, buttons, selects, messages and DMs."""

from cogs.bann import BannCog
from cogs.barbu import BarbuCog
from cogs.barree import BarreeCog

GAME_COGS = (BannCog, BarbuCog, BarreeCog)

__all__ = ["GAME_COGS"]
