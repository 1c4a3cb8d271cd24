"""The floor bot: what a move costs discord.py and aiohttp alone, for bench_load to compare.

A minimal discord.py bot answering bench_load's players with the Discord calls the real
bot makes per move and nothing else: no rules, no database, no drawing. ``/bann new``
opens a lobby whose Join button turns it into a board; a "Tip to …" click is answered
with a private menu of three moves; a pick is acknowledged by updating that menu (type
7), the board message is edited with the same PNG (one real Bann board, drawn once at
start-up, so the upload is the real one's size), the new turn ping is posted, the old
one deleted, and the player's previous confirmation deleted. Whose turn it is is not
checked: there are no rules.

It runs as the real bot does in bench_load (its own process, uvloop, the guilds intent
only, no message cache, views sent already stopped, the garbage collector settled after
start-up as bot.py settles it),
with the same self-measurement (bench/load_bot.py's SelfMeter), so the difference
between the two bots' CPU per move is what this project adds to a move.

    python bench/floor_bot.py --port P --ca ca.pem --report figures.json
"""

from __future__ import annotations

import argparse
import asyncio
import io
import itertools
import json
import logging
import signal
import ssl
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(HERE), str(HERE / "tests")]

import aiohttp  # noqa: E402
import discord  # noqa: E402
from discord import app_commands  # noqa: E402

from bench.bench_render import BANN_MID_GAME, NAMES  # noqa: E402
from bench.load_bot import SelfMeter  # noqa: E402
from bot import run_event_loop, settle_garbage_collector  # noqa: E402
from fakediscord.tls import FakeDiscordResolver  # noqa: E402
from render.bann import render_bann  # noqa: E402

BOARD_FILE = "board.png"
MOVES = [("1>2:N", "Knight 1 a1–a2"), ("1>3:E", "Knight 1 a1–b1"), ("2>4:N", "Knight 2 c2–c3")]
"""What every menu offers: the real menus list a die face's legal moves, a handful."""


def board_view(game_id: int, version: int) -> discord.ui.View:
    """The real board's controls: two tips, offer a draw, resign, follow."""
    view = discord.ui.View(timeout=None)
    for face in (3, 5):
        view.add_item(
            discord.ui.Button(
                custom_id=f"tb:{game_id}:{version}:tip:{face}",
                label=f"Tip to {face}",
                emoji="🎲",
                style=discord.ButtonStyle.primary,
                row=0,
            )
        )
    view.add_item(discord.ui.Button(custom_id=f"tb:{game_id}:{version}:act:offer", row=1,
                                    label="Offer a draw"))  # fmt: skip
    view.add_item(
        discord.ui.Button(
            custom_id=f"tb:{game_id}:{version}:resign:",
            label="Resign",
            style=discord.ButtonStyle.danger,
            row=1,
        )
    )
    view.add_item(
        discord.ui.Button(custom_id=f"tb:{game_id}:{version}:follow:", label="Follow", row=4)
    )
    view.stop()
    return view


def menu_view(game_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Select(
            custom_id=f"ts:{game_id}:{version}:move:1",
            placeholder="Choose a move",
            options=[discord.SelectOption(label=label, value=value) for value, label in MOVES],
        )
    )
    view.stop()
    return view


class FloorBot(discord.Client):
    def __init__(self, board_png: bytes, **options: object) -> None:
        super().__init__(
            intents=discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,
            **options,  # type: ignore[arg-type]
        )
        self.board_png = board_png
        self.tree = app_commands.CommandTree(self)
        self.game_ids = itertools.count(1)
        self.versions: dict[int, int] = {}
        self.boards: dict[int, int] = {}
        self.pings: dict[int, int] = {}
        self.confirmations: dict[int, discord.Interaction] = {}
        group = app_commands.Group(name="bann", description="Bann")

        @group.command(name="new", description="A new game")
        async def new(interaction: discord.Interaction, opponent: discord.Member) -> None:
            game_id = next(self.game_ids)
            view = discord.ui.View(timeout=None)
            view.add_item(discord.ui.Button(custom_id=f"tb:{game_id}:0:join:", label="Join"))
            view.stop()
            await interaction.response.send_message(f"Bann: {opponent.mention}?", view=view)

        self.tree.add_command(group)

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_ready(self) -> None:
        settle_garbage_collector()

    def board_embed(self, version: int) -> discord.Embed:
        embed = discord.Embed(title="Bann", description=f"Move {version}")
        return embed.set_image(url=f"attachment://{BOARD_FILE}")

    def board_file(self) -> discord.File:
        return discord.File(io.BytesIO(self.board_png), BOARD_FILE)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component or interaction.data is None:
            return
        _prefix, game, version, verb, _arg = str(interaction.data.get("custom_id")).split(":")
        game_id = int(game)
        if verb == "join":
            self.versions[game_id] = 1
            assert interaction.message is not None
            self.boards[game_id] = interaction.message.id
            await interaction.response.edit_message(
                content=None,
                embed=self.board_embed(1),
                attachments=[self.board_file()],
                view=board_view(game_id, 1),
            )
        elif verb == "tip":
            await interaction.response.send_message(
                "Choose a move", view=menu_view(game_id, int(version)), ephemeral=True
            )
        elif verb == "move":
            await self.move(interaction, game_id)

    async def move(self, interaction: discord.Interaction, game_id: int) -> None:
        """A pick: acknowledged with the menu updated, then the board, the ping and the
        clean-up, as the real bot does after its rules, database and drawing."""
        await interaction.response.edit_message(content="✅ You moved.", view=None)
        version = self.versions[game_id] = self.versions[game_id] + 1
        channel = self.get_partial_messageable(interaction.channel_id or 0)
        await channel.get_partial_message(self.boards[game_id]).edit(
            embed=self.board_embed(version),
            attachments=[self.board_file()],
            view=board_view(game_id, version),
        )
        ping = await channel.send(f"<@{interaction.user.id}>'s opponent: your turn.")
        old_ping = self.pings.pop(game_id, None)
        self.pings[game_id] = ping.id
        if old_ping is not None:
            await channel.get_partial_message(old_ping).delete()
        earlier = self.confirmations.pop(interaction.user.id, None)
        self.confirmations[interaction.user.id] = interaction
        if earlier is not None:
            await earlier.delete_original_response()


async def run(arguments: argparse.Namespace) -> None:
    meter = SelfMeter()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, meter.reset)
    watchers = [
        loop.create_task(meter.watch_loop()),
        loop.create_task(meter.watch_work()),
        loop.create_task(meter.watch_memory()),
    ]
    context = ssl.create_default_context(cafile=arguments.ca)
    connector = aiohttp.TCPConnector(resolver=FakeDiscordResolver(arguments.port), ssl=context)
    bot = FloorBot(render_bann(BANN_MID_GAME, NAMES), connector=connector)
    loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start("fake-token")
    for watcher in watchers:
        watcher.cancel()
    figures = meter.figures() | {"memory_growth": []}
    Path(arguments.report).write_text(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--report", required=True)
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="floor %(levelname)s %(name)s %(message)s")
    # Stopped while the load's last requests are in flight, uvloop logs each TLS
    # connection cut mid-write; the measured period is over by then.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    run_event_loop(run(arguments))


if __name__ == "__main__":
    main()
