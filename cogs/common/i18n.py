"""Where the cogs' lazy messages become one language: the last step before a message leaves.

Cogs build embeds, views and texts from `Msg`s (`bot.i18n.N_`), which survive discord.py's `str()`
calls, and translate them here with an explicit language:

- `reader(interaction)`: the language of whoever clicked or typed (ephemeral answers, panels, DMs);
- `table.lang`: the table's language (lobby, board, log lines, pings, game over), whoever caused it.

`localized(lang, content=..., embed=..., view=..., files=...)` returns the same keyword arguments
translated, ready for `send_message`/`send`/`edit`; it clips what grew past Discord's limits.
"""

from __future__ import annotations

from typing import Any, TypeVar

import discord

from bot.i18n import SOURCE, Lang, lang_for, tr
from bot.store import TableRow
from bot.tables.text import clip

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])
CONTENT_MAX, TITLE_MAX, DESCRIPTION_MAX, FIELD_NAME_MAX, FIELD_MAX, FOOTER_MAX = 2000, 256, 4096, 256, 1024, 2048


def reader(interaction: discord.Interaction[Any]) -> Lang:
    """The language of the person who caused this interaction (their Discord client's)."""
    return lang_for(interaction.locale)


def guild_default(interaction: discord.Interaction[Any]) -> Lang:
    """A new table's language when the host picks none: the server's preferred locale."""
    return lang_for(interaction.guild_locale) if interaction.guild_locale is not None else SOURCE


def seat_lang(table: TableRow, seat: int) -> Lang:
    """The language of a DM to a seat: its last-seen locale, else the table's."""
    for s in table.seats:
        if s.seat == seat and s.locale:
            return lang_for(s.locale)
    return table.lang


def localize_embed(lang: Lang, embed: discord.Embed) -> discord.Embed:
    if embed.title:
        embed.title = clip(tr(lang, embed.title), TITLE_MAX)
    if embed.description:
        embed.description = clip(tr(lang, embed.description), DESCRIPTION_MAX)
    for i, f in enumerate(embed.fields):
        embed.set_field_at(
            i, name=clip(tr(lang, f.name), FIELD_NAME_MAX), value=clip(tr(lang, f.value), FIELD_MAX), inline=f.inline
        )
    if embed.footer.text:
        embed.set_footer(text=clip(tr(lang, embed.footer.text), FOOTER_MAX), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(name=clip(tr(lang, embed.author.name), TITLE_MAX), url=embed.author.url)
    return embed


def localize_item(lang: Lang, item: ItemT) -> ItemT:
    """Labels, placeholders and menu options; a DynamicItem's inner item too."""
    inner = getattr(item, "item", None)
    if isinstance(inner, discord.ui.Item) and inner is not item:
        localize_item(lang, inner)
    if isinstance(item, discord.ui.Button) and item.label:
        item.label = clip(tr(lang, item.label), 80)  # already fitted by fit_label, in `lang`
    if isinstance(item, discord.ui.Select):
        if item.placeholder:
            item.placeholder = clip(tr(lang, item.placeholder), 150)
        for option in item.options:
            option.label = clip(tr(lang, option.label), 100)
            if option.description:
                option.description = clip(tr(lang, option.description), 100)
    return item


def localize_view(lang: Lang, view: discord.ui.View) -> discord.ui.View:
    for item in view.children:
        localize_item(lang, item)
    return view


def localized(lang: Lang, **kwargs: Any) -> dict[str, Any]:
    """`send`/`edit` keyword arguments in `lang`: content, embed(s), view, file(s)' alt text."""
    if kwargs.get("content") is not None:
        kwargs["content"] = clip(tr(lang, kwargs["content"]), CONTENT_MAX)
    if isinstance(kwargs.get("embed"), discord.Embed):
        localize_embed(lang, kwargs["embed"])
    for embed in kwargs.get("embeds") or ():
        localize_embed(lang, embed)
    if isinstance(kwargs.get("view"), discord.ui.View):
        localize_view(lang, kwargs["view"])
    files = list(kwargs.get("files") or ())
    if kwargs.get("file") is not None:
        files.append(kwargs["file"])
    for file in files:
        if isinstance(file, discord.File) and file.description:
            file.description = clip(tr(lang, file.description), 1024)
    return kwargs
