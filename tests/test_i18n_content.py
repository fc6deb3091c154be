"""The zh-TW content of issue #16: every game's texts in both languages, rules documents that name
the same table options and quote the same seed sentences, and glossaries that cover the games'
components (the catalogues and renderers take their terms from them)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from bot.i18n import localized_path
from bot.i18n.catalogues import GAMES as SHIPPED
from bot.rules import get_game

ROOT = Path(__file__).resolve().parents[1]
ZH = "zh-TW"
GLOSSARY_HEADER = ["key", "en", "zh_TW", "source"]


def _rules_doc(key: str) -> str:
    return get_game(key).rules_doc or f"docs/rules/{key}.md"


def _read(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


@pytest.mark.parametrize("key", SHIPPED)
def test_every_game_has_its_texts_in_both_languages(key: str) -> None:
    for path in (f"data/{key}/howto.md", f"data/{key}/tip.md", _rules_doc(key)):
        assert (ROOT / path).is_file(), path
        zh = localized_path(path, ZH)
        assert (ROOT / zh).is_file(), f"{zh} is missing"
        assert re.search(r"[\u4e00-\u9fff]", _read(zh)), f"{zh} has no Chinese"
    howto = _read(localized_path(f"data/{key}/howto.md", ZH))
    assert 300 <= len(howto) <= 4000  # an embed description holds 4096


def _option_mentions(text: str, names: set[str]) -> set[str]:
    """The table options a document names in code spans: `name`, `name=value` or `name = value`."""
    found: set[str] = set()
    for span in re.findall(r"`([^`\n]+)`", text):
        m = re.fullmatch(r"\s*([a-z_0-9]+)\s*(?:=\s*([^\s`]+))?\s*", span)
        if m and m.group(1) in names:
            found.add(m.group(1) if m.group(2) is None else f"{m.group(1)}={m.group(2)}")
    return found


def _readings(text: str) -> str:
    """The section of readings of unclear sentences (English or Chinese heading), or ""."""
    parts = re.split(r"^## ", text, flags=re.M)
    return "\n".join(p for p in parts if re.match(r"(Readings|How we read|Other readings|.*解讀)", p))


@pytest.mark.parametrize("key", SHIPPED)
def test_the_chinese_rules_name_the_same_options_and_quote_the_same_seed(key: str) -> None:
    """The zh-TW rules document is the same rules: every table option and option value the English
    document names (in its readings too), and every sentence of the Chinese seed it quotes."""
    en, zh = _read(_rules_doc(key)), _read(localized_path(_rules_doc(key), ZH))
    names = {o.name for o in get_game(key).options}
    assert names <= {m.split("=")[0] for m in _option_mentions(en, names)}, "the English document omits an option"
    assert _option_mentions(zh, names) == _option_mentions(en, names)
    if _readings(en):
        assert _option_mentions(_readings(zh), names) == _option_mentions(_readings(en), names)
    flat = re.sub(r"\s+", "", zh)  # a quote may be wrapped differently in the two documents
    quotes = {re.sub(r"\s+", "", q) for q in re.findall(r"「[^」]*」", en)}
    missing = {q for q in quotes if q not in flat}
    assert not missing, f"seed sentences the English document quotes and the Chinese one does not: {missing}"


def _glossary(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t"))
    assert rows[0] == GLOSSARY_HEADER, path
    assert all(len(r) == 4 for r in rows), [r for r in rows if len(r) != 4]
    return [dict(zip(GLOSSARY_HEADER, r, strict=True)) for r in rows[1:]]


def test_glossaries_are_well_formed_and_keys_are_unique() -> None:
    seen: dict[str, Path] = {}
    for path in [ROOT / "data" / "glossary.tsv", *sorted((ROOT / "data").glob("*/glossary.tsv"))]:
        game = path.parent.name if path.parent.name != "data" else None
        for row in _glossary(path):
            assert all(row[c].strip() for c in GLOSSARY_HEADER), row
            assert re.search(r"[\u4e00-\u9fff]", row["zh_TW"]), row
            if game:
                assert row["key"].startswith(f"{game}."), row  # one key space for every glossary
            assert row["key"] not in seen, f"{row['key']} in {path} and {seen.get(row['key'])}"
            seen[row["key"]] = path


def _keys(game: str) -> dict[str, str]:
    return {r["key"]: r["zh_TW"] for r in _glossary(ROOT / "data" / game / "glossary.tsv")}


def test_glossaries_cover_the_games_components() -> None:
    """Every name a board or a message shows has its published or seed term."""
    gs = json.loads(_read("data/ghost_stories/components.json"))
    keys = _keys("ghost_stories")
    assert {f"ghost_stories.ghost.{g['name']}" for g in gs["ghosts"]} <= set(keys)
    assert {f"ghost_stories.tile.{t['key']}" for t in gs["tiles"]} <= set(keys)
    assert {f"ghost_stories.power.{p['key']}" for side in gs["powers"].values() for p in side} <= set(keys)
    assert keys["ghost_stories.tile.tea_house"] == "茶館" and keys["ghost_stories.game"] == "聊齋"
    tt = json.loads(_read("data/trick_or_treat/components.json"))
    keys = _keys("trick_or_treat")
    assert {f"trick_or_treat.candy.{c}" for c in tt["candy_kinds"]} <= set(keys)
    assert {f"trick_or_treat.face.{f}" for f in tt["dice"]["faces"]} <= set(keys)
    assert {f"trick_or_treat.building.{b['type']}" for b in tt["buildings"]} <= set(keys)
    for c in tt["characters"]:  # the seed's names, kept in the component data too
        assert keys[f"trick_or_treat.char.{c['key']}"] == c["zh"]
    ss = json.loads(_read("data/sweets_stack/advanced.json"))
    keys = _keys("sweets_stack")
    assert {f"sweets_stack.{c['id']}" for c in ss["cards"]} <= set(keys)
    cards = json.loads(_read("data/sweets_stack/cards.json"))
    assert {f"sweets_stack.{c}" for c in cards["colours"]} <= set(keys)
    du = json.loads(_read("data/dawn_under/components.json"))
    keys = _keys("dawn_under")
    assert {f"dawn_under.{c['code']}" for c in du["colours"]} <= set(keys)
    platform = {r["key"]: r["zh_TW"] for r in _glossary(ROOT / "data" / "glossary.tsv")}
    assert {f"game.{k}" for k in SHIPPED} <= set(platform)
    assert [platform[f"game.{k}"] for k in sorted(SHIPPED)] == [
        "夜訪吸血鬼",
        "聊齋",
        "甜蜜堆疊",
        "不給糖就搗蛋－萬聖夜",
    ]
