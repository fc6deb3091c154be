"""Golden images of the Ghost Stories board (regenerate with UPDATE_GOLDEN=1), and its legibility
at Discord's ~550 px preview: landscape, every text at least 10 px tall there, nothing off the image."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageDraw

from bot.rules import RandomPolicy, Rng
from bot.rules.ghost_stories import GAME
from bot.rules.ghost_stories.core import DIFFICULTIES
from bot.rules.ghost_stories.data import space_index
from rendering import ghost_stories
from rendering.base import encode_png
from rendering.ghost_stories import render
from tests.rendering.golden import assert_golden
from tests.rules.test_ghost_stories_helpers import blank, put, tile

GOLDEN = Path(__file__).parent / "golden" / "ghost_stories"


def busy_state() -> dict[str, Any]:
    """A constructed mid-game position showing every kind of marker the renderer draws."""
    s = blank(players=3, diff="nightmare", power_sides="first")
    put(s, "red1", "Ghoul", haunt=1)
    put(s, "red3", "Sharp-Nailed Mistresses")
    put(s, "yellow2", "Severed Heads")
    put(s, "yellow3", "Restless Dead", haunt=2)
    put(s, "green1", "Hope Killer")
    put(s, "green3", "Lich")
    put(s, "blue1", "Dark Wraith", haunt=0)
    put(s, "blue2", "Liquid Horror")
    s["mantra"] = space_index("green3")
    s["buddha_on"][space_index("blue3")] = True
    s["temple"] = 1
    s["tiles"][0]["haunted"] = True
    s["tiles"][5]["haunted"] = True
    s["circle"] = "blue"
    s["supply"]["blue"] -= 1
    s["boards"][2]["alive"] = False
    s["boards"][2]["yy"] = False
    s["boards"][2]["tokens"] = 0
    s["centre_tokens"] = 1
    s["supply"]["green"] += s["boards"][2]["tao"]["green"]
    s["boards"][2]["tao"]["green"] = 0
    s["qi_supply"] += s["boards"][2]["qi"]
    s["boards"][2]["qi"] = 0
    s["boards"][2]["pos"] = tile(s, "cemetery")
    s["boards"][0]["pos"] = 2
    s["boards"][1]["pos"] = 2
    s["boards"][3]["qi"] = 1
    s["qi_supply"] += 2
    s["last_roll"] = {"kind": "tao", "faces": ["red", "white", "black"], "by": "red", "why": "exorcism"}
    s["banished_incarnations"] = 1
    return s


def check(name: str, view: dict[str, Any]) -> None:
    img = render(view)
    assert 900 <= img.width <= 1400
    assert img.height <= 1.15 * img.width and img.width <= 1.6 * img.height  # landscape, at most 16:10
    assert len(encode_png(img)) < 1024 * 1024
    assert_golden(img, GOLDEN / f"{name}.png")


def test_golden_start_of_game_public() -> None:
    check("start_public", GAME.view(GAME.new(4, 1, {"difficulty": "initiation", "power_sides": "random"}), None))


def test_golden_busy_board_seat_view() -> None:
    check("busy_seat1", GAME.view(busy_state(), 0))


def test_golden_defeat() -> None:
    s = busy_state()
    s["result"], s["reason"], s["phase"] = "lose", "3 village tiles are haunted.", "over"
    s["tiles"][8]["haunted"] = True
    check("defeat_public", GAME.view(s, None))


def test_golden_victory_with_names() -> None:
    s = busy_state()
    s["result"], s["reason"], s["phase"] = "win", "Wu-Feng's incarnations are exorcised.", "over"
    view = GAME.view(s, None)
    view["names"] = ["alice", "bob", "carol"]
    check("victory_names", view)


# -- legibility at the ~550 px preview --------------------------------------------------------------

NAMES = ["alice", "Bartholomew the Unready of Ravenholm", "小明", "🎃 Pumpkin Queen"]


def seeded_views() -> Iterator[dict[str, Any]]:
    """Views of seeded random-legal games: 1–4 players × the four difficulty levels, with long,
    CJK and emoji names, several moments of each game (its start, mid-game, its end if reached)."""
    rand = RandomPolicy()
    for players in (1, 2, 3, 4):
        for k, diff in enumerate(DIFFICULTIES):
            seed = 10 * players + k
            state = GAME.new(players, seed, {"difficulty": diff, "power_sides": "random"})
            rng = Rng.from_seed(seed)
            for step in range(160):
                over = GAME.outcome(state) is not None
                if step % 40 == 0 or over:
                    for seat in (None, 0):
                        view = GAME.view(state, seat)
                        view["names"] = NAMES[:players]
                        yield view
                if over:
                    break
                seat = min(GAME.to_act(state))
                state, _ = GAME.apply(state, seat, rand.choose({}, GAME.legal_actions(state, seat), {}, rng))


def inside(box: tuple[float, float, float, float], region: tuple[float, float, float, float]) -> bool:
    return region[0] <= box[0] and box[2] <= region[2] and region[1] <= box[1] and box[3] <= region[3]


def regions() -> list[tuple[float, float, float, float]]:
    """Where text may be: the status band, the cross's four corners, each ghost space, village tile
    and Taoist panel (a text inside none of them runs out of its box)."""
    gs = ghost_stories
    vx1, vy1, end_x, end_y = gs.VX + 3 * gs.T, gs.VY + 3 * gs.T, gs.CX0 + gs.CROSS, gs.CY0 + gs.CROSS
    out: list[tuple[float, float, float, float]] = [
        (0, 0, gs.W, gs.HEAD_H),
        (gs.CX0, gs.CY0, gs.VX, gs.VY),
        (vx1, gs.CY0, end_x, gs.VY),
        (gs.CX0, vy1, gs.VX, end_y),
        (vx1, vy1, end_x, end_y),
    ]
    out += [gs._space_rect(f"{c}{i}") for c in gs.SIDE_OF for i in (1, 2, 3)]
    out += [
        (gs.VX + c * gs.T, gs.VY + r * gs.T, gs.VX + (c + 1) * gs.T, gs.VY + (r + 1) * gs.T)
        for r in range(3)
        for c in range(3)
    ]
    out += [
        (gs.RX, y, gs.RX + gs.RW, y + gs.PANEL_H) for y in (gs.CY0 + i * (gs.PANEL_H + gs.PANEL_GAP) for i in range(4))
    ]
    return out


@pytest.mark.parametrize("lang", ["en-US", "zh-TW"])
def test_every_text_is_at_least_10_px_at_550_px_and_nothing_runs_off(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """The font sizes the renderer asks for, over 1–4 players and every difficulty, and where each
    text lands: inside the image, inside its box, on no other text. In zh-TW (issue #16) every
    fourth of the same views, to keep the run short."""
    sizes: list[int] = []
    boxes: list[tuple[str, tuple[float, float, float, float]]] = []
    real_font, real_text = ghost_stories.font, ghost_stories._text

    def recording_font(size: int, bold: bool = False) -> Any:
        sizes.append(size)
        return real_font(size, bold)

    def recording_text(
        d: ImageDraw.ImageDraw,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: tuple[int, int, int] = ghost_stories.INK,
        bold: bool = False,
        anchor: str | None = None,
    ) -> None:
        boxes.append((text, d.textbbox(xy, text, font=real_font(size, bold), anchor=anchor)))
        real_text(d, xy, text, size, fill, bold, anchor)

    monkeypatch.setattr(ghost_stories, "font", recording_font)
    monkeypatch.setattr(ghost_stories, "_text", recording_text)
    ghost_stories._frame_layer.cache_clear()
    n = 0
    try:
        for k, view in enumerate(seeded_views()):
            if lang != "en-US" and k % 4:
                continue
            img = render(view, lang=lang)
            n += 1
            assert img.height <= 1.15 * img.width and img.width <= 1.6 * img.height
            for text, box in boxes:
                assert inside(box, (0, 0, img.width, img.height)), (text, box)
                assert any(inside(box, region) for region in regions()), (text, box)
            for i, (text, a) in enumerate(boxes):  # and no two texts overlap (1 px of anti-aliasing aside)
                for other, b in boxes[i + 1 :]:
                    apart = a[2] - 1 <= b[0] or b[2] - 1 <= a[0] or a[3] - 1 <= b[1] or b[3] - 1 <= a[1]
                    assert apart, (text, a, other, b)
            boxes.clear()
    finally:
        ghost_stories._frame_layer.cache_clear()
    assert n >= (64 if lang == "en-US" else 16)
    # 10 px at 550 px wide is a font of 10 × 1200 / 550 = 21.8 px on the 1200 px board
    assert min(sizes) >= math.ceil(10 * ghost_stories.W / 550) == ghost_stories.MIN_FONT


def test_footer_warnings_and_longest_status_wrap_inside_the_image() -> None:
    s = busy_state()
    s["mantra"] = "gone"
    view = GAME.view(s, None)
    view["tao_locked"], view["captured_dice"], view["whites_wild"] = True, 2, False
    view["names"] = ["Bartholomew the Unready of Ravenholm"] * 3
    view["pending"] = {"kind": "victim", "seats": [0, 1], "what": "curse", "who": "Sharp-Nailed Mistresses"}
    width = ghost_stories.W - 2 * ghost_stories.M - 8
    status = ghost_stories.wrap(ghost_stories.status_text(view), 24, width, True)
    notes = ghost_stories.wrap("  ·  ".join(ghost_stories._notes(view)), 22, width, True)
    assert all(ghost_stories.text_width(line, 24, True) <= width for line in status)
    assert all(ghost_stories.text_width(line, 22, True) <= width for line in notes)
    assert len(status) + len(notes) <= 3
    assert "TAO TOKENS LOCKED" in notes[0] and "Mantra lost" in notes[-1]
    render(view)


# -- zh-TW (issue #16) --------------------------------------------------------------------------------

ZH_NAMES = ["小明", "阿華 Bartholomew", "卡羅爾", "志明與春嬌"]


@pytest.mark.parametrize("name", ["start_public", "busy_seat1"])
def test_golden_in_traditional_chinese(name: str) -> None:
    """The board's words in zh-TW: the status sentence, counters and tags from the rendering
    catalogue; ghosts, tiles, powers and the difficulty from the game's glossary (the seed's terms)."""
    if name == "start_public":
        view = GAME.view(GAME.new(4, 1, {"difficulty": "initiation", "power_sides": "random"}), None)
    else:
        view = GAME.view(busy_state(), 0)
    view["names"] = ZH_NAMES[: len([b for b in view["boards"] if b["seat"] is not None])]
    img = render(view, lang="zh-TW")
    assert len(encode_png(img)) < 1024 * 1024
    assert_golden(img, GOLDEN / f"{name}.zh-TW.png")


def test_empty_spaces_are_named_in_the_readers_words() -> None:
    """An empty space shows its notation in English (typed as `place green3`) and the menus' words
    in zh-TW (綠 3, as its moves are listed), not the English notation."""
    from rendering.ghost_stories import _space_label

    assert _space_label("green3", "en-US") == "GREEN3"
    assert _space_label("green3", "zh-TW") == "綠 3"
    assert _space_label("blue1", "zh-TW") == "藍 1"
