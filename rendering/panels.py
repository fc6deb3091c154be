"""A seat's private panel made where its image is drawn: in a render worker, not on the event loop.

Issue #18: the event loop only does I/O. A panel's image was already drawn in a worker, but its view
(`Game.view` of the seat), its legal moves, its status line, its alt text and the pickling of the view
for the worker were made on the event loop (~0.9 ms of a Sweets Stack panel). Here the worker gets what
the table's row already holds, its stored state text and version, parses it once per version (a small
bounded cache per worker), and sends back the panel's parts: the PNG, its alt text, the status line and
the legal moves the cog makes its buttons and menus of. The loop only turns them into Discord objects.
A board likewise (`make_board`): its lasting public view, status line, alt text and image.

Hidden information stays where it was: a panel's image, alt text and status line are made from
`Game.view(state, seat)` of the one seat it is for, a board's from the public `Game.view(state, None)`
and the change's public lines, as in the bot process.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from bot.i18n import SOURCE, t, tr
from bot.rules import Game, get_game
from bot.statecache import StateCache
from rendering.worker import render_png


@cache
def renderer_name(game_key: str) -> str:
    """`rendering.<game key>` if the game ships a renderer, else the generic card's module."""
    name = f"rendering.{game_key}"
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        return "rendering.generic"
    return name


def plain(text: str) -> str:
    """A line for alt text: no Markdown bold (the names in it are given unescaped)."""
    return text.replace("**", "")


def alt_text(
    game: Game[Any, Any], view: dict[str, Any], changes: Sequence[str] = (), lang: str = SOURCE, *, limit: int
) -> str:
    """An image's alt text in `lang`: the game's `alt_text` of the view (the names as plain text, one
    line), then the public lines of what just changed (`changes`, names unescaped), newest kept, as
    many as fit in `limit` characters (Discord's 1,024)."""
    names = [" ".join(str(n).split()) for n in view.get("names") or []]
    text = " ".join(tr(lang, game.alt_text(view, names)).split())
    recent = [" ".join(plain(tr(lang, c)).split()) for c in changes if c.strip()]
    just_now = t(lang, "Just now: {lines}", lines="")
    while recent and len(text) + 1 + len(just_now) + len(" ".join(recent)) > limit:
        recent = recent[1:]  # the newest lines matter most
    return f"{text} {t(lang, 'Just now: {lines}', lines=' '.join(recent))}" if recent else text


@dataclass(frozen=True)
class PanelJob:
    """What the event loop sends for a seat's panel: the row's own strings and numbers, cheap to pickle."""

    game: str
    table_id: int
    version: int
    state: str  # the table's stored state JSON, as the row holds it
    seat: int
    names: tuple[str, ...]  # the seats' names as typed (the image, the alt text)
    text_names: tuple[str, ...]  # the same, escaped for Discord's markup (the status line)
    lang: str
    legal: bool  # the seat is awaited: its legal moves too
    image: bool  # the game has secrets: the panel shows the seat's view as an image
    alt_max: int


@dataclass(frozen=True)
class PanelParts:
    """A panel's parts for the cog: its status line (in the job's language), the seat's legal moves
    (empty unless asked), the PNG and its alt text (None without an image)."""

    status: str
    legal: list[Any]
    png: bytes | None
    alt: str | None


def panel_parts(game: Game[Any, Any], state: Any, job: PanelJob) -> PanelParts:
    """The parts of `job`'s panel from the loaded `state`: the status line (from the view with escaped
    names), the legal moves and the alt text, then the image (a renderer may add to the view it draws:
    the texts are made from the view as the rules made it, as when the image was drawn from a copy)."""
    view = game.view(state, job.seat)
    view.setdefault("players", len(job.names))
    view.setdefault("title", game.title)
    view["names"] = list(job.names)
    status = tr(job.lang, game.status({**view, "names": list(job.text_names)}))
    legal = list(game.legal_actions(state, job.seat)) if job.legal else []
    if not job.image:
        return PanelParts(status, legal, None, None)
    alt = alt_text(game, view, lang=job.lang, limit=job.alt_max)
    return PanelParts(status, legal, render_png(renderer_name(job.game), view, job.lang), alt)


@dataclass(frozen=True)
class BoardJob:
    """What the event loop sends for a table's board: the row's strings, and this change's public
    lines for the alt text, already in the table's language (plain strings, cheap to pickle)."""

    game: str
    table_id: int
    version: int
    state: str
    names: tuple[str, ...]
    text_names: tuple[str, ...]
    lang: str
    options: dict[str, str]
    changes: tuple[str, ...]
    alt_max: int


@dataclass(frozen=True)
class BoardParts:
    """A board's status line (in the table's language), its PNG and the PNG's alt text."""

    status: str
    png: bytes
    alt: str


def board_parts(game: Game[Any, Any], state: Any, job: BoardJob) -> BoardParts:
    """`job`'s board from the loaded `state`: the *lasting public* view (`Game.view(state, None)`, nothing
    momentary), its status line and alt text, then its image."""
    view = game.view(state, None)
    view.setdefault("players", len(job.names))
    view.setdefault("title", game.title)
    view["names"] = list(job.names)
    view = game.lasting_view(view, job.options)
    status = tr(job.lang, game.status({**view, "names": list(job.text_names)}))
    alt = alt_text(game, view, job.changes, job.lang, limit=job.alt_max)
    return BoardParts(status, render_png(renderer_name(job.game), view, job.lang), alt)


STATES = 8  # parsed states kept per worker: a panel and the board of one version come milliseconds apart
# the table's state at a version, parsed once per worker and served only for the very text it was parsed
# from (so a row changed by an undo or another process is never served stale); shared: callers must not
# mutate it (the rules' `load_state` copies it)
_states = StateCache(entries=STATES)


def make_board(job: BoardJob) -> tuple[BoardParts, bytes]:
    """What a render worker runs for a board (`Renderer.call("rendering.panels", "make_board", job)`):
    its parts, and apart from them (sent raw, not pickled) the PNG."""
    game = get_game(job.game)
    parts = board_parts(game, game.load_state(_states.parsed(job.table_id, job.version, job.state)), job)
    return replace(parts, png=b""), parts.png


def make_panel(job: PanelJob) -> tuple[PanelParts, bytes]:
    """What a render worker runs for a panel (`Renderer.call("rendering.panels", "make_panel", job)`):
    its parts, and apart from them (sent raw, not pickled) the PNG, if any."""
    game = get_game(job.game)
    parts = panel_parts(game, game.load_state(_states.parsed(job.table_id, job.version, job.state)), job)
    return replace(parts, png=None), parts.png or b""


__all__ = [
    "BoardJob",
    "BoardParts",
    "PanelJob",
    "PanelParts",
    "alt_text",
    "board_parts",
    "make_board",
    "make_panel",
    "panel_parts",
    "plain",
    "renderer_name",
]
