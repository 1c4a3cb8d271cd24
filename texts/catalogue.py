"""``python -m texts.catalogue``: gather every message id from the source into the
catalogues, the one step after adding or changing an English sentence.

It writes ``texts/locales/messages.pot`` (the template: every id, no translation) and
brings each ``texts/locales/<language>/LC_MESSAGES/messages.po`` up to date with it: new
ids arrive untranslated, ids gone from the source are kept only as obsolete comments
(``#~``) so a translator can reuse them. Translators edit the ``.po`` files and nothing
else; the bot reads them at start-up.

``python -m texts.catalogue --root tests/nim`` does the same for another game root (a
folder shaped like the product): its catalogues hold the ids of its own source.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po, write_po

from games import PRODUCT_ROOT
from texts.i18n import COMMAND_NAME, DOMAIN, ENGLISH, LOCALES, catalogue_path, languages

ROOT = PRODUCT_ROOT
SOURCE_DIRECTORIES = ("games", "texts", "render", "data", "cogs")
SOURCE_FILES = ("bot.py",)
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
Keywords = dict[str, tuple[int | tuple[int, str], ...] | None]
SENTENCE_KEYWORDS: Keywords = {
    "N_": None,
    "Nn_": (1, 2),
    "t": (2,),
    "tn": (2, 3),
    "tp": ((2, "c"), 3),
}
COMMAND_KEYWORDS: Keywords = {"command_name": None}
"""``command_name("new")`` marks a slash command, group or option name: extracted in the
``command name`` context, since Discord wants it lowercase and without spaces."""
METHODS = [("**.py", "python")]

Message = tuple[str, str | tuple[str, ...], str | None]
"""Where it was found, the id (or singular and plural), its context."""


def _extracted(keywords: Keywords, context: str | None, root: Path) -> Iterator[Message]:
    for directory in SOURCE_DIRECTORIES:
        if not (root / directory).is_dir():
            continue
        for filename, _line, message, _comments, found_context in extract_from_dir(
            root / directory, METHODS, keywords=keywords
        ):
            yield f"{directory}/{filename}", message, context or found_context
    for name in SOURCE_FILES:
        if not (root / name).is_file():
            continue
        for _line, message, _comments, found_context in extract_from_file(
            "python", root / name, keywords=keywords
        ):
            yield name, message, context or found_context


def template(root: Path = ROOT) -> Catalog:
    """Every message id the source of game root ``root`` marks, with where it is used."""
    catalogue = Catalog(project="tablebot", locale=ENGLISH, charset="utf-8")
    found = [
        *_extracted(SENTENCE_KEYWORDS, None, root),
        *_extracted(COMMAND_KEYWORDS, COMMAND_NAME, root),
    ]
    for filename, message, context in sorted(found, key=_order):
        catalogue.add(message, locations=[(filename, 0)], context=context)
    return catalogue


def _order(found: Message) -> tuple[str, str, str]:
    filename, message, context = found
    first = message if isinstance(message, str) else message[0]
    return filename, context or "", first


def _rendered(catalogue: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalogue, width=100, include_lineno=False, sort_by_file=True)
    return buffer.getvalue()


def _without_dates(text: bytes) -> list[bytes]:
    return [
        line for line in text.splitlines() if not line.startswith((b'"POT-Creation-Date', b'"PO-'))
    ]


def _write_if_changed(path: Path, content: bytes) -> bool:
    if path.exists() and _without_dates(path.read_bytes()) == _without_dates(content):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return True


def translated(language: str, new: Catalog, root: Path = ROOT) -> Catalog:
    """The catalogue of ``language`` in ``root`` with the ids of ``new``: translations
    kept, new ids empty, vanished ones obsolete."""
    path = catalogue_path(language, root)
    if path.exists():
        with path.open("rb") as source:
            catalogue = read_po(source, locale=language)
    else:
        catalogue = Catalog(locale=language, project="tablebot", charset="utf-8")
    catalogue.update(new, update_header_comment=False)
    return catalogue


def extract(extra_languages: Iterable[str] = (), root: Path = ROOT) -> list[Path]:
    """Write the template (the product's only) and every catalogue of ``root`` (and start
    ``extra_languages``'); the files that changed."""
    new = template(root)
    changed = []
    if root == ROOT and _write_if_changed(TEMPLATE, _rendered(new)):
        changed.append(TEMPLATE)
    for language in sorted({*languages(), *extra_languages} - {ENGLISH}):
        path = catalogue_path(language, root)
        if _write_if_changed(path, _rendered(translated(language, new, root))):
            changed.append(path)
    return changed


def main(arguments: list[str]) -> int:
    """``python -m texts.catalogue [--root PATH] [new-language …]``."""
    root = ROOT
    if arguments[:1] == ["--root"]:
        root, arguments = Path(arguments[1]).resolve(), arguments[2:]
    for path in extract(arguments, root):
        print(f"updated {path.relative_to(root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
