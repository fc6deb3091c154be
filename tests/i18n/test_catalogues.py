"""The catalogues: complete, consistent, and a third language is files only."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from babel.messages.pofile import read_po
from discord import app_commands

import bot.i18n as i18n
from bot.i18n import N_, PSEUDO, SOURCE, Msg, Nn_, cldr, lang_for, nt, placeholders, t, tr
from bot.i18n.catalogues import DOMAINS, problems
from bot.i18n.commands import CatalogueTranslator, payload_digest, translated_payload

PO_FILES = sorted(i18n.LOCALES.glob("*/LC_MESSAGES/*.po"))


def test_every_message_the_code_uses_has_its_translation() -> None:
    """Extracts every domain from the code now: a new `N_("…")`, command description or choice
    without a zh-TW entry (or with an empty or fuzzy one) fails here, with its file and line."""
    assert problems() == []


def test_each_area_has_its_own_catalogue_in_each_language() -> None:
    for lang in i18n.languages()[1:]:
        folder = i18n.LOCALES / lang.replace("-", "_") / "LC_MESSAGES"
        assert {p.stem for p in folder.glob("*.po")} == set(DOMAINS)


@pytest.mark.parametrize("path", PO_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_translations_keep_the_placeholders_of_their_source(path: Path) -> None:
    with path.open("rb") as f:
        catalog = read_po(f)
    bad = []
    for m in catalog:
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = set().union(*(placeholders(i) for i in ids))
        for s in strings:
            if placeholders(s) != want:
                bad.append((m.id, s))
    assert not bad


def test_a_placeholder_mismatch_is_caught() -> None:
    assert placeholders("{name} wins") != placeholders("{nom} 獲勝")
    assert placeholders("{n:g} 分") == placeholders("{n:g} points") == {"n"}


def test_lazy_messages_read_as_english_and_translate_later() -> None:
    msg = N_("The table is full ({max_players} seats).", max_players=4)
    assert msg == "The table is full (4 seats)." and isinstance(msg, str)
    assert tr("zh-TW", msg) == "牌桌已滿（4 個座位）。"
    assert tr(SOURCE, msg) == "The table is full (4 seats)."
    assert tr("zh-TW", "alice") == "alice"  # plain text (a name) is never translated
    nested = N_("Only the host (<@{host_id}>) can {what}.", host_id=1, what=N_("start the game"))
    assert tr("zh-TW", nested) == "只有桌主（<@1>）可以開始遊戲。"
    assert tr(PSEUDO, nested) == "⟦Only the host (<@1>) can ⟦start the game⟧.⟧"
    back = Msg.from_json(nested.to_json())
    assert tr("zh-TW", back) == tr("zh-TW", nested) and pickle.loads(pickle.dumps(nested)) == nested
    assert str(msg) is msg and msg[:80] is msg  # survives discord.py's str() and label[:80]


def test_plurals_and_lists_follow_cldr() -> None:
    assert Nn_("{n:g} point", "{n:g} points", 1) == "1 point"
    assert Nn_("{n:g} point", "{n:g} points", 3) == "3 points"
    assert nt("zh-TW", "{n:g} point", "{n:g} points", 3) == "3 分"  # Chinese has one form
    assert tr("zh-TW", Msg.join(["alice", "bob", "carol"])) == "alice、bob和carol"
    assert Msg.join(["alice", "bob", "carol"]) == "alice, bob, and carol"
    assert i18n.num("zh-TW", 12345.5) == "12,345.5"


def test_discord_locales_map_to_the_supported_languages() -> None:
    assert lang_for(discord.Locale.taiwan_chinese) == "zh-TW"
    assert lang_for("zh-CN") == "zh-TW"  # the only Chinese we have
    assert lang_for("en-GB") == lang_for("fr") == lang_for(None) == SOURCE
    assert t("zh-TW", "Join") == "加入" and t("en-US", "Join") == "Join"


def test_a_third_language_is_new_po_files_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "platform.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        'msgid "Join"\nmsgstr "Rejoindre"\n\n'
        'msgid "{n:g} point"\nmsgid_plural "{n:g} points"\nmsgstr[0] "{n:g} point"\nmsgstr[1] "{n:g} points"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    for cached in (i18n.languages, i18n.catalogue):
        cached.cache_clear()
    try:
        assert i18n.languages() == (SOURCE, "fr")
        assert lang_for("fr") == "fr" and t("fr", "Join") == "Rejoindre"
        assert nt("fr", "{n:g} point", "{n:g} points", 1) == "1 point"  # French: 0 and 1 are singular
        assert nt("fr", "{n:g} point", "{n:g} points", 0) == "0 point"
    finally:
        monkeypatch.undo()
        for cached in (i18n.languages, i18n.catalogue):
            cached.cache_clear()


async def test_the_sync_hash_changes_when_only_a_translation_changes() -> None:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)

    @tree.command(name="join", description="Sit down at the table in this channel")
    async def join(interaction: discord.Interaction) -> None: ...

    await tree.set_translator(CatalogueTranslator())
    payload = await translated_payload(tree)
    assert payload[0]["description_localizations"]["zh-TW"] == "在這個頻道的牌桌入座"
    before = payload_digest(payload)
    messages = i18n.catalogue("zh-TW").messages
    old = messages["Sit down at the table in this channel"]
    messages["Sit down at the table in this channel"] = "入座"
    try:
        assert payload_digest(await translated_payload(tree)) != before
    finally:
        messages["Sit down at the table in this channel"] = old
    assert payload_digest(await translated_payload(tree)) == before


def test_the_cldr_table_is_babels_data_for_every_shipped_language() -> None:
    from babel import Locale
    from babel.lists import _resolve_list_style, format_list

    for lang in i18n.languages():
        code = i18n._babel_locale(lang)
        locale = Locale.parse(code)
        assert code in cldr.LIST_PATTERNS, f"add {code}'s list patterns to bot/i18n/cldr.py"
        for style, patterns in cldr.LIST_PATTERNS[code].items():
            assert patterns == dict(_resolve_list_style(locale, style)), (code, style)
            for n in range(5):
                items = [f"item{i}" for i in range(n)]
                assert cldr.format_list(items, patterns) == format_list(items, style=style, locale=code)  # type: ignore[arg-type]
        zh_hant = locale.language == "zh" and locale.script == "Hant"
        name = "繁體中文" if zh_hant else str(locale.language_name).capitalize()
        assert cldr.LANGUAGE_NAMES[code] == name == i18n.lang_name(lang)
    assert i18n.join("zh-TW", ["a", "b"], style="or") == "a或b"
    assert i18n.join(SOURCE, ["a", "b", "c"], style="unit") == "a, b, c"  # not in the table: Babel


def test_lists_and_language_names_load_no_locale_data() -> None:
    """Babel's locale data is ~5 MiB a process: a shipped language's list or name must not load it."""
    code = (
        "import sys\n"
        "from bot.i18n import Msg, SOURCE, lang_name, languages, tr\n"
        "assert [lang_name(lang) for lang in languages()]\n"
        "for lang in languages():\n"
        "    tr(lang, Msg.join(['a', 'b', 'c'])) and tr(lang, Msg.join(['a', 'b']))\n"
        "core, data = sys.modules.get('babel.core'), sys.modules.get('babel.localedata')\n"
        "assert core is None or core._global_data is None\n"
        "assert data is None or not data._cache, sorted(data._cache)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=i18n.REPO_ROOT)
