"""Keep the catalogues in step with the code: Babel's extract + update, one domain per area.

    python -m bot.i18n.catalogues          # extract every domain, update every language's .po
    python -m bot.i18n.catalogues --check  # exit 1 if a .po lacks an entry or a translation

Each domain is a list of source paths; its messages go to `locales/<domain>.pot` and
`locales/<ll_CC>/LC_MESSAGES/<domain>.po`. A file belongs to exactly one domain, so two people
adding strings to two games never touch the same catalogue. A new language: create
`locales/<ll_CC>/LC_MESSAGES/` and run this once (it copies the templates), then translate.

Equivalent with the `pybabel` command line, per domain (the keywords are the layer's functions):
`pybabel extract -F babel.cfg -k N_ -k Nn_:1,2 -k t:2 -k nt:2,3 -k locale_str -o locales/<d>.pot <paths>`,
then `pybabel update -D <d> -i locales/<d>.pot -d locales`.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from bot.i18n import LOCALES, REPO_ROOT, SOURCE, languages

KEYWORDS: dict[str, Any] = {"N_": None, "Nn_": (1, 2), "t": (2,), "nt": (2, 3), "locale_str": None}
GAMES = ("dawn_under", "ghost_stories", "sweets_stack", "trick_or_treat")

DOMAINS: dict[str, tuple[str, ...]] = {
    "platform": (
        "bot/rules/base.py",
        "bot/rules/errors.py",
        "bot/tables",
        "cogs/table.py",
        "cogs/common",
        "bot/app.py",
    ),
    **{game: (f"bot/rules/{game}", f"cogs/{game}.py") for game in GAMES},
    "rendering": ("rendering",),
}


def _files(paths: tuple[str, ...]) -> Iterator[Path]:
    for rel in paths:
        path = REPO_ROOT / rel
        if path.is_dir():
            yield from sorted(path.rglob("*.py"))
        elif path.is_file():
            yield path


def extract(domain: str) -> Catalog:
    """The domain's messages as found in the code now (a template: no translations)."""
    template = Catalog(project="spooky-table", domain=domain, fuzzy=False)
    for path in _files(DOMAINS[domain]):
        rel = path.relative_to(REPO_ROOT).as_posix()
        if rel.startswith("cogs/"):  # slash-command descriptions and choices (discord.py's locale_str)
            from bot.i18n.commands import extract_commands

            for lineno, message, comments, context in extract_from_file(
                cast(Any, extract_commands), str(path), keywords=KEYWORDS, comment_tags=("i18n:",)
            ):
                template.add(message, None, [(rel, lineno)], auto_comments=comments, context=context)
        for lineno, message, comments, context in extract_from_file(
            "python",
            str(path),
            keywords=KEYWORDS,
            comment_tags=("i18n:",),
        ):
            template.add(
                message, None, [(rel, lineno)], auto_comments=comments, context=context, flags=("python-brace-format",)
            )
    return template


def po_path(lang: str, domain: str) -> Path:
    return LOCALES / lang.replace("-", "_") / "LC_MESSAGES" / f"{domain}.po"


def read(lang: str, domain: str) -> Catalog:
    path = po_path(lang, domain)
    if not path.is_file():
        return Catalog(locale=lang.replace("-", "_"), domain=domain, fuzzy=False)
    with path.open("rb") as f:
        return read_po(f)


def _write_if_changed(path: Path, catalog: Catalog, **options: Any) -> None:
    """Write a catalogue unless only its header dates would change: a file nobody's messages touched
    stays byte for byte as it was (no merge conflicts between people working on other areas)."""
    out = io.BytesIO()
    write_po(out, catalog, width=120, **options)

    def body(data: bytes) -> list[bytes]:
        return [line for line in data.splitlines() if not line.startswith((b'"POT-Creation-Date', b'"PO-Revision'))]

    if path.is_file() and body(path.read_bytes()) == body(out.getvalue()):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.getvalue())


def update() -> None:
    for domain in DOMAINS:
        template = extract(domain)
        _write_if_changed(LOCALES / f"{domain}.pot", template, omit_header=True, sort_output=False)
        for lang in languages():
            if lang == SOURCE:
                continue
            catalog = read(lang, domain)
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
            _write_if_changed(po_path(lang, domain), catalog, ignore_obsolete=True, omit_header=False)


def problems() -> list[str]:
    """Every message the code uses that a language lacks or leaves untranslated."""
    out = []
    for domain in DOMAINS:
        template = extract(domain)
        for lang in languages():
            if lang == SOURCE:
                continue
            catalog = read(lang, domain)
            for message in template:
                if not message.id:
                    continue
                have = catalog.get(message.id, context=message.context)
                where = ", ".join(f"{f}:{n}" for f, n in message.locations[:2])
                if have is None:
                    out.append(f"{lang}/{domain}: no entry for {message.id!r} ({where})")
                elif have.fuzzy or not have.string or (isinstance(have.string, tuple) and not all(have.string)):
                    out.append(f"{lang}/{domain}: no translation for {message.id!r} ({where})")
    return out


def main(argv: list[str]) -> int:
    if "--check" in argv:
        found = problems()
        print("\n".join(found) or "catalogues complete")
        return 1 if found else 0
    update()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
