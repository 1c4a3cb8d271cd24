"""TLS and name resolution that point discord.py's real HTTPS traffic at the local fake."""

from __future__ import annotations

import functools
import socket
import ssl

import aiohttp
import trustme
from aiohttp.abc import AbstractResolver, ResolveResult

DISCORD_HOSTS = (
    "discord.com",
    "gateway.discord.gg",
    "cdn.discordapp.com",
    "media.discordapp.net",
)
# Resume URLs handed out by the gateway live under discord.gg, like the real ones.
GATEWAY_WILDCARD = "*.discord.gg"


@functools.cache
def test_ca() -> trustme.CA:
    """One CA per process: key generation is the slow part of starting a fake."""
    return trustme.CA()


@functools.cache
def server_ssl_context() -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    test_ca().issue_cert(*DISCORD_HOSTS, GATEWAY_WILDCARD).configure_cert(context)
    return context


def client_ssl_context() -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    test_ca().configure_trust(context)
    return context


def is_discord_host(host: str) -> bool:
    return host in DISCORD_HOSTS or host.endswith(".discord.gg")


class FakeDiscordResolver(AbstractResolver):
    """Resolves Discord's host names to the fake and refuses everything else.

    Refusing other hosts makes an accidental call to the real internet fail loudly.
    """

    def __init__(self, port: int) -> None:
        self.port = port

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        if not is_discord_host(host):
            raise OSError(f"fakediscord: refusing to resolve {host!r} (not a Discord host)")
        return [
            ResolveResult(
                hostname=host,
                host="127.0.0.1",
                port=self.port,
                family=socket.AF_INET,
                proto=0,
                flags=socket.AI_NUMERICHOST,
            )
        ]

    async def close(self) -> None:
        return None


def make_connector(port: int) -> aiohttp.TCPConnector:
    return aiohttp.TCPConnector(resolver=FakeDiscordResolver(port), ssl=client_ssl_context())
