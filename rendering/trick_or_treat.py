"""Trick or Treat Halloween board, drawn only from a view: the city with its houses, streets and
pawns on the left; the dice, the score cards on offer, the candy supply and every player on the right.

1200 px wide, landscape to square (0.72 as tall for 2–4 players, up to 0.98 for 8) for Discord's
~550 px preview: no text under 22 px (10 px there; measured by tests/rendering/test_legibility.py).
At that size an async player sees whose turn it is and what they are doing (the headline; their row
and pawn lit), what changed (the last walk drawn as footprints in the walker's colour along the streets it took, kept
until the next player walks; the houses just rung lit, the dice used crossed out, those marked for a
reroll lit), the round, everyone's score and candy, the dice, the six score cards with their cost, and what is
left in the supply and the score deck. Card ids, the rules' P1…P8 and street notation beyond the
street names are not drawn; the names of streets, entrances and houses are, because the buttons and
`/game move` use them. A finished board says who won. A seat's view (its panel) is the same board
with that player's row marked "(you)".

Colour is never the only carrier of meaning: candies are drawn as the things the bot's texts name
with emoji (🌽 candy corn, 🍫 bonbon, 🧇 waffle, 🍩 donut, 🍭 lollipop, ❓ wild), dice faces as pictures
(👣 footprints, 🎃, 🏏, 🔍, 🍬), pawns carry the seat number, houses a type picture (named in the
legend under the city). Every player-visible word is in `LABELS` (one place, for translation).
"""

from __future__ import annotations

import itertools
import json
import re
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import N_, SOURCE, Lang, Msg, term, tr
from rendering.base import (
    ACCENT,
    BACKGROUND,
    BASE_COLOURS,
    DANGER,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    draw_on,
    drawable,
    drawing_in,
    drawing_lang,
    font,
    new_canvas,
    paste,
    player_colour,
    text_center,
    text_steps,
    text_width,
    wrap,
)

RGB = tuple[int, int, int]

WIDTH = 1200
MIN_FONT = 22  # 10 px at the 550 px preview of a 1200 px wide image
TILE = 112
GAP = 50
MARGIN = 44
TOP = 96  # the headline above the city
BOARD = 2 * MARGIN + 4 * TILE + 3 * GAP  # 686
RIGHT_X = BOARD + 16
LEGEND_H = 84

# Every word a player reads on this image: English msgids, translated by `label` in the language of
# the image being drawn (`locales/<ll_CC>/LC_MESSAGES/rendering.po`).
LABELS: dict[str, Msg] = {
    "title": N_("Trick or Treat"),
    "round": N_("Round {round}"),
    "over": N_("Game over"),
    "dice": N_("Dice"),
    "rerolls": N_("{n} rerolls left"),
    "reroll": N_("1 reroll left"),
    "banked": N_("{n} footprints banked"),
    "discounts": N_("{n} discounts"),
    "no_dice": N_("no dice yet"),
    "perm": N_("card"),
    "set": N_("set"),
    "cards": N_("Score cards"),
    "deck": N_("deck {n}"),
    "slot": N_("slot {n}"),
    "any": N_("any {n}"),
    "same": N_("{n} alike"),
    "sym_reroll": N_("+reroll"),
    "sym_black": N_("+black die"),
    "supply": N_("Supply"),
    "players": N_("Players"),
    "last_round": N_("LAST ROUND"),
    "target": N_("first to {n} ends it"),
    "you": N_(" (you)"),
    "at": N_("{char} · {pos}"),
    "n_cards": N_("{n} cards"),
    "one_card": N_("1 card"),
    "mansion": N_("mansion"),
    "villa": N_("villa"),
    "castle": N_("castle"),
    "bikers": N_("bikers: −1 candy"),
    "plant": N_("power plant: none"),
}

CANDY_COLOUR: dict[str, RGB] = {
    "corn": (250, 200, 40),
    "bonbon": (236, 120, 190),
    "waffle": (186, 130, 70),
    "donut": (90, 170, 240),
    "lolly": (90, 200, 110),
    "wild": (245, 245, 245),
}
KIND_ORDER = ("corn", "bonbon", "waffle", "donut", "lolly", "wild")
TYPE_COLOUR: dict[str, RGB] = {
    "mansion": (120, 52, 48),
    "villa": (40, 96, 100),
    "castle": (84, 70, 130),
    "bikers": (150, 30, 30),
    "plant": (70, 84, 70),
}
CHAR_NAME = {
    "lion": "Lion",
    "witch": "Witch",
    "hero": "Hero",
    "princess": "Princess",
    "pumpkin": "Pumpkin",
    "cowboy": "Cowboy",
    "dinosaur": "Dinosaur",
    "pirate": "Pirate",
}


def label(key: str) -> str:
    """A word of `LABELS` in the language of the image being drawn."""
    return tr(drawing_lang(), LABELS[key])


def char_name(key: str) -> str:
    """A character's name in the image's language (the game's glossary: the seed's names)."""
    return term(drawing_lang(), f"trick_or_treat.char.{key}", CHAR_NAME.get(key, key))


STREET_COLOUR = (58, 50, 70)
CARD_INK = (40, 32, 48)
DARK = (20, 16, 24)
CARD_FACE = (236, 224, 200)
# The renderer's flat colours: the first entries of its images' palettes (`new_canvas(colours=)`).
KEEP: tuple[RGB, ...] = (
    *BASE_COLOURS,
    *CANDY_COLOUR.values(),
    *TYPE_COLOUR.values(),
    STREET_COLOUR,
    CARD_INK,
    DARK,
    CARD_FACE,
    (10, 8, 14),
    (12, 10, 16),
    (70, 58, 96),
    (110, 96, 140),
    (130, 116, 166),
    (60, 130, 60),
    (90, 80, 100),
    (120, 40, 40),
    (80, 64, 96),
    (220, 110, 20),
    (24, 20, 28),
    (60, 52, 80),
    (40, 90, 120),
    (150, 210, 250),
    (170, 110, 60),
    (120, 60, 0),
    (160, 80, 0),
    (60, 150, 60),
    (250, 250, 250),
    (255, 120, 0),
)
# The first entries of every palette of this renderer's images (`new_canvas(colours=)`): its flat
# colours, then the steps of its city tiles' text ("?" and the names on face-down tiles), so that
# those cached tiles paste as they are.
SEED: tuple[RGB, ...] = (*KEEP, *text_steps((70, 58, 96), (130, 116, 166)), *text_steps((70, 58, 96), INK))


# -- geometry -------------------------------------------------------------------------------------
def tile_xy(idx: int) -> tuple[int, int]:
    r, c = divmod(idx, 4)
    return MARGIN + c * (TILE + GAP), TOP + MARGIN + r * (TILE + GAP)


def street_centre(name: str) -> tuple[float, float, bool]:
    """Centre of a street and whether it runs vertically."""
    a, b = int(name[1]), int(name[2])
    x0, y0 = tile_xy((a - 1) * 4 + (b - 1))
    if name[0] == "V":
        return x0 + TILE + GAP / 2, y0 + TILE / 2, True
    return x0 + TILE / 2, y0 + TILE + GAP / 2, False


def entrance_centre(name: str) -> tuple[float, float]:
    side, k = name[0], int(name[1])
    if side in "NS":
        x, _, _ = street_centre(f"V1{k}")
        y = TOP + MARGIN / 2 if side == "N" else TOP + BOARD - MARGIN / 2
        return x, y
    _, y, _ = street_centre(f"H{k}1")
    x = MARGIN / 2 if side == "W" else BOARD - MARGIN / 2
    return x, y


# -- small pictures (no text: legible at any size) ------------------------------------------------
def draw_candy(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, kind: str | None) -> None:
    """A candy as the thing it is (candy corn, bonbon, waffle, donut, lollipop, wild star); an empty
    ring where a taken candy was."""
    if kind is None:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=MUTED, width=2)
        return
    c = CANDY_COLOUR[kind]
    if kind == "corn":  # candy corn: a rounded triangle in three bands
        d.polygon([(cx - r, cy + r * 0.8), (cx + r, cy + r * 0.8), (cx, cy - r)], fill=(250, 250, 250), outline=DARK)
        d.polygon([(cx - r * 0.72, cy + r * 0.3), (cx + r * 0.72, cy + r * 0.3), (cx + r, cy + r * 0.8),
                   (cx - r, cy + r * 0.8)], fill=(255, 120, 0))
        d.polygon([(cx - r * 0.4, cy - r * 0.2), (cx + r * 0.4, cy - r * 0.2), (cx + r * 0.72, cy + r * 0.3),
                   (cx - r * 0.72, cy + r * 0.3)], fill=c)
        d.line([(cx - r, cy + r * 0.8), (cx + r, cy + r * 0.8), (cx, cy - r), (cx - r, cy + r * 0.8)], fill=DARK,
               width=2)
    elif kind == "bonbon":  # a round chocolate bonbon with a swirl on top (the wrapped 🍬 is the dice's candy)
        d.ellipse((cx - r, cy - r * 0.85, cx + r, cy + r * 0.85), fill=c, outline=DARK, width=2)
        d.arc((cx - r * 0.55, cy - r * 0.6, cx + r * 0.55, cy + r * 0.2), 200, 340, fill=DARK, width=max(2, int(r / 5)))
    elif kind == "waffle":  # a square with a grid
        d.rounded_rectangle((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), radius=max(2, int(r / 4)),
                            fill=c, outline=DARK, width=2)
        for k in (-0.3, 0.3):
            d.line((cx + k * r, cy - r * 0.8, cx + k * r, cy + r * 0.8), fill=(120, 60, 0), width=max(1, int(r / 7)))
            d.line((cx - r * 0.8, cy + k * r, cx + r * 0.8, cy + k * r), fill=(120, 60, 0), width=max(1, int(r / 7)))
    elif kind == "donut":  # a ring
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c, outline=DARK, width=2)
        d.ellipse((cx - r * 0.35, cy - r * 0.35, cx + r * 0.35, cy + r * 0.35), fill=BACKGROUND, outline=DARK,
                  width=1)
    elif kind == "lolly":  # a round sweet on a stick
        d.line((cx, cy, cx, cy + r), fill=(250, 250, 250), width=max(2, int(r / 4)))
        d.ellipse((cx - r * 0.75, cy - r, cx + r * 0.75, cy + r * 0.5), fill=c, outline=DARK, width=2)
        d.arc((cx - r * 0.4, cy - r * 0.65, cx + r * 0.4, cy + r * 0.15), 0, 300, fill=(250, 250, 250),
              width=max(1, int(r / 6)))
    else:  # wild: a white disc with a question mark (❓ in the texts): any kind
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c, outline=DARK, width=2)
        k = max(2, int(r / 4))
        d.arc((cx - r * 0.42, cy - r * 0.7, cx + r * 0.42, cy + r * 0.1), 180, 80, fill=DANGER, width=k)
        d.line((cx + r * 0.05, cy + r * 0.05, cx, cy + r * 0.3), fill=DANGER, width=k)
        d.ellipse((cx - k * 0.7, cy + r * 0.5, cx + k * 0.7, cy + r * 0.5 + k * 1.4), fill=DANGER)


def draw_face(d: ImageDraw.ImageDraw, x: float, y: float, s: float, face: str) -> None:
    """A die face picture inside the box (x, y, s×s)."""
    cx, cy = x + s / 2, y + s / 2
    if face in ("feet", "feet2"):
        offs = [0.0] if face == "feet" else [-s * 0.17, s * 0.17]
        for i, o in enumerate(offs):
            fx, fy = cx + o, cy + (s * 0.06 if i else -s * 0.02)
            d.ellipse((fx - s * 0.09, fy - s * 0.12, fx + s * 0.09, fy + s * 0.2), fill=INK)
            for t in (-1, 0, 1):
                tx = fx + t * s * 0.07
                d.ellipse((tx - s * 0.035, fy - s * 0.24, tx + s * 0.035, fy - s * 0.17), fill=INK)
    elif face == "pumpkin":
        d.ellipse((cx - s * 0.3, cy - s * 0.2, cx + s * 0.3, cy + s * 0.25), fill=ACCENT, outline=(120, 60, 0), width=2)
        d.line((cx, cy - s * 0.18, cx, cy + s * 0.23), fill=(160, 80, 0), width=2)
        d.rectangle((cx - s * 0.04, cy - s * 0.32, cx + s * 0.04, cy - s * 0.18), fill=(60, 150, 60))
    elif face == "club":
        d.line((cx - s * 0.22, cy + s * 0.25, cx + s * 0.15, cy - s * 0.18), fill=(170, 110, 60),
               width=max(3, int(s * 0.1)))
        d.ellipse((cx + s * 0.05, cy - s * 0.33, cx + s * 0.3, cy - s * 0.08), fill=(170, 110, 60))
    elif face == "glass":
        d.ellipse((cx - s * 0.25, cy - s * 0.27, cx + s * 0.1, cy + s * 0.08), outline=(150, 210, 250),
                  width=max(3, int(s * 0.07)))
        d.line((cx + s * 0.06, cy + s * 0.04, cx + s * 0.28, cy + s * 0.26), fill=(150, 210, 250),
               width=max(4, int(s * 0.1)))
    elif face == "candy":  # a wrapped sweet with two twists (🍬)
        pink = CANDY_COLOUR["bonbon"]
        d.polygon([(cx - s * 0.35, cy - s * 0.14), (cx - s * 0.18, cy), (cx - s * 0.35, cy + s * 0.14)], fill=pink)
        d.polygon([(cx + s * 0.35, cy - s * 0.14), (cx + s * 0.18, cy), (cx + s * 0.35, cy + s * 0.14)], fill=pink)
        d.ellipse((cx - s * 0.2, cy - s * 0.14, cx + s * 0.2, cy + s * 0.14), fill=pink, outline=INK, width=1)


def draw_house(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, kind: str) -> None:
    """The house type's picture (so the type is never told by the tile's colour alone)."""
    ink, door = (236, 224, 200), DARK
    if kind == "mansion":  # a peaked roof and a door
        d.polygon([(cx - r, cy - r * 0.1), (cx, cy - r), (cx + r, cy - r * 0.1)], fill=ink)
        d.rectangle((cx - r * 0.75, cy - r * 0.1, cx + r * 0.75, cy + r * 0.9), fill=ink)
        d.rectangle((cx - r * 0.2, cy + r * 0.3, cx + r * 0.2, cy + r * 0.9), fill=door)
    elif kind == "villa":  # a flat roof, two windows, a door
        d.rectangle((cx - r, cy - r * 0.6, cx + r, cy + r * 0.9), fill=ink)
        d.rectangle((cx - r * 0.75, cy - r * 0.35, cx - r * 0.35, cy + r * 0.05), fill=door)
        d.rectangle((cx + r * 0.35, cy - r * 0.35, cx + r * 0.75, cy + r * 0.05), fill=door)
        d.rectangle((cx - r * 0.18, cy + r * 0.35, cx + r * 0.18, cy + r * 0.9), fill=door)
    elif kind == "castle":  # battlements and an arched gate
        d.rectangle((cx - r, cy - r * 0.5, cx + r, cy + r * 0.9), fill=ink)
        for k in (-1.0, -0.2, 0.6):
            d.rectangle((cx + k * r, cy - r * 0.9, cx + (k + 0.4) * r, cy - r * 0.5), fill=ink)
        d.pieslice((cx - r * 0.3, cy + r * 0.1, cx + r * 0.3, cy + r * 0.7), 180, 360, fill=door)
        d.rectangle((cx - r * 0.3, cy + r * 0.4, cx + r * 0.3, cy + r * 0.9), fill=door)
    elif kind == "bikers":  # two wheels
        for k in (-0.5, 0.5):
            d.ellipse((cx + k * r - r * 0.45, cy - r * 0.1, cx + k * r + r * 0.45, cy + r * 0.8), outline=ink,
                      width=max(2, int(r / 5)))
        d.line((cx - r * 0.5, cy + r * 0.35, cx, cy - r * 0.3, cx + r * 0.5, cy + r * 0.35), fill=ink,
               width=max(2, int(r / 5)))
    else:  # power plant: a lightning bolt
        d.polygon([(cx + r * 0.2, cy - r), (cx - r * 0.6, cy + r * 0.1), (cx - r * 0.05, cy + r * 0.1),
                   (cx - r * 0.25, cy + r), (cx + r * 0.6, cy - r * 0.15), (cx + r * 0.05, cy - r * 0.15)],
                  fill=HIGHLIGHT)


def draw_pawn(d: ImageDraw.ImageDraw, cx: float, cy: float, seat: int, r: int = 18, lit: bool = False) -> None:
    colour = player_colour(seat)
    if lit:
        d.ellipse((cx - r - 5, cy - r - 5, cx + r + 5, cy + r + 5), outline=HIGHLIGHT, width=4)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=(10, 8, 14), width=3)
    text_center(d, (cx, cy + 1), str(seat + 1), MIN_FONT, fill=(10, 8, 14), bold=True)


# -- text helpers ---------------------------------------------------------------------------------
def fit(d: ImageDraw.ImageDraw | None, text: str, size: int, width: float, bold: bool = True) -> str:
    """`text` within `width` px: whole, else cut after the last whole word that fits, with "…" (a
    single word, such as a name, is cut inside itself: it has no other place to go)."""
    if text_width(text, size, bold) <= width:
        return text
    words = text.split(" ")
    while len(words) > 1:
        words.pop()
        trial = " ".join(words).rstrip(",·:;") + "…"
        if text_width(trial, size, bold) <= width:
            return trial
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


def clean_name(name: str, seat: int) -> str:
    """A player's name as the image can draw it; P1…P8 when nothing of it is drawable."""
    kept = "".join(c for c in name if drawable(c)).strip()
    return kept or f"P{seat + 1}"


def named(text: str, view: dict[str, Any]) -> str:
    """Replace the seat tokens P1…P8 of a rules text by the players' names when the view has them."""
    names = [clean_name(str(n), i) for i, n in enumerate(view.get("names") or [])]
    if not names:
        return text
    # no \b: a Chinese translation may put a character right next to the token
    return re.sub(
        r"(?<![A-Za-z0-9])P([1-8])(?![0-9])", lambda m: names[int(m[1]) - 1] if int(m[1]) <= len(names) else m[0], text
    )


def _who(view: dict[str, Any], seat: int) -> str:
    names = view.get("names") or []
    return clean_name(str(names[seat]), seat) if seat < len(names) else f"P{seat + 1}"


_CUT, _ROUND = "\x00", "\x01"  # stand-ins for the status's scores and round number (see `headline`)


def headline(view: dict[str, Any]) -> str:
    """Whose turn and what they are doing (the rules' status, up to its scores, which the players'
    rows show), or who won; with the players' names.

    In English the status is cut by its words ("Round 3: … Scores: …"). In another language the
    rules' message is translated with stand-ins for its round and scores, and cut there: the
    sentence holding the scores goes, and so does what precedes the round's colon."""
    status = view.get("status", "")
    lang = drawing_lang()
    if lang != SOURCE and isinstance(status, Msg) and status.kind == "text" and "scores" in status.params:
        text = tr(lang, Msg(str(status), "text", status.msgid, {**status.params, "scores": _CUT, "s": _ROUND}))
        text = text[: text.index(_CUT)] if _CUT in text else text
        ends = [m.end() for m in re.finditer(r"[。！？]|[.!?](?:\s|$)", text)]
        text = text[: ends[-1]] if ends else text
        if _ROUND in text:
            text = re.sub(r"^.*?" + _ROUND + r"[^:：]*[:：]\s*", "", text, flags=re.S)
        return named(text.strip(), view)
    text = tr(lang, status)
    text = re.sub(r"\s*Scores:.*$", "", text).strip()
    text = re.sub(r"^Round \d+: ", "", text)
    return named(text, view)


# -- sections -------------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def _table_layer(lang: Lang = SOURCE) -> Image.Image:
    """What every Trick or Treat board shares: the street block, the street and entrance names and
    the legend of house types (pure rules data), the legend in `lang`. Drawn once per process and
    language; never drawn on after caching (`render` draws on a copy; the city's tiles are cut from
    the English layer, whose city is the same)."""
    from bot.rules.trick_or_treat.data import ENTRANCES, STREETS  # pure data, no game state

    img = new_canvas(WIDTH, 1400, BACKGROUND, colours=SEED)
    d = draw_on(img)
    d.rounded_rectangle((4, TOP + 4, BOARD - 4, TOP + BOARD - 4), 18, fill=STREET_COLOUR)
    for st in STREETS:
        x, y, vert = street_centre(st)
        if vert:
            text_center(d, (x, y - TILE / 2 + 14), st, MIN_FONT, fill=MUTED)
        else:
            text_center(d, (x - TILE / 2 + 26, y), st, MIN_FONT, fill=MUTED)
    for ent in ENTRANCES:
        x, y = entrance_centre(ent)
        text_center(d, (x, y), ent, MIN_FONT, fill=HIGHLIGHT, bold=True)
    # the legend of house types under the city
    x, y = 16.0, TOP + BOARD + 26
    for kind in ("mansion", "villa", "castle", "bikers", "plant"):
        word = tr(lang, LABELS[kind])
        w = 40 + text_width(word, MIN_FONT)
        if x + w > BOARD:
            x, y = 16.0, y + 38
        d.rounded_rectangle((x, y - 16, x + 32, y + 16), 6, fill=TYPE_COLOUR[kind])
        draw_house(d, x + 16, y, 11, kind)
        d.text((x + 40, y), word, font=font(MIN_FONT), fill=MUTED, anchor="lm")
        x += w + 22
    return img


@lru_cache(maxsize=256)
def _building_tile(idx: int, cell: str, rang: bool) -> Image.Image:
    """One city tile (TILE+1 px square) on the street block, drawn once per distinct look.

    Keyed on the tile's position (what lies under its rounded corners), its view as JSON (name,
    face up or not, type, printed and remaining candy) and whether it was just rung. Shared:
    callers paste it and never draw on it.
    """
    x, y = tile_xy(idx)
    tile = _table_layer().crop((x, y, x + TILE + 1, y + TILE + 1))
    draw_building(draw_on(tile), idx, json.loads(cell), rang, origin=(x, y))
    return tile


def draw_city(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Houses (cached tiles pasted on the shared street block) and the pawns on top, the awaited
    players' pawns ringed."""
    from bot.rules.trick_or_treat.data import ENTRANCES  # pure data, no game state

    rang = set(view.get("rang", []))
    for i, cell in enumerate(view["city"]):
        paste(img, _building_tile(i, json.dumps(cell, sort_keys=True), cell["name"] in rang), tile_xy(i))
    waiting = set(view.get("to_act", [])) if view.get("phase") != "over" else set()
    draw_trail(d, view.get("trail"))
    crowd: dict[str, list[int]] = {}
    for p in view["seats"]:
        if p["pos"]:
            crowd.setdefault(p["pos"], []).append(p["seat"])
    for place, seats in crowd.items():
        n = len(seats)
        r = 18
        step = 2 * r - 6 if n > 3 else 2 * r + 2
        if place in ENTRANCES:
            # waiting pawns line up beside the entrance label, away from the tiles
            x, y = entrance_centre(place)
            for j, seat in enumerate(seats):
                if place[0] in "NS":
                    draw_pawn(d, x + 40 + j * step, y, seat, r, seat in waiting)
                else:
                    draw_pawn(d, x, y + 34 + j * step, seat, r, seat in waiting)
            continue
        x, y, vert = street_centre(place)
        for j, seat in enumerate(seats):
            o = (j - (n - 1) / 2) * step
            px, py = (x, y + o) if vert else (x + o, y)
            draw_pawn(d, px, py, seat, r, seat in waiting)


def _place(place: str) -> tuple[float, float, bool | None]:
    """A street's centre and whether it runs vertically; an entrance's centre (None)."""
    from bot.rules.trick_or_treat.data import ENTRANCES  # pure data, no game state

    if place in ENTRANCES:
        x, y = entrance_centre(place)
        return x, y, None
    return street_centre(place)


def draw_trail(d: ImageDraw.ImageDraw, trail: dict[str, Any] | None) -> None:
    """The last walk (what moved since the player last looked): a line of footprints in the walker's
    colour from where the pawn stood along each street it took (turning at the crossings), drawn
    under the pawns."""
    if not trail or len(trail.get("streets") or []) < 2:
        return
    colour = player_colour(int(trail["seat"]))
    places = [_place(p) for p in trail["streets"] if p]
    points: list[tuple[float, float]] = [places[0][:2]]
    for (x0, y0, v0), (x1, y1, v1) in itertools.pairwise(places):
        if v0 is not None and v1 is not None and v0 != v1:  # a turn at the crossing of the two streets
            points.append((x0, y1) if v0 else (x1, y0))
        points.append((x1, y1))
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        d.line((x0, y0, x1, y1), fill=colour, width=6)
        steps = max(1, int(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 // 26))
        for k in range(1, steps):
            cx, cy = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
            d.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=colour, outline=BACKGROUND, width=2)
    x, y = points[0]
    d.ellipse((x - 10, y - 10, x + 10, y + 10), outline=colour, width=4)  # where the walk began


def draw_building(
    d: ImageDraw.ImageDraw, idx: int, cell: dict[str, Any], rang: bool, origin: tuple[int, int] = (0, 0)
) -> None:
    """A city tile; `origin` is where `d`'s image sits on the board (a cached tile's corner)."""
    x, y = tile_xy(idx)
    x, y = x - origin[0], y - origin[1]
    box = (x, y, x + TILE, y + TILE)
    if not cell["up"]:
        d.rounded_rectangle(box, 12, fill=(70, 58, 96), outline=(110, 96, 140), width=3)
        text_center(d, (x + TILE / 2, y + TILE / 2 + 12), "?", 52, fill=(130, 116, 166), bold=True)
        d.text((x + 10, y + 8), cell["name"], font=font(MIN_FONT, True), fill=INK)
        return
    kind = cell["type"]
    d.rounded_rectangle(
        box, 12, fill=TYPE_COLOUR[kind], outline=HIGHLIGHT if rang else DARK, width=6 if rang else 2
    )
    d.text((x + 10, y + 8), cell["name"], font=font(MIN_FONT, True), fill=INK)
    draw_house(d, x + TILE - 26, y + 24, 15, kind)
    printed: list[str] = cell["printed"]
    left: list[str] = cell["candy"]
    if not printed:
        return
    # remaining candies are the rightmost printed ones when taken from the left
    r = 15
    cy = y + TILE / 2 + 22
    gap = (TILE - 6 * r) / 4
    start = len(printed) - len(left)
    for j in range(len(printed)):
        cx = x + gap + r + j * (2 * r + gap)
        k = j - start
        draw_candy(d, cx, cy, r, left[k] if 0 <= k < len(left) else None)


def draw_dice(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    d.text((x, y), label("dice"), font=font(26, True), fill=ACCENT)
    phase = view["phase"]
    bits = []
    if phase == "roll":
        n = view["rerolls"]
        bits.append(label("reroll") if n == 1 else label("rerolls").format(n=n))
    elif phase in ("act", "trade"):
        if view.get("banked"):
            bits.append(label("banked").format(n=view["banked"]))
        if view.get("discounts"):
            bits.append(label("discounts").format(n=view["discounts"]))
    info = " · ".join(bits)
    lx = x + text_width(label("dice"), 26, True) + 16
    d.text((lx, y + 4), fit(d, info, MIN_FONT, x + w - lx, bold=False), font=font(MIN_FONT), fill=INK)
    dice = list(view.get("dice", []))
    # while rolling, the permanent symbols are not in the pool yet: show them after the dice
    dice += [{"f": f, "src": "perm", "used": False} for f in view.get("perm", [])]
    y += 38
    if not dice:
        d.text((x, y), label("no_dice"), font=font(MIN_FONT), fill=MUTED)
        return y + 40
    size = min(56, (w - 6 * (len(dice) - 1)) // len(dice))
    marked = view.get("marked", [])
    for i, die in enumerate(dice):
        dx = x + i * (size + 6)
        src = die["src"]
        fill: RGB = {"orange": (220, 110, 20), "black": (24, 20, 28), "perm": (60, 52, 80), "set": (40, 90, 120)}[src]
        lit = i < len(marked) and marked[i]
        d.rounded_rectangle((dx, y, dx + size, y + size), 9, fill=fill, outline=HIGHLIGHT if lit else (12, 10, 16),
                            width=5 if lit else 2)
        if src == "perm":
            d.rounded_rectangle((dx + 3, y + 3, dx + size - 3, y + size - 3), 7, outline=MUTED, width=1)
        draw_face(d, dx, y, size, die["f"])
        if die["used"]:
            d.line((dx + 6, y + 6, dx + size - 6, y + size - 6), fill=DANGER, width=4)
            d.line((dx + size - 6, y + 6, dx + 6, y + size - 6), fill=DANGER, width=4)
        tag = str(i + 1) if src in ("orange", "black") else label("perm" if src == "perm" else "set")
        if lit:
            tag += "↻"  # marked for the next reroll: said by a sign, not only by the outline
        if text_width(tag, MIN_FONT, True) <= size + 6:
            text_center(d, (dx + size / 2, y + size + 16), tag, MIN_FONT, fill=HIGHLIGHT if lit else MUTED, bold=True)
    return y + size + 34


def draw_cost(d: ImageDraw.ImageDraw, x: float, y: float, cost: dict[str, Any], room: float, r: int = 11) -> None:
    if "need" in cost:
        items = [k for k in KIND_ORDER if k in cost["need"] for _ in range(int(cost["need"][k]))]
        step = min(2 * r + 3, (room - 2 * r) / max(1, len(items) - 1)) if len(items) > 1 else 0
        for j, k in enumerate(items):
            draw_candy(d, x + r + j * step, y, r, k)
        return
    text = label("any").format(n=cost["any"]) if "any" in cost else label("same").format(n=cost["same"])
    d.text((x, y), text, font=font(MIN_FONT, True), fill=CARD_INK, anchor="lm")


def draw_row(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    d.text((x, y), label("cards"), font=font(26, True), fill=ACCENT)
    lx = x + text_width(label("cards"), 26, True) + 16
    d.text((lx, y + 4), label("deck").format(n=view["deck_count"]), font=font(MIN_FONT), fill=INK)
    y += 38
    cw = (w - 2 * 8) // 3
    ch = 104
    for i, card in enumerate(view["row"]):
        cx = x + (i % 3) * (cw + 8)
        cy = y + (i // 3) * (ch + 8)
        d.rounded_rectangle((cx, cy, cx + cw, cy + ch), 10, fill=CARD_FACE, outline=DARK, width=2)
        d.ellipse((cx + 6, cy + 6, cx + 44, cy + 44), fill=(60, 130, 60))
        text_center(d, (cx + 25, cy + 26), str(card["points"]), 24, fill=INK, bold=True)
        d.text((cx + 50, cy + 10), label("slot").format(n=i + 1), font=font(MIN_FONT, True), fill=CARD_INK)
        sym = card["symbol"]
        if sym in ("reroll", "black"):
            word = label(f"sym_{sym}")
            d.text((cx + 8, cy + ch - 8), fit(d, word, MIN_FONT, cw - 14), font=font(MIN_FONT, True),
                   fill=(120, 40, 40), anchor="ld")
            draw_cost(d, cx + 8, cy + 58, card["cost"], cw - 16)
        else:
            draw_cost(d, cx + 8, cy + 72, card["cost"], cw - 16 - (40 if sym else 0))
            if sym:
                d.rounded_rectangle((cx + cw - 44, cy + ch - 44, cx + cw - 6, cy + ch - 6), 6, fill=(80, 64, 96))
                draw_face(d, cx + cw - 44, cy + ch - 44, 38, sym)
    rows = (len(view["row"]) + 2) // 3
    return y + max(rows, 1) * (ch + 8)


def draw_supply(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    d.text((x, y), label("supply"), font=font(26, True), fill=ACCENT)
    lx = x + text_width(label("supply"), 26, True) + 14
    step = (x + w - lx) / len(KIND_ORDER)
    for j, k in enumerate(KIND_ORDER):
        cx = lx + j * step
        draw_candy(d, cx + 13, y + 16, 13, k)
        d.text((cx + 30, y + 16), str(view["supply"][k]), font=font(MIN_FONT, True), fill=INK, anchor="lm")
    return y + 44


def draw_players(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    d.text((x, y), label("players"), font=font(26, True), fill=ACCENT)
    lx = x + text_width(label("players"), 26, True) + 16
    if view.get("last_round"):  # issue #13: the board says when the round being played is the last
        d.text((lx, y + 4), label("last_round"), font=font(MIN_FONT, True), fill=ACCENT)
    else:
        d.text((lx, y + 4), fit(d, label("target").format(n=view["target"]), MIN_FONT, x + w - lx, False),
               font=font(MIN_FONT), fill=MUTED)
    y += 40
    rh = 72
    waiting = set(view["to_act"]) if view["phase"] != "over" else set()
    best = max((p["score"] for p in view["seats"]), default=0)
    for p in view["seats"]:
        seat = p["seat"]
        top = y + seat * rh
        lit = seat in waiting
        d.rounded_rectangle((x, top, x + w, top + rh - 6), 8, fill=PANEL, outline=HIGHLIGHT if lit else DARK,
                            width=4 if lit else 1)
        draw_pawn(d, x + 24, top + 20, seat, 16)
        score = str(p["score"])
        sw = text_width(score, 28, True)
        text_center(d, (x + w - 12 - sw / 2, top + (rh - 6) / 2), score, 28,
                    fill=HIGHLIGHT if view["phase"] == "over" and p["score"] == best else INK, bold=True)
        who = _who(view, seat) + (label("you") if view.get("seat") == seat else "")
        char = label("at").format(char=char_name(p["char"]) if p["char"] else "—", pos=p["pos"] or "—")
        room = w - 60 - sw - 24
        cw = min(text_width(char, MIN_FONT), room * 0.45)
        d.text((x + 48, top + 20), fit(d, who, 24, room - cw - 12), font=font(24, True), fill=INK, anchor="lm")
        d.text((x + 48 + room, top + 20), fit(d, char, MIN_FONT, cw, False), font=font(MIN_FONT), fill=MUTED,
               anchor="rm")
        # candy counts on the second line, then how many score cards and their symbols
        line2 = top + rh - 22
        for j, k in enumerate(KIND_ORDER):
            cx = x + 22 + j * 50
            cnt = p["candy"][k]
            draw_candy(d, cx, line2, 11, k if cnt else None)
            d.text((cx + 14, line2), str(cnt), font=font(MIN_FONT, True), fill=INK if cnt else MUTED, anchor="lm")
        cards = p["cards"]
        if cards:
            cx = x + 22 + 6 * 50
            text = label("one_card") if len(cards) == 1 else label("n_cards").format(n=len(cards))
            d.text((cx, line2), text, font=font(MIN_FONT), fill=MUTED, anchor="lm")
            sx = cx + text_width(text, MIN_FONT) + 6
            for c in cards:
                if c["symbol"] in ("feet", "club", "glass", "pumpkin", "candy") and sx + 26 < x + w - sw - 20:
                    draw_face(d, sx, line2 - 13, 26, c["symbol"])
                    sx += 26
    return y + len(view["seats"]) * rh


def render(view: dict[str, Any], lang: Lang = SOURCE) -> Image.Image:
    """The whole table, its words in `lang` (the table's language for the board, the reader's for
    a panel); a seat's view additionally marks that seat's row as "(you)".

    The result is an 8-bit palette image (drawn on a palette canvas, `rendering.base.new_canvas`): the
    board has few colours, and an 8-bit PNG encodes in half the time and a third of the bytes of an
    RGB one (it is sent after every step of a turn).
    """
    with drawing_in(lang):
        return _render(view, lang)


def _render(view: dict[str, Any], lang: Lang) -> Image.Image:
    img = _table_layer(lang).copy()
    d = draw_on(img)
    d.rectangle((0, 0, WIDTH, 54), fill=PANEL)
    d.text((16, 27), label("title"), font=font(30, True), fill=ACCENT, anchor="lm")
    info = label("over") if view["phase"] == "over" else label("round").format(round=view["round"])
    d.text((WIDTH - 16, 27), info, font=font(26, True), fill=INK, anchor="rm")
    lines = wrap(headline(view), 26, WIDTH - 32, True)
    for k, line in enumerate(lines[:1]):
        d.text((16, 62 + k * 34), fit(d, line if len(lines) == 1 else line + " …", 26, WIDTH - 32),
               font=font(26, True), fill=HIGHLIGHT if view["phase"] == "over" else INK)
    draw_city(img, d, view)
    x, w = RIGHT_X, WIDTH - RIGHT_X - 12
    y = TOP + 4
    y = draw_dice(d, view, x, y, w)
    y = draw_row(d, view, x, y + 6, w)
    y = draw_supply(d, view, x, y + 10, w)
    y = draw_players(d, view, x, y + 4, w)
    img = img.crop((0, 0, WIDTH, max(TOP + BOARD + LEGEND_H, y + 12)))
    return img
