"""Discord's documented size limits, checked on every message and autocomplete answer the bot sends.

Real Discord answers such payloads with 400 / code 50035 ("Invalid Form Body"); discord.py checks
only a few of them itself, so a bot can pass every local test and fail in production without these.
"""

from __future__ import annotations

import re

from .model import JSON, walk_components

IS_COMPONENTS_V2 = 1 << 15


class LimitError(ValueError):
    """The payload breaks a Discord limit (the fake answers 400, code 50035)."""


def _check(ok: bool, why: str) -> None:
    if not ok:
        raise LimitError(why)


def check_embed(embed: JSON, i: int) -> int:
    """Validate one embed; return its character count (which Discord caps at 6000 per message)."""
    title, desc = embed.get("title") or "", embed.get("description") or ""
    _check(len(title) <= 256, f"embeds[{i}].title longer than 256")
    _check(len(desc) <= 4096, f"embeds[{i}].description longer than 4096")
    fields = embed.get("fields") or []
    _check(len(fields) <= 25, f"embeds[{i}] has more than 25 fields")
    total = len(title) + len(desc)
    for j, f in enumerate(fields):
        _check(0 < len(f.get("name") or "") <= 256, f"embeds[{i}].fields[{j}].name empty or longer than 256")
        _check(0 < len(f.get("value") or "") <= 1024, f"embeds[{i}].fields[{j}].value empty or longer than 1024")
        total += len(f["name"]) + len(f["value"])
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    _check(len(footer) <= 2048, f"embeds[{i}].footer.text longer than 2048")
    _check(len(author) <= 256, f"embeds[{i}].author.name longer than 256")
    return total + len(footer) + len(author)


def check_components(components: list[JSON], flags: int) -> None:
    if flags & IS_COMPONENTS_V2:
        _check(len(list(walk_components(components))) <= 40, "more than 40 components")
    else:
        _check(len(components) <= 5, "more than 5 action rows")
        for row in components:
            _check(row.get("type") == 1, "top-level components must be action rows (without IS_COMPONENTS_V2)")
            kids = row.get("components") or []
            _check(0 < len(kids) <= 5, "an action row needs 1..5 components")
    for c in walk_components(components):
        cid = c.get("custom_id")
        _check(cid is None or 0 < len(cid) <= 100, f"custom_id {cid!r} empty or longer than 100")
        _check(len(c.get("label") or "") <= 80, f"label {c.get('label')!r} longer than 80")
        if c.get("type") == 2:
            _check(
                ("custom_id" in c) != ("url" in c) or "sku_id" in c,
                "a button needs exactly one of custom_id/url",
            )
        if c.get("type") == 2 and "sku_id" not in c:
            _check(bool(c.get("label")) or bool(c.get("emoji")), f"button {cid!r} needs a label or an emoji")
        if c.get("type") in (3, 5, 6, 7, 8):
            _check(len(c.get("placeholder") or "") <= 150, f"select {cid!r}: placeholder longer than 150")
            lo, hi = c.get("min_values", 1), c.get("max_values", 1)
            _check(0 <= lo <= 25 and 1 <= hi <= 25 and lo <= hi, f"select {cid!r}: min/max values {lo}/{hi}")
        if c.get("type") == 3:
            options = c.get("options") or []
            _check(0 < len(options) <= 25, f"select {cid!r} needs 1..25 options")
            values = [o["value"] for o in options]
            _check(len(set(values)) == len(values), f"select {cid!r} has duplicate option values")
            _check(c.get("max_values", 1) <= len(options), f"select {cid!r}: max_values above its options")
            for o in options:
                _check(0 < len(o.get("label") or "") <= 100, f"select {cid!r}: option label empty or over 100")
                _check(0 < len(o.get("value") or "") <= 100, f"select {cid!r}: option value empty or over 100")
                _check(len(o.get("description") or "") <= 100, f"select {cid!r}: option description over 100")
    ids = [c["custom_id"] for c in walk_components(components) if "custom_id" in c]
    _check(len(set(ids)) == len(ids), f"duplicate custom_id in message: {ids}")


MAX_UPLOAD = 25 * 1024 * 1024  # the attachment_size_limit the fake announces in interactions


def check_attachments(attachments: list[tuple[str, int, str | None]]) -> None:
    """(filename, size, description) of every attachment of a message."""
    _check(len(attachments) <= 10, "more than 10 attachments")
    _check(sum(size for _, size, _ in attachments) <= MAX_UPLOAD, "attachments larger than 25 MiB in total")
    for name, _, description in attachments:
        _check(0 < len(name) <= 1024, f"attachment filename {name!r} empty or too long")
        _check(len(description or "") <= 1024, f"attachment {name!r}: description (alt text) longer than 1024")


def check_message(msg_content: str, embeds: list[JSON], components: list[JSON], flags: int, n_files: int) -> None:
    """The message as it will be stored (after applying a create or an edit)."""
    if flags & IS_COMPONENTS_V2:
        _check(not msg_content and not embeds, "IS_COMPONENTS_V2 messages cannot have content or embeds")
    _check(len(msg_content) <= 2000, f"content is {len(msg_content)} characters (max 2000)")
    _check(len(embeds) <= 10, "more than 10 embeds")
    total = sum(check_embed(e, i) for i, e in enumerate(embeds))
    _check(total <= 6000, f"embeds total {total} characters (max 6000)")
    _check(n_files <= 10, "more than 10 attachments")
    check_components(components, flags)


def check_choices(choices: list[JSON]) -> None:
    _check(len(choices) <= 25, f"{len(choices)} autocomplete choices (max 25)")
    for c in choices:
        _check(0 < len(c.get("name") or "") <= 100, f"choice name {c.get('name')!r} empty or longer than 100")
        value = c.get("value")
        _check(not isinstance(value, str) or len(value) <= 100, f"choice value {value!r} longer than 100")


_NAME = re.compile(r"^[-_\w]{1,32}$")
# Discord's locales (https://discord.com/developers/docs/reference#locales): the only valid keys of
# name_localizations / description_localizations.
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)


def _check_localizations(obj: JSON, where: str, *, name_rule: bool, description: bool) -> int:
    """`name_localizations` follow the name's rules, `description_localizations` the description's;
    keys must be Discord locales. Returns the characters they add (they count towards the 8,000)."""
    size = 0
    for key in ("name_localizations", "description_localizations"):
        values = obj.get(key) or {}
        _check(isinstance(values, dict), f"{where}: {key} is not an object")
        for locale, text in values.items():
            _check(locale in LOCALES, f"{where}: {key} has an unknown locale {locale!r}")
            text = str(text or "")
            if key == "name_localizations":
                if name_rule:
                    _check(bool(_NAME.match(text)) and text == text.lower(), f"{where}: invalid {locale} name {text!r}")
                else:
                    _check(0 < len(text) <= 100, f"{where}: {locale} name {text!r} empty or longer than 100")
            elif description:
                _check(1 <= len(text) <= 100, f"{where}: {locale} description must be 1..100 chars: {text!r}")
        size = max(size, sum(len(str(v)) for v in values.values()))
    return size


def _check_option(opt: JSON, where: str) -> int:
    name = opt.get("name", "")
    _check(bool(_NAME.match(name)) and name == name.lower(), f"{where}: invalid option name {name!r}")
    _check(1 <= len(opt.get("description") or "") <= 100, f"{where} {name}: description must be 1..100 chars")
    choices = opt.get("choices") or []
    _check(len(choices) <= 25, f"{where} {name}: more than 25 choices")
    _check(not (choices and opt.get("autocomplete")), f"{where} {name}: choices and autocomplete together")
    size = len(name) + len(opt.get("description") or "")
    size += _check_localizations(opt, f"{where} {name}", name_rule=True, description=True)
    for c in choices:
        _check_localizations(c, f"{where} {name} choice {c.get('name')!r}", name_rule=False, description=False)
    size += sum(len(c["name"]) + len(str(c["value"])) for c in choices)
    return size + _check_options(opt.get("options") or [], f"{where} {name}")


def _check_options(options: list[JSON], where: str) -> int:
    _check(len(options) <= 25, f"{where}: more than 25 options")
    names = [o.get("name") for o in options]
    _check(len(set(names)) == len(names), f"{where}: duplicate option names {names}")
    required = [bool(o.get("required")) for o in options if o.get("type") not in (1, 2)]
    _check(required == sorted(required, reverse=True), f"{where}: required options must come before optional")
    return sum(_check_option(o, where) for o in options)


def check_commands(commands: list[JSON]) -> None:
    """A bulk overwrite (PUT .../commands): what Discord refuses with 50035."""
    _check(len(commands) <= 100, f"{len(commands)} commands (max 100 of each type)")
    keys = [(c.get("type", 1), c.get("name")) for c in commands]
    _check(len(set(keys)) == len(keys), f"duplicate command names {keys}")
    for cmd in commands:
        name = cmd.get("name", "")
        if cmd.get("type", 1) == 1:
            _check(bool(_NAME.match(name)) and name == name.lower(), f"invalid command name {name!r}")
            _check(1 <= len(cmd.get("description") or "") <= 100, f"/{name}: description must be 1..100 chars")
        size = (
            len(name)
            + len(cmd.get("description") or "")
            + _check_localizations(cmd, f"/{name}", name_rule=cmd.get("type", 1) == 1, description=True)
            + _check_options(cmd.get("options") or [], f"/{name}")
        )
        _check(size <= 8000, f"/{name}: {size} characters of names, descriptions and choices (max 8000)")
