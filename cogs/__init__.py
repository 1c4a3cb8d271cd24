"""The Discord adapter: slash commands, buttons, selects, messages and DMs.

Layered, each importing only the layers before it (``tests/unit/test_layers.py``):
the basics (``host``, ``language``, ``replies``, ``render_pool``, ``scheduler``, ``worker``,
``privacy``), the table machinery every game shares (``cogs.table``), the features around
it (``timeouts``, ``archive``, ``luck``, ``league``, ``settings``), then each game's cog
(``cogs.<key>``, found by its key in whichever game root holds the game) and their
discovery (``discovery``).
"""

from games import layer_package

layer_package(__name__, __path__)
