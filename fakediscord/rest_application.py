"""REST routes about the bot and its application: users, DMs, the gateway's address, the
application, its commands and guild members."""

from __future__ import annotations

from typing import Protocol

from aiohttp import web

from . import validation
from .commands import CommandRegistry
from .messages import read_body
from .model import BotUser, Channel, Guild, SnowflakeFactory, unknown_user_payload
from .responses import json_response
from .users import SimUser
from .validation import DiscordError


class ApplicationWorld(Protocol):
    """What the application routes use of the FakeDiscord."""

    ids: SnowflakeFactory
    application_id: int
    bot_user: BotUser
    commands: CommandRegistry
    guilds: list[Guild]

    def user_by_id(self, user_id: int) -> SimUser: ...

    def guild_by_id(self, guild_id: int) -> Guild: ...


class ApplicationRoutes:
    """/users, /gateway, /applications and guild members; `dm_channels` (by user id) is the
    FakeDiscord's, where POST /users/@me/channels opens a DM."""

    def __init__(self, world: ApplicationWorld, dm_channels: dict[int, Channel]) -> None:
        self.world = world
        self.dm_channels = dm_channels

    async def get_me(self, request: web.Request) -> web.Response:
        if not request.headers.get("Authorization", "").startswith("Bot "):
            raise DiscordError(401, 0, "401: Unauthorized")
        return json_response(self.world.bot_user.own_payload())

    async def get_user(self, request: web.Request) -> web.Response:
        user_id = int(request.match_info["user_id"])
        if user_id == self.world.bot_user.id:
            return json_response(self.world.bot_user.payload())
        return json_response(self.world.user_by_id(user_id).user_payload())

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": "wss://gateway.discord.gg",
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def get_application(self, request: web.Request) -> web.Response:
        application_id = self.world.application_id
        owner = unknown_user_payload(application_id + 1) | {"username": "owner"}
        return json_response(
            {
                "id": str(application_id),
                "name": self.world.bot_user.name,
                "description": "",
                "icon": None,
                # A bot's application is no special kind (4 would be a creator monetisation one).
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner,
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "flags_new": "0",
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "approximate_guild_count": len(self.world.guilds),
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": ["bot", "applications.commands"],
                "bot": self.world.bot_user.payload(),
            }
        )

    def _command_scope(self, request: web.Request) -> int | None:
        if int(request.match_info["application_id"]) != self.world.application_id:
            raise validation.unknown("Application", 10002)
        guild_id = request.match_info.get("guild_id")
        return None if guild_id is None else self.world.guild_by_id(int(guild_id)).id

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.world.commands.listing(self._command_scope(request)))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        body, _ = await read_body(request)
        validation.check_commands(body)
        return json_response(self.world.commands.replace(body, scope))

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.world.guild_by_id(int(request.match_info["guild_id"]))
        user_id = int(request.match_info["user_id"])
        try:
            return json_response(guild.member(user_id).member_payload())
        except KeyError:
            raise validation.unknown("Member", 10007) from None

    async def create_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        try:
            user = self.world.user_by_id(int(body["recipient_id"]))
        except DiscordError:
            raise DiscordError(400, 50033, "Invalid Recipient(s)") from None
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(self.world.ids.next(), f"dm-{user.name}", guild=None, recipient=user)
            self.dm_channels[user.id] = channel
        return json_response(channel.payload(self.world.bot_user.id))
