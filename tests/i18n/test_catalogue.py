"""The catalogues: every English sentence the source marks has a German translation,
no translation lingers for a sentence that is gone, and both languages name the same
placeholders, so a translated message is always filled in completely."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from games import GAMES, IllegalAction
from texts.catalogue import TEMPLATE, template
from texts.i18n import ENGLISH, catalogue_path, languages, t, tn, tp

TRANSLATED = [language for language in languages() if language != ENGLISH]


def _catalogue(language: str) -> Catalog:
    with catalogue_path(language).open("rb") as source:
        return read_po(source, locale=language)


def _key(message: object) -> tuple[str | None, str]:
    identifier = message.id  # type: ignore[attr-defined]
    first = identifier if isinstance(identifier, str) else identifier[0]
    return message.context, first  # type: ignore[attr-defined]


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_german_is_a_language_of_the_bot():
    assert "de" in TRANSLATED


def test_the_template_holds_every_sentence_the_source_marks():
    with TEMPLATE.open("rb") as source:
        stored = {_key(message) for message in read_po(source) if message.id}
    marked = {_key(message) for message in template() if message.id}
    assert marked == stored, (
        f"run `python -m texts.catalogue`: new {sorted(marked - stored, key=str)[:5]}, "
        f"gone {sorted(stored - marked, key=str)[:5]}"
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_sentence_is_translated_and_none_is_orphaned(language):
    marked = {_key(message) for message in template() if message.id}
    catalogue = _catalogue(language)
    live = [message for message in catalogue if message.id]
    untranslated = [
        _key(message)
        for message in live
        if message.fuzzy
        or not message.string
        or (isinstance(message.string, tuple) and not all(message.string))
    ]
    orphaned = {_key(message) for message in live} - marked
    missing = marked - {_key(message) for message in live}
    assert not missing, (
        f"not in the {language} catalogue (run python -m texts.catalogue): {missing}"
    )
    assert not untranslated, f"{len(untranslated)} without {language}: {untranslated[:5]}"
    assert not orphaned, f"translated but no longer in the source: {orphaned}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_agree_between_the_languages(language):
    for message in _catalogue(language):
        if not message.id:
            continue
        english = [message.id] if isinstance(message.id, str) else list(message.id)
        wanted = set().union(*(_placeholders(text) for text in english))
        translations = [message.string] if isinstance(message.string, str) else list(message.string)
        for translated in translations:
            assert _placeholders(translated) <= wanted, (message.id, translated)
            # A plural form may leave out {count} (German "eine Karte"); nothing else.
            assert wanted - {"count"} <= _placeholders(translated), (message.id, translated)


def test_command_names_are_valid_discord_names_in_every_language():
    pattern = re.compile(r"^[-_\w]{1,32}$")
    for language in TRANSLATED:
        for message in _catalogue(language):
            if message.context == "command name":
                assert pattern.match(message.string), message.string
                assert message.string == message.string.lower(), message.string


def test_german_plurals_follow_the_number():
    assert tn("de", "{count} game", "{count} games", 1) == "1 Partie"
    assert tn("de", "{count} game", "{count} games", 2) == "2 Partien"
    assert tn("de", "{count} game", "{count} games", 0) == "0 Partien"
    assert tn("en", "{count} game", "{count} games", 1) == "1 game"


def test_a_sentence_is_filled_in_after_translation():
    assert t("de", "rank {rank}", rank=3) == "Rang 3"
    assert t("en", "rank {rank}", rank=3) == "rank 3"
    assert tp("de", "command name", "settings") == "einstellungen"
    assert t("xx", "rank {rank}", rank=3) == "rank 3", "an unknown language reads English"


def test_an_illegal_action_reads_in_the_players_language():
    state = GAMES["barree"].new_game(2, 7)
    with pytest.raises(IllegalAction) as refused:
        state.apply("12-13")
    problem = refused.value
    assert str(problem) == "Roll the die first."
    assert t("de", problem.message, **problem.params) == "Würfle zuerst."


def test_a_game_roots_catalogue_holds_exactly_its_sentences_translated(nim):
    """Nim's German lives in its own root's catalogue and is read with the product's."""
    from game_roots import NIM_ROOT

    from texts import nim as nim_text

    marked = {_key(message) for message in template(NIM_ROOT) if message.id}
    with catalogue_path("de", NIM_ROOT).open("rb") as source:
        live = [message for message in read_po(source, locale="de") if message.id]
    assert {_key(message) for message in live} == marked, "run texts.catalogue --root tests/nim"
    assert all(message.string and not message.fuzzy for message in live)
    assert t("de", nim_text.RESIGN) == "Aufgeben"
    assert t("de", "{name} took the last stone and wins.", name="Bob").startswith("Bob hat")
    assert tn("de", "{name} takes {count} stone", "{name} takes {count} stones", 2, name="A") == (
        "A nimmt 2 Steine"
    )
