"""Slash-command metadata in every language: discord.py's `Translator`, fed by the same catalogues.

discord.py turns every plain `name=`/`description=`/`describe(...)`/`Choice(name=...)` string into a
`locale_str` (`auto_locale_strings`), and `tree.sync()` asks the translator for each of them. Names
stay English on purpose: every text of the bot (tips, how-to-play, error answers) cites commands as
`/game move`, and a localized name would make those texts wrong for half the readers. Descriptions
and choice names are translated.

`extract_commands` is the Babel extractor that finds those strings in the cogs' source (Babel's own
Python extractor sees only function calls like `N_("…")`, not decorator keywords).
"""

from __future__ import annotations

import ast
import hashlib
import json
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import SOURCE, catalogue, languages

_NAMES = {Where.command_name, Where.group_name, Where.parameter_name}


class CatalogueTranslator(app_commands.Translator):
    """Descriptions and choice names from the catalogues; None (Discord shows English) when missing."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        if context.location in _NAMES:
            return None
        lang = locale.value
        if lang == SOURCE or lang not in languages():
            return None
        return catalogue(lang).messages.get(string.message)


async def translated_payload(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """What `tree.sync()` sends: with the translations, so a change of a translation alone re-syncs."""
    translator = tree.translator
    if translator is None:
        return [cmd.to_dict(tree) for cmd in tree.get_commands()]
    return [await cmd.get_translated_payload(tree, translator) for cmd in tree.get_commands()]


def payload_digest(payload: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


_DESCRIBING = {"command", "Group", "GroupCog", "describe", "context_menu"}


def _callee(node: ast.Call) -> str:
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def extract_commands(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel extractor: descriptions in `app_commands.command/Group/describe(...)`, `GroupCog`'s
    `group_description=`, `Choice(name="…")` literals and the values of `Literal[...]` parameters."""
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for kw in node.keywords:
                if kw.arg == "group_description" and isinstance(kw.value, ast.Constant):
                    yield kw.value.lineno, None, str(kw.value.value), []
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Literal":
            # a `Literal["left", "right"]` parameter: its values are the choices' names
            values = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            for v in values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str):
                    yield v.lineno, None, v.value, []
            continue
        if not isinstance(node, ast.Call):
            continue
        name = _callee(node)
        if name in _DESCRIBING:
            for kw in node.keywords:
                wanted = name == "describe" or kw.arg in ("description", "group_description")
                if wanted and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    yield kw.value.lineno, None, kw.value.value, []
        elif name == "Choice":
            for kw in node.keywords:
                if kw.arg == "name" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    yield kw.value.lineno, None, kw.value.value, []
