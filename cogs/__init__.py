"""The Discord adapter: slash commands, buttons, selects, messages and DMs."""

from cogs.bann import BannCog
from cogs.barbu import BarbuCog
from cogs.barree import BarreeCog
from cogs.gulbara import GulbaraCog

GAME_COGS = (BannCog, BarbuCog, BarreeCog, GulbaraCog)

__all__ = ["GAME_COGS"]
