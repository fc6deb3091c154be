"""One translation layer for everything a player reads: English source strings, gettext catalogues.

How to use it (this signature is stable; other branches build on it):

- **Pure code (rules cores, the table service)** builds *lazy* messages and never translates:

      from bot.i18n import N_, Nn_
      Event(N_("{who} opens grave {grave}.", who=seat_name(s), grave=g))
      raise IllegalAction(N_("That grave is already open."))
      Nn_("{n} vampire", "{n} vampires", n)          # a plural, chosen by CLDR rules per language

  A `Msg` *is* a `str` (its English text), so code and tests that read it as text keep working;
  it also carries its message id and parameters, so a presenter can translate it later. Params may
  be plain values (names, numbers: never translated) or other `Msg`s (translated recursively).
  `Msg.cat(a, b, sep=" ")` and `Msg.join(items)` compose messages without losing the ids (an
  f-string or `+` on a Msg gives plain English). `Msg.to_json()` / `Msg.from_json()` persist it.

- **Presenters (cogs, renderers)** translate, always with an explicit language:

      from bot.i18n import t, nt, tr
      t(lang, "Game over")                       # a literal, translated now
      nt(lang, "{n} point", "{n} points", n)     # a plural, translated now
      tr(lang, event.text)                       # a Msg -> its translation; a plain str unchanged
      term(lang, "game.ghost_stories")           # a glossary term (data/glossary.tsv, data/<game>/glossary.tsv)
      T_("sweets_stack.candy_corn", "Candy Corn")  # the same, lazy (for pure code: data-driven names)
      num(lang, 1234.5); join(lang, ["a", "b"])  # CLDR number and list formats

- **Languages** are Discord locale codes: `"en-US"` (the source language, no catalogue) and one per
  folder of `locales/` (`locales/zh_TW/` -> `"zh-TW"`). `lang_for(locale)` maps any Discord locale to
  a supported one (zh-CN -> zh-TW, fr -> en-US). A third language is new `.po` files only.
  Who reads which: the public board, lobby and log use the table's language (`TableRow.lang`);
  ephemeral answers, private panels and DMs use the reader's (`interaction.locale`, remembered per
  seat for DMs). Renderers take `lang` as a keyword argument (`render(view, lang=...)`), default
  `"en-US"`.

Catalogues are split by area (`locales/<ll_CC>/LC_MESSAGES/<domain>.po`: `platform`, one per game,
`rendering`, `commands`) so several people can add entries without conflicts; this module loads and
merges them all. They are read as `.po` with Babel at first use and cached for the process: the
`.po` files are the only source of truth, an editable install needs no build step, and parsing all
of them takes a few tens of milliseconds once. `python -m bot.i18n.catalogues` extracts and updates
them (Babel's `extract`/`update` per domain).
"""

from __future__ import annotations

import csv
import gettext
import re
import string
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from bot.i18n import cldr

REPO_ROOT = Path(__file__).resolve().parents[2]
LOCALES = REPO_ROOT / "locales"
SOURCE = "en-US"  # the language of the msgids
PSEUDO = "x-pseudo"  # every translation wrapped in ⟦…⟧: finds strings that bypass the catalogues

Lang = str
Param = Any  # str | int | float | bool | None | Msg


class Msg(str):
    """A translatable message: its English text as a `str`, plus what is needed to translate it.

    Kinds: a message id with params (`N_`), a plural (`Nn_`), a concatenation (`cat`) and a list
    (`join`). Equality and hashing are those of the English text.
    """

    __slots__ = ("kind", "msgid", "params", "parts")
    kind: str
    msgid: str | tuple[str, str]
    params: dict[str, Param]
    parts: tuple[Any, ...]

    def __new__(
        cls,
        text: str,
        kind: str,
        msgid: str | tuple[str, str],
        params: Mapping[str, Param],
        parts: tuple[Any, ...] = (),
    ) -> Msg:
        obj = super().__new__(cls, text)
        obj.kind, obj.msgid, obj.params, obj.parts = kind, msgid, dict(params), parts
        return obj

    # -- building -------------------------------------------------------------------------------
    @classmethod
    def cat(cls, *parts: str, sep: str = "") -> Msg:
        """Parts (Msgs or plain text) side by side; translated part by part."""
        kept = tuple(p for p in parts if p)
        return cls(sep.join(kept), "cat", sep, {}, kept)

    @classmethod
    def join(cls, items: Iterable[str], style: str = "standard") -> Msg:
        """A list in each language's own form: "a, b and c" / "a、b和c" (CLDR list patterns)."""
        kept = tuple(items)
        return cls(_format_list(SOURCE, [str(i) for i in kept], style), "list", style, {}, kept)

    def then(self, fn: Callable[[str], str]) -> Msg:
        """This message with `fn` applied to its text in every language (e.g. seat tokens replaced by
        names: `Game.event_text`). Not persisted: `to_json` keeps the message without `fn`."""
        return Msg(fn(str.__str__(self)), "then", "", {}, (self, fn))

    def __str__(self) -> str:
        # `str(msg)` keeps the Msg: discord.py's Embed and Button call str() on what they are given,
        # and the presenter still has to translate it. `tr(SOURCE, msg)` gives the plain English str.
        return self

    def __getitem__(self, key: Any) -> str:
        # `label[:80]` on a short label keeps the Msg (the cut is redone after translation)
        part = str.__getitem__(self, key)
        return self if isinstance(key, slice) and len(part) == len(self) else part

    def __reduce__(self) -> tuple[Any, ...]:
        return (Msg.from_json, (self.to_json(),))

    # -- persistence ----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        def enc(v: Any) -> Any:
            return v.to_json() if isinstance(v, Msg) else v

        if self.kind == "text":
            return {"m": self.msgid, "p": {k: enc(v) for k, v in self.params.items()}}
        if self.kind == "plural":
            return {"pl": list(self.msgid), "p": {k: enc(v) for k, v in self.params.items()}}
        if self.kind == "term":
            return {"t": self.msgid, "e": str.__str__(self)}
        if self.kind == "then":
            inner = self.parts[0]
            return inner.to_json() if isinstance(inner, Msg) else inner
        return {self.kind: [enc(p) for p in self.parts], "s": self.msgid}

    @staticmethod
    def from_json(data: Any) -> Any:
        """The inverse of `to_json`; anything that is not an encoded Msg comes back unchanged."""
        if not isinstance(data, dict):
            return data
        if "m" in data:
            return N_(str(data["m"]), **{k: Msg.from_json(v) for k, v in (data.get("p") or {}).items()})
        if "pl" in data:
            params = {k: Msg.from_json(v) for k, v in (data.get("p") or {}).items()}
            one, many = data["pl"]
            return Nn_(str(one), str(many), **params)
        if "t" in data:
            return T_(str(data["t"]), str(data.get("e", data["t"])))
        if "cat" in data:
            return Msg.cat(*(Msg.from_json(p) for p in data["cat"]), sep=str(data.get("s", "")))
        if "list" in data:
            return Msg.join((Msg.from_json(p) for p in data["list"]), style=str(data.get("s", "standard")))
        return data


_FORMATTER = string.Formatter()


def _fill(template: str, params: Mapping[str, Any]) -> str:
    """`str.format` with named fields; a missing param leaves its placeholder visible, never raises."""
    try:
        return template.format_map(params)
    except (KeyError, IndexError, ValueError):
        out = []
        for literal, field, spec, _conv in _FORMATTER.parse(template):
            out.append(literal)
            if field is not None:
                if field in params:
                    value = params[field]
                    try:
                        out.append(format(value, spec or ""))
                    except (TypeError, ValueError):
                        out.append(str(value))
                else:
                    out.append("{" + field + "}")
        return "".join(out)


def placeholders(template: str) -> set[str]:
    """The named fields of a template (for the catalogue test: both languages must use the same)."""
    try:
        return {field for _, field, _, _ in _FORMATTER.parse(template) if field is not None}
    except ValueError:
        return {"<malformed>"}


def N_(msgid: str, /, **params: Param) -> Msg:
    """A lazy message: `msgid` is the English source with `{named}` placeholders."""
    return Msg(_fill(msgid, params), "text", msgid, params)


def Nn_(singular: str, plural: str, /, n: int | float | None = None, **params: Param) -> Msg:
    """A lazy plural: `n` (also available as `{n}`) chooses the form in each language."""
    if n is None:
        n = params.get("n", 0)
    params = {"n": n, **params}
    return Msg(_fill(singular if n == 1 else plural, params), "plural", (singular, plural), params)


def T_(key: str, english: str, /) -> Msg:
    """A lazy glossary term: a name from the games' data (a candy, a tile, a colour), translated
    through `data/<game>/glossary.tsv` (`term`) rather than a catalogue."""
    return Msg(english, "term", key, {})


# -- catalogues ---------------------------------------------------------------------------------
class Catalogue:
    """One language's messages, merged from every domain's `.po`."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang
        self.messages: dict[str, str] = {}
        self.plurals: dict[tuple[str, str], tuple[str, ...]] = {}
        self.plural_index: Callable[[int], int] = lambda n: 0 if n == 1 else 1
        self.domains: list[str] = []

    def load(self, folder: Path) -> None:
        from babel.messages.pofile import read_po

        for po in sorted(folder.glob("*.po")):
            with po.open("rb") as f:
                catalog = read_po(f)
            self.domains.append(po.stem)
            if catalog.plural_expr:
                self.plural_index = gettext.c2py(catalog.plural_expr)
            for message in catalog:
                if not message.id or message.fuzzy or not message.string:
                    continue
                if isinstance(message.id, tuple | list):
                    forms = tuple(message.string)
                    if all(forms):
                        self.plurals[(message.id[0], message.id[1])] = forms
                else:
                    self.messages[message.id] = str(message.string)


def _folder_lang(name: str) -> Lang:
    return name.replace("_", "-")


@cache
def languages() -> tuple[Lang, ...]:
    """The supported languages: the source and every folder of `locales/` holding a catalogue."""
    found = sorted(_folder_lang(p.name) for p in LOCALES.glob("*") if (p / "LC_MESSAGES").is_dir())
    return (SOURCE, *(lang for lang in found if lang != SOURCE))


@cache
def catalogue(lang: Lang) -> Catalogue:
    cat = Catalogue(lang)
    folder = LOCALES / lang.replace("-", "_") / "LC_MESSAGES"
    if lang != SOURCE and folder.is_dir():
        cat.load(folder)
    return cat


def lang_for(locale: Any) -> Lang:
    """A Discord locale (`discord.Locale` or its string) as a supported language.

    Exact match first ("zh-TW"), then the same language ("zh-CN" -> "zh-TW"), else the source.
    """
    code = str(getattr(locale, "value", locale) or "")
    if code == PSEUDO:
        return PSEUDO
    supported = languages()
    if code in supported:
        return code
    base = code.split("-")[0].lower()
    if base == SOURCE.split("-")[0]:
        return SOURCE
    for lang in supported:
        if lang.split("-")[0].lower() == base:
            return lang
    return SOURCE


def _babel_locale(lang: Lang) -> str:
    return "en_US" if lang in (SOURCE, PSEUDO) else lang.replace("-", "_")


def _translate_msgid(lang: Lang, msgid: str) -> str:
    if lang == SOURCE:
        return msgid
    if lang == PSEUDO:
        return "⟦" + msgid + "⟧"
    return catalogue(lang).messages.get(msgid, msgid)


def _translate_plural(lang: Lang, singular: str, plural: str, n: int | float) -> str:
    if lang == SOURCE:
        return singular if n == 1 else plural
    if lang == PSEUDO:
        return "⟦" + (singular if n == 1 else plural) + "⟧"
    cat = catalogue(lang)
    forms = cat.plurals.get((singular, plural))
    if not forms:
        return singular if n == 1 else plural
    index = cat.plural_index(int(n)) if float(n).is_integer() else len(forms) - 1
    return forms[min(index, len(forms) - 1)]


def _params(lang: Lang, params: Mapping[str, Param]) -> dict[str, Any]:
    return {k: tr(lang, v) if isinstance(v, Msg) else v for k, v in params.items()}


def tr(lang: Lang, text: Any) -> str:
    """`text` in `lang`: a `Msg` translated (with its params), anything else as `str(text)` unchanged."""
    if not isinstance(text, Msg):
        return "" if text is None else str(text)
    if lang == SOURCE:
        return str.__str__(text)
    if text.kind == "text":
        assert isinstance(text.msgid, str)
        return _fill(_translate_msgid(lang, text.msgid), _params(lang, text.params))
    if text.kind == "plural":
        one, many = tuple(text.msgid)
        return _fill(_translate_plural(lang, one, many, text.params.get("n", 0)), _params(lang, text.params))
    if text.kind == "then":
        inner, fn = text.parts
        return str(fn(tr(lang, inner)))
    if text.kind == "term":
        return term(lang, str(text.msgid), str.__str__(text))
    if text.kind == "list":
        return _format_list(lang, [tr(lang, p) for p in text.parts], str(text.msgid))
    sep = str(text.msgid)
    parts = [tr(lang, p) for p in text.parts]
    if sep == " " and lang.startswith("zh"):
        # Chinese sentences follow each other without a space; a space stays next to Latin text.
        out = parts[0] if parts else ""
        for part in parts[1:]:
            out += part if out.endswith(("。", "！", "？", "：", "；", "）", "」")) else sep + part
        return out
    return sep.join(parts)


def t(lang: Lang, msgid: str, /, **params: Param) -> str:
    """`msgid` translated into `lang` now, with its params (Msgs among them translated too)."""
    return _fill(_translate_msgid(lang, msgid), _params(lang, params))


def nt(lang: Lang, singular: str, plural: str, /, n: int | float, **params: Param) -> str:
    """A plural translated now; `{n}` is available to the templates."""
    return _fill(_translate_plural(lang, singular, plural, n), _params(lang, {"n": n, **params}))


def num(lang: Lang, value: int | float) -> str:
    """A number in the language's CLDR format (grouping, decimal sign)."""
    from babel.numbers import format_decimal

    return str(format_decimal(value, locale=_babel_locale(lang)))


def _format_list(lang: Lang, items: list[str], style: str = "standard") -> str:
    if not items:
        return ""
    patterns = cldr.LIST_PATTERNS.get(_babel_locale(lang), {}).get(style)
    if patterns is not None:
        out = cldr.format_list(items, patterns)
    else:  # a language or style not in the table: Babel, which loads the whole locale's data
        from babel.lists import format_list

        out = str(format_list(items, style=style, locale=_babel_locale(lang)))  # type: ignore[arg-type]
    if lang == PSEUDO:  # the pattern's words ("and") went through the layer too: marked like the rest
        out = "".join(
            part if part.startswith("⟦") else re.sub(r"[A-Za-z]+", lambda m: f"⟦{m.group(0)}⟧", part)
            for part in re.split(r"(⟦[^⟧]*⟧)", out)
        )
    return out


def join(lang: Lang, items: Iterable[Any], style: str = "standard") -> str:
    """Items (Msgs translated) as one list in the language's own form."""
    return _format_list(lang, [tr(lang, i) for i in items], style)


def lang_name(lang: Lang) -> str:
    """A language's name in itself, for the lobby and the `/game new` choice: "English", "繁體中文"."""
    if lang == PSEUDO:
        return "Pseudo"
    known = cldr.LANGUAGE_NAMES.get(_babel_locale(lang))
    if known is not None:
        return known
    from babel import Locale

    loc = Locale.parse(_babel_locale(lang))
    if loc.language == "zh" and loc.script == "Hant":
        return "繁體中文"
    return str(loc.language_name or lang).capitalize()


def localized_path(path: str, lang: Lang) -> str:
    """A translated document's path: `data/x/howto.md` -> `data/x/howto.zh-TW.md` (the source: unchanged)."""
    if lang == SOURCE:
        return path
    stem, dot, ext = path.rpartition(".")
    return f"{stem}.{lang}.{ext}" if dot else f"{path}.{lang}"


# -- glossaries ---------------------------------------------------------------------------------
@cache
def _glossary() -> dict[str, dict[str, str]]:
    """key -> {lang: term}, from `data/glossary.tsv` and every `data/<game>/glossary.tsv`."""
    out: dict[str, dict[str, str]] = {}
    files = [REPO_ROOT / "data" / "glossary.tsv", *sorted((REPO_ROOT / "data").glob("*/glossary.tsv"))]
    for path in files:
        if not path.is_file():
            continue
        with path.open(encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                key = (row.get("key") or "").strip()
                if not key:
                    continue
                terms = {SOURCE: (row.get("en") or "").strip()}
                for column, value in row.items():
                    if column and column not in ("key", "en", "source", "note") and value:
                        terms[_folder_lang(column)] = value.strip()
                out[key] = terms
    return out


def term(lang: Lang, key: str, default: str | None = None) -> str:
    """A glossary term in `lang` (falls back to English, then to `default`, then to the key)."""
    terms = _glossary().get(key, {})
    if lang == PSEUDO:  # marked like a catalogue entry: it went through the layer
        return "⟦" + (terms.get(SOURCE) or (default if default is not None else key)) + "⟧"
    return terms.get(lang) or terms.get(SOURCE) or (default if default is not None else key)


__all__ = [
    "N_",
    "PSEUDO",
    "SOURCE",
    "T_",
    "Lang",
    "Msg",
    "Nn_",
    "catalogue",
    "join",
    "lang_for",
    "lang_name",
    "languages",
    "localized_path",
    "nt",
    "num",
    "placeholders",
    "t",
    "term",
    "tr",
]
