"""A table's fairness record as the channel sees it: the commitment on every board, the
seed revealed with the result, and the facts a record or replay is made from."""

from __future__ import annotations

from cogs.language import public_command
from data import Store, Table
from games.proof import GameFacts, short_commitment
from texts.i18n import ENGLISH, t


def commitment_of(table: Table) -> str:
    """Binds the seed to the game, its options and its seats as the record lists them."""
    return facts_of(table, with_ids=True).commitment


def commitment_line(table: Table, language: str = ENGLISH) -> str:
    """The board's footer: the short commitment players can hold the bot to."""
    return t(
        language,
        "Fair dice: commitment {commitment} (SHA-256 of the secret seed; revealed at the end,"
        " {command} to check)",
        commitment=short_commitment(commitment_of(table)),
        command=public_command(language, "game export", code=False),
    )


def seed_reveal(table: Table, language: str = ENGLISH) -> str:
    """The result message's line that opens the seed to everyone."""
    return t(
        language,
        "🔑 Seed {seed}, commitment `{commitment}`: {command} gives the record to check.",
        seed=table.seed,
        commitment=short_commitment(commitment_of(table)),
        command=public_command(language, "game export", game=table.id),
    )


def facts_of(table: Table, *, with_ids: bool = False) -> GameFacts:
    seats = [
        seat.name if not with_ids else _seat_label(seat.name, seat.user_id) for seat in table.seats
    ]
    return GameFacts(
        kind=table.kind,
        game_id=table.id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        seed=table.seed,
        options=dict(table.options),
        seats=seats,
        status=table.status,
        final=table.state,
    )


def _seat_label(name: str, user_id: int | None) -> str:
    return f"{name} (computer)" if user_id is None else f"{name} (user {user_id})"


async def logged_actions(store: Store, game_id: int) -> list[tuple[int | None, str]]:
    """A game's action log as a record or replay reads it: (seat, action) in order."""
    return [(entry.seat, entry.action) for entry in await store.actions(game_id)]
