"""Ghost Stories board: landscape, 1200 × 946 (about 1.27:1), made for Discord's ~550 px preview.

What it is for at 550 px wide (scale 0.46): at a glance, *who must do what now* (the status line at
the top, with the players' names), *where the danger is* (each ghost's colour and what it needs to
be exorcised, its haunting figure H1–H3 and how soon it haunts, haunted tiles hatched), *where the
Taoists stand* in the village, and *what each Taoist holds* (Qi, Tao tokens, Yin-Yang, Buddhas, power
and whether it is sealed). Every text is drawn at 22 px or more (≥ 10 px at 550 px wide); nothing is
smaller. Ghost effects still to come appear as short words ("yin: haunt", "seal", "out: +1T");
their full wording and one-off arrival effects (resolved once a ghost is on the board) are in
`/ghost ghosts`, the log in the embed; power texts are in the rules (`/game rules`), not on the
picture.

Layout: the 3×3 village with the four boards' ghost spaces around it on the left (its corners hold
the title and difficulty, the counters, the last roll and the supply), the Taoists' panels as a
right column, the status and warnings across the top, wrapped in pixels so that nothing runs off
the image and nothing is cut mid-word (an over-long player name is shortened with "…").

Drawn only from a view dict. Every colour also carries a letter (R, Y, G, B, K for black, W for
white) so the board reads without colour vision; haunted tiles are hatched as well as darkened.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import N_, SOURCE, Lang, nt, t, term, tr
from bot.rules.ghost_stories.game import PENDING_WHAT, space_words
from rendering.base import (
    ACCENT,
    BACKGROUND,
    DANGER,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    draw_on,
    font,
    new_canvas,
    text_width,
    wrap,
)

W = 1200
MIN_FONT = 22  # the smallest font: 10 px tall at 550 px wide (22 × 550 / 1200 = 10.1)
M = 12  # outer margin
HEAD_H = 100  # the status lines' band at the top
T = 170  # village tile
D = 156  # ghost space depth (away from the village)
G = 6  # gap between a ghost space and the village (the board's colour bar)
CX0, CY0 = M, HEAD_H  # the cross (village and ghost spaces) top-left
CROSS = 3 * T + 2 * (D + G)
VX, VY = CX0 + D + G, CY0 + D + G  # village top-left
H = CY0 + CROSS + M
RX = CX0 + CROSS + 12  # the Taoists' column
RW = W - M - RX
PANEL_GAP = 8
PANEL_H = (CROSS - 3 * PANEL_GAP) // 4
LINE = 30  # line pitch of 22–24 px text

COL: dict[str, tuple[int, int, int]] = {
    "red": (205, 62, 62),
    "yellow": (226, 196, 56),
    "green": (58, 168, 92),
    "blue": (72, 128, 222),
    "black": (24, 22, 28),
    "white": (240, 240, 240),
    "grey": (140, 140, 140),
}
LETTER = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "black": "K", "white": "W", "grey": "?"}
ICON = {
    "SUMMON": N_("+ghost"),
    "HAUNTER": N_("haunt"),
    "HAUNTER_FAST": N_("fast haunt"),
    "HAUNT_NOW": N_("haunt!"),
    "CURSE": N_("curse"),
    "LOSE_QI": N_("-Qi"),
    "GROUP_LOSE_TAO": N_("-Tao all"),
    "CAPTURE_DIE": N_("-die"),
    "TAO_LOCK": N_("lock"),
    "CLEAR_CIRCLE": N_("-circle"),
    "BONE_CRACK": N_("-Tao"),
    "DICE_IMMUNE": N_("no dice"),
    "POWER_BLOCK": N_("seal"),
    "ALL_POWERS_BLOCK": N_("seal all"),
    "NO_WHITE": N_("no white"),
    "OPPOSITE_EMPTY": N_("opp. empty"),
    "NEEDS_BUDDHA": N_("buddha"),
    "R_TAO1": N_("+1T"),
    "R_TAO2": N_("+2T"),
    "R_QI_OR_YY": N_("Qi/YY"),
    "R_QI_AND_YY": N_("Qi+YY"),
}
LASTING_ARRIVAL = frozenset({"TAO_LOCK", "CAPTURE_DIE"})  # arrival effects that hold while the ghost stays
SIDE_OF = {"red": "S", "yellow": "W", "green": "N", "blue": "E"}
HAUNTED_BG = (70, 24, 30)
EFFECT_INK = (225, 220, 235)
LABEL_INK = (205, 200, 215)
QI_GREEN = (120, 220, 160)


# -- text, measured in pixels ---------------------------------------------------------------------


def _ellipsis(text: str, size: int, width: float, bold: bool = False) -> str:
    """`text` shortened with "…" to fit `width` (for player names, which have no words to wrap)."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _clip(lines: list[str], max_lines: int, size: int, width: float, bold: bool = False) -> list[str]:
    """At most `max_lines`; if some were left out, the last kept line ends in "…" (whole words)."""
    if len(lines) <= max(0, max_lines):
        return lines
    if max_lines <= 0:
        return []
    kept = lines[:max_lines]
    last = kept[-1]
    while " " in last and text_width(last + " …", size, bold) > width:
        last = last.rsplit(" ", 1)[0]
    kept[-1] = last + " …"
    return kept


def _text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int] = INK,
    bold: bool = False,
    anchor: str | None = None,
) -> None:
    d.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)


def _lines(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    lines: list[str],
    size: int,
    fill: tuple[int, int, int],
    bold: bool = False,
    pitch: int = 26,
    centre: bool = False,
) -> float:
    """Draw lines downwards from y (left-aligned at x, or centred on x); returns the next y."""
    for line in lines:
        if centre:
            _text(d, (x, y), line, size, fill, bold, "ma")
        else:
            _text(d, (x, y), line, size, fill, bold)
        y += pitch
    return y


# -- players --------------------------------------------------------------------------------------


def _cap(word: str) -> str:
    return word[:1].upper() + word[1:]


def _colour(lang: Lang, colour: str) -> str:
    """A colour's name ("Red", 「紅」) from the game's glossary."""
    return _cap(term(lang, f"ghost_stories.{colour}", colour))


def _ghost(lang: Lang, name: str) -> str:
    """A ghost's name in `lang` (the glossary's `ghost.<English name>`; unknown names unchanged)."""
    return term(lang, f"ghost_stories.ghost.{name}", name)


def _name(view: dict[str, Any], seat: int | None, lang: Lang = SOURCE) -> str:
    names = view.get("names") or []
    if seat is None:
        return t(lang, "a neutral board")
    if 0 <= seat < len(names) and str(names[seat]).strip():
        return str(names[seat]).strip()
    return t(lang, "seat {n}", n=seat + 1)


def _who(view: dict[str, Any], seat: int | None, lang: Lang = SOURCE) -> str:
    """A player as the image calls them: display name first, their colour as a secondary cue."""
    colour = next((b["colour"] for b in view["boards"] if b["seat"] == seat and seat is not None), None)
    name = _name(view, seat, lang)
    return t(lang, "{name} ({colour})", name=name, colour=_colour(lang, colour)) if colour else name


def _team(view: dict[str, Any], lang: Lang = SOURCE) -> str:
    names = [_name(view, b["seat"], lang) for b in view["boards"] if b["seat"] is not None]
    if len(names) <= 1:
        return names[0] if names else t(lang, "the team")
    return t(lang, "{names} and {last}", names=t(lang, ", ").join(names[:-1]), last=names[-1])


def _pending_what(view: dict[str, Any], p: dict[str, Any], lang: Lang) -> str:
    """What the awaited Taoist (or the team) must decide, in `lang`."""
    kind = p.get("kind")
    a_ghost = t(lang, "a ghost")
    if kind == "place":
        card = p.get("card_name")
        what = t(lang, "place {ghost}", ghost=_ghost(lang, card) if card else a_ghost)
    elif kind == "victim":
        ghost = _ghost(lang, p["who"]) if p.get("who") else a_ghost
        what = (
            t(lang, "choose who discards a Tao token for {ghost}", ghost=ghost)
            if p.get("what") == "discard"
            else t(lang, "choose who rolls the curse die for {ghost}", ghost=ghost)
        )
    else:
        what = tr(lang, PENDING_WHAT.get(str(kind))) or t(lang, "decide")
    roll = view.get("last_roll")
    if kind in ("exorcism", "herbs") and roll and roll.get("kind") == "tao":
        faces = t(lang, ", ").join(_colour(lang, f) for f in roll["faces"]) or t(lang, "no dice")
        what += t(lang, " (rolled {faces})", faces=faces)
    return what


def status_text(view: dict[str, Any], lang: Lang = SOURCE) -> str:
    """The board's one-sentence status, from the view, with the players' names."""
    if view["result"] == "win":
        return t(
            lang, "Victory! {team} won together — score\u00a0{score}.", team=_team(view, lang), score=view["score"]
        )
    if view["result"] is not None:
        reason = tr(lang, view.get("reason") or "").strip().rstrip(".").rstrip("。")
        if reason and lang == SOURCE:
            reason = reason[:1].lower() + reason[1:]
        team = _team(view, lang)
        if reason:
            return t(
                lang,
                "Defeat: {reason}. {team} lost together — score\u00a0{score}.",
                reason=reason,
                team=team,
                score=view["score"],
            )
        return t(lang, "Defeat. {team} lost together — score\u00a0{score}.", team=team, score=view["score"])
    p = view.get("pending")
    if p is not None:
        if "seats" in p:
            who = t(lang, "The team (any living Taoist may answer)")
        else:
            who = _who(view, p.get("seat"), lang)
        return t(lang, "{who} must {what}.", who=who, what=_pending_what(view, p, lang))
    return t(
        lang,
        "{who} to act: move, then exorcise, ask a villager or place a Buddha.",
        who=_who(view, view.get("turn_seat"), lang),
    )


def _notes(view: dict[str, Any], lang: Lang = SOURCE) -> list[str]:
    notes = []
    if view["tao_locked"]:
        notes.append(t(lang, "TAO TOKENS LOCKED"))
    if view["captured_dice"]:
        n = view["captured_dice"]
        notes.append(nt(lang, "{n} die captured", "{n} dice captured", n))
    if not view["whites_wild"]:
        notes.append(t(lang, "white faces blank"))
    if view["mantra"] == "gone":
        notes.append(t(lang, "Mantra lost"))
    return notes


# -- pieces ---------------------------------------------------------------------------------------


def _ink_for(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return (20, 20, 20) if sum(rgb) > 420 else (245, 245, 245)


def _token(
    d: ImageDraw.ImageDraw, cx: float, cy: float, r: int, colour: str, label: str | None = None, size: int = MIN_FONT
) -> None:
    rgb = COL.get(colour, COL["grey"])
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=rgb, outline=INK if colour == "black" else (20, 20, 20), width=2)
    _text(d, (cx, cy), label if label is not None else LETTER.get(colour, "?"), size, _ink_for(rgb), True, "mm")


def _ghost_icon(d: ImageDraw.ImageDraw, cx: float, cy: float, colour: str) -> None:
    """A little ghost (round head, wavy hem) in the ghost's colour, with its colour letter."""
    rgb = COL.get(colour, COL["grey"])
    edge = INK if colour == "black" else (20, 20, 20)
    r = 17
    d.pieslice((cx - r, cy - r - 4, cx + r, cy + r - 4), 180, 360, fill=rgb, outline=edge, width=2)
    d.rectangle((cx - r, cy - 4, cx + r, cy + 14), fill=rgb)
    d.line((cx - r, cy - 4, cx - r, cy + 16), fill=edge, width=2)
    d.line((cx + r, cy - 4, cx + r, cy + 16), fill=edge, width=2)
    for k in range(3):  # the hem: three scallops
        x = cx - r + k * (2 * r / 3)
        d.pieslice((x, cy + 8, x + 2 * r / 3, cy + 22), 0, 180, fill=rgb, outline=edge, width=2)
    _text(d, (cx, cy - 1), LETTER.get(colour, "?"), MIN_FONT, _ink_for(rgb), True, "mm")


def _buddha(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A seated Buddha: a golden head with its top-knot on a wide body."""
    gold, edge = COL["yellow"], (20, 20, 20)
    d.ellipse((cx - 22, cy - 2, cx + 22, cy + 22), fill=gold, outline=edge, width=2)  # body and legs
    d.ellipse((cx - 11, cy - 22, cx + 11, cy), fill=gold, outline=edge, width=2)  # head
    d.ellipse((cx - 4, cy - 28, cx + 4, cy - 20), fill=gold, outline=edge, width=2)  # top-knot


def _draw_die(d: ImageDraw.ImageDraw, x: float, y: float, face: str, size: int = 34) -> None:
    colour = face if face in COL else "grey"
    rgb = COL[colour]
    d.rounded_rectangle((x, y, x + size, y + size), 6, fill=rgb, outline=INK, width=2)
    label = LETTER.get(face, {"blank": "-", "haunt": "H", "ghost": "+G", "tao": "-T", "qi": "-Q"}.get(face, "?"))
    _text(d, (x + size / 2, y + size / 2), label, MIN_FONT, _ink_for(rgb), True, "mm")


# -- the ghost spaces -----------------------------------------------------------------------------


def _space_rect(space: str) -> tuple[int, int, int, int]:
    colour, i = space[:-1], int(space[-1]) - 1
    side = SIDE_OF[colour]
    if side == "S":
        x = VX + i * T
        return (x + 4, VY + 3 * T + G, x + T - 4, VY + 3 * T + G + D)
    if side == "N":
        x = VX + (2 - i) * T
        return (x + 4, VY - G - D, x + T - 4, VY - G)
    if side == "W":
        y = VY + i * T
        return (VX - G - D, y + 4, VX - G, y + T - 4)
    y = VY + (2 - i) * T
    return (VX + 3 * T + G, y + 4, VX + 3 * T + G + D, y + T - 4)


def _space_label(space: str, lang: Lang) -> str:
    """An empty space's name: its notation (GREEN3, as typed) in English, the menus' words elsewhere
    (綠 3: the notation is English, and a reader of another language picks moves by their words)."""
    return space.upper() if lang.startswith("en") else tr(lang, space_words(space))


def _effect_lines(g: dict[str, Any], width: float, lang: Lang = SOURCE) -> list[str]:
    """The ghost's effects still to come, as short words: in its board's Yin phases, while it is in
    play (an arrival effect that lasts, such as locked tokens, counts), when exorcised. One-off
    arrival effects have already happened once a ghost is on the board."""
    groups = []
    sep = t(lang, ", ")

    def icons(codes: list[str]) -> str:
        return sep.join(tr(lang, ICON.get(c, c.lower())) for c in codes)

    if g["yin"]:
        groups.append(t(lang, "yin: {effects}", effects=icons(g["yin"])))
    lasting = [*(c for c in g["arrival"] if c in LASTING_ARRIVAL), *g["states"]]
    if g["captured"]:  # the captured die is drawn ("D")
        lasting = [c for c in lasting if c != "CAPTURE_DIE"]
    if lasting:
        groups.append(icons(lasting))
    if g["exit"]:
        groups.append(t(lang, "out: {effects}", effects=icons(g["exit"])))
    lines: list[str] = []
    for group in groups:  # short groups share a line ("-die · out: +1T")
        if lines and text_width(f"{lines[-1]} · {group}", MIN_FONT) <= width:
            lines[-1] = f"{lines[-1]} · {group}"
        else:
            lines.extend(wrap(group, MIN_FONT, width))
    return lines


def _draw_space(d: ImageDraw.ImageDraw, sp: dict[str, Any], lang: Lang = SOURCE) -> None:
    rect = _space_rect(sp["space"])
    x0, y0, x1, y1 = rect
    cx = (x0 + x1) / 2
    g = sp["ghost"]
    if g is None:
        d.rounded_rectangle(rect, 10, outline=MUTED, width=2)
        if sp["buddha"]:
            _text(d, (cx, y0 + 12), _space_label(sp["space"], lang), MIN_FONT, MUTED, anchor="ma")
            _buddha(d, cx, (y0 + y1) / 2 + 6)
            _text(d, (cx, y1 - 34), t(lang, "Buddha"), MIN_FONT, HIGHLIGHT, True, "ma")
        else:
            _text(d, (cx, (y0 + y1) / 2), _space_label(sp["space"], lang), MIN_FONT, MUTED, anchor="mm")
        return
    rgb = COL[g["colour"]]
    bg = tuple(int(c * 0.45 + 30 * 0.55) for c in rgb)
    outline = DANGER if g["incarnation"] else rgb
    d.rounded_rectangle(rect, 10, fill=bg, outline=outline, width=5 if g["incarnation"] else 3)
    _ghost_icon(d, x0 + 24, y0 + 24, g["colour"])
    # top right: the haunting figure, the Mantra, a captured die
    right = x1 - 6
    if g["haunt"] is not None:
        # the figure says in how many of its board's Yin phases it haunts: H1 = at the next one
        # (whether it still stands on the card or already on the board, the count says it all)
        soon = int(g.get("haunts_in") or 1)
        fx, fy = right - 23, y0 + 24
        urgent = soon <= 1
        d.rounded_rectangle(
            (fx - 23, fy - 16, fx + 23, fy + 16),
            16,
            fill=DANGER if urgent else (250, 250, 250),
            outline=DANGER,
            width=3,
        )
        _text(d, (fx, fy), f"H{soon}", MIN_FONT, (250, 250, 250) if urgent else DANGER, True, "mm")
        right -= 50
    if sp["mantra"]:
        _token(d, right - 15, y0 + 24, 15, "grey", "M")
        right -= 34
    if g["captured"]:
        d.rectangle((right - 30, y0 + 9, right, y0 + 39), fill=(240, 240, 240), outline=(0, 0, 0))
        _text(d, (right - 15, y0 + 24), "D", MIN_FONT, (0, 0, 0), True, "mm")
        right -= 34
    # what it needs: "3K", or several colours on up to two lines
    res = g["resistance"]
    need = " ".join(f"{n}{LETTER[c]}" for c, n in res.items() if n) or "-"
    rx = x0 + 48
    big = 26 if len(res) == 1 else MIN_FONT
    inner = x1 - x0 - 14
    if max(text_width(word, big, True) for word in need.split()) <= right - rx:
        need_lines = _clip(wrap(need, big, right - rx, True), 2, big, right - rx, True)
        y = _lines(d, rx, y0 + 8, need_lines, big, INK, True, 26)
        y = max(y + 4, y0 + 46.0)
    else:  # the top row is full (figure, Mantra, die): the need gets a line of its own
        y = _lines(d, x0 + 7, y0 + 44, wrap(need, big, inner, True), big, INK, True, 27) + 2
    bottom = y1 - 32  # the space's name and the haunting figure below this
    lines: list[tuple[str, tuple[int, int, int], bool]] = []
    if g["incarnation"]:
        lines.append((t(lang, "WU-FENG"), DANGER, True))
    name = wrap(_ghost(lang, g["name"]), MIN_FONT, inner)
    effects = _effect_lines(g, inner, lang)
    room = int((bottom - y) // 25)
    name = _clip(name, max(1, min(2, room - len(lines) - len(effects))), MIN_FONT, inner)
    lines += [(line, INK, False) for line in name]
    left = room - len(lines)
    lines += [(line, EFFECT_INK, False) for line in _clip(effects, left, MIN_FONT, inner)]
    for text, fill, bold in lines[:room]:
        _text(d, (x0 + 7, y), text, MIN_FONT, fill, bold)
        y += 25
    # the space's name, as the menus and commands call it (e.g. "exorcise red2")
    _text(d, (x0 + 7, y1 - 6), _space_label(sp["space"], lang), MIN_FONT, LABEL_INK, anchor="ld")


# -- the village ----------------------------------------------------------------------------------


def _draw_tile(
    d: ImageDraw.ImageDraw, tile: dict[str, Any], idx: int, view: dict[str, Any], lang: Lang = SOURCE
) -> None:
    r, c = divmod(idx, 3)
    x0, y0 = VX + c * T, VY + r * T
    rect = (x0 + 3, y0 + 3, x0 + T - 3, y0 + T - 3)
    if tile["haunted"]:
        d.rectangle(rect, fill=HAUNTED_BG, outline=DANGER, width=3)
        for k in range(-T, T, 22):
            d.line(
                (x0 + 3 + max(0, k), y0 + 3 + max(0, -k), x0 + T - 3 - max(0, -k), y0 + T - 3 - max(0, k)),
                fill=(95, 36, 44),
                width=3,
            )
    else:
        d.rectangle(rect, fill=PANEL, outline=(90, 80, 110), width=2)
    _text(d, (x0 + 10, y0 + 7), tile["tile"].upper(), MIN_FONT, ACCENT, True)
    if tile["key"] == "circle" and view["circle"]:
        _token(d, x0 + T - 24, y0 + 22, 16, view["circle"])
    extra = []
    if tile["haunted"]:
        extra.append((t(lang, "HAUNTED"), DANGER))
    if tile["key"] == "temple":
        extra.append((t(lang, "Buddhas: {n}", n=view["temple_buddhas"]), HIGHLIGHT))
    if idx == 4 and view["centre_power_tokens"]:
        extra.append((t(lang, "Power tok.: {n}", n=view["centre_power_tokens"]), HIGHLIGHT))
    width = T - 10
    room = min(3, 4 - len(extra))
    bold = True
    tile_name = term(lang, f"ghost_stories.tile.{tile['key']}", tile["name"])
    name = wrap(tile_name, MIN_FONT, width, bold)
    if len(name) > room:  # a long name reads better whole in the regular weight
        bold = False
        name = wrap(tile_name, MIN_FONT, width, bold)
    name = _clip(name, room, MIN_FONT, width, bold)
    name_ink = INK if not tile["haunted"] else (230, 170, 170)
    y = _lines(d, x0 + T / 2, y0 + 32, name, MIN_FONT, name_ink, bold, 23, centre=True)
    for text, fill in extra:
        _text(d, (x0 + T / 2, y), text, MIN_FONT, fill, True, "ma")
        y += 23
    dead = {b["colour"] for b in view["boards"] if b["seat"] is not None and not b["alive"]}
    tao = tile["taoists"]
    for j, colour in enumerate(tao):
        cx = x0 + T / 2 + (j - (len(tao) - 1) / 2) * 38
        cy = y0 + T - 26
        _token(d, cx, cy, 17, colour)
        if colour in dead:
            d.line((cx - 15, cy - 15, cx + 15, cy + 15), fill=DANGER, width=4)
            d.line((cx - 15, cy + 15, cx + 15, cy - 15), fill=DANGER, width=4)
        if colour == view["turn"] and view["result"] is None:
            d.ellipse((cx - 22, cy - 22, cx + 22, cy + 22), outline=HIGHLIGHT, width=3)


# -- the Taoists' column --------------------------------------------------------------------------


def _draw_board_panel(
    d: ImageDraw.ImageDraw, b: dict[str, Any], x0: int, y0: int, view: dict[str, Any], lang: Lang = SOURCE
) -> None:
    w, h = RW, PANEL_H
    rgb = COL[b["colour"]]
    over = view["result"] is not None
    awaited = not over and b["seat"] is not None and b["seat"] in (view.get("to_act") or [])
    d.rounded_rectangle(
        (x0, y0, x0 + w, y0 + h), 12, fill=PANEL, outline=HIGHLIGHT if awaited else rgb, width=5 if awaited else 3
    )
    _token(d, x0 + 26, y0 + 26, 17, b["colour"])
    if b["neutral"]:
        who = t(lang, "Neutral ({colour})", colour=_colour(lang, b["colour"]))
    else:
        who = _name(view, b["seat"], lang)
        if view.get("seat") is not None and b["seat"] == view["seat"]:
            who += t(lang, " (you)")
    size = 24 if text_width(who, 24, True) <= w - 60 else MIN_FONT
    _text(d, (x0 + 52, y0 + 26), _ellipsis(who, size, w - 60, True), size, INK, True, "lm")
    # Qi, and what the Taoist is now
    y: float = y0 + 46
    qi_ink = QI_GREEN if b["qi"] > 1 else DANGER
    qi = t(lang, "Qi {n}", n=b["qi"])
    _text(d, (x0 + 12, y), qi, 24, qi_ink, True)
    tags = []
    if awaited:
        tags.append((t(lang, "TO ACT"), HIGHLIGHT))
    if b["haunted"]:
        tags.append((t(lang, "HAUNTED"), DANGER))
    elif not b["alive"] and not b["neutral"]:
        tags.append((t(lang, "DEAD"), DANGER))
    tag = " · ".join(label for label, _ in tags)
    tag_w = text_width(tag, MIN_FONT, True) if tag else 0
    if tag:
        _text(d, (x0 + w - 12, y + 2), tag, MIN_FONT, tags[0][1], True, "ra")
    px = x0 + 24 + text_width(qi, 24, True)
    for _ in range(min(b["qi"], 8)):
        if px + 14 > x0 + w - 20 - tag_w:
            break
        d.ellipse((px, y + 8, px + 14, y + 22), fill=QI_GREEN)
        px += 19
    y += 34
    if not b["neutral"]:
        tx = x0 + 26
        for colour, n in b["tao"].items():
            _token(d, tx, y + 15, 15, colour)
            _text(d, (tx + 20, y + 15), f"{n}", MIN_FONT, INK if n else MUTED, True, "lm")
            tx += 62
        y += 35
        items = [t(lang, "Yin-Yang") if b["yinyang"] else t(lang, "no Yin-Yang")]
        if b["buddhas"]:
            items.append(nt(lang, "{n} Buddha", "{n} Buddhas", b["buddhas"]))
        if b["power_tokens"]:
            items.append(nt(lang, "{n} power tok.", "{n} power tok.", b["power_tokens"]))
        y = _lines(d, x0 + 12, y, wrap(" · ".join(items), MIN_FONT, w - 24), MIN_FONT, INK, pitch=27)
    p = b["power"]
    power = term(lang, f"ghost_stories.power.{p['key']}", p["name"])
    text = power if p["active"] else t(lang, "sealed: {power}", power=power)
    room = int((y0 + h - 4 - y) // 27)
    lines = _clip(wrap(text, MIN_FONT, w - 24, p["active"]), room, MIN_FONT, w - 24, p["active"])
    _lines(d, x0 + 12, y, lines, MIN_FONT, ACCENT if p["active"] else MUTED, p["active"], 27)


# -- the whole board ------------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _frame_layer(lang: Lang = SOURCE) -> Image.Image:
    """What every Ghost Stories board shares: the title, the corners' headings and the four boards'
    colour bars along the village. None of them overlaps anything a view draws, so drawing them
    first gives the same picture. Drawn once per process and language; `render` draws on a copy,
    never on this."""
    img = new_canvas(W, H, BACKGROUND)
    d = draw_on(img)
    if lang == SOURCE:
        _text(d, (CX0 + 4, CY0 + 4), "GHOST", 28, ACCENT, True)
        _text(d, (CX0 + 4, CY0 + 36), "STORIES", 28, ACCENT, True)
    else:  # the published edition's title (聊齋) in the space of the two English words
        _text(d, (CX0 + 4, CY0 + 8), term(lang, "game.ghost_stories"), 52, ACCENT, True)
    _text(d, (CX0 + 4, VY + 3 * T + G + 4), t(lang, "Last roll"), MIN_FONT, INK, True)
    _text(d, (VX + 3 * T + G + 4, VY + 3 * T + G + 4), t(lang, "Supply"), MIN_FONT, INK, True)
    for colour, side in SIDE_OF.items():
        rgb = COL[colour]
        if side == "S":
            d.rectangle((VX + 4, VY + 3 * T + 1, VX + 3 * T - 4, VY + 3 * T + G - 1), fill=rgb)
        elif side == "N":
            d.rectangle((VX + 4, VY - G + 1, VX + 3 * T - 4, VY - 1), fill=rgb)
        elif side == "W":
            d.rectangle((VX - G + 1, VY + 4, VX - 1, VY + 3 * T - 4), fill=rgb)
        else:
            d.rectangle((VX + 3 * T + 1, VY + 4, VX + 3 * T + G - 1, VY + 3 * T - 4), fill=rgb)
    return img


def _draw_corners(d: ImageDraw.ImageDraw, view: dict[str, Any], lang: Lang = SOURCE) -> None:
    corner = D + G - 8  # usable width of a corner
    # top left: the difficulty (under the title of the frame layer)
    difficulty = _cap(term(lang, f"ghost_stories.diff.{view['difficulty']}", view["difficulty"]))
    _text(d, (CX0 + 4, CY0 + 72), difficulty, MIN_FONT, INK, True)
    _text(d, (CX0 + 4, CY0 + 100), t(lang, "Round {n}", n=view["round"]), MIN_FONT, INK)
    # top right: the counters
    x = VX + 3 * T + G + 4
    inc = view["incarnations"]
    rows = [
        (t(lang, "Deck {n}", n=view["deck"]), INK, False),
        (
            t(lang, "Haunted {n}/{limit}", n=view["haunted"], limit=view["haunt_limit"]),
            DANGER if view["haunted"] else INK,
            bool(view["haunted"]),
        ),
        (t(lang, "Wu-Feng {n}/{total}", n=inc["banished"], total=inc["total"]), INK, False),
    ]
    y = CY0 + 6
    for text, fill, bold in rows:
        for line in wrap(text, MIN_FONT, corner, bold):
            _text(d, (x, y), line, MIN_FONT, fill, bold)
            y += 28
    # bottom left: the last roll
    y0 = VY + 3 * T + G + 34
    roll = view["last_roll"]
    if roll:
        why = _roll_why(lang, str(roll.get("why") or roll.get("kind") or ""))
        if why:
            _text(d, (CX0 + 4, y0), _ellipsis(why, MIN_FONT, corner), MIN_FONT, MUTED)
        faces = roll["faces"][:4]
        for j, face in enumerate(faces):
            _draw_die(d, CX0 + 4 + j * 38, y0 + 34, face)
        if not faces:
            _text(d, (CX0 + 4, y0 + 38), t(lang, "no dice"), MIN_FONT, MUTED)
    else:
        _text(d, (CX0 + 4, y0), t(lang, "none yet"), MIN_FONT, MUTED)
    # bottom right: the supply
    sx = VX + 3 * T + G + 4
    cells: list[tuple[str | None, str]] = [(c, str(n)) for c, n in view["supply"].items()]
    cells.append((None, t(lang, "Qi {n}", n=view["qi_supply"])))
    for j, (colour, text) in enumerate(cells):
        cx, cy = sx + (j % 2) * 78, y0 + 14 + (j // 2) * 36
        if colour is None:
            _text(d, (cx, cy), text, MIN_FONT, INK, True, "lm")
        else:
            _token(d, cx + 15, cy, 15, colour)
            _text(d, (cx + 35, cy), text, MIN_FONT, INK, True, "lm")


def _roll_why(lang: Lang, why: str) -> str:
    """What the last roll was for: a ghost's curse (its name), an exorcism, the Herbalist's Shop."""
    if why == "exorcism":
        return t(lang, "exorcism")
    if why == "Herbalist's Shop":
        return term(lang, "ghost_stories.tile.herbalist", why)
    if why in ("tao", "curse"):
        return t(lang, "Tao dice") if why == "tao" else t(lang, "curse die")
    return _ghost(lang, why)


def render(view: dict[str, Any], lang: Lang = SOURCE) -> Image.Image:
    """The public board (seat=None) or a seat's board (same picture, 'you' marked), its words in
    `lang` (the table's language for the board, the reader's for a panel)."""
    img = _frame_layer(lang).copy()
    d = draw_on(img)
    # the status and the warnings, across the top, wrapped in pixels
    over = view["result"] is not None
    status_ink = DANGER if view["result"] == "lose" else HIGHLIGHT
    width = W - 2 * M - 8
    notes = wrap("  ·  ".join(_notes(view, lang)), MIN_FONT, width, True)
    status = wrap(status_text(view, lang), 24, width, True)
    status = _clip(status, 3 - min(len(notes), 1), 24, width, True)
    y = _lines(d, M + 4, 8, status, 24, status_ink, True, 30)
    _lines(d, M + 4, y, _clip(notes, (HEAD_H - 4 - int(y)) // 28, MIN_FONT, width, True), MIN_FONT, DANGER, True, 28)
    _draw_corners(d, view, lang)
    for idx, tile in enumerate(view["tiles"]):
        _draw_tile(d, tile, idx, view, lang)
    for sp in view["spaces"]:
        _draw_space(d, sp, lang)
    pending = view.get("pending") or {}
    if pending.get("kind") == "place" and not over:
        for name in pending.get("spaces", []):
            d.rounded_rectangle(_space_rect(name), 10, outline=HIGHLIGHT, width=4)
    for i, b in enumerate(view["boards"]):
        _draw_board_panel(d, b, RX, CY0 + i * (PANEL_H + PANEL_GAP), view, lang)
    return img
