"""The dice luck of `/league profile`: how a member's dice fell this season, against what
fair dice give, per dice game, counted from the dice each ended game replays to."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from cogs.table.records import facts_of, logged_actions
from cogs.worker import replay_work
from data import Store
from data.league import League, RecordedResult
from games import GAMES, IllegalAction
from games.luck import DiceLuck, dice_games, face_names, luck_in_game
from games.proof import GameFacts
from render.luck import render_luck
from texts.common import decimal
from texts.i18n import t, tn

log = logging.getLogger("tablebot.archive")

LUCK_GAMES = 50
LUCK_CACHE = 20_000


class DiceLuckReport:
    """Each member's dice luck, from the games he played."""

    def __init__(self, store: Store, league: League) -> None:
        self.store = store
        self.league = league
        # The dice of an ended game never change: each (game, seat) is counted once.
        self._luck_of: OrderedDict[tuple[int, int], DiceLuck] = OrderedDict()

    async def luck_section(
        self, guild_id: int, user_id: int, season_id: int, name: str, season: str, language: str
    ) -> tuple[list[tuple[str, str]], bytes | None]:
        """The profile's dice luck: embed fields (name, value) per dice game the member
        played this season, and their picture (None when he rolled no dice)."""
        lucks = await self.season_luck(guild_id, user_id, season_id)
        if not lucks:
            return [], None
        fields = [
            (
                t(language, "🎲 {game}: luck", game=GAMES[kind].title),
                luck_text(kind, luck, language),
            )
            for kind, luck in lucks
        ]
        games = [luck_view(kind, luck, language) for kind, luck in lucks]
        view = {"name": name, "season": season, "games": games}
        return fields, await replay_work(render_luck, view, language)

    async def season_luck(
        self, guild_id: int, user_id: int, season_id: int
    ) -> list[tuple[str, DiceLuck]]:
        """The member's dice luck in each dice game he rolled in this season (his last
        LUCK_GAMES games of it)."""
        lucks = []
        for kind in dice_games():
            results = await self.league.history(
                guild_id, kind=kind, user_id=user_id, season_id=season_id, limit=LUCK_GAMES
            )
            luck = await self._total_luck(results, user_id)
            if luck.rolls:
                lucks.append((kind, luck))
        return lucks

    async def _total_luck(self, results: Sequence[RecordedResult], user_id: int) -> DiceLuck:
        seats = {}
        for result in results:
            seat = next((s.seat for s in result.seats if s.user_id == user_id), None)
            if seat is not None:
                seats[result.game_id] = seat
        new = []
        for game_id, seat in seats.items():
            table = None if (game_id, seat) in self._luck_of else await self.store.load(game_id)
            if table is not None:
                new.append((facts_of(table), await logged_actions(self.store, table.id), seat))
        for (facts, _, seat), luck in zip(new, await replay_work(_game_lucks, new), strict=True):
            self._luck_of[(facts.game_id, seat)] = luck
        total = DiceLuck()
        for key in seats.items():
            if key in self._luck_of:
                self._luck_of.move_to_end(key)
                total.merge(self._luck_of[key])
        while len(self._luck_of) > LUCK_CACHE:
            self._luck_of.popitem(last=False)
        return total


def _game_lucks(
    games: Sequence[tuple[GameFacts, list[tuple[int | None, str]], int]],
) -> list[DiceLuck]:
    """Each game's throws by its seat; nothing for a game that no longer replays."""
    lucks = []
    for facts, actions, seat in games:
        try:
            lucks.append(luck_in_game(facts, actions, seat))
        except IllegalAction:
            log.info("game %d does not replay with today's random source", facts.game_id)
            lucks.append(DiceLuck())
    return lucks


def _face_names(kind: str, language: str) -> dict[int, str]:
    return {face: t(language, name) for face, name in face_names(kind).items()}


def luck_view(kind: str, luck: DiceLuck, language: str) -> dict[str, Any]:
    names = _face_names(kind, language)
    return {
        "title": GAMES[kind].title,
        "rolls": luck.rolls,
        "dice": luck.dice,
        "games": luck.games,
        "faces": [[face, names.get(face, ""), count] for face, count in sorted(luck.faces.items())],
        "expected": luck.expected_per_face,
        "pairs": luck.pair_rolls,
        "singles": luck.rolls - luck.pair_rolls if luck.pair_rolls else 0,
        "doubles": luck.doubles,
        "expected_doubles": luck.expected_doubles,
    }


def rolls_line(language: str, luck: DiceLuck) -> str:
    """How many rolls and dice, e.g. "108 rolls (213 dice) in 9 games, 3 of them an
    opening roll of one die": the doubles line counts only the rolls of two dice, so the
    rolls of one die in a game of two are named (a game of one die counts rolls alone)."""
    rolls = tn(language, "{count} roll", "{count} rolls", luck.rolls)
    games = tn(language, "{count} game", "{count} games", luck.games)
    if not luck.pair_rolls:
        return t(language, "{rolls} in {games}", rolls=rolls, games=games)
    dice = tn(language, "{count} die", "{count} dice", luck.dice)
    singles = luck.rolls - luck.pair_rolls
    if not singles:
        return t(language, "{rolls} ({dice}) in {games}", rolls=rolls, dice=dice, games=games)
    return tn(
        language,
        "{rolls} ({dice}) in {games}, {count} of them an opening roll of one die",
        "{rolls} ({dice}) in {games}, {count} of them opening rolls of one die",
        singles,
        rolls=rolls,
        dice=dice,
        games=games,
    )


def luck_text(kind: str, luck: DiceLuck, language: str) -> str:
    """Rolls, faces against the fair expectation, and doubles, in a few short lines."""
    names = _face_names(kind, language)
    faces = " · ".join(
        f"{names.get(face, str(face))}: {count}" for face, count in sorted(luck.faces.items())
    )
    lines = [
        rolls_line(language, luck),
        t(
            language,
            "{faces} (fair dice: {expected} each)",
            faces=faces,
            expected=decimal(language, luck.expected_per_face),
        ),
    ]
    if luck.pair_rolls:
        lines.append(
            tn(
                language,
                "Doubles: {doubles} in {count} two-dice roll (fair dice: {expected})",
                "Doubles: {doubles} in {count} two-dice rolls (fair dice: {expected})",
                luck.pair_rolls,
                doubles=luck.doubles,
                expected=decimal(language, luck.expected_doubles),
            )
        )
    return "\n".join(lines)
