"""Which language a message is written in, and the slash commands in every language.

A private answer (an ephemeral reply, a DM, a menu, the rules) goes to one member: it is
in the language of that member's Discord client (``interaction.locale``). A public
message or picture is read by the whole channel: it is in the server's language, the
``language`` of ``/settings``, or the server's preferred locale when none is set.
English where the bot has no catalogue for the locale.
"""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.host import Host, Interaction, host_of
from texts.i18n import COMMAND_NAME, ENGLISH, N_, languages, t, tp

NAME_LOCATIONS = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)


def language_of(locale: discord.Locale | str | None) -> str:
    """The catalogue language for a Discord locale ("de" for German, "en" for any
    locale without a catalogue)."""
    if locale is None:
        return ENGLISH
    code = str(locale.value if isinstance(locale, discord.Locale) else locale)
    known = languages()
    if code in known:
        return code
    base = code.split("-")[0]
    return base if base in known else ENGLISH


def private_language(interaction: Interaction) -> str:
    """The language of the member who clicked or typed."""
    return language_of(interaction.locale)


async def public_language(
    host: Host, guild_id: int | None, locale: discord.Locale | None = None
) -> str:
    """The language of the server's public messages and pictures: its ``/settings``
    choice, else its preferred locale (``locale`` when the server is not cached)."""
    if guild_id is None:
        return language_of(locale)
    chosen = (await host.settings.get(guild_id)).language
    if chosen is not None and chosen in languages():
        return chosen
    guild = host.get_guild(guild_id)
    return language_of(guild.preferred_locale if guild is not None else locale)


async def channel_language(interaction: Interaction) -> str:
    """The language of what an interaction posts for everyone in its channel: the
    server's, or the member's own in a DM."""
    if interaction.guild_id is None:
        return private_language(interaction)
    host = host_of(interaction)
    return await public_language(host, interaction.guild_id, interaction.guild_locale)


COMMAND_IN_BOTH = N_("{command} (or {english})")
"""A command in a public message whose language is not English: Discord shows each member
the commands in his own client's language, and every client without a translation in
English, so a German channel's `/partie export` is `/game export` to most readers."""


def public_command(language: str, command: str, /, *, code: bool = True, **options: object) -> str:
    """The slash command ``command`` (English words, "game export") with ``options`` as a
    public message names it: in ``language``, and in English too where that differs.
    ``code``: in backticks (not where Discord shows no markdown, as in a footer)."""

    def written(words: str, option_names: dict[str, str]) -> str:
        typed = " ".join(
            [f"/{words}", *(f"{option_names[name]}:{value}" for name, value in options.items())]
        )
        return f"`{typed}`" if code else typed

    local_words = " ".join(tp(language, COMMAND_NAME, word) for word in command.split())
    local_options = {name: tp(language, COMMAND_NAME, name) for name in options}
    english = written(command, {name: name for name in options})
    local = written(local_words, local_options)
    if local == english:
        return english
    return t(language, COMMAND_IN_BOTH, command=local, english=english)


def sentence(message: str, /, **params: object) -> app_commands.locale_str:
    """A command's or option's description for Discord: the English text (``message``
    filled in, without a final full stop, as Discord shows descriptions), translated by
    ``CatalogueTranslator`` from the catalogue's ``message`` for every other locale."""
    english = message.format(**params) if params else message
    return app_commands.locale_str(english.rstrip("."), message=message, params=params)


class CatalogueTranslator(app_commands.Translator):
    """Command, group and option names (context ``command name``), descriptions and
    choice names from the catalogues, for every Discord locale that has one."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale)
        if language == ENGLISH:
            return None
        message = string.message
        if context.location in NAME_LOCATIONS:
            translated = tp(language, COMMAND_NAME, message)
        else:
            # A ``sentence``'s catalogue id and its placeholders travel in its extras.
            source = string.extras.get("message", message)
            translated = t(language, source, **string.extras.get("params", {}))
            if not message.endswith("."):
                translated = translated.rstrip(".")
        return translated if translated != message else None
