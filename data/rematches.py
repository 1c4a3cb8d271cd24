"""The rematch a finished game offers, kept in the database: it outlives a restart, and
every process decides a click the same way.

A finished game's row lists the seats whose players asked for the rematch (seat numbers,
as the action log names players) and when the offer runs out. The click that completes
the list opens the rematch's own table in the same transaction, under a lock on the
offer, so two last clicks (in one process or in two) open it once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Literal

from data.sql import IntegrityError
from data.store import NewLobby, Store, insert_lobby

Outcome = Literal["no offer", "expired", "opened before", "again", "waiting", "opened"]


@dataclass(frozen=True)
class RematchClick:
    """What a player's click found, or did: ``waiting`` (his seat is now ready),
    ``opened`` (his click completed the seats and opened ``rematch_id``), or a refusal
    that changed nothing."""

    outcome: Outcome
    ready: frozenset[int] = field(default_factory=frozenset)
    rematch_id: int | None = None


class _ChannelTaken(Exception):
    """Rolls a click back: the channel has an open game."""


class RematchStore:
    """Reads and writes the rematch offers on the store's connection."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def offer(self, game_id: int, expires_at: float) -> None:
        """Offer a rematch of a finished game until ``expires_at`` (once: an offer made
        before stays as it is)."""
        await self.store.db.write(
            "INSERT INTO rematches (game_id, expires_at) VALUES (?, ?)"
            " ON CONFLICT (game_id) DO NOTHING",
            game_id,
            expires_at,
        )

    async def ready(
        self,
        game_id: int,
        seat: int,
        *,
        channel_id: int,
        people: Collection[int],
        now: float,
        rematch: Callable[[], NewLobby],
    ) -> RematchClick:
        """The player of ``seat`` asks for the rematch of ``game_id`` in ``channel_id``;
        once every seat of ``people`` has, the table ``rematch()`` describes is opened
        there. ChannelBusy (and nothing recorded) while that channel has an open game."""
        try:
            async with self.store.transaction() as db:
                await db.lock(f"rematch:{game_id}")
                row = await db.fetchrow(
                    "SELECT ready, expires_at, rematch_id FROM rematches WHERE game_id = ?",
                    game_id,
                )
                if row is None:
                    return RematchClick("no offer")
                ready = frozenset(int(s) for s in json.loads(row["ready"]))
                if row["rematch_id"] is not None:
                    return RematchClick("opened before", ready, int(row["rematch_id"]))
                if now >= row["expires_at"]:
                    return RematchClick("expired", ready)
                if seat in ready:
                    return RematchClick("again", ready)
                if await db.fetchval(
                    "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                    channel_id,
                ):
                    raise _ChannelTaken()
                ready |= {seat}
                rematch_id = None
                if set(people) <= ready:
                    rematch_id = await insert_lobby(db, rematch())
                await db.execute(
                    "UPDATE rematches SET ready = ?, rematch_id = ? WHERE game_id = ?",
                    json.dumps(sorted(ready)),
                    rematch_id,
                    game_id,
                )
        except (IntegrityError, _ChannelTaken) as refused:
            # The unique index refuses a game another process opened since the look.
            busy = await self.store.busy(channel_id)
            if busy is not None:
                raise busy from refused
            if isinstance(refused, IntegrityError):
                raise
            # The game seen in the channel has ended since: the click is decided again.
            return await self.ready(
                game_id, seat, channel_id=channel_id, people=people, now=now, rematch=rematch
            )
        if rematch_id is None:
            return RematchClick("waiting", ready)
        return RematchClick("opened", ready, rematch_id)
