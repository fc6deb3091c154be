"""A plain card for games that ship no renderer of their own (the tests' game, a new game's first days)."""

from __future__ import annotations

import textwrap
from typing import Any

from PIL import Image

from rendering.base import ACCENT, INK, MUTED, PANEL, draw_on, font, new_canvas, player_colour


def render(view: dict[str, Any]) -> Image.Image:
    """Status, players and the seat's own hand (if the view has one), from the view alone."""
    width = 900
    lines = textwrap.wrap(str(view.get("status", "")), 48) or [""]
    names = [str(n) for n in view.get("names", [])]
    hand = view.get("hand")
    height = 130 + 46 * len(lines) + 44 * len(names) + (90 if hand is not None else 0)
    img = new_canvas(width, height)
    draw = draw_on(img)
    draw.rounded_rectangle((16, 16, width - 16, height - 16), radius=18, fill=PANEL)
    draw.text((40, 34), str(view.get("title", "Spooky Table")), font=font(34, bold=True), fill=ACCENT)
    y = 90
    for line in lines:
        draw.text((40, y), line, font=font(30), fill=INK)
        y += 46
    y += 10
    for i, name in enumerate(names):
        draw.ellipse((40, y + 4, 70, y + 34), fill=player_colour(i))
        draw.text((55, y + 19), str(i + 1), font=font(18, bold=True), fill=(20, 20, 20), anchor="mm")
        draw.text((84, y + 4), name, font=font(28), fill=INK)
        y += 44
    if hand is not None:
        draw.text((40, y + 14), "Your hand: " + " ".join(str(c) for c in hand), font=font(30, bold=True), fill=MUTED)
    return img
