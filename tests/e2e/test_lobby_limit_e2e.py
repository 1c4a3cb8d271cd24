"""The three-lobby limit: a member has at most three tables waiting for players on a
server, however many of his `/x new` commands arrive at once, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

from testdb import both_engines

from cogs.table.lobby import LOBBY_LIMIT

pytestmark = both_engines()

CROWD = 40
REFUSAL = (
    "You already have 3 open tables waiting for players on this server."
    " Start or cancel one of them first."
)


def waiting_lobbies(database, creator_id: int) -> set[int]:
    """The channels of the creator's tables waiting for players."""
    rows = database.rows(
        "SELECT channel_id FROM games WHERE status = 'lobby' AND creator_id = ?", creator_id
    )
    return {row["channel_id"] for row in rows}


async def test_forty_commands_at_once_in_forty_channels_open_three_lobbies(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    channels = [world.guild.add_text_channel(f"table-{n}") for n in range(CROWD)]
    records = [await world.alice.slash_nowait(channel, "bann new") for channel in channels]
    await asyncio.gather(*(record.wait_answered(timeout=60) for record in records))
    await world.wait_until_idle()

    opened = waiting_lobbies(database, world.alice.id)
    assert len(opened) == LOBBY_LIMIT
    refused = [record for record in records if record.channel.id not in opened]
    for record in refused:
        answers = [m for m in [record.original, *record.followups] if m and not m.deleted]
        assert [m.content for m in answers] == [REFUSAL]
        assert answers[0].ephemeral_for == world.alice.id
        assert record.channel.public_messages() == [], "nothing of the refusal stays public"
    carol = await world.carol.slash(refused[0].channel, "bann new")
    assert carol.message.embeds, "a refused claim leaves its channel free for the next table"
