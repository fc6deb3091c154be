"""Golden images of the Ghost Stories board (regenerate with UPDATE_GOLDEN=1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.rules.ghost_stories import GAME
from bot.rules.ghost_stories.data import space_index
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
