"""The few CLDR facts the bot formats with at run time, copied from Babel's data.

Babel's `format_list` and `Locale` load the whole locale (every territory, currency and date name:
~5 MiB of Python objects a process, plus its global data), and every process running the rules
needs them: a `Msg.join` formats its English text when built, in the bot and in each render
worker. The list patterns and the languages' names are a few dozen strings; they are kept here,
and `tests/i18n/test_catalogues.py` checks them against Babel for every shipped language. A
language or a style not in these tables is formatted by Babel as before (a third language works
with its `.po` files alone; add its row here to spare the memory).
"""

from __future__ import annotations

from collections.abc import Sequence

Patterns = dict[str, str]  # CLDR list pattern parts: "2", "start", "middle", "end"

# Babel locale -> list style -> patterns (Babel's resolution of the style's fallbacks)
LIST_PATTERNS: dict[str, dict[str, Patterns]] = {
    "en_US": {
        "or": {"2": "{0} or {1}", "end": "{0}, or {1}", "middle": "{0}, {1}", "start": "{0}, {1}"},
        "standard": {"2": "{0} and {1}", "end": "{0}, and {1}", "middle": "{0}, {1}", "start": "{0}, {1}"},
    },
    "zh_TW": {
        "or": {"2": "{0}或{1}", "end": "{0}或{1}", "middle": "{0}、{1}", "start": "{0}、{1}"},
        "standard": {"2": "{0}和{1}", "end": "{0}和{1}", "middle": "{0}、{1}", "start": "{0}、{1}"},
    },
}

# Babel locale -> the language's name in itself, as `bot.i18n.lang_name` shows it
LANGUAGE_NAMES: dict[str, str] = {"en_US": "English", "zh_TW": "繁體中文"}


def format_list(items: Sequence[str], patterns: Patterns) -> str:
    """`babel.lists.format_list` with the patterns given (the same steps)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if len(items) == 2 and "2" in patterns:
        return patterns["2"].format(*items)
    out = patterns["start"].format(items[0], items[1])
    for item in items[2:-1]:
        out = patterns["middle"].format(out, item)
    return patterns["end"].format(out, items[-1])
