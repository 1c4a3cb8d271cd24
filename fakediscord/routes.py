"""The fake's routing table: every REST route, the CDN's files and the gateway's socket."""

from __future__ import annotations

from aiohttp import web

from .gateway import Gateway
from .interactions import InteractionRoutes
from .responses import API_PREFIX, Handler
from .rest_application import ApplicationRoutes
from .rest_channels import ChannelRoutes


def add_routes(
    app: web.Application,
    *,
    application: ApplicationRoutes,
    channels: ChannelRoutes,
    interactions: InteractionRoutes,
    gateway: Gateway,
) -> None:
    api: list[tuple[str, str, Handler]] = [
        ("GET", "/users/@me", application.get_me),
        ("POST", "/users/@me/channels", application.create_dm),
        ("GET", "/users/{user_id}", application.get_user),
        ("GET", "/gateway", application.get_gateway),
        ("GET", "/gateway/bot", application.get_gateway),
        ("GET", "/oauth2/applications/@me", application.get_application),
        ("GET", "/applications/@me", application.get_application),
        ("GET", "/applications/{application_id}/commands", application.get_commands),
        ("PUT", "/applications/{application_id}/commands", application.put_commands),
        (
            "GET",
            "/applications/{application_id}/guilds/{guild_id}/commands",
            application.get_commands,
        ),
        (
            "PUT",
            "/applications/{application_id}/guilds/{guild_id}/commands",
            application.put_commands,
        ),
        ("GET", "/guilds/{guild_id}/members/{user_id}", application.get_member),
        ("GET", "/channels/{channel_id}", channels.get_channel),
        ("GET", "/channels/{channel_id}/messages", channels.get_history),
        (
            "GET",
            "/channels/{channel_id}/thread-members/{user_id}",
            channels.get_thread_member,
        ),
        ("POST", "/channels/{channel_id}/typing", channels.typing),
        ("POST", "/channels/{channel_id}/messages", channels.post_message),
        ("GET", "/channels/{channel_id}/messages/{message_id}", channels.get_message),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}", channels.patch_message),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}", channels.delete_message),
        (
            "POST",
            "/channels/{channel_id}/messages/{message_id}/threads",
            channels.start_thread_from_message,
        ),
        (
            "POST",
            "/interactions/{interaction_id}/{interaction_token}/callback",
            interactions.callback,
        ),
        ("POST", "/webhooks/{webhook_id}/{webhook_token}", interactions.post_followup),
        (
            "GET",
            "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            interactions.get_webhook_message,
        ),
        (
            "PATCH",
            "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            interactions.patch_webhook_message,
        ),
        (
            "DELETE",
            "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            interactions.delete_webhook_message,
        ),
    ]
    for method, path, handler in api:
        app.router.add_route(method, API_PREFIX + path, handler)
    app.router.add_get(
        "/attachments/{channel_id}/{attachment_id}/{filename}", channels.get_attachment_file
    )
    app.router.add_get("/", gateway.handle)
