"""The bot Taoists (bot.py) and the pace of the ghosts they face (docs/rules/ghost_stories.md, "Bot")."""

from __future__ import annotations

from typing import Any

from bot.rules import Rng
from bot.rules.ghost_stories import GAME, core
from bot.rules.ghost_stories.bot import TaoistPolicy, draws_to_wufeng
from bot.rules.ghost_stories.data import space_name
from tests.rules.test_ghost_stories_helpers import act, blank, gid, put, tile

State = dict[str, Any]


def bot_turn(s: State) -> list[str]:
    """Let the bot play the active Taoist's Yang phase (and its choices) until the turn passes."""
    policy, rng = TaoistPolicy(), Rng.from_seed(1)
    me = s["turn"]
    done: list[str] = []
    for _ in range(20):
        if GAME.outcome(s) is not None or (s["turn"] != me and s["pending"] is None):
            break
        seat = min(GAME.to_act(s))
        a = policy.choose(GAME.view(s, seat), GAME.legal_actions(s, seat), {}, rng)
        done.append(GAME.format_action(a).lower())
        s, _ = GAME.apply(s, seat, a)
    return done


def test_pace_one_ghost_per_living_taoist_and_none_for_neutral_boards() -> None:
    # 「(3)中立遊戲圖板：只進行陰(黑夜)階段的前二步驟」 — a neutral board plays ghost actions and
    # overrun only; 「玩家須從鬼牌堆抽取1張」 — each living Taoist's Yin phase draws one ghost.
    s = blank(players=2, diff="initiation")
    deck = len(s["deck"])
    # Red ends; Yellow (neutral) and Green Yin; Green ends; Blue (neutral) and Red Yin.
    s, _ = act(s, "end")
    for _ in range(10):
        if s["turn"] == 0 and s["pending"] is None:
            break
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0] if s["pending"] else GAME.parse_action("end"))
    assert s["turn"] == 0 and s["phase"] == "yang" and s["round"] == 2
    assert len(s["deck"]) == deck - 2


def test_bot_sends_the_sorcerer_against_a_hard_tormentor() -> None:
    s = blank(players=2, diff="initiation")
    k = put(s, "blue2", "Fury of Depth")  # blue 4, curse die every Yin phase of its board
    s["boards"][0]["pos"] = tile(s, "sorcerer")
    moves = bot_turn(s)
    assert f"help {space_name(k)}" in moves


def test_bot_blows_uncatchable_onto_a_buddha() -> None:
    s = blank(players=2, diff="initiation")
    k = put(s, "yellow2", "Uncatchable")
    s["buddha_on"][core.free_spaces(s, 3)[0]] = True  # a Buddha waits on an empty Blue space
    s["temple"] = 1
    s["boards"][0]["pos"] = tile(s, "pavilion")
    moves = bot_turn(s)
    assert f"help {space_name(k)}" in moves
    assert any(m.startswith("blow blue") for m in moves)


def test_draws_to_wufeng_reads_the_deck_count_only() -> None:
    s = GAME.new(2, 3, {"difficulty": "initiation"})
    view = GAME.view(s, 0)
    assert draws_to_wufeng(view) == len(s["deck"]) - 10  # the incarnation is the 11th card from the bottom
    s2 = blank(players=2, diff="initiation")
    put(s2, "red1", "Hope Killer")
    assert draws_to_wufeng(GAME.view(s2, 0)) is None
    assert gid("Hope Killer") in [g["id"] for g in s2["spaces"] if g]
