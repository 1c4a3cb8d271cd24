"""A local fake Discord: the real, unmodified discord.py runs against it in the end-to-end
tests and in the playground (`python bot.py --playground`).

FakeDiscord serves HTTPS (REST API v10, the CDN) and the gateway websocket on 127.0.0.1
with a certificate from a per-process trustme CA. A bot reaches it through
`fake.connector()`: an aiohttp connector whose resolver maps discord.com,
gateway.discord.gg, *.discord.gg, cdn.discordapp.com and media.discordapp.net to the fake and
refuses every other host. Simulated users (SimUser) send slash commands built from the
commands the bot registered, click buttons and pick select options; each action waits until
the bot is idle and fails if the interaction was never acknowledged.

Fixtures (`from fakediscord.fixtures import *` in tests/conftest.py): `fake_ca` (session),
`error_log` (fails the test on ERROR logs from discord.* / tablebot.*), and `fake_discord`:
a started FakeDiscord wrapped in a FakeWorld with .guild ("Test Server"), .games (#games)
and .alice/.bob/.carol/.dave; any other attribute is the FakeDiscord's. At teardown the
running bots are stopped and the test fails if the bot used a route the fake lacks or if
the fixture `answer_check` (none here; tests/conftest.py checks every REST answer against
Discord's OpenAPI description) finds fault with an answer the fake gave.

Example::

    async def test_join(fake_discord):
        bot = commands.Bot(
            command_prefix="!",
            intents=discord.Intents.default(),
            connector=fake_discord.connector(),
            guild_ready_timeout=0.01,
        )
        await fake_discord.start_bot(bot)          # ready, setup_hook and sync done
        alice, bob = fake_discord.alice, fake_discord.bob
        result = await alice.slash(fake_discord.games, "bann new", opponent=bob)
        board = fake_discord.games.last_message()
        assert board.image().size == (1000, 760)
        result = await bob.click(board, "Join")
        assert result.message.versions            # the board was edited
        assert bob.dms == [] and result.ephemeral == []

Public API
- FakeDiscord(bot_name="TableBot"): `async with` or start()/close(); .connector();
  .watch(on_change) (called with each message created, edited or deleted);
  .listen_to_answers(on_answer) (called with each REST answer, a RecordedAnswer);
  .start_bot(bot, token=..., timeout=10) / .stop_bot(bot); .add_guild(name) -> Guild;
  .add_user(name, guild=None, dms_open=True) -> SimUser; .rate_limit(method, route, count=1,
  retry_after=0.01) (route like "/channels/{channel_id}/messages"); .fail(method, route,
  status=503, code=0, count=1) (5xx/403/404 faults); .delete_message(message) (a moderator's
  delete); .wait_until_idle();
  .reconnect_gateways() (op 7 RECONNECT then RESUME); .clock (Discord's time, seconds since
  the epoch, time.time by default: set it to the bot's clock and snowflakes and message ages
  follow it); .old_message_edits.per_hour (edits of messages older than an hour a channel
  takes per hour, default 10; beyond it 429 with code 30046 and a retry_after);
  .commands (registered commands);
  .requests (method, route, status of every REST call); .message_log; .interactions;
  .ack_deadline (3 s, a later callback gets 10062); .token_lifetime (900 s, later
  follow-ups and edits get 401 with code 50027); .internal_errors; .bot_user;
  .application_id; .gateway (.identify_count, .resume_count); .users; .guilds;
  .user_by_id / .channel_by_id / .guild_by_id.
- Guild: .add_text_channel(name) -> Channel, .channel(name), .members.
- Channel: .messages, .visible_to(user), .public_messages(), .last_message() (newest public),
  .bot_permissions (discord.Permissions; setting it sends CHANNEL_UPDATE to the bot).
- Message: .content, .embeds, .components, .attachments (Attachment: filename, content_type,
  data), .flags, .is_ephemeral, .ephemeral_for, .interaction_metadata, .pinged (user ids
  really notified), .versions (earlier versions), .deleted, .image() -> PIL.Image,
  .buttons() -> [ButtonInfo], .selects() -> [SelectInfo].
- SimUser: .slash(channel, "group sub", **options), .autocomplete(channel, "group sub",
  option, typed, **options) -> [ChoiceInfo] (what the member is offered while typing),
  .click(message, label, custom_id=...),
  .select(message, values, placeholder=..., custom_id=...), .say(channel, text), .dms,
  .permissions (sent as member.permissions), .dms_open, .mention.
  .slash_nowait / .click_nowait / .select_nowait -> InteractionRecord (no idle wait).
- Result: .response_type, .message, .followups, .ephemeral, .new_messages, .choices (an
  autocomplete's answer, callback type 8).
  After a "thinking" defer (type 5) the first followup becomes the original message, as on
  Discord, and is listed both as .message and in .followups.
- InteractionRecord: .response_type, .original, .followups, await .wait_answered(),
  .latency (seconds from dispatch to the first visible answer).
- ErrorLog (fixture `error_log`): .expect(regex), .unexpected(), .problems().
"""

from .content import Attachment, ButtonInfo, ChoiceInfo, SelectInfo, SelectOptionInfo
from .errorlog import ErrorLog
from .faults import RecordedAnswer, RecordedRequest
from .model import (
    BOT_DEFAULT_PERMISSIONS,
    MEMBER_DEFAULT_PERMISSIONS,
    Channel,
    Guild,
    Message,
)
from .server import FakeDiscord
from .tls import test_ca
from .users import InteractionRecord, Result, SimUser

__all__ = [
    "BOT_DEFAULT_PERMISSIONS",
    "MEMBER_DEFAULT_PERMISSIONS",
    "Attachment",
    "ButtonInfo",
    "Channel",
    "ChoiceInfo",
    "ErrorLog",
    "FakeDiscord",
    "Guild",
    "InteractionRecord",
    "Message",
    "RecordedAnswer",
    "RecordedRequest",
    "Result",
    "SelectInfo",
    "SelectOptionInfo",
    "SimUser",
    "test_ca",
]
