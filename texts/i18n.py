"""The one way a sentence reaches a player: looked up in the catalogue of his language.

English is the source language: a message id is the English sentence itself, with named
placeholders (``"{winner} wins."``) that are filled in after translation, so a
translation may put them in any order. The catalogues are GNU gettext ``.po`` files in
``texts/locales/<language>/LC_MESSAGES/messages.po`` of every game root (the product's,
and one a test adds with ``games.add_game_root``), read once (no compile step);
``python -m texts.catalogue`` extracts the ids from the source into them.

Four markers (and a fifth for plurals), all found by the extraction:

- ``t(language, "Sentence {name}.", name=…)``: a sentence, translated now;
- ``tn(language, "{count} card", "{count} cards", count, …)``: a sentence whose words
  follow a number, with the plural rules of the language (German has two forms, others
  more); ``count`` is a placeholder too;
- ``tp(language, "context", "word", …)``: where one English word needs two translations
  (the option name "game" and the word "game" in a sentence), the context tells them apart;
- ``N_("Sentence.")``: marks a sentence kept in a constant, translated later with ``t``;
  ``games.base.Nn_("{count} series", "{count} series")`` marks a phrase kept with its
  plural (a table option's ``shown`` words), translated later with ``tn``.

Pure: no Discord, no Pillow.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from babel.core import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from games import PRODUCT_ROOT, game_roots

ENGLISH = "en"
LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "messages"
COMMAND_NAME = "command name"
"""The context of slash command, group and option names (lowercase, no spaces)."""


def catalogue_path(language: str, root: Path = PRODUCT_ROOT) -> Path:
    """The catalogue of ``language`` in game root ``root`` (the product's by default)."""
    return root / "texts" / "locales" / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def languages() -> tuple[str, ...]:
    """English and every language with a catalogue, in that order (looked up once: the
    catalogues are part of the installed bot)."""
    found = sorted(path.parent.parent.name for path in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (ENGLISH, *found)


def language_name(language: str) -> str:
    """The language's name in itself: "English", "Deutsch"."""
    name = Locale.parse(language).get_display_name(language) or language
    return name[:1].upper() + name[1:]


def _translations(language: str) -> Translations | None:
    """The catalogue of ``language`` from every game root, None for English (the ids
    are English)."""
    return _merged(language, game_roots())


@cache
def _merged(language: str, roots: tuple[Path, ...]) -> Translations | None:
    if language == ENGLISH or language not in languages():
        return None
    merged: Translations | None = None
    for root in roots:
        path = catalogue_path(language, root)
        if not path.exists():
            continue
        compiled = _compiled(path, language)
        if merged is None:
            merged = compiled
        else:
            merged.merge(compiled)
    return merged


def _compiled(path: Path, language: str) -> Translations:
    with path.open("rb") as source:
        catalogue = read_po(source, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue where it is stored, not yet shown."""
    return message


def t(language: str, message: str, /, **params: object) -> str:
    """``message`` in ``language``, its ``{placeholders}`` filled from ``params``."""
    translations = _translations(language)
    text = message if translations is None else translations.gettext(message)
    return text.format(**params) if params else text


def tn(
    language: str, singular: str, plural: str, count: int, /, **params: object
) -> str:
    """The form of a sentence that agrees with ``count`` (also the ``{count}`` placeholder)."""
    translations = _translations(language)
    if translations is None:
        text = singular if count == 1 else plural
    else:
        text = translations.ngettext(singular, plural, count)
    return text.format(count=count, **params)


def tp(language: str, context: str, message: str, /, **params: object) -> str:
    """``message`` as it translates in ``context``."""
    translations = _translations(language)
    text = message if translations is None else str(translations.pgettext(context, message))
    return text.format(**params) if params else text



def command_name(name: str) -> str:
    """Marks a slash command, group or option name for the catalogue (context
    ``COMMAND_NAME``); Discord's client shows its translation."""
    return name
