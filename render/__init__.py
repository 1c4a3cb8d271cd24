"""Pure drawing: a game's view (a JSON-safe dict) becomes PNG bytes.

``render.theme`` holds the shared palette and seat colours, ``render.toolkit`` the fonts,
text fitting, anti-aliased shapes, dice, cards and the PNG encoder; one module or package
per game (``render.bann``, …) draws that game's board with them. Nothing
here does I/O, imports discord or looks at a game state: renderers consume views only.
A game's module is found by its key in whichever game root holds the game.
"""

from games import layer_package

layer_package(__name__, __path__)
