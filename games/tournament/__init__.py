"""Tournaments of the hosted games, the pure part: the data model (``model``), the
pairing of each format, the scores and tie-breaks of the standings. No I/O: storage and
Discord live above and keep a ``Tournament`` as its ``to_dict()``.
"""

from games.tournament.model import Config, Format, Player, Result, Round, Table, Tournament

__all__ = ["Config", "Format", "Player", "Result", "Round", "Table", "Tournament"]
