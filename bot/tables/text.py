"""Safe text for Discord: names and echoed input shown as typed, never as markup; nothing over a limit.

Pure string functions (the table service knows Discord's markup, not the discord library), used by the
service and by every cog, so a display name like `**@everyone**` or `<@&123>` reads as typed wherever
it appears, and an echoed input can never push a reply past Discord's limits.
"""

from __future__ import annotations

import re

CONTENT_MAX = 2000  # message content
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELD_MAX = 1024
EMBED_TITLE_MAX = 256
BUTTON_LABEL_MAX = 80
OPTION_TEXT_MAX = 100  # select option label / value / description, autocomplete choice name / value
PLACEHOLDER_MAX = 150
ALT_TEXT_MAX = 1024  # an attachment's description: the image's alt text
ECHO_MAX = 100  # how much of a player's own input an answer repeats

# Discord's parser takes a backslash before any ASCII punctuation as an escape (the backslash is not
# shown), so escaping every markdown-significant character is always safe.
_MARKDOWN = re.compile(r"([\\*_~|`>#\-\[\]()<])")
# What discord.utils.escape_mentions neutralises, plus the role, channel and user mention forms.
_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]{15,20})")


def escape(text: str) -> str:
    """`text` shown literally: no bold, links, headings, quotes or mentions, whatever it contains."""
    return _MENTION.sub("@\u200b\\1", _MARKDOWN.sub(r"\\\1", text))


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word where one is near, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit * 0.8:
        cut = cut[:space]
    return cut.rstrip() + "…"


def echo(user_input: str, limit: int = ECHO_MAX) -> str:
    """A player's own input repeated in an answer: clipped, on one line, and escaped."""
    return escape(clip(" ".join(str(user_input).split()), limit))


def names(raw: list[str] | tuple[str, ...]) -> list[str]:
    """Seat names for text (images take the raw names)."""
    return [escape(n) for n in raw]
